import { dayIn } from "../../src/calendar.js";
import { describe, expect, it } from "vitest";
import { createLedger } from "../../src/orders/create-ledger.js";
import { redisStorage } from "../helpers/redis.js";
import { draft } from "./fixtures.js";
import { createRedisLedgerV2 } from "./fixtures/ledger-v2.js";
import { ledgerViews, seedShop } from "./ledger-views.js";
import { replay } from "./wallets.contract.js";

const TZ = "Asia/Jakarta";
const dayOf = (iso: string) => dayIn(TZ, new Date(iso));

/** A Redis of its own prefix, written by the bot before this one (layout 2), and this bot's ledger on it. */
async function oldShop(name: string) {
  const { storage, prefix, cleanup } = await redisStorage(name);
  if (storage.kind !== "redis") throw new Error("redis expected");
  const old = createRedisLedgerV2(storage.redis, prefix, dayOf);
  await old.upgrade(); // the old bot's own first start: its version mark
  return { storage, redis: storage.redis, prefix, old, ledger: createLedger(storage, { timeZone: TZ }), cleanup };
}

describe("the ledger upgraded from the layout the bot before wrote (Redis)", () => {
  it("when a Redis holds orders and deposits without day figures, then the upgrade builds them once, equal to a recount", async () => {
    const { redis, prefix, old, ledger, cleanup } = await oldShop("upgrade-v1");
    try {
      const at = "2026-03-10T03:00:00.000Z";
      const success = draft({ price: 20000 });
      const unknown = draft({ price: 20000, userId: 502, chatId: 502 });
      for (const o of [success, unknown]) {
        await old.orders.saveDraft(o, 60_000);
        await old.orders.claim(o.refId, { userId: o.userId, at });
      }
      const detail = { name: "86 Diamonds", code: "ML86", price: 19500, rate: 1, priceRp: 19500, status: "SUKSES" };
      await old.orders.finish(success, { state: "success", at, result: { sn: "1", productDetail: detail } });
      await old.orders.finish(unknown, { state: "unknown", at, result: { reason: "timeout" } });
      const expected = await old.orders.dayFigures("2026-03-10");
      // As a bot before day figures left it: no day on the orders, no figures, no version.
      for (const o of [success, unknown]) await redis.hDel(`${prefix}o:${o.refId}`, "dy");
      await redis.del([
        `${prefix}day:2026-03-10`,
        `${prefix}dayd:2026-03-10`,
        `${prefix}ledger-version`,
        `${prefix}orders-by-player:${success.playerId}`,
      ]);

      expect(await ledger.upgrade()).toEqual({ from: 0, to: 3, tallied: { orders: 2, deposits: 0 }, orders: 2 });
      expect(await ledger.orders.dayFigures("2026-03-10")).toEqual(expected);
      const byPlayer = await ledger.orders.findOrders({ playerId: success.playerId, page: 0, pageSize: 10 });
      expect(byPlayer.orders.map((o) => o.refId).sort()).toEqual([success.refId, unknown.refId].sort());
      // Once: a second start finds nothing to do, and a settlement now moves the figures.
      expect(await ledger.upgrade()).toBeUndefined();
      await ledger.orders.settle(unknown, { state: "success", at, adminId: 1, result: { sn: "2" } });
      expect((await ledger.orders.dayFigures("2026-03-10")).byState).toEqual({
        success: 2,
        failed: 0,
        unknown: 0,
        submitting: 0,
      });
    } finally {
      await cleanup();
    }
  });

  it("when a Redis written by the bot before holds a shop, then after the upgrade every order, page, search, day, statement and wallet reads as before", async () => {
    const { redis, prefix, old, ledger, cleanup } = await oldShop("upgrade-v2");
    try {
      const seeded = await seedShop(old, { start: Date.parse("2026-03-08T01:00:00Z"), count: 160 });
      // A draft on someone's screen, and one cancelled: Confirm still works after the upgrade.
      const shown = draft({ userId: 501, chatId: 501 });
      await old.orders.saveDraft(shown, 3_600_000);
      const gone = draft({ userId: 502, chatId: 502 });
      await old.orders.saveDraft(gone, 3_600_000);
      await old.orders.cancel(gone.refId, { userId: 502, chatId: 502, at: new Date().toISOString() });
      const before = await ledgerViews(old, seeded);
      expect(before.orders.length).toBeGreaterThan(150);

      const upgraded = await ledger.upgrade();
      expect(upgraded).toMatchObject({ from: 2, to: 3, orders: seeded.refIds.length + 2 });
      expect(await ledgerViews(ledger, seeded)).toEqual(before);
      // Nothing of the old layout is left behind.
      expect(await redis.exists([`${prefix}orders-by-time`, `${prefix}balances`])).toBe(0);
      expect(await redis.hExists(`${prefix}o:${seeded.refIds[0]!}`, "d")).toBeFalsy();
      expect(await ledger.upgrade()).toBeUndefined();

      // The bot goes on: the draft shown before is confirmed, the cancelled one stays cancelled.
      expect((await ledger.orders.get(gone.refId))?.state).toBe("cancelled");
      expect(await redis.pTTL(`${prefix}o:${shown.refId}`)).toBeGreaterThan(0);
      const claim = await ledger.orders.claim(shown.refId, { userId: 501, at: new Date().toISOString() });
      expect(claim.kind).toBe("claimed");
      expect((await ledger.orders.history("all", 0, 1)).orders[0]?.refId).toBe(shown.refId);
      for (const w of await ledger.wallets.all()) {
        const lines = (await ledger.wallets.statementPage(w.userId, 0, 10_000)).movements.reverse();
        expect(replay(w.userId, lines)).toEqual(w);
      }
    } finally {
      await cleanup();
    }
  });

  it("when the upgrade stops after its first batch (a crash), then the next start finishes it and no order is lost or counted twice", async () => {
    const { redis, prefix, old, ledger, cleanup } = await oldShop("upgrade-stop");
    try {
      const seeded = await seedShop(old, { start: Date.parse("2026-03-01T01:00:00Z"), count: 1_100, stepMs: 60_000 });
      const before = await ledgerViews(old, seeded, { pageSize: 100 });
      const progress: number[] = [];
      await expect(
        ledger.upgrade({
          onProgress: (done) => {
            progress.push(done);
            throw new Error("killed");
          },
        }),
      ).rejects.toThrow("killed");
      expect(progress).toEqual([500]);
      expect(await redis.get(`${prefix}ledger-version`)).toBe("2");
      expect(await redis.zCard(`${prefix}orders-by-time`)).toBe(seeded.refIds.length - 500);

      const upgraded = await ledger.upgrade();
      expect(upgraded?.orders).toBe(seeded.refIds.length - 500);
      expect(await ledgerViews(ledger, seeded, { pageSize: 100 })).toEqual(before);
    } finally {
      await cleanup();
    }
  });
});
