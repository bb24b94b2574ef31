import type { RedisClient } from "../storage/redis.js";
import type { LedgerKeys } from "./redis-lua.js";
import type { TextDictionary } from "./redis-texts.js";

/**
 * What every part of the Redis ledger shares (redis.ts composes them): the connection, the
 * keys under the ledger's prefix, the dictionary of compacted orders' texts, and the shop's time
 * zone with the day and hour an order counts in.
 */
export interface RedisLedgerContext {
  redis: RedisClient;
  prefix: string;
  keys: LedgerKeys;
  texts: TextDictionary;
  timeZone: string;
  /** `YYYY-MM-DD` of an instant (ISO) in the shop's time zone. */
  dayOf: (iso: string) => string;
  /** The hour (`00`..`23`) of an instant (ms) in the shop's time zone, as the day figures name it. */
  hourOf: (ms: number) => string;
}
