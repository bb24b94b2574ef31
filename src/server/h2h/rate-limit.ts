import { luaScript } from "../../storage/redis.js";
import type { Storage } from "../../storage/storage.js";

/** Whether one more request of a partner fits in this second's allowance. */
export interface RateLimit {
  take(userId: number, nowMs: number): Promise<boolean>;
}

/** One more in this second's count, which goes a second after its second (one command, not a MULTI of four). */
const TAKE = luaScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], 2) end
return n
`);

/**
 * A per-partner allowance of `perSecond` requests in each clock second, counted in Redis so that
 * the processes behind a load balancer share it (one INCR per request), or in memory.
 */
export function createRateLimit(storage: Storage, perSecond: number): RateLimit {
  if (storage.kind === "redis") {
    const { redis, prefix } = storage;
    return {
      async take(userId, nowMs) {
        const key = `${prefix}h2h:rl:${userId}:${Math.floor(nowMs / 1000)}`;
        return Number(await TAKE(redis, [key], [])) <= perSecond;
      },
    };
  }
  const counts = new Map<number, { second: number; count: number }>();
  return {
    async take(userId, nowMs) {
      const second = Math.floor(nowMs / 1000);
      const c = counts.get(userId);
      const next = c === undefined || c.second !== second ? { second, count: 1 } : { second, count: c.count + 1 };
      counts.set(userId, next);
      return next.count <= perSecond;
    },
  };
}
