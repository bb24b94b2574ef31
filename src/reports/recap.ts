import { daysUpTo } from "../calendar.js";
import type { OrderLedger } from "../orders/ledger.js";
import type { OrderRecord } from "../orders/order.js";
import { dayPoints, type DayPoint, type OrderCounts, type Unpriced } from "./figures.js";
import type { ProviderBalance, Reports } from "./reports.js";
import type { Owed } from "./resellers.js";

/** The days the recap's picture compares: the day and the six before it. */
export const RECAP_DAYS = 7;
/** How many of the oldest pending orders the recap names (the rest are counted). */
export const RECAP_OLDEST_PENDING = 3;

/** A pending order as the recap names it: its ref id and when it was sent. */
export interface PendingRef {
  refId: string;
  at: string;
}

/**
 * The evening recap's figures for one day: the day's books as /report reads them, what the shop
 * owes its resellers and each provider's balance as they stand when it is made, the orders still
 * waiting for a result (all of them, not only the day's: each one needs an admin), and the day
 * against the six before it.
 */
export interface RecapFigures {
  day: string;
  orders: OrderCounts;
  /** What the day's successful sales sold for. */
  selling: number;
  margin: number;
  unpriced: Unpriced;
  /** Deposits credited to resellers that day. */
  deposits: number;
  owed: Owed;
  balances: ProviderBalance[];
  pending: { count: number; oldest: PendingRef[] };
  /** The last RECAP_DAYS days, oldest first, the day last. */
  week: DayPoint[];
}

export interface RecapFiguresDeps {
  reports: Pick<Reports, "day" | "providerBalances" | "resellers" | "orders">;
  ledger: Pick<OrderLedger, "daysFigures">;
}

const sentAt = (order: OrderRecord) => order.submittedAt ?? order.createdAt;

/**
 * The recap of `day` (`YYYY-MM-DD` in the shop's time zone), read from the same per-day figures,
 * wallets' totals and balances as the back office's other screens: nothing is counted again here.
 */
export async function recapFigures(deps: RecapFiguresDeps, day: string): Promise<RecapFigures> {
  const days = daysUpTo(day, RECAP_DAYS);
  const [summary, series, balances, owed, pending] = await Promise.all([
    deps.reports.day(day),
    deps.ledger.daysFigures(days),
    deps.reports.providerBalances(),
    deps.reports.resellers.owed(),
    deps.reports.orders.pending(),
  ]);
  if (summary === undefined) throw new Error(`recap of ${day}: not a day`);
  // The ledger lists them oldest first.
  const oldest = pending.slice(0, RECAP_OLDEST_PENDING).map((o) => ({ refId: o.refId, at: sentAt(o) }));
  return {
    day,
    orders: summary.orders,
    selling: summary.selling,
    margin: summary.margin,
    unpriced: summary.unpriced,
    deposits: summary.deposits,
    owed,
    balances,
    pending: { count: pending.length, oldest },
    week: dayPoints(days, series),
  };
}
