import { dayIn, dayRange } from "../../src/calendar.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Ledger } from "../../src/orders/ledger.js";
import { API_CHAT_ID, type FinalState, type OrderRecord } from "../../src/orders/order.js";
import { hoursOf, type DayFigures } from "../../src/orders/day-figures.js";
import { sumOrders } from "../helpers/day-sums.js";
import type { Deposit } from "../../src/orders/wallet.js";
import { draft } from "../orders/fixtures.js";

export type FiguresLedgerFactory = (timeZone: string) => Promise<{ ledger: Ledger; cleanup: () => Promise<void> }>;

const TZ = "Asia/Jakarta";
const HOUR = 60 * 60 * 1000;
/** Two shop days; the second starts at 17:00 UTC of the first (midnight in Jakarta). */
const DAY1 = Date.parse("2026-03-10T02:00:00Z");

/** A small deterministic random sequence (no clock, no Math.random): the same run every time. */
function sequence(seed: number) {
  let x = seed;
  return {
    next: () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648,
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(this.next() * items.length)]!;
    },
  };
}

/** What a recount of the day's orders and deposits says, in the shape of the kept figures. */
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
 * The day figures each ledger keeps on write (orders by state, money, by product, by user, by
 * reseller, deposits, what the shop owes): always equal to a recount from the orders, whatever
 * order outcomes, settlements and late answers come in.
 */
