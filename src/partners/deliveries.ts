import type { Storage } from "../storage/storage.js";

/** How many of a partner's last callback attempts are kept. */
export const DELIVERIES_KEPT = 20;

/** One attempt at a partner's callback, as the Resellers page shows it. */
export interface Delivery {
  /** The callback's `event_id` (the same on every retry and resend of one outcome). */
  eventId: string;
  /** The partner's own `ref_id`. */
  refId: string;
  /** The shop's ref id of the order (a test order's `TEST…` id). */
  shopRefId: string;
  /** When the attempt was made (ms). */
  at: number;
  /** Which attempt of this callback it was, from 1. */
  attempt: number;
  /** The HTTP status the partner's system answered; 0 when it was not reached. */
  status: number;
  /** Whether it was acknowledged (a 2xx). */
  ok: boolean;
  /** Why it was not reached: an error code (`ETIMEDOUT`, …), `private` or `unresolved`. */
  error?: string;
  /** A test key's order. */
  test?: boolean;
}

/**
 * Each partner's last callback attempts, newest first, so an admin can see whether their system
 * hears the shop (Redis: the list `h2h:dl:USER`, kept to the last DELIVERIES_KEPT), or in memory.
 */
export interface Deliveries {
  record(userId: number, delivery: Delivery): Promise<void>;
  /** The partner's last attempts, newest first. */
  last(userId: number): Promise<Delivery[]>;
}

/** The memory store's deliveries belong to the store (as a Redis key belongs to the database). */
const memoryStores = new WeakMap<Storage, Map<number, Delivery[]>>();

export function createDeliveries(storage: Storage): Deliveries {
  if (storage.kind === "redis") {
    const { redis, prefix } = storage;
    const key = (userId: number) => `${prefix}h2h:dl:${userId}`;
    return {
      async record(userId, delivery) {
        await redis
          .multi()
          .lPush(key(userId), JSON.stringify(delivery))
          .lTrim(key(userId), 0, DELIVERIES_KEPT - 1)
          .exec();
      },
      async last(userId) {
        return (await redis.lRange(key(userId), 0, DELIVERIES_KEPT - 1)).map((s) => JSON.parse(s) as Delivery);
      },
    };
  }
  let byUser = memoryStores.get(storage);
  if (byUser === undefined) {
    byUser = new Map();
    memoryStores.set(storage, byUser);
  }
  const kept = byUser;
  return {
    async record(userId, delivery) {
      kept.set(userId, [{ ...delivery }, ...(kept.get(userId) ?? [])].slice(0, DELIVERIES_KEPT));
    },
    last: async (userId) => (kept.get(userId) ?? []).map((d) => ({ ...d })),
  };
}
