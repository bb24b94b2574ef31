import { afterEach, describe, expect, it } from "vitest";
import { keyvStorageAdapter } from "../../src/storage/storage-adapter.js";
import { createStore, StoreUnavailableError, type Store } from "../../src/storage/store.js";
import { freePort, ownRedis, redisStore } from "../helpers/redis.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe("storage", () => {
  it("when REDIS_URL points nowhere, then creating the store fails loudly with the address and no password", async () => {
    const port = await freePort();
    const attempt = createStore({ redisUrl: `redis://user:hunter2@127.0.0.1:${port}`, keyPrefix: "x:", connectTimeoutMs: 500 });
    await expect(attempt).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(attempt).rejects.toThrow(`cannot connect to Redis at redis://127.0.0.1:${port}`);
    await attempt.catch((err: Error) => expect(err.message).not.toContain("hunter2"));
  });

  it("when Redis goes away after start, then reads and writes throw instead of returning nothing", async () => {
    const redis = await ownRedis();
    const store = await createStore({ redisUrl: redis.url, keyPrefix: "t:", connectTimeoutMs: 500 });
    cleanups.push(() => store.close());
    await store.keyv.set(store.key("k"), { v: 1 });
    expect(await store.keyv.get(store.key("k"))).toEqual({ v: 1 });
    await redis.stop();
    await new Promise((r) => setTimeout(r, 100));
    await expect(store.keyv.get(store.key("k"))).rejects.toThrow();
    await expect(store.keyv.set(store.key("k"), { v: 2 })).rejects.toThrow();
    await expect(store.atomic.claim(store.key("guard"), "1")).rejects.toThrow();
    expect(await store.ping()).toBe(false);
  });

  it("when the storage adapter writes, then the key carries the prefix and a TTL on the real Redis", async () => {
    const { store, prefix, cleanup } = await redisStore("adapter");
    cleanups.push(cleanup);
    const adapter = keyvStorageAdapter<{ step: number }>(store, "conversation", 60_000);
    await adapter.write("42:42", { step: 2 });
    expect(await adapter.read("42:42")).toEqual({ step: 2 });
    const { createClient } = await import("@keyv/redis");
    const raw = createClient({ url: "redis://127.0.0.1:6379" });
    await raw.connect();
    const ttl = await raw.pTTL(`${prefix}conversation:42:42`);
    await raw.close();
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await adapter.delete("42:42");
    expect(await adapter.read("42:42")).toBeUndefined();
  });

  it("when two claims of one key race on the real Redis, then exactly one wins", async () => {
    const { store, cleanup } = await redisStore("claim");
    cleanups.push(cleanup);
    const results = await Promise.all(Array.from({ length: 20 }, () => store.atomic.claim(store.key("guard", "TG1"), "x")));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("when no REDIS_URL is given, then a memory store with the same behaviour is used", async () => {
    const store: Store = await createStore({ redisUrl: undefined, keyPrefix: "m:" });
    expect(store.kind).toBe("memory");
    expect(await store.atomic.claim("g", "1")).toBe(true);
    expect(await store.atomic.claim("g", "1")).toBe(false);
    await store.keyv.set("k", { a: 1 });
    expect(await store.keyv.get("k")).toEqual({ a: 1 });
  });
});
