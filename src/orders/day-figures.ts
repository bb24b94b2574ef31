import { hourIn } from "../calendar.js";
import { costOf, MAIN_PROVIDER, type OrderRecord, type OrderState } from "./order.js";

export interface ReportLine {
  /** What the line is of: a product's code, a user's id. */
  key: string;
  name: string;
  count: number;
  selling: number;
  /** What the successes cost at the provider, where that is known. */
  provider: number;
  /** The selling price of successes whose provider price nobody knows: left out of the margin. */
  unpriced: number;
}

/**
 * A day's orders summed: how many in each state, the money of the successes, and the same by
 * product, user, reseller and the H2H API.
 */
export interface DaySums {
  total: number;
  byState: Record<Exclude<OrderState, "draft" | "cancelled">, number>;
  selling: number;
  provider: number;
  /** Successes whose provider price nobody knows (settled without one): how many, and what they sold for. */
  unpriced: number;
  unpricedCount: number;
  byProduct: ReportLine[];
  byUser: ReportLine[];
  /** Each reseller who bought or deposited that day. */
  byReseller: ResellerLine[];
  /**
   * Each provider's part (key and name: its name): `count` the orders whose outcome was recorded
   * at it (their current attempt's provider then: a success under the one that fulfilled it), the
   * money of its successes. Orders of a shop with one provider are all `main`, and so is every order of
   * a day before there were several (main's line is the day less the others').
   */
  byProvider: ReportLine[];
  /** The part of the day that resellers' own systems ordered through the H2H API. */
  api: ApiFigures;
}

/** The orders of a day sent through the H2H API (chat id 0); all zero on a day without one. */
export interface ApiFigures {
  /** Every one sent to the provider, whatever its outcome so far. */
  orders: number;
  /** The successes, and what they sold for. */
  sold: number;
  revenue: number;
  failed: number;
}

/** A reseller's day: sales at their price, the shop's profit on them, the money they deposited. */
export interface ResellerLine {
  userId: number;
  name: string;
  tier: string;
  count: number;
  /** What they paid the shop for the day's successful orders. */
  sales: number;
  provider: number;
  /** Their sales whose provider price nobody knows: left out of the profit. */
  unpriced: number;
  /** Deposits less corrections credited that day. */
  deposits: number;
}

/**
 * Counts orders by the hour (in `timeZone`) they were sent: every order sent, whatever its
 * outcome; the money of the successes only, as the day's totals count it.
 */
export function hoursOf(orders: readonly OrderRecord[], timeZone: string): HourLine[] {
  const hours: HourLine[] = Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0, selling: 0, provider: 0 }));
  for (const order of orders) {
    if (order.state === "draft" || order.state === "cancelled") continue;
    const line = hours[hourIn(timeZone, Date.parse(order.submittedAt ?? order.createdAt))]!;
    line.count += 1;
    if (order.state !== "success") continue;
    line.selling += order.price ?? 0;
    line.provider += costOf(order.result) ?? 0;
  }
  return hours;
}

/** The orders sent in one hour of a day (in the shop's time zone), whatever their outcome so far. */
export interface HourLine {
  /** 0 to 23. */
  hour: number;
  count: number;
  /** The selling price of those orders that succeeded, and what the provider charged for them. */
  selling: number;
  provider: number;
}

/** A day as the ledger keeps it, figures updated as its orders finish: its sums, its deposits, the balance last seen. */
export interface DayFigures extends DaySums {
  /**
   * The 24 hours of the day, orders counted by the hour they were sent (all zero when only the
   * day's totals were read).
   */
  byHour: HourLine[];
  /** Deposits less corrections credited that day. */
  deposits: number;
  /** The provider balance last seen that day (its end-of-day balance, once the day is over). */
  balance?: { balance: number; at: string };
}

/**
 * A day's figures from the two hashes the ledger keeps for it (redis.ts: day:DAY and
 * dayd:DAY; the memory ledger keeps the same fields): the sums of its orders, without reading one.
 */
