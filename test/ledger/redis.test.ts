import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLedger } from "../../src/ledger/create-ledger.js";
import type { Ledger } from "../../src/orders/ledger.js";
import type { OrderRecord } from "../../src/orders/order.js";
import { newRefId } from "../../src/orders/ref-id.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { ownRedis, redisStorage } from "../helpers/redis.js";
import { linesBetween } from "./ledger-views.js";
import { replay } from "./wallets.contract.js";

const HOUR = 3_600_000;
const LATER = (ms: number) => ({ before: new Date(ms + 400 * 24 * HOUR), now: new Date(ms + 400 * 24 * HOUR) });

/** An order as the bot makes it: ref id and creation time from the same moment. */
function made(at: number, over: Partial<OrderRecord> = {}): OrderRecord {
  return {
    refId: newRefId("TG", new Date(at)),
    chatId: 501,
    userId: 501,
    userName: "Sari",
    lang: "id",
    gameName: "Mobile Legends",
    productCode: "ML86",
    productName: "86 Diamonds",
    price: 20000,
    playerId: "12345678(1234)",
    createdAt: new Date(at).toISOString(),
    state: "draft",
    ...over,
  };
}

async function credit(ledger: Ledger, resellerId: number, amount: number, at: number) {
  const id = newRefId("DP", new Date(at));
  const iso = new Date(at).toISOString();
  await ledger.wallets.saveDeposit(
    { id, resellerId, amount, note: "", adminId: 1, chatId: 1, createdAt: iso, state: "draft" },
    HOUR,
  );
  expect((await ledger.wallets.confirmDeposit(id, { adminId: 1, at: iso })).kind).toBe("done");
}

async function sold(ledger: Ledger, order: OrderRecord, at: number, i = 0) {
  await ledger.orders.saveDraft(order, 400 * 24 * HOUR);
  const iso = new Date(at).toISOString();
  const claim = await ledger.orders.claim(order.refId, { userId: order.userId, at: iso, summaryMessageId: 900 + i });
  expect(claim.kind).toBe("claimed");
  const done = new Date(at + 2_000).toISOString();
  await ledger.orders.finish(
    order,
    {
      state: "success",
      at: done,
      result: {
        trxId: `TRX-26112${String(300_000 + i)}`,
        destinationName: "Budi#0001",
        sn: String(1_234_567_890_123_456 + i),
        lastBalance: 90_000_000 - i * 19_500,
        // As the provider writes it: the player's name and the SN in it (topup-api.md).
        message: `Top up 86 Diamonds for Budi#0001 succeeded. SN: ${String(1_234_567_890_123_456 + i)}`,
        productDetail: { name: "86 Diamonds", code: "ML86", price: 19500, rate: 1, priceRp: 19500, status: "SUKSES" },
      },
    },
    { balance: { balance: 90_000_000 - i * 19_500, at: done, refId: order.refId } },
  );
  await ledger.orders.markNotified(order.refId, new Date(at + 3_000).toISOString());
}

