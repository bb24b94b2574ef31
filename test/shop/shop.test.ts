import { describe, expect, it } from "vitest";
import { loadCatalog, type Catalog } from "../../src/catalog/catalog.js";
import { diffCatalogs } from "../../src/catalog/diff.js";
import { parsePriceCommand } from "../../src/bot/features/prices.js";
import { fitLines, splitMessages } from "../../src/bot/message-layout.js";
import { createShop, type Shop } from "../../src/shop/shop.js";
import { connectionName, createStorage, type Storage } from "../../src/storage/storage.js";
import { REDIS_URL, redisStorage } from "../helpers/redis.js";

async function fileCatalog(): Promise<Catalog> {
  const loaded = await loadCatalog("catalog.json");
  if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
  return loaded.catalog;
}

const withPrice = (catalog: Catalog, code: string, price: number): Catalog => ({
  games: catalog.games.map((g) => ({
    ...g,
    products: g.products.map((p) => (p.code === code ? { ...p, price } : p)),
  })),
});

/**
 * Across two processes a change arrives as a message: a read right after the writer's answer may
 * still be on its way (microseconds here); this waits for it without any fixed delay.
 */
async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000; // a bound on a hang, not a measured time
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("the change never arrived");
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

const priceOf = (catalog: Catalog, code: string) =>
  catalog.games.flatMap((g) => g.products).find((p) => p.code === code)?.price;

for (const kind of ["redis", "memory"] as const) {
  describe(`the shop's state on ${kind === "redis" ? "the real Redis" : "the memory store"}`, () => {
    /** Two shops on one storage: two processes of the bot, as far as the shop can tell. */
    async function twoShops(): Promise<{ a: Shop; b: Shop; storage: Storage; cleanup: () => Promise<void> }> {
      const file = await fileCatalog();
      if (kind === "memory") {
        const storage = await createStorage({ redisUrl: undefined, prefix: "t:" });
        return {
          a: createShop({ storage, fileCatalog: file }),
          b: createShop({ storage, fileCatalog: file }),
          storage,
          cleanup: async () => {},
        };
      }
      const { storage, prefix, cleanup } = await redisStorage("shop");
      const other = await createStorage({ redisUrl: REDIS_URL, prefix });
      const [a, b] = [createShop({ storage, fileCatalog: file }), createShop({ storage: other, fileCatalog: file })];
      return {
        a,
        b,
        storage,
        cleanup: async () => {
          await Promise.all([a.close(), b.close()]);
          await other.close();
          await cleanup();
        },
      };
    }

    it("when nothing was edited in the chat, then the file's catalogue is in use", async () => {
      const { a, cleanup } = await twoShops();
      try {
        const state = await a.state();
        expect(state.source).toEqual({ kind: "file" });
        expect(state.catalog).toEqual(await fileCatalog());
        expect(state.pause).toBeUndefined();
      } finally {
        await cleanup();
      }
    });

    it("when one process edits the catalogue, then the other sees it on its next read", async () => {
      const { a, b, cleanup } = await twoShops();
      try {
        expect(priceOf(await b.catalog(), "ML86")).toBe(20_000); // b has read (and cached) the file's
        await a.edit(1, (c) => ({ catalog: withPrice(c, "ML86", 21_000), result: undefined }));
        const seen = await b.state();
        expect(priceOf(seen.catalog, "ML86")).toBe(21_000);
        expect(seen.source).toMatchObject({ kind: "chat", version: 1, by: 1 });
      } finally {
        await cleanup();
      }
    });

    it("when the other process keeps reading while changes land, then each read after a change's answer sees it", async () => {
      const { a, b, cleanup } = await twoShops();
      try {
        for (let i = 1; i <= 20; i++) {
          await b.state(); // b reads (and, with its subscription up, caches) before each change
          await a.edit(1, (c) => ({ catalog: withPrice(c, "ML86", 20_000 + i), result: undefined }));
          if (i % 2 === 0) await a.pause({ reason: `r${i}`, by: 1, at: "2026-11-23T08:00:00.000Z" });
          else await a.resume();
          // Telegram's answer to the admin goes out after the write; a user's next tap on b comes later.
          await waitUntil(async () => priceOf(await b.catalog(), "ML86") === 20_000 + i);
          await waitUntil(async () => (await b.state()).pause?.reason === (i % 2 === 0 ? `r${i}` : undefined));
        }
      } finally {
        await cleanup();
      }
    });

    it("when two edits run at once, then both land: neither overwrites the other", async () => {
      const { a, b, cleanup } = await twoShops();
      try {
        await Promise.all([
          a.edit(1, (c) => ({ catalog: withPrice(c, "ML86", 21_000), result: undefined })),
          b.edit(2, (c) => ({ catalog: withPrice(c, "FF70", 11_000), result: undefined })),
          a.edit(1, (c) => ({ catalog: withPrice(c, "GI60", 17_000), result: undefined })),
        ]);
        const catalog = await b.catalog();
        expect([priceOf(catalog, "ML86"), priceOf(catalog, "FF70"), priceOf(catalog, "GI60")]).toEqual([
          21_000, 11_000, 17_000,
        ]);
        expect((await a.state()).source).toMatchObject({ version: 3 });
      } finally {
        await cleanup();
      }
    });

    it("when an edit changes nothing, then nothing is written", async () => {
      const { a, cleanup } = await twoShops();
      try {
        expect(await a.edit(1, () => ({ result: "same" }))).toBe("same");
        expect((await a.state()).source).toEqual({ kind: "file" });
      } finally {
        await cleanup();
      }
    });

    it("when a replacement is applied over the version it was checked against, then once; a second try says already; a replacement over an older version is refused", async () => {
      const { a, b, cleanup } = await twoShops();
      try {
        const base = (await a.state()).source;
        const next = withPrice(await a.catalog(), "ML86", 25_000);
        const outcomes = await Promise.all([
          a.replace(1, base, next, "CU1"),
          b.replace(1, base, next, "CU1"),
          a.replace(1, base, next, "CU1"),
        ]);
        expect(outcomes.sort()).toEqual(["already", "already", "applied"]);
        expect((await b.state()).source).toMatchObject({ version: 1 });
        // Another upload checked against the file's version: stale now.
        expect(await b.replace(2, base, withPrice(next, "FF70", 1), "CU2")).toBe("stale");
        expect(priceOf(await a.catalog(), "FF70")).toBe(10_000);
      } finally {
        await cleanup();
      }
    });

    it("when orders are paused and resumed, then every process sees it, with the reason and who paused", async () => {
      const { a, b, cleanup } = await twoShops();
      try {
        expect(await a.pause({ reason: "provider down", by: 1, at: "2026-11-23T08:00:00.000Z" })).toBeUndefined();
        expect((await b.state()).pause).toEqual({ reason: "provider down", by: 1, at: "2026-11-23T08:00:00.000Z" });
        expect((await b.pause({ reason: "", by: 2, at: "2026-11-23T09:00:00.000Z" }))?.reason).toBe("provider down");
        expect((await a.resume())?.by).toBe(2);
        expect((await b.state()).pause).toBeUndefined();
        expect(await b.resume()).toBeUndefined();
      } finally {
        await cleanup();
      }
    });
  });
}

