import type { Storage } from "../storage/storage.js";
import type { Ledger } from "../orders/ledger.js";
import { createMemoryLedger } from "./memory.js";
import { createRedisLedger } from "./redis.js";
import { memoryOwed } from "../storage/owed-callbacks.js";
import { memoryRecentNote } from "../storage/recent-orders.js";

/**
 * The ledger of a storage: Lua scripts on Redis, or plain code in memory (one process). `timeZone`
 * (TZ) is the shop's: it decides the day and the hour each order counts in (default Asia/Jakarta, as TZ's).
 */
export function createLedger(storage: Storage, opts: { timeZone?: string } = {}): Ledger {
  const timeZone = opts.timeZone ?? "Asia/Jakarta";
  return storage.kind === "redis"
    ? createRedisLedger(storage.redis, storage.prefix, timeZone)
    : createMemoryLedger({ timeZone, owed: memoryOwed(storage), recent: memoryRecentNote(storage) });
}
