import type { Store } from "../storage/store.js";

/**
 * Decides when a sale deserves a low-balance alert: once when the balance goes below the
 * threshold, and again only after it has been back at or above it. The "already alerted" mark
 * is a Redis SET NX, so two sales finishing together cannot both alert.
 */
export function createLowBalanceWatch(store: Store, threshold: number | undefined) {
  const key = store.key("low-balance-alerted");
  return {
    /** True when this balance should trigger an alert now. */
    async crossedBelow(balance: number): Promise<boolean> {
      if (threshold === undefined) return false;
      if (balance >= threshold) {
        await store.atomic.delete(key);
        return false;
      }
      return store.atomic.claim(key, String(balance));
    },
  };
}
