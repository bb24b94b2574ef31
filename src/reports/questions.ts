import { dayPlus, daysOf, monthDays, periodOf, type Period, type PeriodKind } from "../calendar.js";
import type { DayFigures, HourLine, ReportLine } from "../orders/day-figures.js";
import {
  countsOf,
  marginOf,
  moneyLine,
  perProvider,
  resellerMoneyLine,
  type MoneyLine,
  type OrderCounts,
  type ResellerMoneyLine,
  type Unpriced,
} from "./figures.js";

/**
 * The owner's questions over more than a day: the top products and resellers of a day, a week or
 * a month; this month against the same days of last month. Each is added up from the figures the
 * ledger keeps per day (by product, by buyer, by reseller), never by reading the orders.
 */

/** A stretch of days added up: orders, what sold, what it cost, the margin. */
export interface PeriodTotals {
  from: string;
  /** The last day counted (today, for a period still going on). */
  to: string;
  /** How many days were counted. */
  days: number;
  orders: OrderCounts;
  selling: number;
  provider: number;
  margin: number;
  unpriced: Unpriced;
}

/** The products and resellers that sold most (by revenue) in a period, with the period's totals. */
export interface TopReport {
  period: Period;
  totals: PeriodTotals;
  products: MoneyLine[];
  resellers: ResellerMoneyLine[];
  /**
   * Each provider's orders, cost and margin over the period (by revenue); empty when main is the
   * only provider that appears in it.
   */
  providers: MoneyLine[];
  /** The period before and after it (none after the current one), for paging. */
  before: string;
  after?: string;
}

/** This month up to today against the same days of last month. */
export interface MonthCompare {
  now: PeriodTotals;
  before: PeriodTotals;
  /** The change in percent (rounded), or null when last month had nothing to compare with. */
  change: { sales: number | null; selling: number | null; margin: number | null };
}

/** When in the day orders come over a day, a week or a month: each hour's orders added up. */
export interface HoursReport {
  period: Period;
  totals: PeriodTotals;
  /** The 24 hours of the day in the shop's time zone, 0 to 23. */
  hours: HourLine[];
  /** The busiest hours first (those with orders only, at most BUSY_HOURS). */
  busiest: HourLine[];
  before: string;
  after?: string;
}

/** How many of the busiest hours the hours report names. */
export const BUSY_HOURS = 3;

/** How many lines a top list shows. */
export const TOP_LINES = 5;

export interface QuestionsDeps {
  /** The figures of these days, breakdowns included, in the order asked. */
  daysDetail: (days: readonly string[]) => Promise<DayFigures[]>;
  /** The figures of these days, their totals only (cheaper), in the order asked. */
  daysTotals: (days: readonly string[]) => Promise<DayFigures[]>;
  /** Today in the shop's time zone. */
  today: () => string;
}

/** Several days' figures added up. */
export function totalsOf(days: readonly string[], figures: readonly DayFigures[]): PeriodTotals {
  const sum = (pick: (f: DayFigures) => number) => figures.reduce((s, f) => s + pick(f), 0);
  const byState = {
    success: sum((f) => f.byState.success),
    failed: sum((f) => f.byState.failed),
    unknown: sum((f) => f.byState.unknown),
    submitting: sum((f) => f.byState.submitting),
  };
  const selling = sum((f) => f.selling);
  const provider = sum((f) => f.provider);
  const unpriced = { count: sum((f) => f.unpricedCount), selling: sum((f) => f.unpriced) };
  return {
    from: days[0] ?? "",
    to: days.at(-1) ?? "",
    days: days.length,
    orders: countsOf({ total: sum((f) => f.total), byState }),
    selling,
    provider,
    margin: marginOf({ selling, provider, unpriced: unpriced.selling }),
    unpriced,
  };
}

/** Lines of several days added up by their key, named as the newest day names them. */
function addUp<T extends { count: number }>(
  lines: ReadonlyArray<readonly T[]>,
  key: (line: T) => string,
  add: (into: T, line: T) => void,
): T[] {
  const sums = new Map<string, T>();
  for (const day of lines) {
    for (const line of day) {
      const k = key(line);
      const into = sums.get(k);
      if (into === undefined) sums.set(k, { ...line });
      else {
        const named = { ...line };
        add(named, into);
        sums.set(k, named);
      }
    }
  }
  return [...sums.values()];
}

