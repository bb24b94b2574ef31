import type { Storage } from "../storage/storage.js";
import type { Ledger } from "./ledger.js";
import { createMemoryLedger } from "./ledger-memory.js";
import { createRedisLedger } from "./ledger-redis.js";
import { dayIn } from "../calendar.js";

/**
 * The ledger of a storage: Lua scripts on Redis, or plain code in memory (one process). `timeZone`
 * (TZ) is the shop's: it decides the day each order counts in (default Asia/Jakarta, as TZ's).
 */
export function createLedger(storage: Storage, opts: { timeZone?: string } = {}): Ledger {
  const timeZone = opts.timeZone ?? "Asia/Jakarta";
  const dayOf = (iso: string) => dayIn(timeZone, new Date(iso));
  return storage.kind === "redis"
    ? createRedisLedger(storage.redis, storage.prefix, dayOf)
    : createMemoryLedger({ dayOf });
}