export function describeFiguresContract(name: string, factory: FiguresLedgerFactory): void {
  describe(`the day figures kept on write: ${name}`, () => {
    let ledger: Ledger;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ ledger, cleanup } = await factory(TZ)));
    afterEach(() => cleanup());

    it("when orders finish, are settled, answered late and deposits come in over two days, then every day's figures equal a recount", async () => {
      const rand = sequence(20261124);
      const users = [
        { userId: 501, userName: "Sari", role: "staff" as const },
        { userId: 502, userName: "Budi", role: "admin" as const },
        { userId: 7001, userName: "Dewi", role: "reseller" as const, tier: "gold" },
        { userId: 7002, userName: "Eko", role: "reseller" as const, tier: "reseller" },
      ];
      const products = [
        { productCode: "ML86", productName: "86 Diamonds", price: 20000, cost: 19500 },
        { productCode: "FF70", productName: "70 Diamonds", price: 10000, cost: 9400.4 },
        { productCode: "PUBG60", productName: "60 UC", price: null, cost: 14000 },
      ];
      let clock = DAY1;
      const tick = () => new Date((clock += 7 * 60 * 1000)).toISOString(); // 7 minutes a step: two days in ~400
      const open: OrderRecord[] = [];
      const unknown: OrderRecord[] = [];
      let depositSeq = 0;
      for (const u of users.filter((x) => x.role === "reseller")) {
        const d: Deposit = {
          id: `DPFIG${u.userId}X${++depositSeq}`,
          resellerId: u.userId,
          amount: 5_000_000,
          note: "",
          adminId: 502,
          chatId: 502,
          createdAt: tick(),
          state: "draft",
        };
        await ledger.wallets.saveDeposit(d, HOUR);
        expect((await ledger.wallets.confirmDeposit(d.id, { adminId: 502, at: tick() })).kind).toBe("done");
      }
      for (let step = 0; step < 400; step++) {
        const roll = rand.next();
        if (roll < 0.45 || open.length === 0) {
          const u = rand.pick(users);
          const p = rand.pick(products);
          // Every third order of a reseller comes from their own system, through the H2H API.
          const chatId = u.role === "reseller" && step % 3 === 0 ? API_CHAT_ID : u.userId;
          const o = draft({ ...u, chatId, ...p, price: p.price, productName: p.productName });
          delete (o as Partial<typeof o> & { cost?: number }).cost;
          await ledger.orders.saveDraft(o, 24 * HOUR);
          const claim = await ledger.orders.claim(o.refId, { userId: o.userId, at: tick() });
          if (claim.kind === "claimed") open.push(o);
        } else if (roll < 0.8) {
          const o = open.splice(Math.floor(rand.next() * open.length), 1)[0]!;
          const state = rand.pick<FinalState>(["success", "success", "success", "failed", "unknown"]);
          const cost = products.find((p) => p.productCode === o.productCode)!.cost;
          const at = tick();
          const result =
            state === "success"
              ? {
                  sn: "1",
                  productDetail: {
                    name: o.productName,
                    code: o.productCode,
                    price: cost,
                    rate: 1,
                    priceRp: cost,
                    status: "SUKSES",
                  },
                }
              : { reason: state === "failed" ? ("provider-error" as const) : ("timeout" as const) };
          const r = await ledger.orders.finish(
            o,
            { state, at, result },
            state === "success" ? { balance: { balance: 1_000_000 - step, at, refId: o.refId } } : {},
          );
          expect(r.kind).toBe("finished");
          if (state === "unknown") unknown.push(o);
        } else if (roll < 0.9 && unknown.length > 0) {
          const o = unknown.shift()!;
          const verdict = rand.pick<"success" | "failed">(["success", "failed"]);
          const r = await ledger.orders.settle(o, {
            state: verdict,
            at: tick(),
            adminId: 502,
            // A success the provider never priced: its cost given by the admin, or unknown (left
            // out of the margin, never counted as 0).
            result:
              verdict === "failed"
                ? { reason: "settled", errorMsg: "no" }
                : rand.next() < 0.5
                  ? { sn: "2" }
                  : { sn: "2", providerPrice: 9000, providerPriceFrom: "admin" as const },
          });
          expect(r.kind).toBe("settled");
        } else if (unknown.length > 0) {
          // The provider's own answer after recovery wrote unknown: it replaces the unknown.
          const o = unknown.shift()!;
          const at = tick();
          const r = await ledger.orders.finish(
            o,
            {
              state: "success",
              at,
              result: {
                sn: "3",
                productDetail: { name: "x", code: o.productCode, price: 1, rate: 1, priceRp: 999, status: "SUKSES" },
              },
            },
            { acceptLate: true },
          );
          expect(r.kind).toBe("finished");
        } else {
          const u = rand.pick(users.filter((x) => x.role === "reseller"));
          const d: Deposit = {
            id: `DPFIG${u.userId}X${++depositSeq}`,
            resellerId: u.userId,
            amount: rand.pick([100_000, 250_000, -50_000]),
            note: "",
            adminId: 502,
            chatId: 502,
            createdAt: tick(),
            state: "draft",
          };
          await ledger.wallets.saveDeposit(d, HOUR);
          await ledger.wallets.confirmDeposit(d.id, { adminId: 502, at: tick() });
        }
      }
      const days = [...new Set([DAY1, clock].map((t) => dayIn(TZ, new Date(t))))];
      expect(days.length).toBeGreaterThan(1);
      let unpriced = 0;
      const api = { orders: 0, sold: 0, failed: 0 };
      for (const day of days) {
        const kept = await ledger.orders.dayFigures(day);
        const { balance: _balance, ...figures } = kept;
        expect(figures).toEqual(await recount(ledger, day));
        expect(kept.total).toBeGreaterThan(0);
        unpriced += kept.unpricedCount;
        api.orders += kept.api.orders;
        api.sold += kept.api.sold;
        api.failed += kept.api.failed;
        const [totalsOnly] = await ledger.orders.daysFigures([day]);
        expect(totalsOnly).toMatchObject({
          total: kept.total,
          selling: kept.selling,
          provider: kept.provider,
          api: kept.api,
        });
      }
      expect(unpriced).toBeGreaterThan(0);
      // The API's orders were there, and some of them sold and some failed.
      expect(api.orders).toBeGreaterThan(api.sold + api.failed);
      expect(api.sold).toBeGreaterThan(0);
      expect(api.failed).toBeGreaterThan(0);
      const wallets = await ledger.wallets.all();
      expect(await ledger.wallets.totals()).toEqual({
        saldo: wallets.reduce((s, w) => s + w.saldo, 0),
        held: wallets.reduce((s, w) => s + w.held, 0),
      });
    });

    it("when orders come through the H2H API, then the day's API part counts exactly those, and no chat order", async () => {
      const detail = { name: "86 Diamonds", code: "ML86", price: 19500, rate: 1, priceRp: 19500, status: "SUKSES" };
      const at = (minute: number) => new Date(Date.parse("2026-03-10T03:00:00.000Z") + minute * 60_000).toISOString();
      const send = async (over: Partial<OrderRecord>, minute: number) => {
        const o = draft({ userId: 7001, userName: "Dewi", ...over });
        await ledger.orders.saveDraft(o, HOUR);
        expect((await ledger.orders.claim(o.refId, { userId: o.userId, at: at(minute) })).kind).toBe("claimed");
        return o;
      };
      const finish = (o: OrderRecord, state: FinalState, minute: number) =>
        ledger.orders.finish(o, {
          state,
          at: at(minute),
          result: state === "success" ? { sn: "1", productDetail: detail } : { reason: "provider-error" },
        });

      const sold = await send({ chatId: API_CHAT_ID, price: 20000 }, 0);
      await finish(sold, "success", 1);
      const failed = await send({ chatId: API_CHAT_ID, price: 20000 }, 2);
      await finish(failed, "failed", 3);
      const settled = await send({ chatId: API_CHAT_ID, price: 15000 }, 4);
      await finish(settled, "unknown", 5);
      const half = await ledger.orders.dayFigures("2026-03-10");
      expect(half.api).toEqual({ orders: 3, sold: 1, revenue: 20000, failed: 1 });
      const settle = await ledger.orders.settle(settled, {
        state: "success",
        at: at(6),
        adminId: 502,
        result: { sn: "2" },
      });
      expect(settle.kind).toBe("settled");
      await send({ chatId: API_CHAT_ID, price: 20000 }, 7); // still with the provider
      const chat = await send({ chatId: 7001, price: 20000 }, 8);
      await finish(chat, "success", 9);

      const day = await ledger.orders.dayFigures("2026-03-10");
      expect(day.api).toEqual({ orders: 4, sold: 2, revenue: 35000, failed: 1 });
      expect(day.byState).toEqual({ success: 3, failed: 1, unknown: 0, submitting: 1 });
      const { balance: _balance, ...figures } = day;
      expect(figures).toEqual(await recount(ledger, "2026-03-10"));
      expect((await ledger.orders.daysFigures(["2026-03-10"]))[0]!.api).toEqual(day.api);
      expect((await ledger.orders.dayFigures("2026-03-11")).api).toEqual({ orders: 0, sold: 0, revenue: 0, failed: 0 });
    });

    it("when several days' detail is read at once, then each day reads as it does alone, in the order asked for", async () => {
      const detail = { name: "86 Diamonds", code: "ML86", price: 19500, rate: 1, priceRp: 19500, status: "SUKSES" };
      for (const [at, userId] of [
        ["2026-03-10T03:00:00.000Z", 501],
        ["2026-03-10T09:30:00.000Z", 502],
        ["2026-03-11T01:00:00.000Z", 501],
      ] as const) {
        const o = draft({ userId, chatId: userId });
        await ledger.orders.saveDraft(o, HOUR);
        await ledger.orders.claim(o.refId, { userId, at });
        await ledger.orders.finish(o, { state: "success", at, result: { sn: "1", productDetail: detail } });
      }
      const days = ["2026-03-11", "2026-03-09", "2026-03-10"];
      const alone = await Promise.all(days.map((day) => ledger.orders.dayFigures(day)));
      expect(alone.map((f) => f.total)).toEqual([1, 0, 2]);
      expect(alone[2]!.byHour.filter((h) => h.count > 0).map((h) => h.hour)).toEqual([10, 16]);
      expect(await ledger.orders.daysDetail(days)).toEqual(alone);
      expect(await ledger.orders.daysDetail([])).toEqual([]);
    });

    it("when sales report balances, then a day keeps the last balance seen that day", async () => {
      const at1 = "2026-03-10T03:00:00.000Z";
      const at2 = "2026-03-10T05:00:00.000Z";
      for (const [at, balance] of [
        [at2, 800_000],
        [at1, 900_000],
      ] as const) {
        const o = draft();
        await ledger.orders.saveDraft(o, HOUR);
        await ledger.orders.claim(o.refId, { userId: o.userId, at });
        await ledger.orders.finish(
          o,
          { state: "success", at, result: { sn: "1", lastBalance: balance } },
          { balance: { balance, at, refId: o.refId } },
        );
      }
      // Answers recorded out of time order: the later balance stands.
      expect((await ledger.orders.dayFigures("2026-03-10")).balance).toEqual({ balance: 800_000, at: at2 });
      expect((await ledger.orders.dayFigures("2026-03-11")).total).toBe(0);
    });
  });
}
