import type { Liveness } from "./liveness.js";
import { luaScript } from "./redis.js";
import type { Storage } from "./storage.js";

/**
 * Short claims that keep two processes from doing one small thing at once (telling a reseller
 * about a deposit): `take` answers true to one caller among all processes until `ttlMs` has passed
 * or the claim is given back. With Redis, `SET <prefix>claim:<name>:<id> <owner> NX PX`; in memory,
 * a Map. A claim is not a record of the thing being done: the caller records that itself, and a
 * claimer that dies lets the claim go, so the thing is done again later (at least once): at once
 * when its process is seen gone (liveness.ts), else when the claim runs out.
 */
export interface Claims {
  take(id: string, ttlMs: number): Promise<boolean>;
  giveBack(id: string): Promise<void>;
}

// KEYS: claim; ARGV: the gone claimer, owner, ttl
const TAKE_OVER = luaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`);

// KEYS: claim; ARGV: owner
const GIVE_BACK = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

export function createClaims(
  storage: Storage,
  name: string,
  opts: { owner?: string; liveness?: Liveness } = {},
): Claims {
  if (storage.kind === "redis") {
    const { redis } = storage;
    const owner = opts.owner ?? storage.owner ?? "1";
    const key = (id: string) => `${storage.prefix}claim:${name}:${id}`;
    return {
      async take(id, ttlMs) {
        const ttl = Math.max(1, Math.round(ttlMs));
        const set = await redis.set(key(id), owner, { condition: "NX", expiration: { type: "PX", value: ttl } });
        if (set === "OK") return true;
        if (opts.liveness === undefined) return false;
        const holder = await redis.get(key(id));
        if (holder === null || holder === owner || !(await opts.liveness.gone(holder))) return false;
        const taken = Number(await TAKE_OVER(redis, [key(id)], [holder, owner, ttl])) === 1;
        if (taken) opts.liveness.tookOver(`claim ${name}:${id}`, holder);
        return taken;
      },
      giveBack: async (id) => void (await GIVE_BACK(redis, [key(id)], [owner])),
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