describe("the Redis ledger's compact layout", () => {
  it("when a ref id was made long before its order was sent, or after it by another clock, then the compacted order is still found", async () => {
    const { storage, cleanup } = await redisStorage("odd-refs");
    try {
      const ledger = createLedger(storage);
      const t = Date.parse("2026-06-10T05:00:00Z");
      const kept = made(t - 30 * HOUR); // a draft confirmed 30 hours after it was made
      const ahead = made(t + HOUR); // made by a process whose clock is an hour ahead
      const plain = made(t);
      await sold(ledger, kept, t, 1);
      await sold(ledger, ahead, t + 1000, 2);
      await sold(ledger, plain, t + 2000, 3);
      // Orders after the window the search reads from the ref ids' times.
      for (let i = 0; i < 5; i++) await sold(ledger, made(t + 30 * HOUR + i), t + 30 * HOUR + i * 1000, 10 + i);
      const before = await ledger.orders.getMany([kept.refId, ahead.refId, plain.refId]);
      expect((await ledger.compact(LATER(t))).orders).toBe(8);
      expect(await ledger.orders.getMany([kept.refId, ahead.refId, plain.refId])).toEqual(before);
      expect(await ledger.orders.get(newRefId("TG", new Date(t)))).toBeUndefined();
    } finally {
      await cleanup();
    }
  });

  it("when a shop has one provider, then its orders' hashes hold no field of an attempt; one that went on to another stays a packed hash of short values", async () => {
    const { storage, prefix, cleanup } = await redisStorage("attempt-fields");
    try {
      if (storage.kind !== "redis") throw new Error("redis expected");
      const ledger = createLedger(storage);
      const t = Date.parse("2026-06-10T05:00:00Z");
      const plain = made(t);
      const named = made(t + 1);
      await sold(ledger, plain, t, 1);
      await ledger.orders.saveDraft(named, HOUR);
      const at = new Date(t + 1000).toISOString();
      await ledger.orders.claim(named.refId, { userId: 501, at, attempt: { provider: "main", code: "ml86" } });
      for (const o of [plain, named]) {
        const fields = Object.keys(await storage.redis.hGetAll(`${prefix}o:${o.refId}`));
        expect(fields.filter((f) => f.startsWith("x"))).toEqual([]);
      }
      // Nor do its day's figures: main's line is the day less the other providers' lines.
      const day = await storage.redis.hGetAll(`${prefix}dayd:2026-06-10`);
      expect(Object.keys(day).filter((f) => f.startsWith("v:"))).toEqual([]);
      expect((await ledger.orders.dayFigures("2026-06-10")).byProvider.map((l) => [l.key, l.count])).toEqual([
        ["main", 1],
      ]);
      // An order refused by two providers with long messages: every value still short.
      const far = made(t + 2);
      await ledger.orders.saveDraft(far, HOUR);
      await ledger.orders.claim(far.refId, { userId: 501, at, attempt: { provider: "backup", code: "MLBB86" } });
      const msg = "Produk sedang tidak tersedia untuk sementara waktu, silakan coba lagi nanti. ".repeat(2);
      let from = far.refId;
      for (const [n, provider] of [
        [2, "main"],
        [3, "spare"],
      ] as const) {
        const next = { provider, code: "ML86", refId: `${far.refId}R${n}`, at: new Date(t + n * 1000).toISOString() };
        const refusal = { reason: "provider-error" as const, errorCode: "product/unavailable", errorMsg: msg };
        expect((await ledger.orders.nextAttempt(far, { from, refusal, next })).kind).toBe("next");
        from = next.refId;
      }
      const hash = await storage.redis.hGetAll(`${prefix}o:${far.refId}`);
      for (const value of Object.values(hash)) expect(Buffer.byteLength(value)).toBeLessThanOrEqual(64);
      expect(await storage.redis.sendCommand(["OBJECT", "ENCODING", `${prefix}o:${far.refId}`])).toBe("listpack");
      expect((await ledger.orders.get(far.refId))?.refused?.map((a) => [a.provider, a.errorMsg])).toEqual([
        ["backup", msg],
        ["main", msg],
      ]);
    } finally {
      await cleanup();
    }
  });

  it("when another process reads a compacted day's lines before it has read any of the dictionary, then they are the lines its orders had", async () => {
    const { storage, cleanup } = await redisStorage("lines-fresh");
    try {
      const ledger = createLedger(storage);
      const t = Date.parse("2026-06-10T05:00:00Z");
      for (let i = 0; i < 6; i++) await sold(ledger, made(t + i * 1000), t + i * 60_000, i);
      const range = { from: t - HOUR, to: t + HOUR };
      const before = await linesBetween(ledger.orders, range.from, range.to);
      expect(before.map((l) => l.sn)).toEqual([0, 1, 2, 3, 4, 5].map((i) => String(1_234_567_890_123_456 + i)));
      expect((await ledger.compact(LATER(t))).orders).toBe(6);
      // A second process: its own dictionary cache, empty.
      const other = createLedger(storage);
      expect(await linesBetween(other.orders, range.from, range.to)).toEqual(before);
    } finally {
      await cleanup();
    }
  });

  it("when a reseller's statement has more than a chunk of old movements, then whole chunks are packed and every page reads as before", async () => {
    const { storage, cleanup } = await redisStorage("statement-chunks");
    try {
      const ledger = createLedger(storage);
      const t = Date.parse("2026-06-10T01:00:00Z");
      await credit(ledger, 7001, 100_000_000, t - HOUR);
      for (let i = 0; i < 300; i++)
        await sold(
          ledger,
          made(t + i * 60_000, { userId: 7001, chatId: 7001, role: "reseller", tier: "gold" }),
          t + i * 60_000 + 5_000,
          i,
        );
      const pages = async () => {
        const out = [];
        for (const size of [7, 20, 256]) {
          for (let page = 0; ; page++) {
            const p = await ledger.wallets.statementPage(7001, page, size);
            out.push(p);
            if ((page + 1) * size >= p.total) break;
          }
        }
        return { out, last: await ledger.wallets.statement(7001, 10), wallet: await ledger.wallets.get(7001) };
      };
      const before = await pages();
      expect(before.out[0]!.total).toBe(601);
      const pass = await ledger.compact(LATER(t));
      expect(pass).toEqual({ orders: 300, movements: 512 });
      expect(await pages()).toEqual(before);
      const all = (await ledger.wallets.statementPage(7001, 0, 1_000)).movements.reverse();
      expect(replay(7001, all)).toEqual(before.wallet);
      // The rest waits until it fills a chunk (and the newest 20 always stay).
      expect(await ledger.compact(LATER(t))).toEqual({ orders: 0, movements: 0 });
    } finally {
      await cleanup();
    }
  });

  describe("on a Redis of its own with Redis's default settings", () => {
    let redis: Awaited<ReturnType<typeof ownRedis>>;
    let storage: Storage;
    beforeAll(async () => {
      redis = await ownRedis();
      storage = await createStorage({ redisUrl: redis.url, prefix: "topup:" });
    });
    afterAll(async () => {
      await storage.close();
      await redis.stop();
    });

    /** MEMORY USAGE of every key (exact: SAMPLES 0), summed. */
    async function bytes(): Promise<number> {
      if (storage.kind !== "redis") throw new Error("redis expected");
      let total = 0;
      for await (const keys of storage.redis.scanIterator({ COUNT: 1000 }))
        for (const key of keys)
          total += Number(await storage.redis.sendCommand(["MEMORY", "USAGE", key, "SAMPLES", "0"]));
      return total;
    }

    it("when 1,000 orders of 1,000 players are sold, then each takes under 1,000 bytes, and under 300 once compacted, everything that finds it included", async () => {
      if (storage.kind !== "redis") throw new Error("redis expected");
      const ledger = createLedger(storage);
      await ledger.upgrade();
      const t = Date.parse("2026-06-10T01:00:00Z");
      const orders = Array.from({ length: 1_000 }, (_, i) =>
        made(t + i * 30_000, { playerId: `${20_000_000 + i * 7919}(${1000 + (i % 9000)})` }),
      );
      const empty = await bytes();
      for (const [i, o] of orders.entries()) await sold(ledger, o, t + i * 30_000 + 5_000, i);
      if (storage.kind !== "redis") throw new Error("redis expected");
      expect(await storage.redis.sendCommand(["OBJECT", "ENCODING", `topup:o:${orders[0]!.refId}`])).toBe("listpack");
      const recent = ((await bytes()) - empty) / orders.length;
      expect((await ledger.compact(LATER(t))).orders).toBe(1_000);
      const compacted = ((await bytes()) - empty) / orders.length;
      expect(recent).toBeLessThan(1_000);
      expect(compacted).toBeLessThan(300);
      expect(await storage.redis.exists(`topup:o:${orders[0]!.refId}`)).toBe(0);
    }, 60_000);

    it("when a reseller buys 1,000 top-ups, then each takes under 1,000 bytes with its statement lines, and under 300 once compacted", async () => {
      const ledger = createLedger(storage);
      const t = Date.parse("2026-07-10T01:00:00Z");
      await credit(ledger, 7002, 100_000_000, t - HOUR);
      const orders = Array.from({ length: 1_000 }, (_, i) =>
        made(t + i * 30_000, {
          userId: 7002,
          chatId: 7002,
          role: "reseller",
          tier: "gold",
          playerId: `${30_000_000 + i * 7919}(${1000 + (i % 9000)})`,
        }),
      );
      const empty = await bytes();
      for (const [i, o] of orders.entries()) await sold(ledger, o, t + i * 30_000 + 5_000, i);
      const recent = ((await bytes()) - empty) / orders.length;
      const pass = await ledger.compact(LATER(t));
      expect(pass.orders).toBe(1_000);
      expect(pass.movements).toBe(1_792); // 2,001 movements: 7 chunks of 256; the newest 209 wait
      const compacted = ((await bytes()) - empty) / orders.length;
      expect(recent).toBeLessThan(1_000);
      expect(compacted).toBeLessThan(300);
    }, 60_000);
  });
});