describe("what an admin sends: the diff of two catalogues, /price arguments, long lists", () => {
  it("when a catalogue is compared with an edited one, then every addition, removal, price and state change is listed", async () => {
    const file = await fileCatalog();
    const next: Catalog = {
      games: [
        {
          ...file.games[0]!,
          destination: { pattern: "^[0-9]{6,12}$", example: "12345678" },
          products: [
            { ...file.games[0]!.products[0]!, price: 20_500, prices: { reseller: 19_800 } },
            { ...file.games[0]!.products[1]!, disabled: true, name: "172 DM" },
            { code: "ML514", name: "514 Diamonds", price: 115_000, prices: {}, disabled: false },
          ],
        },
        ...file.games.slice(1),
      ],
    };
    expect(diffCatalogs(file, next)).toEqual([
      { kind: "price", code: "ML86", tier: undefined, from: 20_000, to: 20_500 },
      { kind: "price", code: "ML86", tier: "gold", from: 19_700, to: undefined },
      { kind: "renamed", code: "ML172", from: "172 Diamonds", to: "172 DM" },
      { kind: "disabled", code: "ML172" },
      { kind: "added", code: "ML514", name: "514 Diamonds", game: "Mobile Legends", price: 115_000 },
      { kind: "removed", code: "ML257", name: "257 Diamonds", game: "Mobile Legends" },
      { kind: "player-id-rule", game: "Mobile Legends" },
    ]);
    expect(diffCatalogs(file, file)).toEqual([]);
  });

  it("when /price arguments are given, then amounts as people type them are whole rupiah and anything else is refused", () => {
    expect(parsePriceCommand("ML86 21.000")).toEqual({
      ok: true,
      code: "ML86",
      amount: 21_000,
      tier: undefined,
      newTier: false,
    });
    expect(parsePriceCommand(" ml86  19,500  Gold ")).toEqual({
      ok: true,
      code: "ml86",
      amount: 19_500,
      tier: "gold",
      newTier: false,
    });
    expect(parsePriceCommand("ML86 Rp22.000")).toEqual({
      ok: true,
      code: "ML86",
      amount: 22_000,
      tier: undefined,
      newTier: false,
    });
    expect(parsePriceCommand("ML86 20rb")).toEqual({
      ok: true,
      code: "ML86",
      amount: 20_000,
      tier: undefined,
      newTier: false,
    });
    // The multiplier word is the amount's; the tier comes after it.
    expect(parsePriceCommand("ML86 19,5 ribu gold")).toEqual({
      ok: true,
      code: "ML86",
      amount: 19_500,
      tier: "gold",
      newTier: false,
    });
    for (const bad of ["ML86 0", "ML86 -1", "ML86 2000000000", "ML86 2000jt"])
      expect(parsePriceCommand(bad)).toEqual({ ok: false, why: "amount" });
    for (const [bad, typed] of [
      ["ML86 12.5", "12.5"],
      ["ML86 1e3", "1e3"],
      ["ML86 22 000", "22 000"],
    ] as const)
      expect(parsePriceCommand(bad)).toEqual({ ok: false, why: "unclear", typed });
    for (const bad of ["", "ML86", "ML86 1 gold extra", "ML 86 1000"])
      expect(parsePriceCommand(bad)).toMatchObject({ ok: false });
    expect(parsePriceCommand("ML86 1000 gold!")).toEqual({ ok: false, why: "tier" });
    // A tier is made only when asked in so many words.
    expect(parsePriceCommand("ML86 19000 platinum new")).toEqual({
      ok: true,
      code: "ML86",
      amount: 19_000,
      tier: "platinum",
      newTier: true,
    });
    expect(parsePriceCommand("ML86 19000 platinum baru")).toMatchObject({ ok: true, newTier: true });
    expect(parsePriceCommand("ML86 19000 platinum please")).toEqual({ ok: false, why: "usage" });
  });

  it("when a list is longer than one Telegram message, then it is split between blocks and no message is over the limit", () => {
    const blocks = Array.from({ length: 40 }, (_, i) => `Game ${i}\n${"x".repeat(200)}`);
    const messages = splitMessages(blocks, 1000);
    expect(messages.length).toBeGreaterThan(8);
    for (const m of messages) expect(m.length).toBeLessThanOrEqual(1000);
    expect(messages.join("\n")).toBe(blocks.join("\n"));
  });

  it("when a diff or an error list is too long for one message, then it keeps its head and foot and says how many more", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i} ${"y".repeat(90)}`);
    const text = fitLines("HEAD", lines, "FOOT", (n) => `and ${n} more`, 2000);
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text.startsWith("HEAD\nline 0 ")).toBe(true);
    expect(text.endsWith("FOOT")).toBe(true);
    const shown = text.split("\n").filter((l) => l.startsWith("line ")).length;
    expect(text).toContain(`and ${100 - shown} more`);
    expect(fitLines("HEAD", ["a", "b"], "", (n) => `and ${n} more`)).toBe("HEAD\na\nb");
  });
});

describe("the shop's cache of its head on the real Redis", () => {
  it("when its subscription to changes is cut, then a change it was never told of is read from Redis, not from the cache", async () => {
    const { storage, prefix, cleanup } = await redisStorage("shop-cut");
    // A second process, named on Redis so that only its own subscription is cut below.
    const owner = `cut-${process.pid}`;
    const other = await createStorage({ redisUrl: REDIS_URL, prefix, owner });
    const file = await fileCatalog();
    const [a, b] = [createShop({ storage, fileCatalog: file }), createShop({ storage: other, fileCatalog: file })];
    const pausedInB = async () => (await b.state()).pause?.reason;
    try {
      // b learns of a's changes by its subscription (then it keeps the head it read).
      await b.state();
      await a.pause({ reason: "stock count", by: 1, at: "2026-11-25T08:00:00.000Z" });
      await waitUntil(async () => (await pausedInB()) === "stock count");
      await a.resume();
      await waitUntil(async () => (await pausedInB()) === undefined);

      // Changes nobody announces (written straight into Redis), until b shows one it kept instead
      // of the newest: a message of the changes above may still reach b and clear what it kept,
      // then b reads Redis once more and keeps that.
      if (storage.kind !== "redis") throw new Error("a Redis storage was expected");
      const redis = storage.redis;
      let shown = await pausedInB();
      let latest = "";
      const deadline = Date.now() + 10_000; // a bound on a hang, not a measured time
      for (let i = 0; ; i++) {
        if (Date.now() > deadline) throw new Error("b never kept the head it read");
        latest = `written by hand ${i}`;
        await redis.hSet(
          `${prefix}shop`,
          "pause",
          JSON.stringify({ reason: latest, by: 9, at: "2026-11-25T08:01:00.000Z" }),
        );
        const now = await pausedInB();
        if (now !== latest) {
          expect(now).toBe(shown);
          break;
        }
        shown = now;
      }

      // b's subscription is cut (as a Redis restart or a network fault would): b may have missed
      // messages, so it stops trusting what it kept and reads Redis again.
      const name = connectionName(prefix, owner);
      const subscribers = await redis.sendCommand<string>(["CLIENT", "LIST", "TYPE", "pubsub"]);
      const ids = subscribers
        .split("\n")
        .filter((line) => line.includes(` name=${name} `))
        .map((line) => /^id=(\d+)/.exec(line)?.[1])
        .filter((id): id is string => id !== undefined);
      expect(ids).toHaveLength(1);
      await redis.sendCommand(["CLIENT", "KILL", "ID", ids[0]!]);
      await waitUntil(async () => (await pausedInB()) === latest);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await other.close();
      await cleanup();
    }
  });
});
