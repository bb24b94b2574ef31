/**
 * The back office's read side: every figure and list the owner reads, in chat and in the Mini App,
 * computed in one place from the ledger's per-day figures; screens only render them.
 */
import { depositsMonthCsv, type DepositsCsv } from "./deposits-csv.js";
import type { DepositRequestStore, RequestDayFigures } from "../deposits/request-store.js";
import type { Access } from "../access/access.js";
import type { People } from "../access/people.js";
import { dayIn, dayRange, daysUpTo } from "../calendar.js";
import type { OrderLedger } from "../orders/ledger.js";
import { MAIN_PROVIDER, type BalanceSeen } from "../orders/order.js";
import type { Wallets } from "../orders/wallet.js";
import type { Shop } from "../shop/shop.js";
import { csvFile, eachLineWithPartnerRef } from "./csv.js";
import { exportMonth, exportMonthXlsx, type MonthExport } from "./export.js";
import { bytesOf, ordersXlsx } from "./xlsx.js";
import { dayPoints, daySummary, moneyLine, type DayPoint, type DaySummary } from "./figures.js";
import { createOrderReports, type OrderReports } from "./orders.js";
import { createQuestions, type Questions } from "./questions.js";
import { createResellerReports, type Owed, type ResellerReports } from "./resellers.js";

/** The days the Today page's chart shows, today last. */
export const SERIES_DAYS = 30;

/** A day's books and its resellers' deposit requests (asked, approved, rejected, expired). */
export interface DayReport extends DaySummary {
  requests: RequestDayFigures;
}

/** The Today page: the day's books, the provider balance, what the shop owes, and the last 30 days. */
export interface TodayReport extends Omit<DayReport, "byUser" | "byReseller"> {
  /** The first provider's balance after its last sale, and when it was seen (a one-provider shop's only one). */
  balance: { balance: number; at: string } | null;
  /** Each provider's balance after its last sale (null: none seen yet), in preference order. */
  balances: Array<{ provider: string; balance: { balance: number; at: string } | null }>;
  owed: Owed;
  /** Orders whose result is unknown, waiting to be settled. */
  pending: number;
  /** The last SERIES_DAYS days, oldest first (today last). */
  days: DayPoint[];
}

/** A day's orders as CSV, and how many orders it has. */
export interface DayCsv {
  /** The file's bytes (UTF-8). */
  csv: Buffer<ArrayBuffer>;
  count: number;
}

/**
 * What the owner reads, in one place: every figure and list the back office shows (the chat's
 * /report, /export, /saldo, /pending, /history and the owner's questions; the Mini App's pages)
 * is computed here, from the ledger's per-day figures and indexes, the wallets, access, names and
 * the catalogue. The chat's features and the Mini App's routes only render these answers, so a
 * figure is the same whichever screen shows it. Nothing here changes anything.
 */
export interface Reports {
  /** Today's books, the provider balance, what the shop owes, what waits, and the 30-day series. */
  today(): Promise<TodayReport>;
  /** A day's books (`YYYY-MM-DD` in the shop's time zone); undefined for no such day. */
  day(day: string): Promise<DayReport | undefined>;
  /** A day's orders as CSV; undefined for no such day. */
  dayCsv(day: string): Promise<DayCsv | undefined>;
  /** A month's deposits (`YYYY-MM`) as CSV, with the request each answers and who approved it. */
  monthDeposits(month: string): Promise<DepositsCsv>;
  /** A month's orders (`YYYY-MM`) as one CSV, read a day at a time as it is sent. */
  monthExport(month: string): Promise<MonthExport>;
  /** A month's orders as an Excel workbook (typed cells), written a day at a time as it is sent. */
  monthXlsx(month: string): Promise<MonthExport>;
  /** A day's orders as an Excel workbook; undefined for no such day. */
  dayXlsx(day: string): Promise<{ xlsx: Buffer; count: number } | undefined>;
  /** The provider balance the last sale reported (main's). */
  providerBalance(): Promise<BalanceSeen | undefined>;
  /**
   * Each provider's balance as its last sale reported it (undefined: none seen yet): the configured
   * providers in preference order, then any other that reported one (a provider since removed).
   */
  providerBalances(): Promise<ProviderBalance[]>;
  /** The provider price last seen for each product (a selling price below it loses money). */
  providerPrices(): Promise<Map<string, number>>;
  orders: OrderReports;
  resellers: ResellerReports;
  questions: Questions;
}

