import { afterAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../src/catalog/catalog.js";
import { createResting } from "../../src/providers/resting.js";
import { createStorage } from "../../src/storage/storage.js";
import type { TopupClient } from "../../src/topup/types.js";
import { redisStorage } from "../helpers/redis.js";
import { lineOf, supplyOf } from "../helpers/supply.js";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

const never: TopupClient = { order: () => Promise.reject(new Error("not called in this test")) };
const catalog = (routes?: Array<{ provider: string; code: string }>): Catalog => ({
  games: [
    {
      name: "Mobile Legends",
      destination: undefined,
      products: [
        {
          code: "ML86",
          name: "86 Diamonds",
          price: 20_000,
          prices: {},
          disabled: false,
          ...(routes ? { routes } : {}),
        },
      ],
    },
  ],
});

describe("the supply's choice of a first route", () => {
  it("a process that found main healthy sends to it without asking for a second; after that it asks, and sees the rest another process started", async () => {
    const a = await redisStorage("supply-a");
    const b = await createStorage({ redisUrl: "redis://127.0.0.1:6379", prefix: a.prefix });
    cleanups.push(a.cleanup, () => b.close());
    let t = Date.parse("2026-11-28T10:00:00Z");
    const now = () => new Date(t);
    const lines = [lineOf(never), lineOf(never, { name: "backup" })];
    const one = supplyOf(lines, a.storage, { catalog: () => catalog(), now });
    expect(one.quickFirst()).toBe(false);
    expect(await one.choose(one.routes("ML86"), 0)).toMatchObject({ provider: "main", index: 0, clean: true });
    expect(one.quickFirst()).toBe(true);

    // Another process sees main's deposit is empty: main rests.
    expect(await createResting(b, now).observe("main", "empty", true)).toMatchObject({ kind: "resting" });
    expect(one.quickFirst()).toBe(true);
    t += 1_000;
    expect(one.quickFirst()).toBe(false);
    expect(await one.choose(one.routes("ML86"), 0)).toMatchObject({ provider: "backup", index: 1 });
    expect(one.quickFirst()).toBe(false);
  });

  it("a product naming its routes, or main's own answer that was not known, ends the quick way", async () => {
    const { storage, cleanup } = await redisStorage("supply-routes");
    cleanups.push(cleanup);
    const now = () => new Date(Date.parse("2026-11-28T10:00:00Z"));
    const lines = [lineOf(never), lineOf(never, { name: "backup" })];
    const routed = supplyOf(lines, storage, {
      catalog: () =>
        catalog([
          { provider: "main", code: "ML86" },
          { provider: "backup", code: "MLBB86" },
        ]),
      now,
    });
    await routed.choose(routed.routes("ML86"), 0);
    expect(routed.quickFirst()).toBe(false);
    expect(routed.routes("ML86")).toEqual([
      { provider: "main", code: "ML86" },
      { provider: "backup", code: "MLBB86" },
    ]);

    const plain = supplyOf(lines, storage, { catalog: () => catalog(), now });
    const first = (await plain.choose(plain.routes("ML86"), 0))!;
    expect(plain.quickFirst()).toBe(true);
    await plain.observe(first, { kind: "unknown", reason: "timeout", detail: "timed out" });
    expect(plain.quickFirst()).toBe(false);
  });

  it("a one-provider shop always goes the quick way", async () => {
    const { storage, cleanup } = await redisStorage("supply-one");
    cleanups.push(cleanup);
    expect(supplyOf(never, storage, { catalog: () => catalog() }).quickFirst()).toBe(true);
  });
});
