import type { Storage } from "./storage.js";

/** An order sent a moment ago for a product and a player id: which, when, by whom. */
export interface RecentOrder {
  refId: string;
  /** When it was claimed (ISO). */
  at: string;
  userId: number;
  userName: string;
}

/**
 * The latest order sent for each product and player id, and each user's latest for them, kept for
 * a few minutes: what a summary needs to say "ordered before" with one read, whatever the player's
 * history. With Redis, `<prefix>recent:<CODE>:<player id>` and `…:u<user id>` (JSON, `PX`), both
 * written in one round trip; in memory, a Map.
 */
export interface RecentOrders {
  note(order: RecentOrder & { productCode: string; playerId: string }, ttlMs: number): Promise<void>;
  /** The latest for the product and player id: anyone's, or only `userId`'s. */
  latest(productCode: string, playerId: string, userId?: number): Promise<RecentOrder | undefined>;
}

const keyOf = (productCode: string, playerId: string, userId?: number) =>
  `${productCode.toUpperCase()}:${playerId}${userId === undefined ? "" : `:u${userId}`}`;

const read = (raw: string | null | undefined): RecentOrder | undefined => {
  if (raw === null || raw === undefined) return undefined;
  try {
    const o = JSON.parse(raw) as Partial<RecentOrder>;
    return typeof o.refId === "string" && typeof o.at === "string" && typeof o.userId === "number"
      ? { refId: o.refId, at: o.at, userId: o.userId, userName: typeof o.userName === "string" ? o.userName : "" }
      : undefined;
  } catch {
    return undefined;
  }
};

/** Entries kept in memory at most (the oldest go first). */
const MEMORY_MAX = 10_000;

export function createRecentOrders(storage: Storage): RecentOrders {
  if (storage.kind === "redis") {
    const { redis, prefix } = storage;
    const key = (k: string) => `${prefix}recent:${k}`;
    return {
      async note(o, ttlMs) {
        const value = JSON.stringify({ refId: o.refId, at: o.at, userId: o.userId, userName: o.userName });
        const ttl = { expiration: { type: "PX" as const, value: Math.max(1, Math.round(ttlMs)) } };
        await redis
          .multi()
          .set(key(keyOf(o.productCode, o.playerId)), value, ttl)
          .set(key(keyOf(o.productCode, o.playerId, o.userId)), value, ttl)
          .exec();
      },
      latest: async (productCode, playerId, userId) => read(await redis.get(key(keyOf(productCode, playerId, userId)))),
    };
  }
  const kept = new Map<string, { value: RecentOrder; until: number }>();
  return {
    async note(o, ttlMs) {
      const until = performance.now() + ttlMs;
      const value = { refId: o.refId, at: o.at, userId: o.userId, userName: o.userName };
      for (const k of [keyOf(o.productCode, o.playerId), keyOf(o.productCode, o.playerId, o.userId)]) {
        kept.delete(k);
        kept.set(k, { value, until });
      }
      while (kept.size > MEMORY_MAX) kept.delete(kept.keys().next().value!);
    },
    async latest(productCode, playerId, userId) {
      const found = kept.get(keyOf(productCode, playerId, userId));
      return found === undefined || found.until <= performance.now() ? undefined : found.value;
    },
  };
}
