import { afterEach, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../../src/storage/redis.js";
import { keyvStorageAdapter, revisionedStorageAdapter, StaleStateError } from "../../src/storage/storage-adapter.js";
import { createStorage } from "../../src/storage/storage.js";
import { freePort, ownRedis, REDIS_URL, redisStorage } from "../helpers/redis.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe("storage", () => {
  it("when REDIS_URL points nowhere, then creating the storage fails loudly with the address and no password", async () => {
    const port = await freePort();
    const attempt = createStorage({
      redisUrl: `redis://user:hunter2@127.0.0.1:${port}`,
      prefix: "x:",
      connectTimeoutMs: 500,
    });
    await expect(attempt).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(attempt).rejects.toThrow(`cannot connect to Redis at redis://127.0.0.1:${port}`);
    await attempt.catch((err: Error) => expect(err.message).not.toContain("hunter2"));
  });

  it("when Redis goes away after start, then reads and writes throw instead of returning nothing", async () => {
    const redis = await ownRedis();
    const storage = await createStorage({ redisUrl: redis.url, prefix: "t:", connectTimeoutMs: 500 });
    cleanups.push(() => storage.close());
    const adapter = keyvStorageAdapter<{ v: number }>(storage, "state", 60_000);
    await adapter.write("k", { v: 1 });
    expect(await adapter.read("k")).toEqual({ v: 1 });
    await redis.stop();
    await expect(Promise.resolve(adapter.read("k"))).rejects.toThrow();
    await expect(Promise.resolve(adapter.write("k", { v: 2 }))).rejects.toThrow();
    expect(await storage.ping()).toBe(false);
  });

  it("when the storage adapter writes, then the key carries the prefix and a TTL on the real Redis", async () => {
    const { storage, prefix, cleanup } = await redisStorage("adapter");
    cleanups.push(cleanup);
    const adapter = keyvStorageAdapter<{ step: number }>(storage, "conversation", 60_000);
    await adapter.write("42:42", { step: 2 });
    expect(await adapter.read("42:42")).toEqual({ step: 2 });
    if (storage.kind !== "redis") throw new Error("expected Redis");
    const ttl = await storage.redis.pTTL(`${prefix}conversation:42:42`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await adapter.delete("42:42");
    expect(await adapter.read("42:42")).toBeUndefined();
  });

  it("when no REDIS_URL is given, then memory storage keeps per-chat state", async () => {
    const storage = await createStorage({ redisUrl: undefined, prefix: "m:" });
    expect(storage.kind).toBe("memory");
    const adapter = keyvStorageAdapter<{ a: number }>(storage, "state", 60_000);
    await adapter.write("k", { a: 1 });
    expect(await adapter.read("k")).toEqual({ a: 1 });
  });

  it("when two processes read a member's dialogue and both write it, then the later write is refused and the first one's step stays", async () => {
    const { storage, prefix, cleanup } = await redisStorage("revisions");
    cleanups.push(cleanup);
    const other = await createStorage({ redisUrl: storage.kind === "redis" ? REDIS_URL : undefined, prefix });
    cleanups.push(() => other.close());
    const a = revisionedStorageAdapter<{ step: number }>(storage, "dialogue", 60_000);
    const b = revisionedStorageAdapter<{ step: number }>(other, "dialogue", 60_000);
    await a.read("5:5");
    await a.write("5:5", { step: 1 });

    expect(await a.read("5:5")).toEqual({ step: 1 });
    expect(await b.read("5:5")).toEqual({ step: 1 });
    await b.write("5:5", { step: 2 });
    await expect(Promise.resolve(a.write("5:5", { step: 9 }))).rejects.toBeInstanceOf(StaleStateError);
    expect(await a.read("5:5")).toEqual({ step: 2 });
    // Read again, the write goes through.
    await a.write("5:5", { step: 3 });
    expect(await b.read("5:5")).toEqual({ step: 3 });

    // A dialogue that ended elsewhere does not come back from a stale reader.
    expect(await a.read("5:5")).toEqual({ step: 3 });
    await b.delete("5:5");
    expect(await b.read("5:5")).toBeUndefined();
    await expect(Promise.resolve(a.write("5:5", { step: 4 }))).rejects.toBeInstanceOf(StaleStateError);
    expect(await b.read("5:5")).toBeUndefined();
  });

  it("when a dialogue was stored before revisions (keyv's format), then it is read and written over", async () => {
    const { storage, cleanup } = await redisStorage("legacy");
    cleanups.push(cleanup);
    await keyvStorageAdapter<{ step: number }>(storage, "dialogue", 60_000, { packed: true }).write("7:7", { step: 5 });
    const adapter = revisionedStorageAdapter<{ step: number }>(storage, "dialogue", 60_000);
    expect(await adapter.read("7:7")).toEqual({ step: 5 });
    await adapter.write("7:7", { step: 6 });
    expect(await adapter.read("7:7")).toEqual({ step: 6 });
  });
});
