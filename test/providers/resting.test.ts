import { afterAll, describe, expect, it } from "vitest";
import { createResting, MISSES_TO_REST, REST_MS, type Resting } from "../../src/providers/resting.js";
import { createStorage } from "../../src/storage/storage.js";
import { redisStorage } from "../helpers/redis.js";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

/** Two views of one shop (two processes on Redis, or one process in memory) sharing a clock. */
async function world(engine: "redis" | "memory") {
  let t = Date.parse("2026-11-28T10:00:00Z");
  const now = () => new Date(t);
  const advance = (ms: number) => void (t += ms);
  if (engine === "memory") {
    const storage = await createStorage({ redisUrl: undefined, prefix: "t:" });
    const one = createResting(storage, now);
    return { a: one, b: one, advance };
  }
  const first = await redisStorage("resting-a");
  const second = await createStorage({ redisUrl: "redis://127.0.0.1:6379", prefix: first.prefix });
  cleanups.push(first.cleanup, () => second.close());
  return { a: createResting(first.storage, now), b: createResting(second, now), advance };
}

async function miss(r: Resting, provider: string, times: number) {
  const changes = [];
  for (let i = 0; i < times; i++) changes.push(await r.observe(provider, "unknown", true));
  return changes.filter((c) => c !== undefined);
}

describe.each(["redis", "memory"] as const)("resting providers (%s)", (engine) => {
  it("rests after three results in a row that were not known, told once, and a known answer in between resets the count", async () => {
    const { a, b } = await world(engine);
    expect(await miss(a, "main", MISSES_TO_REST - 1)).toEqual([]);
    expect(await a.observe("main", "known", true)).toBeUndefined();
    expect(await miss(b, "main", MISSES_TO_REST - 1)).toEqual([]);
    expect(await a.choose(["main", "backup"], 60_000)).toEqual({ index: 0, clean: false });
    const [change] = await miss(a, "main", 1);
    expect(change).toMatchObject({ kind: "resting", provider: "main", why: "unanswered" });
    // Another process sees it resting and goes to the next provider; a further miss tells nothing new.
    expect(await b.choose(["main", "backup"], 60_000)).toEqual({ index: 1, clean: true });
    expect(await miss(b, "main", 1)).toEqual([]);
    expect(await b.resting(["main", "backup"])).toEqual(new Set(["main"]));
  });

  it("after its rest one order at a time tries it; a known answer brings it back, told once", async () => {
    const { a, b, advance } = await world(engine);
    expect(await a.observe("backup", "empty", true)).toMatchObject({ kind: "resting", why: "empty" });
    expect(await a.choose(["backup"], 60_000)).toBeUndefined();
    advance(REST_MS);
    // The rest is over: it is not shown resting, and exactly one order gets the trial.
    expect(await b.resting(["backup"])).toEqual(new Set());
    expect(await a.choose(["backup", "main"], 60_000)).toEqual({ index: 0, clean: false });
    expect(await b.choose(["backup", "main"], 60_000)).toEqual({ index: 1, clean: true });
    // The trial answered nothing known: it rests again, without a second notice.
    expect(await a.observe("backup", "unknown", true)).toBeUndefined();
    expect(await b.choose(["backup", "main"], 60_000)).toEqual({ index: 1, clean: true });
    advance(REST_MS);
    expect(await b.choose(["backup"], 60_000)).toEqual({ index: 0, clean: false });
    expect(await b.observe("backup", "known", true)).toEqual({ kind: "back", provider: "backup" });
    expect(await a.choose(["backup"], 60_000)).toEqual({ index: 0, clean: true });
    expect(await a.observe("backup", "known", true)).toBeUndefined();
  });

  it("a trial slot freed by an order that was not sent goes to the next order", async () => {
    const { a, b, advance } = await world(engine);
    await a.observe("backup", "empty", true);
    advance(REST_MS);
    expect(await a.choose(["backup"], 60_000)).toEqual({ index: 0, clean: false });
    expect(await b.choose(["backup"], 60_000)).toBeUndefined();
    await a.release("backup");
    expect(await b.choose(["backup"], 60_000)).toEqual({ index: 0, clean: false });
  });

  it("a provider that may not rest (nothing else sells its products) only counts", async () => {
    const { a } = await world(engine);
    expect(await a.observe("main", "empty", false)).toBeUndefined();
    for (let i = 0; i < 5; i++) expect(await a.observe("main", "unknown", false)).toBeUndefined();
    expect(await a.choose(["main"], 60_000)).toEqual({ index: 0, clean: false });
  });
});
