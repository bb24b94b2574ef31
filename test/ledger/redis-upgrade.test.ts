import { dayIn, dayRange } from "../../src/calendar.js";
import { describe, expect, it } from "vitest";
import { createLedger } from "../../src/ledger/create-ledger.js";
import { hoursOf } from "../../src/orders/day-figures.js";
import { redisStorage } from "../helpers/redis.js";
import { draft } from "../orders/fixtures.js";
import { createRedisLedgerV2 } from "./fixtures/ledger-v2.js";
import { ledgerViews, seedShop, withHoursCounted } from "./ledger-views.js";
import { replay } from "./wallets.contract.js";

const TZ = "Asia/Jakarta";
const DAY = 86_400_000;
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

      expect(await ledger.upgrade()).toEqual({
        from: 0,
        to: 4,
        tallied: { orders: 2, deposits: 0 },
        orders: 2,
        hours: 1,
      });
      // Both sent at 10:00 in Jakarta: that hour counts them, and the money of the one sold.
      const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0, selling: 0, provider: 0 }));
      hours[10] = { hour: 10, count: 2, selling: 20000, provider: 19500 };
      expect(await ledger.orders.dayFigures("2026-03-10")).toEqual({ ...expected, byHour: hours });
      const byPlayer = await ledger.orders.findOrders({ playerId: success.playerId, page: 0, pageSize: 10 });
      expect(byPlayer.orders.map((o) => o.refId).sort()).toEqual([success.refId, unknown.refId].sort());
      // Once: a second start finds nothing to do, and a settlement now moves the figures.
      expect(await ledger.upgrade()).toBeUndefined();
      await ledger.orders.settle(unknown, { state: "success", at, adminId: 1, result: { sn: "2" } });
      const settled = await ledger.orders.dayFigures("2026-03-10");
      expect(settled.byState).toEqual({ success: 2, failed: 0, unknown: 0, submitting: 0 });
      // Its hour takes the settled sale too (a cost nobody knows adds nothing to the provider's).
      expect(settled.byHour[10]).toEqual({ hour: 10, count: 2, selling: 40000, provider: 19500 });
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
      expect(upgraded).toMatchObject({ from: 2, to: 4, orders: seeded.refIds.length + 2 });
      expect(await ledgerViews(ledger, seeded)).toEqual(withHoursCounted(before));
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
      expect(await ledgerViews(ledger, seeded, { pageSize: 100 })).toEqual(withHoursCounted(before));
    } finally {
      await cleanup();
    }
  });

  it("when a Redis holds days recorded without their hours, then the upgrade counts them from the orders, and orders still open add to their hour when they end", async () => {
    const { storage, prefix, cleanup } = await redisStorage("upgrade-hours");
    try {
      if (storage.kind !== "redis") throw new Error("redis expected");
      const redis = storage.redis;
      const ledger = createLedger(storage, { timeZone: TZ });
      await ledger.upgrade();
      const start = Date.parse("2026-03-08T01:00:00Z");
      const seeded = await seedShop(ledger, { start, count: 120 });
      await ledger.compact({ before: new Date(start + 60 * DAY), now: new Date(start + 60 * DAY) });
      // As the layout before hours left them: no hour fields, no hour on the open orders.
      for (const day of seeded.days) {
        const fields = (await redis.hKeys(`${prefix}dayd:${day}`)).filter((f) => f.startsWith("h:"));
        if (fields.length > 0) await redis.hDel(`${prefix}dayd:${day}`, fields);
      }
      for (const o of [...seeded.open, ...seeded.unknown]) await redis.hDel(`${prefix}o:${o.refId}`, "hr");
      await redis.set(`${prefix}ledger-version`, "3");
      expect((await ledger.orders.dayFigures(seeded.days[0]!)).byHour.every((h) => h.count === 0)).toBe(true);

      const upgraded = await ledger.upgrade();
      expect(upgraded).toMatchObject({ from: 3, to: 4, orders: 0, hours: seeded.days.length });
      const hoursAgree = async () => {
        for (const day of seeded.days) {
          const range = dayRange(day, TZ)!;
          const orders = await ledger.orders.submittedBetween(range.fromMs, range.toMs);
          expect((await ledger.orders.dayFigures(day)).byHour).toEqual(hoursOf(orders, TZ));
        }
      };
      await hoursAgree();
      expect(seeded.open.length + seeded.unknown.length).toBeGreaterThan(0);
      const at = new Date(start + 30 * DAY).toISOString();
      const detail = { name: "x", code: "ML86", price: 1, rate: 1, priceRp: 17000, status: "SUKSES" };
      for (const o of seeded.open)
        await ledger.orders.finish(o, { state: "success", at, result: { sn: "9", productDetail: detail } });
      for (const o of seeded.unknown)
        await ledger.orders.settle(o, { state: "success", at, adminId: 1, result: { sn: "8", providerPrice: 9000 } });
      await hoursAgree();
      expect(await ledger.upgrade()).toBeUndefined();
    } finally {
      await cleanup();
    }
  });
});
