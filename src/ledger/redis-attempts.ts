import { luaScript, type LuaScript } from "../storage/redis.js";
import type { AttemptResult, OrderLedger } from "../orders/ledger.js";
import { MAIN_PROVIDER } from "../orders/order.js";
import type { RedisLedgerContext } from "./redis-context.js";
import type { OrderReader } from "./redis-find.js";
import { LUA_HGETALL, pairs } from "./redis-lua.js";
import { orderFromHash, packTime } from "./order-codec.js";
import { reasonLetter, refusalTexts } from "./attempt-codec.js";

/*
 * Several providers: the step that sends an order on to its next provider after the current one
 * refused it (the fields it writes: attempt-codec.ts).
 */

/**
 * Only while the order is being sent and is at the attempt `from`: that attempt becomes refused
 * attempt N (its provider, code, ref id and start as the hash holds them, "" for an implicit one,
 * and the refusal), and the next one the current attempt. Its indexes, figures and money stay.
 * KEYS: order
 * ARGV: user, the order's ref id, from, next provider, next code, next ref id, next start (packed),
 *       the refusal's reason letter, then the refusal's texts as name, value… (attempt-codec.ts:
 *       refusalTexts; name "e…" becomes xeN…, "m…" xmN…)
 */
const NEXT_ATTEMPT = luaScript(`
local f = redis.call('HMGET', KEYS[1], 's', 'u', 'xp', 'xc', 'xr', 'xs', 'k')
if not f[1] then return {'not-found'} end
if f[2] ~= ARGV[1] then return redis.error_reply('nextAttempt: the order belongs to another user') end
local ref = ARGV[2]
if f[1] ~= 'submitting' or (f[5] or ref) ~= ARGV[3] then return {'stale', ${LUA_HGETALL}} end
local n = 1
while redis.call('HEXISTS', KEYS[1], 'xf' .. n) == 1 do n = n + 1 end
-- A value as escapeField writes it (a backslash, a tab, a line break escaped): the tabs part it.
local BS, TAB, NL = string.char(92), string.char(9), string.char(10)
local ESCAPES = {[BS] = BS .. BS, [TAB] = BS .. 't', [NL] = BS .. 'n'}
local SPECIAL = '[%' .. BS .. TAB .. NL .. ']'
local function esc(v) return (string.gsub(v, SPECIAL, ESCAPES)) end
local implicit = ref
if n > 1 then implicit = ref .. 'R' .. n end
local was = f[5] or ref
if was == implicit then was = '' end
local code = f[4] or ''
if code == f[7] then code = '' end
local refused = table.concat({esc(f[3] or '${MAIN_PROVIDER}'), esc(code), esc(was), esc(f[6] or ''), ARGV[8]}, TAB)
local fields = {'xf' .. n, refused, 'xp', ARGV[4], 'xr', ARGV[6], 'xs', ARGV[7]}
for i = 9, #ARGV, 2 do
  local name = ARGV[i]
  fields[#fields + 1] = 'x' .. string.sub(name, 1, 1) .. n .. string.sub(name, 2)
  fields[#fields + 1] = ARGV[i + 1]
end
redis.call('HSET', KEYS[1], unpack(fields))
if ARGV[5] == f[7] then redis.call('HDEL', KEYS[1], 'xc') else redis.call('HSET', KEYS[1], 'xc', ARGV[5]) end
return {'next', ${LUA_HGETALL}}
`);

/** The scripts of the attempts (loaded at start with the ledger's). */
export const ATTEMPT_SCRIPTS: readonly LuaScript[] = [NEXT_ATTEMPT];

/** The step to an order's next attempt. */
export function createRedisAttempts(ctx: RedisLedgerContext, read: OrderReader): Pick<OrderLedger, "nextAttempt"> {
  const { redis, keys } = ctx;
  return {
    async nextAttempt(order, step): Promise<AttemptResult> {
      const { next, refusal } = step;
      const raw = (await NEXT_ATTEMPT(
        redis,
        [keys.order(order.refId)],
        [
          order.userId,
          order.refId,
          step.from,
          next.provider,
          next.code,
          next.refId,
          packTime(next.at),
          reasonLetter(refusal.reason),
          ...refusalTexts(refusal),
        ],
      )) as Array<string | string[]>;
      const hash = raw.at(-1);
      const found = Array.isArray(hash) ? orderFromHash(order.refId, pairs(hash)) : undefined;
      if (found !== undefined) return { kind: raw[0] === "next" ? "next" : "stale", order: found };
      // No hash: compacted (long finished), or never claimed.
      const old = await read.compacted(order.refId);
      return old === undefined ? { kind: "not-found" } : { kind: "stale", order: old };
    },
  };
}
