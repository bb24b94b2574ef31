import type { Storage } from "../storage/storage.js";
import type { DepositRequestStore } from "./request.js";
import { memoryRequestStore } from "./request-store-memory.js";
import { redisRequestStore } from "./request-store-redis.js";

export {
  isOpen,
  noRequestFigures,
  type CancelRequestResult,
  type CreateResult,
  type DecideResult,
  type DepositProof,
  type DepositRequest,
  type DepositRequestState,
  type DepositRequestStore,
  type HandCreditResult,
  type ProofResult,
  type RequestDayFigures,
} from "./request.js";

/** Deposit requests where every process sees them (Redis, each step one Lua script), or in memory. */
export function createDepositRequestStore(storage: Storage): DepositRequestStore {
  return storage.kind === "redis" ? redisRequestStore(storage.redis, storage.prefix) : memoryRequestStore();
}
