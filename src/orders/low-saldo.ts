import type { Storage } from "../storage/storage.js";

/**
 * RESELLER_LOW_SALDO: a reseller whose saldo falls below the threshold after a sale is told once per
 * crossing. The crossing is a flag per reseller (`<prefix>low-saldo:<userId>` in Redis), set with
 * SET NX by the first sale that finds the saldo below: whichever process records that sale, only
 * one tells. The flag goes once the saldo is seen at or above the threshold again (a deposit, or a
 * sale that leaves it there), so the next fall is told again.
 */
export interface LowSaldoWatch {
  /** After a sale paid from saldo: true when this sale is the one that must tell the reseller. */
  afterSale(userId: number, saldo: number): Promise<boolean>;
  /** After a deposit (or correction) was credited: the saldo it left. */
  afterDeposit(userId: number, saldo: number): Promise<void>;
}

export function createLowSaldoWatch(storage: Storage, threshold: number): LowSaldoWatch {
  const flags =
    storage.kind === "redis"
      ? (() => {
          const { redis, prefix } = storage;
          const key = (userId: number) => `${prefix}low-saldo:${userId}`;
          return {
            raise: async (userId: number) => (await redis.set(key(userId), "1", { condition: "NX" })) === "OK",
            lower: async (userId: number) => void (await redis.del(key(userId))),
          };
        })()
      : (() => {
          const raised = new Set<number>();
          return {
            async raise(userId: number) {
              if (raised.has(userId)) return false;
              raised.add(userId);
              return true;
            },
            lower: async (userId: number) => void raised.delete(userId),
          };
        })();
  return {
    async afterSale(userId, saldo) {
      if (saldo < threshold) return flags.raise(userId);
      await flags.lower(userId);
      return false;
    },
    async afterDeposit(userId, saldo) {
      if (saldo >= threshold) await flags.lower(userId);
    },
  };
}