export function figuresOf(
  totals: Readonly<Record<string, string>>,
  detail: Readonly<Record<string, string>>,
): DayFigures {
  const n = (h: Readonly<Record<string, string>>, key: string) => Number(h[key] ?? 0);
  const byState = {
    success: n(totals, "c:s"),
    failed: n(totals, "c:f"),
    unknown: n(totals, "c:u"),
    submitting: n(totals, "c:p"),
  };
  const lines = new Map<string, Map<string, string>>();
  for (const [field, value] of Object.entries(detail)) {
    const cut = field.lastIndexOf(":");
    const head = field.slice(0, cut);
    let line = lines.get(head);
    if (line === undefined) lines.set(head, (line = new Map<string, string>()));
    line.set(field.slice(cut + 1), value);
  }
  const num = (line: Map<string, string>, key: string) => Number(line.get(key) ?? 0);
  const byProduct: ReportLine[] = [];
  const byUser: ReportLine[] = [];
  const byReseller: ResellerLine[] = [];
  const byProvider: ReportLine[] = [];
  const byHour: HourLine[] = Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0, selling: 0, provider: 0 }));
  for (const [head, line] of lines) {
    const [kind, id] = [head.slice(0, 1), head.slice(2)];
    if (kind === "p" && num(line, "n") > 0) {
      byProduct.push({
        key: id,
        name: `${id} · ${line.get("m") ?? ""}`,
        count: num(line, "n"),
        selling: num(line, "s"),
        provider: num(line, "v"),
        unpriced: num(line, "u"),
      });
    } else if (kind === "u" && num(line, "n") > 0) {
      byUser.push({
        key: id,
        name: `${line.get("m") ?? ""} (${id})`,
        count: num(line, "n"),
        selling: num(line, "s"),
        provider: num(line, "v"),
        unpriced: num(line, "u"),
      });
    } else if (kind === "v" && num(line, "n") > 0) {
      byProvider.push({
        key: id,
        name: id,
        count: num(line, "n"),
        selling: num(line, "s"),
        provider: num(line, "v"),
        unpriced: num(line, "u"),
      });
    } else if (kind === "h") {
      const hour = byHour[Number(id)];
      if (hour !== undefined) {
        hour.count = num(line, "n");
        hour.selling = num(line, "s");
        hour.provider = num(line, "v");
      }
    } else if (kind === "r") {
      byReseller.push({
        userId: Number(id),
        name: line.get("m") ?? id,
        tier: line.get("t") ?? "",
        count: num(line, "n"),
        sales: num(line, "s"),
        provider: num(line, "v"),
        unpriced: num(line, "u"),
        deposits: num(line, "d"),
      });
    }
  }
  // Main's line is what the other providers' lines leave of the day's orders with an outcome and
  // their money: the ledger keeps none for it, so a day before several providers reads as all main.
  // Only with the breakdowns (a day with orders always has some: its hours).
  if (lines.size > 0) {
    const others = (key: "count" | "selling" | "provider" | "unpriced") =>
      byProvider.reduce((sum, line) => sum + line[key], 0);
    const main: ReportLine = {
      key: MAIN_PROVIDER,
      name: MAIN_PROVIDER,
      count: byState.success + byState.failed + byState.unknown - others("count"),
      selling: n(totals, "sell") - others("selling"),
      provider: n(totals, "cost") - others("provider"),
      unpriced: n(totals, "sellu") - others("unpriced"),
    };
    if (main.count > 0) byProvider.push(main);
  }
  const bySelling = (a: ReportLine, b: ReportLine) => b.selling - a.selling || a.name.localeCompare(b.name);
  const balance = totals.bal === undefined ? undefined : { balance: Number(totals.bal), at: totals.balAt ?? "" };
  return {
    total: byState.success + byState.failed + byState.unknown + byState.submitting,
    byState,
    selling: n(totals, "sell"),
    provider: n(totals, "cost"),
    unpriced: n(totals, "sellu"),
    unpricedCount: n(totals, "nu"),
    byProduct: byProduct.sort(bySelling),
    byUser: byUser.sort(bySelling),
    byReseller: byReseller.sort((a, b) => b.sales - a.sales || b.deposits - a.deposits || a.userId - b.userId),
    byProvider: byProvider.sort(bySelling),
    byHour,
    deposits: n(totals, "dep"),
    api: { orders: n(totals, "a:n"), sold: n(totals, "a:s"), revenue: n(totals, "a:sell"), failed: n(totals, "a:f") },
    ...(balance === undefined ? {} : { balance }),
  };
}
