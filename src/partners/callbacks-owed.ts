import type { Logger } from "../logger.js";
import type { Storage } from "../storage/storage.js";
import type { OrderEvents } from "../orders/events.js";
import { viaApi } from "../orders/order.js";
import { memoryOwed, oweInMemory, owedCallbackKeys } from "../storage/owed-callbacks.js";

/** A callback waiting to go out: the order, when it is next tried, how often it was, since when. */
export interface OwedCallback {
  refId: string;
  dueAt: number;
  attempts: number;
  since: number;
}

/**
 * The callbacks owed to partners: an order of the H2H API whose first answer was not its outcome
 * (it was unknown, or the partner hung up) is noted here once its outcome is known, and stays
 * until the partner's system acknowledged it or a day went by. Every H2H order is noted before it
 * is sent, due when its answer could no longer be on its way, and dropped when the partner was
 * given its outcome: an answer lost with the process is a callback still owed. Shared by every
 * process (Redis: `h2h:cb` sorted by the time due, `h2h:cbi` with attempts and since), or in memory.
 */
export interface PartnerCallbacks {
  /** Due at `atMs` (an order noted twice is one callback, due at the later note's time). */
  owe(refId: string, atMs: number): Promise<void>;
  /** The ones due at `nowMs`, at most `limit`, oldest due first. */
  due(nowMs: number, limit: number): Promise<OwedCallback[]>;
  /** Tried and not acknowledged: tried again at `dueAt`. */
  later(refId: string, dueAt: number): Promise<void>;
  /** Acknowledged, or given up: gone. */
  done(refId: string): Promise<void>;
}

export function createPartnerCallbacks(storage: Storage): PartnerCallbacks {
  if (storage.kind === "redis") {
    const { redis, prefix } = storage;
    const { due, info } = owedCallbackKeys(prefix);
    return {
      async owe(refId, nowMs) {
        await redis.multi().zAdd(due, { score: nowMs, value: refId }).hSetNX(info, `${refId}:s`, String(nowMs)).exec();
      },
      async due(nowMs, limit) {
        const refIds = await redis.zRangeByScore(due, 0, nowMs, { LIMIT: { offset: 0, count: limit } });
        if (refIds.length === 0) return [];
        const fields = await redis.hmGet(
          info,
          refIds.flatMap((r) => [`${r}:s`, `${r}:n`]),
        );
        const scores = await Promise.all(refIds.map((r) => redis.zScore(due, r)));
        return refIds.map((refId, i) => ({
          refId,
          dueAt: scores[i] ?? nowMs,
          since: Number(fields[i * 2] ?? nowMs),
          attempts: Number(fields[i * 2 + 1] ?? 0),
        }));
      },
      async later(refId, dueAt) {
        await redis.multi().zAdd(due, { score: dueAt, value: refId }).hIncrBy(info, `${refId}:n`, 1).exec();
      },
      async done(refId) {
        await redis
          .multi()
          .zRem(due, refId)
          .hDel(info, [`${refId}:s`, `${refId}:n`])
          .exec();
      },
    };
  }
  const owed: Map<string, OwedCallback> = memoryOwed(storage);
  return {
    async owe(refId, nowMs) {
      oweInMemory(owed, refId, nowMs);
    },
    async due(nowMs, limit) {
      return [...owed.values()]
        .filter((o) => o.dueAt <= nowMs)
        .sort((a, b) => a.dueAt - b.dueAt)
        .slice(0, limit)
        .map((o) => ({ ...o }));
    },
    async later(refId, dueAt) {
      const had = owed.get(refId);
      if (had !== undefined) owed.set(refId, { ...had, dueAt, attempts: had.attempts + 1 });
    },
    async done(refId) {
      owed.delete(refId);
    },
  };
}

/**
 * The order events, with a callback noted for every H2H order an admin (or the provider's own
 * status) settled: its partner's first answer said "unknown".
 */
export function withPartnerCallbacks(
  events: OrderEvents,
  callbacks: Pick<PartnerCallbacks, "owe">,
  now: () => Date,
  logger: Logger,
): OrderEvents {
  return {
    ...events,
    claimed: (order) => events.claimed(order),
    tellOutcome: (order, heading) => events.tellOutcome(order, heading),
    interrupted: (order) => events.interrupted(order),
    async finished(order, how, facts) {
      if (viaApi(order) && how === "settled")
        await callbacks
          .owe(order.refId, now().getTime())
          .catch((err: unknown) => logger.error({ err, refId: order.refId }, "partner callback not noted"));
      await events.finished(order, how, facts);
    },
  };
}
