import { createDepositRequestStore } from "../../src/deposits/request-store.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAccess } from "../../src/access/access.js";
import { createPeople } from "../../src/access/people.js";
import { createUserList } from "../../src/access/user-list.js";
import { createLedger } from "../../src/ledger/create-ledger.js";
import type { Ledger } from "../../src/orders/ledger.js";
import type { OrderRecord } from "../../src/orders/order.js";
import { createReports, type Reports } from "../../src/reports/reports.js";
import type { Storage } from "../../src/storage/storage.js";
import { draft, TEST_CATALOG } from "../orders/fixtures.js";
import { writePastDeposit, writePastOrder } from "../helpers/ledger-history.js";
import { redisStorage } from "../helpers/redis.js";

const TZ = "Asia/Jakarta";
/** "Now" for these tests: Thursday 2026-03-12, 15:00 in Jakarta. */
const NOW = new Date("2026-03-12T08:00:00Z");
const BUDI = { userId: 3001, userName: "Budi", role: "reseller" as const, tier: "reseller" };
const DEWI = { userId: 3002, userName: "Dewi", role: "reseller" as const, tier: "gold" };
const SARI = { userId: 501, userName: "Sari", role: "staff" as const };
const ML86 = { gameName: "Mobile Legends", productCode: "ML86", productName: "86 Diamonds" };
const FF70 = { gameName: "Free Fire", productCode: "FF70", productName: "70 Diamonds" };

let seq = 0;

