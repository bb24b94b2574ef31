import type { OrderLedger } from "../orders/ledger.js";
import type { RedisLedgerContext } from "./redis-context.js";
import { figuresOf } from "../orders/day-figures.js";

/**
 * A day's figures as the Redis ledger keeps them (day:DAY, the totals, and dayd:DAY, the
 * breakdowns: see the layout in redis.ts), moved by the steps that change orders and
 * deposits; read here without reading an order.
 */
export function createRedisFigures(
  ctx: RedisLedgerContext,
): Pick<OrderLedger, "dayFigures" | "daysFigures" | "daysDetail"> {
  const { redis, prefix } = ctx;
  return {
    async dayFigures(day) {
      const [totals, detail] = await Promise.all([
        redis.hGetAll(`${prefix}day:${day}`),
        redis.hGetAll(`${prefix}dayd:${day}`),
      ]);
      return figuresOf(totals, detail);
    },

    async daysFigures(days) {
      const totals = await Promise.all(days.map((day) => redis.hGetAll(`${prefix}day:${day}`)));
      return totals.map((t) => figuresOf(t, {}));
    },

    async daysDetail(days) {
      if (days.length === 0) return [];
      // Both hashes of every day in one transaction: one round trip, and no step lands in between.
      const batch = redis.multi();
      for (const day of days) batch.hGetAll(`${prefix}day:${day}`).hGetAll(`${prefix}dayd:${day}`);
      const replies = (await batch.exec()) as unknown as Array<Record<string, string>>;
      return days.map((_, i) => figuresOf(replies[2 * i]!, replies[2 * i + 1]!));
    },
  };
}
