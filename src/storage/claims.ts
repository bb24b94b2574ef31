import type { Storage } from "./storage.js";

/**
 * Short claims that keep two processes from doing one small thing at once (telling a reseller
 * about a deposit): `take` answers true to one caller among all processes until `ttlMs` has passed
 * or the claim is given back. With Redis, `SET <prefix>claim:<name>:<id> NX PX`; in memory, a Map.
 * A claim is not a record of the thing being done: the caller records that itself, and a claimer
 * that dies simply lets the claim run out, so the thing is done again later (at least once).
 */
export interface Claims {
  take(id: string, ttlMs: number): Promise<boolean>;
  giveBack(id: string): Promise<void>;
}

export function createClaims(storage: Storage, name: string): Claims {
  if (storage.kind === "redis") {
    const { redis } = storage;
    const key = (id: string) => `${storage.prefix}claim:${name}:${id}`;
    return {
      take: async (id, ttlMs) =>
        (await redis.set(key(id), "1", {
          condition: "NX",
          expiration: { type: "PX", value: Math.max(1, Math.round(ttlMs)) },
        })) === "OK",
      giveBack: async (id) => void (await redis.del(key(id))),
    };
  }
  const held = new Map<string, number>();
  return {
    async take(id, ttlMs) {
      const t = performance.now();
      if ((held.get(id) ?? 0) > t) return false;
      if (held.size > 1000) for (const [k, until] of held) if (until <= t) held.delete(k);
      held.set(id, t + ttlMs);
      return true;
    },
    giveBack: async (id) => void held.delete(id),
  };
}
