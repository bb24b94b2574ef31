import { dayRange } from "../../src/calendar.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Ledger } from "../../src/orders/ledger.js";
import { orderLine } from "../../src/orders/order-line.js";
import { hoursOf, type DayFigures } from "../../src/orders/day-figures.js";
import { sumOrders } from "../helpers/day-sums.js";
import { draft } from "../orders/fixtures.js";
import { ledgerViews, seedShop } from "./ledger-views.js";
import { replay, type FullLedgerFactory } from "./wallets.contract.js";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const TZ = "Asia/Jakarta";
const START = Date.parse("2026-03-08T01:00:00Z");
/** Long after the seeded days: every finished order is due, told or not. */
const LATER = { before: new Date(START + 60 * DAY), now: new Date(START + 60 * DAY) };

/** What a recount of a day's orders and deposits says, in the shape of the kept figures. */
async function recount(ledger: Ledger, day: string): Promise<Omit<DayFigures, "balance">> {
  const range = dayRange(day, TZ)!;
  const orders = await ledger.orders.submittedBetween(range.fromMs, range.toMs);
  const deposits = await ledger.wallets.depositsBetween(range.fromMs, range.toMs);
  return {
    ...sumOrders(orders, deposits),
    byHour: hoursOf(orders, TZ),
    deposits: deposits.reduce((sum, d) => sum + d.amount, 0),
  };
}

/**
 * Compaction, against each ledger: finished orders leave the form an open order needs for a packed
 * one, and every answer the ledger gives stays exactly what it was: orders by ref id, every page
 * of every list and search, each day's orders, figures and statements.
 */
