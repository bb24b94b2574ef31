import { luaScript, type RedisClient } from "../storage/redis.js";
import type { LedgerKeys } from "./redis-lua.js";

/**
 * Gives each text a number once, for good (KEYS: text → number hash, number → text hash, counter):
 * two processes interning the same text at once get the same number. Numbers in base 36.
 */
const INTERN = luaScript(`
local digits = '0123456789abcdefghijklmnopqrstuvwxyz'
local function b36(n)
  local s = ''
  repeat
    local r = n % 36
    s = string.sub(digits, r + 1, r + 1) .. s
    n = math.floor(n / 36)
  until n == 0
  return s
end
local out = {}
for i, text in ipairs(ARGV) do
  local id = redis.call('HGET', KEYS[1], text)
  if not id then
    id = b36(redis.call('INCR', KEYS[3]))
    redis.call('HSET', KEYS[1], text, id)
    redis.call('HSET', KEYS[2], id, text)
  end
  out[i] = id
end
return out
`);

export const TEXT_SCRIPTS = [INTERN];

/** A number whose text has not been read from Redis yet (`load` it). */
export class MissingText extends Error {
  override name = "MissingText";
}

/**
 * The texts compacted orders share (who ordered, what, the provider's product detail and message),
 * each kept once in Redis under a number that never changes, and remembered here once read: a
 * number always means the same text, so nothing in this cache can be stale.
 */
export function createTextDictionary(redis: RedisClient, keys: LedgerKeys) {
  const byId = new Map<string, string>();
  const byText = new Map<string, string>();
  return {
    /** The numbers of these texts, given now when new. */
    async intern(texts: readonly string[]): Promise<string[]> {
      const missing = [...new Set(texts.filter((t) => !byText.has(t)))];
      if (missing.length > 0) {
        const ids = (await INTERN(redis, [keys.texts, keys.textIds, keys.textSeq], missing)) as string[];
        missing.forEach((text, i) => {
          byText.set(text, ids[i]!);
          byId.set(ids[i]!, text);
        });
      }
      return texts.map((t) => byText.get(t)!);
    },
    /** Makes sure these numbers can be read with `text`. */
    async load(ids: Iterable<string>): Promise<void> {
      const missing = [...new Set(ids)].filter((id) => !byId.has(id));
      if (missing.length === 0) return;
      const texts = await redis.hmGet(keys.textIds, missing);
      missing.forEach((id, i) => {
        const text = texts[i];
        if (text === null || text === undefined) throw new Error(`ledger: text ${id} of a compacted order is missing`);
        byId.set(id, text);
        byText.set(text, id);
      });
    },
    text(id: string): string {
      const text = byId.get(id);
      if (text === undefined) throw new MissingText(`ledger: text ${id} was not loaded`);
      return text;
    },
  };
}

export type TextDictionary = ReturnType<typeof createTextDictionary>;
