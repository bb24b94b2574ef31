import { luaScript } from "./redis.js";
import type { Storage } from "./storage.js";

/**
 * What one origin was given the first time it was handled. `first` is true for that first time
 * only; `shownAs` is the message that showed it, once one was recorded.
 */
export interface Fixed {
  value: string;
  first: boolean;
  shownAs?: number;
}

/**
 * Once per origin: whatever a handler creates for a later Confirm (an order draft, a deposit, an
 * edited catalogue, a broadcast, a price change) belongs to the update that asked for it, or to
 * the Mini App request that did. An update can be handled a second time (its process died after
 * replying, before the update was marked done), and a page may send a request again; the second
 * handling must find what the first one made, never make a second one.
 *
 * `fix(origin, value)` keeps the first value given for an origin (an id, or a small JSON plan) in
 * one atomic step and answers it to every later call, for `ttlMs` (longer than anything made from
 * it waits for a Confirm). `shown(origin, messageId)` records that the chat got the message showing
 * it, so a later handling does not send it again; a process killed between the send and this
 * record leaves the user a second copy, with the same id.
 *
 * An origin names the update, not its number: Telegram may restart `update_id`s after a week
 * without updates. See bot/origin.ts for the names.
 */
export interface Origins {
  fix(origin: string, value: string): Promise<Fixed>;
  shown(origin: string, messageId: number): Promise<void>;
}

/** Two days: Telegram keeps an update for a day, drafts wait a day for their Confirm. */
export const ORIGIN_TTL_MS = 2 * 24 * 60 * 60 * 1000;

// KEYS: origin; ARGV: value, ttl → {value, shown message id or '', 1 when fixed now}
const FIX = luaScript(`
local v = redis.call('HMGET', KEYS[1], 'v', 'm')
if v[1] then return {v[1], v[2] or '', 0} end
redis.call('HSET', KEYS[1], 'v', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {ARGV[1], '', 1}
`);

// KEYS: origin; ARGV: message id. Only on an origin that is still kept (never a key without a TTL).
const SHOWN = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'm', ARGV[1]) end
return 1
`);

const toFixed = (value: string, shown: string, first: boolean): Fixed => ({
  value,
  first,
  ...(shown === "" ? {} : { shownAs: Number(shown) }),
});

/** The memory store's origins belong to the store (as a Redis key belongs to the database). */
const memoryOrigins = new WeakMap<Storage, Origins>();

export function createOrigins(storage: Storage, ttlMs = ORIGIN_TTL_MS): Origins {
  if (storage.kind === "redis") {
    const { redis } = storage;
    const key = (origin: string) => `${storage.prefix}origin:${origin}`;
    return {
      async fix(origin, value) {
        const [v, shown, first] = (await FIX(redis, [key(origin)], [value, Math.max(1, Math.round(ttlMs))])) as [
          string,
          string,
          number,
        ];
        return toFixed(v, shown, Number(first) === 1);
      },
      shown: async (origin, messageId) => void (await SHOWN(redis, [key(origin)], [messageId])),
    };
  }
  const existing = memoryOrigins.get(storage);
  if (existing !== undefined) return existing;
  const kept = new Map<string, { value: string; shown?: number; until: number }>();
  let writes = 0;
  const live = (origin: string) => {
    const e = kept.get(origin);
    if (e !== undefined && e.until <= Date.now()) kept.delete(origin);
    return kept.get(origin);
  };
  const created: Origins = {
    async fix(origin, value) {
      const e = live(origin);
      if (e !== undefined) return toFixed(e.value, e.shown === undefined ? "" : String(e.shown), false);
      if (++writes % 1000 === 0) for (const [k, v] of kept) if (v.until <= Date.now()) kept.delete(k);
      kept.set(origin, { value, until: Date.now() + ttlMs });
      return { value, first: true };
    },
    async shown(origin, messageId) {
      const e = live(origin);
      if (e !== undefined) e.shown = messageId;
    },
  };
  memoryOrigins.set(storage, created);
  return created;
}