const percent = (now: number, before: number): number | null =>
  before === 0 ? null : Math.round(((now - before) / Math.abs(before)) * 100);

/** The period of `kind` that `day` is in (today's when not given or in the future), its days so far, and its neighbours. */
function periodAsked(kind: PeriodKind, day: string | undefined, today: string) {
  const period = periodOf(kind, day !== undefined && day < today ? day : today);
  const after = dayPlus(period.to, 1);
  return {
    period,
    days: daysOf(period, today),
    paging: { before: dayPlus(period.from, -1), ...(after <= today ? { after } : {}) },
  };
}

export function createQuestions(deps: QuestionsDeps) {
  return {
    /**
     * The top products and resellers of the day, week or month that `day` is in (today's when not
     * given), by revenue, TOP_LINES of each.
     */
    async top(kind: PeriodKind, day?: string): Promise<TopReport> {
      const { period, days, paging } = periodAsked(kind, day, deps.today());
      const figures = await deps.daysDetail(days);
      const addLine = (into: ReportLine, l: ReportLine) => {
        into.count += l.count;
        into.selling += l.selling;
        into.provider += l.provider;
        into.unpriced += l.unpriced;
      };
      const products = addUp(
        figures.map((f) => f.byProduct),
        (l) => l.key,
        addLine,
      );
      const providers = addUp(
        figures.map((f) => f.byProvider),
        (l) => l.key,
        addLine,
      );
      const resellers = addUp(
        figures.map((f) => f.byReseller.filter((r) => r.count > 0)),
        (l) => String(l.userId),
        (into, l) => {
          into.count += l.count;
          into.sales += l.sales;
          into.provider += l.provider;
          into.unpriced += l.unpriced;
          into.deposits += l.deposits;
        },
      );
      return {
        period,
        totals: totalsOf(days, figures),
        products: products
          .map(moneyLine)
          .sort((a, b) => b.selling - a.selling || b.count - a.count || a.key.localeCompare(b.key))
          .slice(0, TOP_LINES),
        resellers: resellers
          .map(resellerMoneyLine)
          .sort((a, b) => b.sales - a.sales || b.count - a.count || a.userId - b.userId)
          .slice(0, TOP_LINES),
        providers: perProvider(
          providers
            .map(moneyLine)
            .sort((a, b) => b.selling - a.selling || b.count - a.count || a.key.localeCompare(b.key)),
        ),
        ...paging,
      };
    },

    /** When orders come in the day, week or month that `day` is in (today's when not given). */
    async hours(kind: PeriodKind, day?: string): Promise<HoursReport> {
      const { period, days, paging } = periodAsked(kind, day, deps.today());
      const figures = await deps.daysDetail(days);
      const hours: HourLine[] = Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0, selling: 0, provider: 0 }));
      for (const f of figures) {
        for (const line of f.byHour) {
          const into = hours[line.hour];
          if (into === undefined) continue;
          into.count += line.count;
          into.selling += line.selling;
          into.provider += line.provider;
        }
      }
      const busiest = hours
        .filter((h) => h.count > 0)
        .sort((a, b) => b.count - a.count || b.selling - a.selling || a.hour - b.hour)
        .slice(0, BUSY_HOURS);
      return { period, totals: totalsOf(days, figures), hours, busiest, ...paging };
    },

    /**
     * This month from its first day up to today against last month's same days (1 to today's
     * date, or to its last day when it is shorter).
     */
    async compareMonth(): Promise<MonthCompare> {
      const today = deps.today();
      const thisMonth = daysOf(periodOf("month", today), today);
      const lastMonthDays = monthDays(periodOf("month", dayPlus(thisMonth[0]!, -1)).from.slice(0, 7))!;
      const sameDays = lastMonthDays.slice(0, thisMonth.length);
      const figures = await deps.daysTotals([...thisMonth, ...sameDays]);
      const now = totalsOf(thisMonth, figures.slice(0, thisMonth.length));
      const before = totalsOf(sameDays, figures.slice(thisMonth.length));
      return {
        now,
        before,
        change: {
          sales: percent(now.orders.success, before.orders.success),
          selling: percent(now.selling, before.selling),
          margin: percent(now.margin, before.margin),
        },
      };
    },
  };
}

export type Questions = ReturnType<typeof createQuestions>;
