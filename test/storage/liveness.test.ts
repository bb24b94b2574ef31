import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { createClaims } from "../../src/storage/claims.js";
import { createLease } from "../../src/storage/leases.js";
import { createLiveness, type Liveness } from "../../src/storage/liveness.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { deleteByPrefix, ownRedis, REDIS_URL, uniquePrefix } from "../helpers/redis.js";

/** Waits for a state, looking again after each turn of the timers (never a fixed sleep). */
async function until(check: () => boolean | Promise<boolean>, what: string, limitMs = 10_000): Promise<void> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > limitMs) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Far longer than any test waits: a lease of this length was not waited out. */
const LONG_MS = 60_000;

describe("a process that is gone is not waited for: leases and claims taken over at once (real Redis)", () => {
  let prefix: string;
  const opened: Storage[] = [];

  beforeEach(() => {
    prefix = uniquePrefix("liveness");
  });
  afterEach(async () => {
    for (const s of opened.splice(0)) if (s.kind === "redis" && s.redis.isOpen) await s.close();
    await deleteByPrefix(prefix);
  });

  /**
   * A process as Redis sees it: a connection named after its owner, and its own view of who else
   * is alive (what it checks counted in `checks`). `kill()` closes its connection outright, as a
   * SIGKILL makes the kernel do.
   */
  async function proc(owner: string, url = REDIS_URL) {
    let logs = "";
    const logger = createLogger(
      "info",
      new Writable({
        write(chunk: Buffer, _enc, done) {
          logs += chunk.toString("utf8");
          done();
        },
      }),
    );
    const storage = await createStorage({ redisUrl: url, prefix, owner });
    if (storage.kind !== "redis") throw new Error("redis expected");
    opened.push(storage);
    const real = createLiveness(storage, logger);
    const checks: Array<{ owner: string; gone: boolean }> = [];
    const liveness: Liveness = {
      ...real,
      async gone(o) {
        const gone = await real.gone(o);
        checks.push({ owner: o, gone });
        return gone;
      },
    };
    return { owner, storage, liveness, checks, logs: () => logs, kill: () => storage.redis.destroy() };
  }

  it("when the holder of a lease is alive, then nobody takes it however often they ask; once it is killed, the next ask takes it with a larger token", async () => {
    const a = await proc("alive-a");
    const b = await proc("asks-b");
    const leaseA = createLease(a.storage, "job", { ttlMs: LONG_MS, liveness: a.liveness });
    const leaseB = createLease(b.storage, "job", { ttlMs: LONG_MS, liveness: b.liveness });
    expect(await leaseA.acquire()).toBe(true);
    const first = leaseA.fence()!;
    expect(first.startsWith("alive-a:")).toBe(true);

    for (let i = 0; i < 3; i++) expect(await leaseB.acquire()).toBe(false);
    expect(b.checks.length).toBeGreaterThan(0);
    expect(b.checks.every((c) => c.owner === "alive-a" && !c.gone)).toBe(true);
    expect(await leaseA.renew()).toBe(true);

    a.kill();
    await until(() => leaseB.acquire(), "b takes the lease of the killed holder");
    const taken = leaseB.fence()!;
    expect(taken.startsWith("asks-b:")).toBe(true);
    expect(Number(taken.split(":")[1])).toBeGreaterThan(Number(first.split(":")[1]));
    // Its time in Redis is b's own now, not what was left of a's minute.
    expect(Number(await b.storage.redis.pTTL(`${prefix}lease:job`))).toBeGreaterThan(LONG_MS - 5_000);
    expect(b.logs()).toMatch(
      /"what":"lease job","from":"alive-a","msg":"taken over at once from a process that is gone/,
    );
  });

  it("when a killed process left a claim, then another process takes it at once; a live claimer's claim is left alone", async () => {
    const a = await proc("claimer-a");
    const b = await proc("claimer-b");
    const claimsA = createClaims(a.storage, "notice", { liveness: a.liveness });
    const claimsB = createClaims(b.storage, "notice", { liveness: b.liveness });
    expect(await claimsA.take("d1", LONG_MS)).toBe(true);
    expect(await claimsB.take("d1", LONG_MS)).toBe(false);
    // Given back by its own claimer only.
    await claimsB.giveBack("d1");
    expect(await claimsB.take("d1", LONG_MS)).toBe(false);
    a.kill();
    await until(() => claimsB.take("d1", LONG_MS), "b takes the claim of the killed claimer");
    expect(await b.storage.redis.get(`${prefix}claim:notice:d1`)).toBe("claimer-b");
  });

  it("when Redis refuses CLIENT commands (a managed Redis), then the bot still connects, says once that takeovers wait for the time to run out, and a dead holder's lease is taken only then", async () => {
    const redis = await ownRedis({ appendOnly: false, args: ["--rename-command", "CLIENT", ""] });
    try {
      const a = await proc("dead-a", redis.url);
      const b = await proc("waits-b", redis.url);
      // The connection works, unnamed.
      expect(a.storage.owner).toBeUndefined();
      expect(await b.storage.ping()).toBe(true);
      expect(await b.liveness.probe()).toBe(false);
      expect(await b.liveness.probe()).toBe(false);
      expect(b.logs().match(/Redis cannot tell whether another process is alive/g)).toHaveLength(1);

      const ttl = 300;
      expect(await createLease(a.storage, "job", { ttlMs: ttl, owner: "dead-a" }).acquire()).toBe(true);
      a.kill();
      const leaseB = createLease(b.storage, "job", { ttlMs: ttl, owner: "waits-b", liveness: b.liveness });
      expect(await leaseB.acquire()).toBe(false);
      expect(b.checks.every((c) => !c.gone)).toBe(true);
      // Its time runs out in Redis: then it is free, as it always was.
      await until(async () => (await b.storage.redis.exists(`${prefix}lease:job`)) === 0, "a's lease runs out");
      expect(await leaseB.acquire()).toBe(true);
    } finally {
      for (const s of opened.splice(0)) if (s.kind === "redis" && s.redis.isOpen) await s.close();
      await redis.stop();
    }
  });
});