export function describeCompactionContract(name: string, factory: FullLedgerFactory): void {
  describe(`compaction of old orders: ${name}`, () => {
    let ledger: Ledger;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ ledger, cleanup } = await factory()));
    afterEach(() => cleanup());

    it("when every finished order is compacted, then every order, page, search, day, figure and statement reads as before", async () => {
      const seeded = await seedShop(ledger, { start: START, count: 170, providers: true });
      const before = await ledgerViews(ledger, seeded);
      const finished = before.orders.filter((o) => o.state === "success" || o.state === "failed").length;

      // A day's lines (what its CSV prints) are its orders' lines, whichever form the orders are in.
      for (const day of before.days) expect(day.lines).toEqual(day.orders.map(orderLine));
      const pass = await ledger.compact(LATER);
      expect(pass.orders).toBe(finished);
      const after = await ledgerViews(ledger, seeded);
      expect(after).toEqual(before);
      for (const day of after.days) expect(day.lines).toEqual(day.orders.map(orderLine));
      // Orders that went to the second provider keep their attempts in the packed form.
      const routed = after.orders.filter(
        (o) => o.attempt !== undefined && (o.state === "success" || o.state === "failed"),
      );
      expect(routed.length).toBeGreaterThan(20);
      expect(routed.filter((o) => o.refused !== undefined).length).toBeGreaterThan(10);
      expect(after.days.flatMap((d) => d.lines).filter((l) => l.refusedBy === "main").length).toBeGreaterThan(10);
      for (const day of seeded.days) {
        const { balance: _balance, ...kept } = await ledger.orders.dayFigures(day);
        expect(kept).toEqual(await recount(ledger, day));
      }
      for (const w of await ledger.wallets.all()) {
        const lines = (await ledger.wallets.statementPage(w.userId, 0, 100_000)).movements.reverse();
        expect(replay(w.userId, lines)).toEqual(w);
      }
      // A second pass finds nothing more to do.
      expect(await ledger.compact(LATER)).toEqual({ orders: 0, movements: 0 });
    });

    it("when an order is compacted, then an old Confirm, Cancel, a late answer and a settlement find it as it was and change nothing", async () => {
      const seeded = await seedShop(ledger, { start: START, count: 40 });
      await ledger.compact(LATER);
      const done = (await ledger.orders.getMany(seeded.refIds)).find((o) => o.state === "success")!;
      const figures = await ledger.orders.dayFigures(seeded.days[0]!);
      const wallet = await ledger.wallets.get(done.userId);

      expect(await ledger.orders.claim(done.refId, { userId: done.userId, at: new Date().toISOString() })).toEqual({
        kind: "taken",
        order: done,
      });
      expect(await ledger.orders.claim(done.refId, { userId: 999, at: new Date().toISOString() })).toEqual({
        kind: "not-yours",
      });
      expect(
        await ledger.orders.cancel(done.refId, {
          userId: done.userId,
          chatId: done.chatId,
          at: new Date().toISOString(),
        }),
      ).toEqual({ kind: "taken", order: done });
      const late = await ledger.orders.finish(
        done,
        { state: "failed", at: new Date().toISOString(), result: { reason: "provider-error" } },
        { acceptLate: true },
      );
      expect(late).toEqual({ kind: "stale", order: done });
      const settled = await ledger.orders.settle(done, {
        state: "failed",
        at: new Date().toISOString(),
        adminId: 502,
        result: { reason: "settled" },
      });
      expect(settled).toEqual({ kind: "not-pending", order: done });
      await ledger.orders.markNotified(done.refId, new Date().toISOString());
      expect(await ledger.orders.get(done.refId)).toEqual(done);
      expect(await ledger.orders.dayFigures(seeded.days[0]!)).toEqual(figures);
      expect(await ledger.wallets.get(done.userId)).toEqual(wallet);
    });

    it("when an unknown order of a compacted day is settled and compacted later, then it keeps its place by time everywhere", async () => {
      const seeded = await seedShop(ledger, { start: START, count: 120 });
      expect(seeded.unknown.length).toBeGreaterThan(1);
      await ledger.compact(LATER);
      const waiting = (await ledger.orders.pending()).map((o) => o.refId);
      expect(waiting).toEqual(expect.arrayContaining(seeded.unknown.map((o) => o.refId)));
      // Settled long after its day was compacted: an admin checked with the provider.
      for (const [i, o] of seeded.unknown.entries()) {
        const r = await ledger.orders.settle(o, {
          state: i % 2 === 0 ? "success" : "failed",
          at: new Date(START + 40 * DAY).toISOString(),
          adminId: 502,
          result: { sn: `S${i}` },
        });
        expect(r.kind).toBe("settled");
      }
      const before = await ledgerViews(ledger, seeded);
      expect((await ledger.compact(LATER)).orders).toBe(seeded.unknown.length);
      expect(await ledgerViews(ledger, seeded)).toEqual(before);
      for (const day of seeded.days) {
        const { balance: _balance, ...kept } = await ledger.orders.dayFigures(day);
        expect(kept).toEqual(await recount(ledger, day));
      }
    });

    it("when only orders before a time are due, then later ones, open ones and unknown ones stay as they are", async () => {
      const seeded = await seedShop(ledger, { start: START, count: 150 });
      const all = await ledger.orders.getMany(seeded.refIds);
      const cut = Date.parse(all[Math.floor(all.length / 2)]!.submittedAt!);
      const due = all.filter(
        (o) => (o.state === "success" || o.state === "failed") && Date.parse(o.submittedAt!) < cut,
      ).length;
      const before = await ledgerViews(ledger, seeded);
      expect((await ledger.compact({ before: new Date(cut), now: LATER.now })).orders).toBe(due);
      expect(await ledgerViews(ledger, seeded)).toEqual(before);
      // The rest comes at the next pass; new orders come in between.
      const newer = draft({ userId: 501, chatId: 501 });
      await ledger.orders.saveDraft(newer, HOUR);
      await ledger.orders.claim(newer.refId, { userId: 501, at: new Date(START + 10 * DAY).toISOString() });
      await ledger.orders.finish(newer, {
        state: "success",
        at: new Date(START + 10 * DAY).toISOString(),
        result: { sn: "9" },
      });
      const first = (await ledger.orders.history(501, 0, 3)).orders.map((o) => o.refId);
      expect(first[0]).toBe(newer.refId);
      await ledger.compact(LATER);
      expect((await ledger.orders.history(501, 0, 3)).orders.map((o) => o.refId)).toEqual(first);
      expect(await ledger.orders.get(newer.refId)).toMatchObject({ state: "success", result: { sn: "9" } });
    });

    it("when an order's user was not told yet, then it is compacted only a day after it finished", async () => {
      const order = draft({ userId: 501, chatId: 501 });
      const at = new Date(START).toISOString();
      await ledger.orders.saveDraft(order, HOUR);
      await ledger.orders.claim(order.refId, { userId: 501, at });
      await ledger.orders.finish(order, { state: "success", at, result: { sn: "1" } });
      const soon = { before: new Date(START + HOUR), now: new Date(START + HOUR) };
      expect((await ledger.compact(soon)).orders).toBe(0);
      await ledger.orders.markNotified(order.refId, new Date(START + 60_000).toISOString());
      expect((await ledger.compact(soon)).orders).toBe(1);
      expect(await ledger.orders.get(order.refId)).toMatchObject({ state: "success", notifiedAt: expect.any(String) });

      const untold = draft({ userId: 501, chatId: 501 });
      await ledger.orders.saveDraft(untold, HOUR);
      await ledger.orders.claim(untold.refId, { userId: 501, at });
      await ledger.orders.finish(untold, { state: "failed", at, result: { reason: "not-sent" } });
      expect((await ledger.compact(soon)).orders).toBe(0);
      expect((await ledger.compact({ before: soon.before, now: new Date(START + DAY + HOUR) })).orders).toBe(1);
      expect((await ledger.orders.get(untold.refId))?.notifiedAt).toBeUndefined();
    });

    it("when a pass is stopped on its way, then the next one finishes and nothing is lost or doubled", async () => {
      const seeded = await seedShop(ledger, { start: START, count: 100 });
      const before = await ledgerViews(ledger, seeded);
      let checks = 0;
      const partial = await ledger.compact({ ...LATER, shouldStop: () => ++checks > 1 });
      const rest = await ledger.compact(LATER);
      const finished = before.orders.filter((o) => o.state === "success" || o.state === "failed").length;
      expect(partial.orders + rest.orders).toBe(finished);
      expect(await ledgerViews(ledger, seeded)).toEqual(before);
    });
  });
}
