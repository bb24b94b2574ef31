import type { Update } from "grammy/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { createLease, keepLease } from "../../src/storage/leases.js";
import { createLiveness, type Liveness } from "../../src/storage/liveness.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { createUpdateConsumer, type UpdateConsumer } from "../../src/updates/consumer.js";
import { laneOf } from "../../src/updates/lane.js";
import { createUpdateStream, type UpdateStream } from "../../src/updates/update-stream.js";
import { deleteByPrefix, REDIS_URL, uniquePrefix } from "../helpers/redis.js";

const silent = createLogger("silent");

/** A text message of `user` in `chat` (private when equal), with its update id. */
const message = (updateId: number, user: number, chat = user, text = `m${updateId}`): Update => ({
  update_id: updateId,
  message: {
    message_id: updateId,
    date: 0,
    chat: chat === user ? { id: chat, type: "private", first_name: "U" } : { id: chat, type: "supergroup", title: "G" },
    from: { id: user, is_bot: false, first_name: "U" },
    text,
  },
});

/** Waits for a state, checking after every turn of the event loop's timers (never a fixed sleep). */
async function until(check: () => boolean | Promise<boolean>, what: string, limitMs = 20_000): Promise<void> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > limitMs) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A promise and its resolver: a handler that waits until the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe("the update stream: intake, lanes, handling once, in order, across processes (real Redis)", () => {
  let prefix: string;
  let storage: Storage & { kind: "redis" };
  let stream: UpdateStream;
  const extra: Storage[] = [];
  const consumers: UpdateConsumer[] = [];

  beforeEach(async () => {
    prefix = uniquePrefix("updates");
    const s = await createStorage({ redisUrl: REDIS_URL, prefix });
    if (s.kind !== "redis") throw new Error("redis expected");
    storage = s;
    stream = createUpdateStream(storage.redis, prefix);
  });
  afterEach(async () => {
    for (const c of consumers.splice(0)) await c.stop();
    for (const s of extra.splice(0)) await s.close();
    await storage.close();
    await deleteByPrefix(prefix);
  });

  interface Proc {
    storage: Storage & { kind: "redis" };
    stream: UpdateStream;
    /** What it asked about other processes: whom, and whether they were gone. */
    checks: Array<{ owner: string; gone: boolean }>;
    liveness?: Liveness;
  }

  /**
   * A second connection, as another process has (its own client; destroy() is its death). With a
   * name, its connections carry it (as a bot's do) and it sees whether other processes are alive.
   */
  async function otherProcess(name?: string): Promise<Proc> {
    const s = await createStorage({ redisUrl: REDIS_URL, prefix, ...(name === undefined ? {} : { owner: name }) });
    if (s.kind !== "redis") throw new Error("redis expected");
    extra.push(s);
    const checks: Proc["checks"] = [];
    if (name === undefined) return { storage: s, stream: createUpdateStream(s.redis, prefix), checks };
    const real = createLiveness(s, silent);
    const liveness: Liveness = {
      ...real,
      async gone(owner) {
        const gone = await real.gone(owner);
        checks.push({ owner, gone });
        return gone;
      },
    };
    return { storage: s, stream: createUpdateStream(s.redis, prefix), checks, liveness };
  }

  /** A consumer on a process's connection; it tells live from gone processes when the process is named after it. */
  function consumer(
    name: string,
    handle: (u: Update) => Promise<void>,
    options: Partial<Parameters<typeof createUpdateConsumer>[0]> = {},
    on: { storage: Storage; stream: UpdateStream; liveness?: Liveness } = { storage, stream },
  ): UpdateConsumer {
    if (on.storage.kind !== "redis") throw new Error("redis expected");
    const liveness = on.storage.owner === name ? on.liveness : undefined;
    const c = createUpdateConsumer({
      stream: on.stream,
      redis: on.storage.redis,
      consumer: name,
      handle,
      logger: silent,
      lockMs: 600,
      claimIdleMs: 300,
      claimEveryMs: 50,
      readBlockMs: 200,
      ...(liveness === undefined ? {} : { liveness }),
      ...options,
    });
    consumers.push(c);
    return c;
  }

  it("when the same update is taken twice, then it is stored once; a stale poller's batch is refused", async () => {
    expect(await stream.intake([{ update: message(1, 10) }])).toEqual({ kind: "stored", added: 1 });
    expect(await stream.intake([{ update: message(1, 10) }, { update: message(2, 10) }])).toEqual({
      kind: "stored",
      added: 1,
    });
    expect(await stream.status(1)).toBe("queued");
    expect((await stream.backlog()).length).toBe(2);

    const lease = createLease(storage, "poller", { ttlMs: 5_000, owner: "a" });
    expect(await lease.acquire()).toBe(true);
    const fence = lease.fence()!;
    // A poller whose lease another process took meanwhile: its batch is not stored, nor its offset.
    const other = createLease(storage, "poller", { ttlMs: 5_000, owner: "b" });
    await lease.release();
    expect(await other.acquire()).toBe(true);
    expect(await stream.intake([{ update: message(3, 10) }], { fence, offset: 4 })).toEqual({ kind: "fenced" });
    expect(await stream.status(3)).toBeUndefined();
    expect(await stream.offset()).toBe(0);
    expect(await stream.intake([{ update: message(3, 10) }], { fence: other.fence()!, offset: 4 })).toEqual({
      kind: "stored",
      added: 1,
    });
    expect(await stream.offset()).toBe(4);
    // Each new holder has a larger token.
    expect(Number(other.fence()!.split(":").at(-1))).toBeGreaterThan(Number(fence.split(":").at(-1)));
  });

  it("when the lanes of an update are read, then one member of one chat is one lane, in groups and private chats", () => {
    expect(laneOf(message(1, 10))).toBe("10:10");
    expect(laneOf(message(1, 10, -100))).toBe("-100:10");
    const tap = {
      update_id: 2,
      callback_query: { id: "q", from: { id: 10 }, message: { chat: { id: -100 } }, data: "x" },
    } as unknown as Update;
    expect(laneOf(tap)).toBe("-100:10");
    const inline = { update_id: 3, callback_query: { id: "q", from: { id: 10 }, data: "x" } } as unknown as Update;
    expect(laneOf(inline)).toBe("u10");
  });

  it("when three processes take updates of many members at once, then each update is handled once and each member's in order", async () => {
    const members = Array.from({ length: 12 }, (_, i) => ({ user: 100 + i, chat: i % 3 === 0 ? -500 : 100 + i }));
    const perMember = 15;
    const handled: Array<{ id: number; lane: string; by: string }> = [];
    const busy = new Set<string>();
    let overlap = 0;
    const handler = (by: string) => async (u: Update) => {
      const lane = laneOf(u);
      if (busy.has(lane)) overlap++;
      busy.add(lane);
      // Interleave with the other processes' work (a few turns of the loop, no timing).
      for (let i = 0; i < (u.update_id % 4) + 1; i++) await new Promise((r) => setImmediate(r));
      busy.delete(lane);
      handled.push({ id: u.update_id, lane, by });
    };
    // Named processes that look at each other's liveness whenever a lane is busy: a live one is never taken for gone.
    const p1 = await otherProcess("p1");
    const others = [await otherProcess("p2"), await otherProcess("p3")];
    const all = [
      consumer("p1", handler("p1"), {}, p1),
      consumer("p2", handler("p2"), {}, others[0]),
      consumer("p3", handler("p3"), {}, others[1]),
    ];
    for (const c of all) await c.start();
    let id = 1;
    const sent: Update[] = [];
    for (let round = 0; round < perMember; round++) {
      for (const m of members) sent.push(message(id++, m.user, m.chat));
    }
    // Three intakes (the processes behind a round-robin balancer), several updates at once.
    await Promise.all(
      sent.map((u, i) => [stream, others[0]!.stream, others[1]!.stream][i % 3]!.intake([{ update: u }])),
    );
    await until(() => handled.length >= sent.length, "every update handled");
    await until(async () => (await stream.backlog()).length === 0, "stream empty");

    expect(handled).toHaveLength(sent.length);
    expect(new Set(handled.map((h) => h.id)).size).toBe(sent.length);
    expect(overlap).toBe(0);
    for (const m of members) {
      const lane = laneOf(message(0, m.user, m.chat));
      const ids = handled.filter((h) => h.lane === lane).map((h) => h.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
    expect(new Set(handled.map((h) => h.by)).size).toBeGreaterThan(1);
    for (const u of sent) expect(await stream.status(u.update_id)).toBe("done");
    for (const p of [p1, ...others]) expect(p.checks.filter((c) => c.gone)).toEqual([]);
  });

  it("when a process is killed holding a lane (its lock good for a minute) and updates, then another process takes them at once, each once and in order", async () => {
    const dead = await otherProcess("dead");
    await dead.stream.ensureGroup();
    await stream.intake([{ update: message(1, 10) }, { update: message(2, 10) }, { update: message(3, 11) }]);
    const reader = dead.storage.redis.duplicate();
    await reader.connect();
    expect(await dead.stream.read(reader, "dead", 10, 100)).toHaveLength(3);
    expect(await dead.stream.lockAndHead("10:10", "dead", 60_000)).toMatchObject({ kind: "entry", attempts: 1 });
    // Killed: its connections close at once (the kernel closes a killed process's sockets).
    reader.destroy();
    dead.storage.redis.destroy();

    const live = await otherProcess("live");
    const handled: number[] = [];
    // Idle entries are claimed only after a minute: whatever it gets sooner, it took from the dead process.
    await consumer("live", async (u) => void handled.push(u.update_id), { claimIdleMs: 60_000 }, live).start();
    await until(() => handled.length === 3, "the killed process's updates handled");
    expect(handled.filter((id) => id !== 3)).toEqual([1, 2]);
    expect(handled).toContain(3);
    for (const id of [1, 2, 3]) expect(await stream.status(id)).toBe("done");
    expect(live.checks.some((c) => c.owner === "dead" && c.gone)).toBe(true);
  });

  it("when a process holds a lane and is alive, then another process that gets its member's next update leaves it to it, however often it looks", async () => {
    const holder = await otherProcess("holder");
    const inHand = gate();
    const started = gate();
    const byHolder: number[] = [];
    let overlap = 0;
    let busy = false;
    const handle = (into: number[]) => async (u: Update) => {
      if (busy) overlap++;
      busy = true;
      into.push(u.update_id);
      if (u.update_id === 1) {
        started.open();
        await inHand.opened;
      }
      busy = false;
    };
    await consumer("holder", handle(byHolder), {}, holder).start();
    await stream.intake([{ update: message(1, 10) }]);
    await started.opened;

    const other = await otherProcess("other");
    const byOther: number[] = [];
    // It claims the member's next update as soon as it sits idle in the holder's list, again and
    // again, and each time finds the lane held by a live process.
    await consumer("other", handle(byOther), { claimIdleMs: 20, claimEveryMs: 20 }, other).start();
    await stream.intake([{ update: message(2, 10) }]);
    await until(
      () => other.checks.filter((c) => c.owner === "holder").length >= 5,
      "the other process looked five times",
    );
    expect(other.checks.filter((c) => c.gone)).toEqual([]);
    expect(byOther).toEqual([]);

    inHand.open();
    await until(async () => (await stream.status(2)) === "done", "the member's next update handled");
    expect([...byHolder, ...byOther].sort()).toEqual([1, 2]);
    expect(byHolder[0]).toBe(1);
    expect(overlap).toBe(0);
  });

  it("when a process dies while handling an update and nobody can tell it is gone, then another process handles it once its lock is gone, and the member's next update after it", async () => {
    // The dead process: it read the entries, took the lane and started on the first update, then
    // lost its connection for good (a SIGKILL looks the same from Redis). Its connections carry no
    // name (as with a Redis that refuses CLIENT SETNAME): its lock has to run out.
    const dead = await otherProcess();
    await dead.stream.ensureGroup();
    await stream.intake([{ update: message(1, 10) }, { update: message(2, 10) }, { update: message(3, 11) }]);
    const reader = dead.storage.redis.duplicate();
    await reader.connect();
    const delivered = await dead.stream.read(reader, "dead", 10, 100);
    await reader.close();
    expect(delivered.map((d) => d.lane)).toEqual(["10:10", "10:10", "11:11"]);
    const head = await dead.stream.lockAndHead("10:10", "dead", 60_000);
    expect(head).toMatchObject({ kind: "entry", attempts: 1 });
    dead.storage.redis.destroy();

    const handled: number[] = [];
    await consumer("live", async (u) => void handled.push(u.update_id)).start();
    // The other member's update does not wait for the dead process's lane.
    await until(() => handled.length === 1, "the other member's update handled");
    expect(handled).toEqual([3]);
    // The dead lane's lock runs out (Redis drops it after its PX; here at once, not after a minute).
    await storage.redis.del(`${prefix}upd:lock:10:10`);
    await until(() => handled.length === 3, "the dead process's updates handled");
    expect(handled).toEqual([3, 1, 2]);
    expect(await stream.status(1)).toBe("done");
    expect(await stream.status(2)).toBe("done");
  });

  it("when a handling fails, then the update is tried again (not dropped) before the member's next one; one that always fails is given up and the lane goes on", async () => {
    const handled: string[] = [];
    let failures = 0;
    await consumer(
      "p",
      async (u) => {
        if (u.update_id === 1 && failures++ < 2) {
          handled.push("1 failed");
          throw new Error("boom");
        }
        if (u.update_id === 3) {
          handled.push("3 failed");
          throw new Error("always");
        }
        handled.push(String(u.update_id));
      },
      { maxAttempts: 3 },
    ).start();
    await stream.intake([{ update: message(1, 10) }, { update: message(2, 10) }]);
    await until(() => handled.includes("2"), "the second update handled");
    expect(handled).toEqual(["1 failed", "1 failed", "1", "2"]);

    await stream.intake([{ update: message(3, 10) }, { update: message(4, 10) }]);
    await until(() => handled.includes("4"), "the lane goes on after the poisoned update");
    expect(handled.filter((h) => h === "3 failed")).toHaveLength(3);
    expect(await stream.status(3)).toBe("failed");
    expect(await stream.status(4)).toBe("done");
  });

  it("when a process stops, then it finishes the update in hand, and the member's next ones go to another process at once", async () => {
    const inHand = gate();
    const started = gate();
    const first: number[] = [];
    const stopping = consumer("leaving", async (u) => {
      first.push(u.update_id);
      started.open();
      await inHand.opened;
    });
    await stopping.start();
    await stream.intake([{ update: message(1, 10) }, { update: message(2, 10) }, { update: message(3, 10) }]);
    await started.opened;

    const second: number[] = [];
    const other = await otherProcess();
    // Idle entries are claimed only after a minute: what it gets sooner was handed back.
    await consumer("staying", async (u) => void second.push(u.update_id), { claimIdleMs: 60_000 }, other).start();
    const stopped = stopping.stop();
    inHand.open();
    await stopped;
    await until(() => second.length === 2, "the rest handled by the other process");
    expect(first).toEqual([1]);
    expect(second).toEqual([2, 3]);
    expect(await stream.status(1)).toBe("done");
  });

  it("when processes are gone for good, then their consumers leave the group, but never one with updates still pending", async () => {
    await stream.ensureGroup();
    const reader = storage.redis.duplicate();
    await reader.connect();
    try {
      await stream.intake([{ update: message(1, 10) }]);
      expect(await stream.read(reader, "holds-one", 10, 100)).toHaveLength(1);
      await stream.intake([{ update: message(2, 11) }]);
      const [done] = await stream.read(reader, "holds-none", 10, 100);
      await storage.redis.sendCommand(["XACK", `${prefix}upd:stream`, "bot", done!.id]);
    } finally {
      await reader.close();
    }
    expect(await stream.forgetConsumers(0)).toBe(1);
    const names = (
      await storage.redis.sendCommand<unknown[][]>(["XINFO", "CONSUMERS", `${prefix}upd:stream`, "bot"])
    ).map((c) => String(c[1]));
    expect(names).toEqual(["holds-one"]);
  });

  it("when a lease is held, then nobody else takes it until it is given back or runs out, and each new hold has a larger token", async () => {
    const a = createLease(storage, "job", { ttlMs: 300, owner: "a" });
    const b = createLease(storage, "job", { ttlMs: 300, owner: "b" });
    expect(await a.acquire()).toBe(true);
    const first = a.fence()!;
    expect(await b.acquire()).toBe(false);
    expect(await a.renew()).toBe(true);
    await a.release();
    expect(await b.acquire()).toBe(true);
    expect(await a.renew()).toBe(false);
    // b dies (no renewal): a takes over once b's time runs out in Redis.
    await until(() => a.acquire(), "a takes the lease after b's ran out");
    expect(await b.renew()).toBe(false);
    expect(Number(a.fence()!.split(":")[1])).toBe(Number(first.split(":")[1]) + 2);

    // A keeper renews while it holds; a second keeper takes over only after the first stops.
    await a.release();
    const events: string[] = [];
    const k1 = keepLease(createLease(storage, "kept", { ttlMs: 1500, owner: "k1" }), {
      retryMs: 20,
      onAcquired: () => events.push("k1"),
    });
    await k1.whenHeld();
    const k2 = keepLease(createLease(storage, "kept", { ttlMs: 1500, owner: "k2" }), {
      retryMs: 20,
      onAcquired: () => events.push("k2"),
    });
    // Two of k1's renewals (the key's time left goes up again), while k2 keeps trying.
    let renewals = 0;
    let last = Number(await storage.redis.pTTL(`${prefix}lease:kept`));
    await until(async () => {
      const left = Number(await storage.redis.pTTL(`${prefix}lease:kept`));
      if (left > last) renewals++;
      last = left;
      return renewals >= 2;
    }, "two renewals");
    expect(events).toEqual(["k1"]);
    await k1.stop();
    await k2.whenHeld();
    expect(events).toEqual(["k1", "k2"]);
    await k2.stop();
  });
});