/** A provider's last balance (undefined: no sale of it reported one yet). */
export interface ProviderBalance {
  provider: string;
  balance: BalanceSeen | undefined;
}

export interface ReportsDeps {
  ledger: Pick<
    OrderLedger,
    | "get"
    | "getMany"
    | "findOrders"
    | "history"
    | "pending"
    | "eachSubmittedLine"
    | "lastBalance"
    | "balances"
    | "lastProviderPrices"
    | "dayFigures"
    | "daysFigures"
    | "daysDetail"
    | "partnerOrder"
    | "partnerRefOf"
  >;
  /** The resellers who ever had an H2H key (their ref_ids name orders too). */
  partnerUsers: () => Promise<number[]>;
  wallets: Pick<Wallets, "get" | "all" | "totals" | "statement" | "statementPage" | "depositsBetween">;
  /** Resellers' deposit requests, counted per day as they are asked and decided. */
  requests: Pick<DepositRequestStore, "dayFigures">;
  access: Pick<Access, "list">;
  people: Pick<People, "get">;
  shop: Pick<Shop, "state" | "catalog">;
  /** The shop's time zone (TZ): its days and months. */
  timeZone: string;
  refIdPrefix: string;
  /** The configured providers' names, in preference order (absent: main alone). */
  providers?: readonly string[];
  now: () => Date;
}

const shown = (seen: BalanceSeen | undefined) => (seen === undefined ? null : { balance: seen.balance, at: seen.at });

export function createReports(deps: ReportsDeps): Reports {
  const { ledger, timeZone } = deps;
  const today = () => dayIn(timeZone, deps.now());
  async function providerBalances(): Promise<ProviderBalance[]> {
    const seen = await ledger.balances();
    const names = [...new Set([...(deps.providers ?? [MAIN_PROVIDER]), ...seen.keys()])];
    return names.map((provider) => ({ provider, balance: seen.get(provider) }));
  }
  return {
    async today() {
      const day = today();
      const days = daysUpTo(day, SERIES_DAYS);
      const [figures, series, balances, owed, pending, requests] = await Promise.all([
        ledger.dayFigures(day),
        ledger.daysFigures(days),
        providerBalances(),
        deps.wallets.totals(),
        ledger.pending(),
        deps.requests.dayFigures(day),
      ]);
      const { byUser: _byUser, byReseller: _byReseller, ...summary } = daySummary(day, figures);
      return {
        ...summary,
        byProduct: figures.byProduct.map(moneyLine),
        balance: shown(balances[0]?.balance),
        balances: balances.map((b) => ({ provider: b.provider, balance: shown(b.balance) })),
        owed: { ...owed, total: owed.saldo + owed.held },
        pending: pending.length,
        days: dayPoints(days, series),
        requests,
      };
    },
    async day(day) {
      if (dayRange(day, timeZone) === undefined) return undefined;
      const [figures, requests] = await Promise.all([ledger.dayFigures(day), deps.requests.dayFigures(day)]);
      return { ...daySummary(day, figures), requests };
    },
    async dayCsv(day) {
      const range = dayRange(day, timeZone);
      if (range === undefined) return undefined;
      const file = csvFile(timeZone, { header: true });
      await eachLineWithPartnerRef(ledger, range.fromMs, range.toMs, (line) => file.add(line));
      return { csv: file.bytes(), count: file.rows };
    },
    async dayXlsx(day) {
      const range = dayRange(day, timeZone);
      if (range === undefined) return undefined;
      const book = ordersXlsx(timeZone);
      const bytes = bytesOf(book.file);
      await eachLineWithPartnerRef(ledger, range.fromMs, range.toMs, (line) => book.add(line));
      await book.end();
      return { xlsx: await bytes, count: book.rows };
    },
    monthExport: (month) => exportMonth({ orders: ledger, timeZone }, month),
    monthXlsx: (month) => exportMonthXlsx({ orders: ledger, timeZone }, month),
    monthDeposits: (month) => depositsMonthCsv({ wallets: deps.wallets, people: deps.people, timeZone }, month),
    providerBalance: () => ledger.lastBalance(),
    providerBalances,
    providerPrices: () => ledger.lastProviderPrices(),
    orders: createOrderReports(deps),
    resellers: createResellerReports(deps),
    questions: createQuestions({
      daysDetail: (days) => ledger.daysDetail(days),
      daysTotals: (days) => ledger.daysFigures(days),
      today,
    }),
  };
}