describe("the owner's questions, from the figures kept per day", () => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let ledger: Ledger;
  let reports: Reports;

  /** A sale at `at` (Jakarta wall clock, `YYYY-MM-DDTHH:MM`), succeeded at the provider for `cost` (none: unknown). */
  async function sale(
    at: string,
    who: typeof BUDI | typeof DEWI | typeof SARI,
    product: typeof ML86 | typeof FF70,
    price: number,
    cost: number | "unpriced" | "failed",
    at2?: { provider: string; code: string; balance?: number },
  ): Promise<OrderRecord> {
    const via =
      at2 === undefined
        ? {}
        : {
            attempt: { provider: at2.provider, code: at2.code },
            ...(at2.balance === undefined ? {} : { balance: at2.balance }),
          };
    const submittedAt = new Date(`${at}:00+07:00`).toISOString();
    const order = draft({
      ...who,
      chatId: who.userId,
      ...product,
      price,
      refId: `TGQ${String(++seq).padStart(6, "0")}`,
      createdAt: submittedAt,
    });
    const done = new Date(Date.parse(submittedAt) + 5_000).toISOString();
    if (cost === "failed")
      return writePastOrder(ledger.orders, {
        draft: order,
        submittedAt,
        ...via,
        outcome: { state: "failed", at: done, result: { reason: "provider-error", errorCode: "x" } },
      });
    if (cost === "unpriced")
      return writePastOrder(ledger.orders, {
        draft: order,
        submittedAt,
        ...via,
        outcome: { state: "unknown", at: done, result: { reason: "timeout" } },
        settlement: { state: "success", at: done, adminId: 1, result: { sn: "S" } },
      });
    const detail = { name: product.productName, code: product.productCode, price: cost, rate: 1, priceRp: cost };
    return writePastOrder(ledger.orders, {
      draft: order,
      submittedAt,
      ...via,
      outcome: { state: "success", at: done, result: { sn: "S", productDetail: { ...detail, status: "SUKSES" } } },
    });
  }

  beforeEach(async () => {
    ({ storage, cleanup } = await redisStorage("reports"));
    ledger = createLedger(storage, { timeZone: TZ });
    const access = createAccess({
      users: createUserList(storage),
      adminIds: [1],
      allowedUserIds: [SARI.userId],
      resellerIds: [BUDI.userId, DEWI.userId],
      now: () => NOW,
    });
    reports = createReports({
      ledger: ledger.orders,
      partnerUsers: async () => [],
      wallets: ledger.wallets,
      requests: createDepositRequestStore(storage),
      access,
      people: createPeople(storage),
      shop: { state: async () => ({ catalog: TEST_CATALOG }) as never, catalog: async () => TEST_CATALOG },
      timeZone: TZ,
      refIdPrefix: "TG",
      now: () => NOW,
    });
    for (const r of [BUDI, DEWI]) {
      const deposit = {
        id: `DPQ${r.userId}`,
        resellerId: r.userId,
        amount: 1_000_000,
        note: "",
        adminId: 1,
        chatId: 1,
      };
      await writePastDeposit(
        ledger.wallets,
        { ...deposit, createdAt: "2026-02-01T01:00:00Z" },
        { at: "2026-02-01T01:00:00Z" },
      );
    }
    // Last month: the 2nd to the 12th match this month's days so far; the 20th does not.
    await sale("2026-02-02T09:00", BUDI, ML86, 19_000, 18_000);
    await sale("2026-02-11T10:00", SARI, FF70, 10_000, 9_000);
    await sale("2026-02-20T10:00", SARI, ML86, 20_000, 18_000);
    // Last week (Monday 2 to Sunday 8 March).
    await sale("2026-03-02T08:00", DEWI, ML86, 18_500, 18_000);
    await sale("2026-03-08T23:30", BUDI, FF70, 9_500, 9_000);
    // This week (Monday 9 March on), today the 12th.
    await sale("2026-03-09T00:10", SARI, ML86, 20_000, 18_000);
    await sale("2026-03-10T13:00", BUDI, ML86, 19_000, 18_000);
    await sale("2026-03-12T09:00", BUDI, ML86, 19_000, 18_000);
    await sale("2026-03-12T09:30", DEWI, FF70, 9_800, 9_000);
    await sale("2026-03-12T10:00", DEWI, FF70, 9_800, "unpriced");
    await sale("2026-03-12T11:00", BUDI, FF70, 9_500, "failed");
  });
  afterEach(() => cleanup());

  it("when the owner asks for today's top, then products and resellers come by revenue with their margin, an unpriced sale left out of it", async () => {
    const top = await reports.questions.top("day");
    expect(top.period).toEqual({ kind: "day", from: "2026-03-12", to: "2026-03-12" });
    expect(top.products.map((p) => [p.key, p.count, p.selling, p.margin, p.unpriced])).toEqual([
      ["FF70", 2, 19_600, 800, 9_800],
      ["ML86", 1, 19_000, 1_000, 0],
    ]);
    expect(top.resellers.map((r) => [r.userId, r.name, r.count, r.sales, r.profit])).toEqual([
      [DEWI.userId, "Dewi", 2, 19_600, 800],
      [BUDI.userId, "Budi", 1, 19_000, 1_000],
    ]);
    expect(top.totals.orders).toMatchObject({ total: 4, success: 3, failed: 1 });
    expect([top.totals.selling, top.totals.margin, top.totals.unpriced]).toEqual([
      38_600,
      1_800,
      { count: 1, selling: 9_800 },
    ]);
    expect([top.before, top.after]).toEqual(["2026-03-11", undefined]);
  });

  it("when the owner asks for the week and the month, then they run Monday to Sunday and from the 1st, and the week before is one tap away", async () => {
    const week = await reports.questions.top("week");
    expect(week.period).toEqual({ kind: "week", from: "2026-03-09", to: "2026-03-15" });
    expect(week.totals.days).toBe(4); // up to today
    expect(week.resellers.map((r) => [r.name, r.count, r.sales])).toEqual([
      ["Budi", 2, 38_000],
      ["Dewi", 2, 19_600],
    ]);
    expect(week.products.map((p) => [p.key, p.count, p.selling])).toEqual([
      ["ML86", 3, 58_000],
      ["FF70", 2, 19_600],
    ]);
    const lastWeek = await reports.questions.top("week", week.before);
    expect(lastWeek.period).toEqual({ kind: "week", from: "2026-03-02", to: "2026-03-08" });
    expect(lastWeek.after).toBe("2026-03-09");
    // 23:30 in Jakarta on Sunday is still that Sunday (16:30 UTC).
    expect(lastWeek.resellers.map((r) => [r.name, r.sales])).toEqual([
      ["Dewi", 18_500],
      ["Budi", 9_500],
    ]);
    const month = await reports.questions.top("month");
    expect(month.period).toEqual({ kind: "month", from: "2026-03-01", to: "2026-03-31" });
    expect(month.resellers.map((r) => [r.name, r.count, r.sales])).toEqual([
      ["Budi", 3, 47_500],
      ["Dewi", 3, 38_100],
    ]);
    expect(month.totals.selling).toBe(105_600);
  });

  it("when the owner compares this month with last month, then only the same days of last month count", async () => {
    const compare = await reports.questions.compareMonth();
    expect([compare.now.from, compare.now.to, compare.before.from, compare.before.to]).toEqual([
      "2026-03-01",
      "2026-03-12",
      "2026-02-01",
      "2026-02-12",
    ]);
    expect([compare.now.orders.success, compare.now.selling]).toEqual([7, 105_600]);
    expect([compare.before.orders.success, compare.before.selling, compare.before.margin]).toEqual([2, 29_000, 2_000]);
    // 105,600 against 29,000: +264 %; the margin 5,800 (an unpriced sale left out) against 2,000: +190 %.
    expect(compare.now.margin).toBe(5_800);
    expect(compare.change).toEqual({ sales: 250, selling: 264, margin: 190 });
  });

  it("when the owner asks when orders come, then each order counts in the hour it was sent, failed ones too, and the busiest hours come first", async () => {
    const today = await reports.questions.hours("day");
    expect(today.hours).toHaveLength(24);
    // 09:00 and 09:30 in one hour; the failed order at 11:00 was sent too, but sold nothing.
    expect(today.hours.filter((h) => h.count > 0).map((h) => [h.hour, h.count, h.selling, h.provider])).toEqual([
      [9, 2, 28_800, 27_000],
      [10, 1, 9_800, 0],
      [11, 1, 0, 0],
    ]);
    expect(today.busiest.map((h) => h.hour)).toEqual([9, 10, 11]);
    expect(today.totals.orders.total).toBe(4);
    const week = await reports.questions.hours("week");
    // Monday's 00:10 sale and Tuesday's 13:00 join the week; the hours add up across its days.
    expect(week.hours[0]!.count).toBe(1);
    expect(week.hours[13]!.count).toBe(1);
    expect(week.hours.reduce((n, h) => n + h.count, 0)).toBe(6);
    const lastWeek = await reports.questions.hours("week", week.before);
    // 23:30 on Sunday the 8th in Jakarta is 16:30 UTC: counted in the shop's hour 23.
    expect(lastWeek.busiest.map((h) => [h.hour, h.count])).toEqual([
      [8, 1],
      [23, 1],
    ]);
  });

  it("when the back office reads what the shop owes and its resellers, then every screen gets the same totals", async () => {
    const list = await reports.resellers.list();
    const owed = await reports.resellers.owed();
    expect(list.totals).toEqual(owed);
    expect(owed.total).toBe(list.resellers.reduce((sum, r) => sum + r.saldo + r.held, 0));
    // Budi spent 19,000 in February and 47,500 in March (a failed order's price came back); Dewi 38,100.
    expect(owed.total).toBe(2_000_000 - 66_500 - 38_100);
  });

  it("when only main sold, then no period or day names a provider (a one-provider shop's reports are as before)", async () => {
    expect((await reports.questions.top("month")).providers).toEqual([]);
    expect((await reports.day("2026-03-12"))?.byProvider).toEqual([]);
    const today = await reports.today();
    expect(today.byProvider).toEqual([]);
    expect(today.balances).toEqual([{ provider: "main", balance: null }]);
  });

  it("when a backup sold too, then the day, the week's top and Today give each provider's orders, cost and margin, and its own balance", async () => {
    await sale("2026-03-12T12:00", SARI, ML86, 20_000, 17_500, {
      provider: "backup",
      code: "MLBB86",
      balance: 480_000,
    });
    await sale("2026-03-10T12:00", BUDI, ML86, 19_000, 17_000, { provider: "backup", code: "MLBB86" });
    await sale("2026-03-12T12:30", SARI, FF70, 10_000, "failed", { provider: "backup", code: "FFX70" });
    const line = (l: { key: string; count: number; selling: number; provider: number; margin: number }) => [
      l.key,
      l.count,
      l.selling,
      l.provider,
      l.margin,
    ];
    const day = await reports.day("2026-03-12");
    // main today: three sales (one at an unknown provider price, left out of the margin) and a failure.
    expect(day!.byProvider.map(line)).toEqual([
      ["main", 4, 38_600, 27_000, 1_800],
      ["backup", 2, 20_000, 17_500, 2_500],
    ]);
    const week = await reports.questions.top("week");
    expect(week.providers.map(line)).toEqual([
      ["main", 6, 77_600, 63_000, 4_800],
      ["backup", 3, 39_000, 34_500, 4_500],
    ]);
    const today = await reports.today();
    expect(today.byProvider.map((l) => l.key)).toEqual(["main", "backup"]);
    expect(today.balances).toEqual([
      { provider: "main", balance: null },
      { provider: "backup", balance: { balance: 480_000, at: expect.any(String) } },
    ]);
  });
});
