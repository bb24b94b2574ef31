import { costOf, MAIN_PROVIDER, type OrderRecord } from "../orders/order.js";
import type { ApiFigures, DayFigures, ReportLine, ResellerLine } from "../orders/day-figures.js";

/**
 * Money as the owner reads it, computed here once for every screen (the chat's /report, the Mini
 * App's Today, the top lists): each line carries its margin, and a sale whose provider price nobody
 * knows is left out of every margin (never counted as bought for nothing), and counted apart.
 */

/** Orders of a day (or a period) by where they stand; `total` is every order sent to the provider. */
export interface OrderCounts {
  total: number;
  success: number;
  failed: number;
  unknown: number;
  submitting: number;
}

/** A product's or a buyer's sales: how many, what they sold for, what they cost, the margin. */
export interface MoneyLine extends ReportLine {
  /** Selling less provider cost, over the successes whose provider price is known (not `unpriced`). */
  margin: number;
}

/** A reseller's sales at their price, the shop's profit on them, and the money they deposited. */
export interface ResellerMoneyLine extends ResellerLine {
  /** The shop's margin on their sales whose provider price is known. */
  profit: number;
}

/** Sales whose provider price nobody knows (settled without one): how many and what they sold for. */
export interface Unpriced {
  count: number;
  selling: number;
}

/** A day's books: what sold, what it cost, the margin, and its lines by product, buyer and reseller. */
export interface DaySummary {
  day: string;
  orders: OrderCounts;
  selling: number;
  provider: number;
  margin: number;
  unpriced: Unpriced;
  deposits: number;
  byProduct: MoneyLine[];
  byUser: MoneyLine[];
  byReseller: ResellerMoneyLine[];
  /**
   * Each provider's orders (whose outcome was recorded at it), what its successes sold for and cost,
   * the margin; empty when main is the only provider that appears (a one-provider shop's every day).
   */
  byProvider: MoneyLine[];
  /** The part of the day that resellers' own systems ordered through the H2H API. */
  api: ApiFigures;
}

/** One day of the chart. */
export interface DayPoint {
  day: string;
  /** Successful sales. */
  sales: number;
  selling: number;
  provider: number;
  margin: number;
  /** The provider balance last seen that day, or before it. */
  balance: number | null;
}

/**
 * The margin of a line, a day or a reseller: what sold at a known provider price, less that price.
 * A sale whose provider price nobody knows is left out.
 */
export const marginOf = (line: { selling: number; provider: number; unpriced: number }): number =>
  line.selling - line.unpriced - line.provider;

export const moneyLine = (line: ReportLine): MoneyLine => ({ ...line, margin: marginOf(line) });

export const resellerMoneyLine = (line: ResellerLine): ResellerMoneyLine => ({
  ...line,
  profit: marginOf({ selling: line.sales, provider: line.provider, unpriced: line.unpriced }),
});

export const countsOf = (f: Pick<DayFigures, "total" | "byState">): OrderCounts => ({ total: f.total, ...f.byState });

/**
 * Lines by provider as the owner reads them: only when a provider other than main appears (a day
 * of main alone says nothing a one-provider shop's report does not say already).
 */
export function perProvider<T extends { key: string }>(lines: T[]): T[] {
  return lines.some((l) => l.key !== MAIN_PROVIDER) ? lines : [];
}

/** A day's books from the figures the ledger keeps for it. */
export function daySummary(day: string, f: DayFigures): DaySummary {
  return {
    day,
    orders: countsOf(f),
    selling: f.selling,
    provider: f.provider,
    margin: marginOf(f),
    unpriced: { count: f.unpricedCount, selling: f.unpriced },
    deposits: f.deposits,
    byProduct: f.byProduct.map(moneyLine),
    byUser: f.byUser.map(moneyLine),
    byReseller: f.byReseller.map(resellerMoneyLine),
    byProvider: perProvider(f.byProvider.map(moneyLine)),
    api: f.api,
  };
}

/** The chart's days, oldest first: a day without a sale keeps the provider balance seen before it. */
export function dayPoints(days: readonly string[], figures: readonly DayFigures[]): DayPoint[] {
  let known: number | null = null;
  return figures.map((f, i) => {
    known = f.balance?.balance ?? known;
    return {
      day: days[i]!,
      sales: f.byState.success,
      selling: f.selling,
      provider: f.provider,
      margin: marginOf(f),
      balance: known,
    };
  });
}

/**
 * What one sale made: its price less what the provider charged, with that cost; undefined for an
 * order that did not succeed, has no price, or whose provider price nobody knows.
 */
export function saleMargin(order: OrderRecord): { cost: number; margin: number } | undefined {
  if (order.state !== "success" || order.price === null) return undefined;
  const cost = costOf(order.result);
  return cost === undefined ? undefined : { cost, margin: order.price - cost };
}
