import type { Storage } from "../storage/storage.js";
import type { Ledger } from "./ledger.js";
import { createMemoryLedger } from "./ledger-memory.js";
import { createRedisLedger } from "./ledger-redis.js";

/** The ledger of a storage: Lua scripts on Redis, or plain code in memory (one process). */
export function createLedger(storage: Storage): Ledger {
  return storage.kind === "redis" ? createRedisLedger(storage.redis, storage.prefix) : createMemoryLedger();
}
