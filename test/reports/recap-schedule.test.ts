import { afterEach, beforeEach, describe, expect, it } from "vitest";
import pino from "pino";
import { createRecapSchedule, type DueRecap, type RecapSchedule } from "../../src/reports/recap-schedule.js";
import type { Liveness } from "../../src/storage/liveness.js";
import type { Storage } from "../../src/storage/storage.js";
import { createStorage } from "../../src/storage/storage.js";
import { redisStorage, REDIS_URL } from "../helpers/redis.js";

const TZ = "Asia/Jakarta";
const RECAP_AT = 21 * 60;
const logger = pino({ level: "silent" });
/** Jakarta wall clock `YYYY-MM-DDTHH:MM` as an instant. */
const at = (wall: string) => new Date(`${wall}:00+07:00`);

describe("the daily recap: once a day among processes and restarts", () => {
  let storage: Storage;
  let other: Storage;
  let prefix: string;
  let cleanup: () => Promise<void>;
  /** The shop's clock, moved by the test. */
  let clock: Date;
  /** Every recap that went out, from whichever process. */
  let sent: Array<DueRecap & { by: string }>;

  beforeEach(async () => {
    ({ storage, prefix, cleanup } = await redisStorage("recap-schedule"));
    // A second process: its own connection to the same Redis, the same keys.
    other = await createStorage({ redisUrl: REDIS_URL, prefix });
    sent = [];
  });
  afterEach(async () => {
    await other.close();
    await cleanup();
  });

  /** A process's schedule: its own name, on its own connection; `send` may be replaced. */
  function processOn(
    store: Storage,
    name: string,
    opts: { send?: (due: DueRecap) => Promise<void>; liveness?: Liveness } = {},
  ): RecapSchedule {
    return createRecapSchedule({
      storage: store,
      owner: name,
      liveness: opts.liveness,
      timeZone: TZ,
      recapAt: RECAP_AT,
      send:
        opts.send ??
        (async (due) => {
          sent.push({ ...due, by: name });
        }),
      logger,
      now: () => clock,
    });
  }

  it("when two processes look before and after 21:00 and one restarts across it, then exactly one recap goes out, on time", async () => {
    clock = at("2026-03-12T10:00");
    const a = processOn(storage, "a");
    const b = processOn(other, "b");
    await Promise.all([a.look(), b.look()]);
    clock = at("2026-03-12T20:59");
    await Promise.all([a.look(), b.look()]);
    expect(sent).toEqual([]);
    // a restarts across the hour: a new schedule, knowing nothing of its own.
    clock = at("2026-03-12T21:00");
    const a2 = processOn(storage, "a2");
    await Promise.all([a2.look(), b.look(), a2.look(), b.look()]);
    clock = at("2026-03-12T21:30");
    await Promise.all([a2.look(), b.look(), processOn(other, "c").look()]);
    expect(sent.map(({ by: _by, ...due }) => due)).toEqual([{ day: "2026-03-12", late: undefined }]);
    // The next day before 21:00: nothing; after it, the next day's.
    clock = at("2026-03-13T12:00");
    await Promise.all([a2.look(), b.look()]);
    clock = at("2026-03-13T21:00");
    await Promise.all([a2.look(), b.look()]);
    expect(sent.map((s) => s.day)).toEqual(["2026-03-12", "2026-03-13"]);
  });

  it("when a process starts after 21:00 and the recap did not go out, then it goes out once, marked late", async () => {
    clock = at("2026-03-12T09:00");
    await processOn(storage, "a").look(); // RECAP_AT seen on this Redis from the morning on
    clock = at("2026-03-12T23:10");
    const [b, c] = [processOn(storage, "b"), processOn(other, "c")];
    await Promise.all([b.look(), c.look()]);
    await Promise.all([b.look(), c.look()]);
    expect(sent.map(({ by: _by, ...due }) => due)).toEqual([{ day: "2026-03-12", late: { dueAt: "21:00" } }]);
  });

  it("when every process was down over 21:00 and one starts the next day, then yesterday's goes out late, and today's at 21:00", async () => {
    clock = at("2026-03-11T20:00");
    await processOn(storage, "a").look();
    clock = at("2026-03-11T21:00");
    await processOn(storage, "a").look(); // the 11th's, on time
    clock = at("2026-03-13T08:00"); // down from the 12th's morning to the 13th's
    const b = processOn(other, "b");
    await b.look();
    await b.look();
    clock = at("2026-03-13T21:01");
    await b.look();
    expect(sent.map(({ by: _by, ...due }) => due)).toEqual([
      { day: "2026-03-11", late: undefined },
      { day: "2026-03-12", late: { dueAt: "21:00" } },
      { day: "2026-03-13", late: undefined },
    ]);
  });

  it("when the recap is new on this Redis, then no recap of days before goes out: a fresh install starts with today's", async () => {
    clock = at("2026-03-12T08:00");
    const a = processOn(storage, "a");
    await a.look();
    expect(sent).toEqual([]);
    clock = at("2026-03-12T21:00");
    await a.look();
    expect(sent.map((s) => s.day)).toEqual(["2026-03-12"]);
  });

  it("when a process dies while sending, then another sends it once that one is seen gone, and never both at once", async () => {
    clock = at("2026-03-12T09:00");
    await processOn(storage, "a").look();
    clock = at("2026-03-12T21:00");
    let release: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => undefined;
    const sending = new Promise<void>((resolve) => (started = resolve));
    // a is killed mid-way: its send never comes back.
    const dying = processOn(storage, "a", {
      send: () => {
        started();
        return hanging;
      },
    }).look();
    await sending;
    let aGone = false;
    const liveness: Liveness = {
      gone: async (o) => o === "a" && aGone,
      tookOver: () => undefined,
      probe: async () => true,
    };
    const b = processOn(other, "b", { liveness });
    await b.look(); // a still alive: b waits
    expect(sent).toEqual([]);
    aGone = true;
    await b.look();
    await b.look();
    expect(sent.map((s) => `${s.day} by ${s.by}`)).toEqual(["2026-03-12 by b"]);
    release();
    await dying;
  });

  it("when sending fails, then it is not recorded as sent, and the next look sends it", async () => {
    clock = at("2026-03-12T09:00");
    let fail = true;
    const a = processOn(storage, "a", {
      send: async (due) => {
        if (fail) throw new Error("Telegram down");
        sent.push({ ...due, by: "a" });
      },
    });
    await a.look();
    clock = at("2026-03-12T21:00");
    await expect(a.look()).rejects.toThrow("Telegram down");
    fail = false;
    await a.look();
    await a.look();
    expect(sent.map((s) => s.day)).toEqual(["2026-03-12"]);
  });
});
