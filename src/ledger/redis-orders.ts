import { luaScript, type LuaScript } from "../storage/redis.js";
import type { CancelResult, ClaimResult, FinishResult, OrderLedger, SettleResult } from "../orders/ledger.js";
import type { RedisLedgerContext } from "./redis-context.js";
import type { OrderReader } from "./redis-find.js";
import {
  LUA_BASICS,
  LUA_CHUNKS,
  LUA_HGETALL,
  LUA_LINEAR_HASH,
  LUA_MOVEMENT,
  LUA_TIME_INDEX,
  pairs,
  TALLY,
} from "./redis-lua.js";
import { LUA_LINE } from "./redis-line-lua.js";
import { draftFields, msKey, orderFromHash, resultFields } from "./order-codec.js";
import { costOf, MAIN_PROVIDER, paidFromSaldo, providerDepositEmpty, type BalanceSeen } from "../orders/order.js";
import { packMovementTime } from "./statement-codec.js";
import { LUA_NOTE_RECENT } from "../storage/recent-orders.js";

/*
 * The steps that change an order in the Redis ledger, each one Lua script: a draft saved, claimed
 * (sent once, its price held from a reseller's saldo) or cancelled; its outcome recorded, or an
 * admin's settlement of an unknown one. The money it moves and its day figures change in the same
 * script.
 */

/** The fields of the order hash TALLY needs, read with HMGET after others, into a `draft` table. */
const DRAFT_OF = (first: number) => `
local function draftOf(f)
  return { price = f[${first}], productCode = f[${first + 1}], productName = f[${first + 2}],
    userName = f[${first + 3}], role = f[${first + 4}], tier = f[${first + 5}], chat = f[${first + 6}],
    provider = f[${first + 7}] }
end
`;
const DRAFT_HMGET = "'p', 'k', 'pn', 'n', 'o', 't', 'c', 'xp'";

// KEYS: order, open draft; ARGV: ttl, ref, hold, then the draft's fields and values
const SAVE_DRAFT = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
redis.call('HSET', KEYS[1], 's', 'draft', unpack(ARGV, 4))
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'h', ARGV[3]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[1])
return 0
`);

// A reseller's order holds its price from the saldo in this same step, or is not claimed at all.
// The order enters the time, user and player indexes here, with its counts.
// A partner's ref id (the H2H API) is used in this same step, once: a second claim with it is refused.
// An order nobody looks at before it is sent (the H2H API) has its draft written here, in the same
// step, when its ref id names no order yet; refused, that draft is gone again. Its partner's callback
// owed is noted here too (sorted set of the time due, and since when), so no order goes out without it.
// KEYS: order, inflight, wallet, statement, wallets, wallet totals, partner ref, partner ref of the order,
//       callbacks due, callbacks info
// The first attempt (several providers) is written only when it is not main under the product's own
// code (compared in upper case): a shop with one provider writes no field of it (attempt-codec.ts).
// ARGV: user, at, submit time (9 digits), ref, message id, codes for sale, submit day, key prefix, at packed,
//       submit hour (00-23, in the shop's time zone), partner ref ('' when none), the first attempt's
//       provider ('' when none was named) and code, '1' when the draft's fields follow, the callback's
//       due time ('' when none is owed), the draft's hold ('' when none), how long the order is kept as
//       the latest for its product and player id (ms, '' for not at all), then the draft's fields
const CLAIM = luaScript(`${LUA_BASICS}${LUA_TIME_INDEX}${LUA_LINEAR_HASH}${LUA_CHUNKS}${LUA_MOVEMENT}${LUA_NOTE_RECENT}
local fresh = false
if ARGV[14] == '1' and redis.call('EXISTS', KEYS[1]) == 0 then
  if ARGV[11] ~= '' then
    local made = redis.call('GET', KEYS[7])
    if made then return {'used', made} end
  end
  redis.call('HSET', KEYS[1], 's', 'draft', unpack(ARGV, 18))
  if ARGV[16] ~= '' then redis.call('HSET', KEYS[1], 'h', ARGV[16]) end
  fresh = true
end
local function refused(answer)
  if fresh then redis.call('DEL', KEYS[1]) end
  return answer
end
local f = redis.call('HMGET', KEYS[1], 's', 'u', 'h', 'k', 'y', 'c', 'n')
if not f[1] then return {'not-found'} end
if f[2] ~= ARGV[1] then return {'not-yours'} end
if f[1] ~= 'draft' then return {'taken', ${LUA_HGETALL}} end
-- A draft written above had its partner's ref id checked before it was written.
if ARGV[11] ~= '' and not fresh then
  local made = redis.call('GET', KEYS[7])
  if made then return {'used', made} end
end
if ARGV[6] ~= '' then
  local code = '|' .. string.upper(f[4] or '') .. '|'
  if not string.find(ARGV[6], code, 1, true) then return refused({'not-offered', ${LUA_HGETALL}}) end
end
local pre = ARGV[8]
local hold = tonumber(f[3] or '0')
if hold > 0 then
  local have = tonumber(redis.call('HGET', KEYS[3], 'saldo') or '0')
  if have < hold then return refused({'short', string.format('%d', have)}) end
  local saldo = redis.call('HINCRBY', KEYS[3], 'saldo', -hold)
  local held = redis.call('HINCRBY', KEYS[3], 'held', hold)
  redis.call('HINCRBY', KEYS[6], 'saldo', -hold)
  redis.call('HINCRBY', KEYS[6], 'held', hold)
  redis.call('SADD', KEYS[5], ARGV[1])
  movement(KEYS[4], ARGV[9], 'h', ARGV[4], -hold, saldo, held)
  redis.call('HSET', KEYS[1], 'ws', saldo)
end
redis.call('HSET', KEYS[1], 's', 'submitting', 'sa', ARGV[2], 'sk', ARGV[3], 'dy', ARGV[7], 'hr', ARGV[10])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'm', ARGV[5]) end
local code = f[4] or ''
if ARGV[12] ~= '' and (ARGV[12] ~= '${MAIN_PROVIDER}' or string.upper(ARGV[13]) ~= string.upper(code)) then
  redis.call('HSET', KEYS[1], 'xp', ARGV[12])
  if ARGV[13] ~= code then redis.call('HSET', KEYS[1], 'xc', ARGV[13]) end
end
-- The provider price last seen for the product, as the order is sent: its cost if it ends unknown
-- and an admin settles it as a success.
local seenCost = redis.call('HGET', pre .. 'pcost', f[4] or '')
if seenCost then redis.call('HSET', KEYS[1], 'lc', seenCost) end
redis.call('HINCRBY', pre .. 'day:' .. ARGV[7], 'c:p', 1)
-- An order of the H2H API (chat id 0) is one the API sent that day (TALLY keeps the rest of its part).
if f[6] == '0' then redis.call('HINCRBY', pre .. 'day:' .. ARGV[7], 'a:n', 1) end
redis.call('HINCRBY', pre .. 'dayd:' .. ARGV[7], 'h:' .. ARGV[10] .. ':n', 1)
local day = dayOfKey(ARGV[3])
tinsert(pre .. 't:' .. day, ARGV[3] .. ARGV[4])
redis.call('ZADD', pre .. 't-days', day, day)
local entry = entryOf(ARGV[3], ARGV[4])
rnoteOdd(pre, ARGV[4], ARGV[3])
cinsert(pre .. 'u:' .. ARGV[1], entry)
redis.call('HINCRBY', pre .. 'uc', ARGV[1], 1)
redis.call('INCR', pre .. 'orders-count')
pinsert(pre, f[5] or '', entry)
redis.call('PERSIST', KEYS[1])
redis.call('SADD', KEYS[2], ARGV[4])
if ARGV[11] ~= '' then
  redis.call('SET', KEYS[7], ARGV[4])
  redis.call('SET', KEYS[8], ARGV[11])
end
if ARGV[15] ~= '' then
  redis.call('ZADD', KEYS[9], ARGV[15], ARGV[4])
  redis.call('HSETNX', KEYS[10], ARGV[4] .. ':s', ARGV[15])
end
if ARGV[17] ~= '' then noteRecent(pre, f[4] or '', f[5] or '', ARGV[1], ARGV[4], ARGV[2], f[7], ARGV[17]) end
return {'claimed', ${LUA_HGETALL}}
`);

const CANCEL = luaScript(`
local s = redis.call('HGET', KEYS[1], 's')
if not s then return {'not-found'} end
if redis.call('HGET', KEYS[1], 'u') ~= ARGV[1] then return {'not-yours'} end
if s == 'draft' then
  redis.call('HSET', KEYS[1], 's', 'cancelled', 'fa', ARGV[2])
  if redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
end
if s == 'draft' or s == 'cancelled' then return {'cancelled', ${LUA_HGETALL}} end
return {'taken', ${LUA_HGETALL}}
`);

/**
 * The money a reseller's order held, once its fate is known: spent on success, released on
 * failure, kept while it is unknown. Called from the outcome and the settlement steps, each of
 * which changes the order's state once, so each hold is spent or released at most once.
 */
const SETTLE_HOLD = `
local function settleHold(orderKey, walletKey, stmtKey, state, hold, at, ref, totalsKey)
  if hold <= 0 or state == 'unknown' then return nil end
  local held = redis.call('HINCRBY', walletKey, 'held', -hold)
  redis.call('HINCRBY', totalsKey, 'held', -hold)
  local saldo
  if state == 'success' then
    redis.call('HINCRBY', walletKey, 'spent', hold)
    saldo = tonumber(redis.call('HGET', walletKey, 'saldo') or '0')
    movement(stmtKey, at, 's', ref, hold, saldo, held)
  else
    saldo = redis.call('HINCRBY', walletKey, 'saldo', hold)
    redis.call('HINCRBY', totalsKey, 'saldo', hold)
    movement(stmtKey, at, 'r', ref, hold, saldo, held)
  end
  redis.call('HSET', orderKey, 'ws', saldo)
  return saldo
end
`;

/** Lua: drops an order's result fields (all of them start with "r"), before another result is written. */
const DROP_RESULT = `
local function dropResult(key)
  local old = {}
  for _, field in ipairs(redis.call('HKEYS', key)) do
    if string.sub(field, 1, 1) == 'r' then old[#old + 1] = field end
  end
  if #old > 0 then redis.call('HDEL', key, unpack(old)) end
end
`;

// A late answer (the order was marked unknown by recovery, nobody settled it) replaces that
// unknown; the user is then told again.
// The provider's own deposit: a failure that says it is empty sets a flag (once per crossing: the
// alert goes out when this step set it); a sale clears it. The balance and both flags are the
// answering provider's own keys; only main's balance is the day's.
// KEYS: order, inflight, unknown, last balance, low-balance flag, wallet, statement, wallet totals,
//       provider-empty flag
// A known outcome read in the answer being given (the H2H API) is recorded as told, and its
// partner's callback owed dropped, here.
// KEYS: …, callbacks due, callbacks info
// ARGV: state, at, ref, balance entry, balance, threshold, accept late, user, provider cost,
//       day of the outcome (for the balance), key prefix, at packed, '1' when the provider said its
//       deposit is empty, the provider ('' for main), '1' when answered, then the result's fields
const FINISH = luaScript(`${LUA_BASICS}${LUA_MOVEMENT}${LUA_LINE}${SETTLE_HOLD}${TALLY}${DROP_RESULT}${DRAFT_OF(9)}
local f = redis.call('HMGET', KEYS[1], 's', 'sb', 'h', 'u', 'dy', 'sa', 'sk', 'hr', ${DRAFT_HMGET})
if not f[1] then return {'not-found'} end
if f[4] ~= ARGV[8] then return redis.error_reply('finish: the order belongs to another user') end
local late = f[1] == 'unknown' and ARGV[7] == '1' and not f[2]
if f[1] ~= 'submitting' and not late then return {'stale', 0, ${LUA_HGETALL}} end
local pre = ARGV[11]
dropResult(KEYS[1])
redis.call('HSET', KEYS[1], 's', ARGV[1], 'fa', ARGV[2], unpack(ARGV, 16))
if ARGV[1] ~= 'unknown' then redis.call('HDEL', KEYS[1], 'lc') end
if ARGV[1] == 'success' and ARGV[9] ~= '' and f[10] then redis.call('HSET', pre .. 'pcost', f[10], ARGV[9]) end
if late then redis.call('HDEL', KEYS[1], 'na') else redis.call('SREM', KEYS[2], ARGV[3]) end
if ARGV[15] == '1' and ARGV[1] ~= 'unknown' then
  redis.call('HSET', KEYS[1], 'na', ARGV[2])
  redis.call('ZREM', KEYS[10], ARGV[3])
  redis.call('HDEL', KEYS[11], ARGV[3] .. ':s', ARGV[3] .. ':n')
end
if ARGV[1] == 'unknown' then
  redis.call('SADD', KEYS[3], ARGV[3])
elseif late then
  redis.call('SREM', KEYS[3], ARGV[3])
end
settleHold(KEYS[1], KEYS[6], KEYS[7], ARGV[1], tonumber(f[3] or '0'), ARGV[12], ARGV[3], KEYS[8])
if f[5] then
  tally(pre, f[5], draftOf(f), f[4], STATE_CODE[f[1]], STATE_CODE[ARGV[1]], tonumber(ARGV[9]), f[6] or '', f[8])
end
if ARGV[1] ~= 'unknown' and f[7] then redis.call('HINCRBY', pre .. 'fh', dayOfKey(f[7]), 1) end
local low = 0
if ARGV[4] ~= '' then
  if ARGV[14] == '' then
    local balDay = pre .. 'day:' .. ARGV[10]
    local seenAt = redis.call('HGET', balDay, 'balAt')
    if not seenAt or seenAt <= ARGV[2] then redis.call('HSET', balDay, 'bal', ARGV[5], 'balAt', ARGV[2]) end
  else
    redis.call('SADD', pre .. 'last-balance-providers', ARGV[14])
  end
  redis.call('SET', KEYS[4], ARGV[4])
  if ARGV[6] ~= '' then
    if tonumber(ARGV[5]) < tonumber(ARGV[6]) then
      if redis.call('SET', KEYS[5], ARGV[5], 'NX') then low = 1 end
    else
      redis.call('DEL', KEYS[5])
    end
  end
end
local empty = 0
if ARGV[1] == 'success' then
  redis.call('DEL', KEYS[9])
elseif ARGV[13] == '1' and redis.call('SET', KEYS[9], ARGV[2], 'NX') then
  empty = 1
end
-- Last: the line is read from what the steps above wrote, and nothing above waits on it.
keepLine(pre, KEYS[1], ARGV[3])
return {'finished', low, empty, ${LUA_HGETALL}}
`);

// KEYS: order, unknown, wallet, statement, wallet totals
// ARGV: state, at, admin, ref, user, provider cost, key prefix, at packed, then the result's fields
const SETTLE = luaScript(`${LUA_BASICS}${LUA_MOVEMENT}${LUA_LINE}${SETTLE_HOLD}${TALLY}${DROP_RESULT}${DRAFT_OF(8)}
local f = redis.call('HMGET', KEYS[1], 's', 'h', 'u', 'dy', 'sa', 'sk', 'hr', ${DRAFT_HMGET})
if not f[1] then return {'not-found'} end
if f[3] ~= ARGV[5] then return redis.error_reply('settle: the order belongs to another user') end
if f[1] ~= 'unknown' then return {'not-pending', ${LUA_HGETALL}} end
local pre = ARGV[7]
dropResult(KEYS[1])
redis.call('HSET', KEYS[1], 's', ARGV[1], 'st', ARGV[2], 'sb', ARGV[3], unpack(ARGV, 9))
redis.call('HDEL', KEYS[1], 'na', 'lc')
redis.call('SREM', KEYS[2], ARGV[4])
settleHold(KEYS[1], KEYS[3], KEYS[4], ARGV[1], tonumber(f[2] or '0'), ARGV[8], ARGV[4], KEYS[5])
if f[4] then tally(pre, f[4], draftOf(f), f[3], 'u', STATE_CODE[ARGV[1]], tonumber(ARGV[6]), f[5] or '', f[7]) end
if f[6] then redis.call('HINCRBY', pre .. 'fh', dayOfKey(f[6]), 1) end
keepLine(pre, KEYS[1], ARGV[4])
return {'settled', ${LUA_HGETALL}}
`);

// Only an order that is still a hash: a compacted order keeps the time it was told, if any.
const MARK_NOTIFIED = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'na', ARGV[1]) end
return 0
`);

/** The scripts of the order steps (loaded at start with the ledger's). */
export const ORDER_SCRIPTS: readonly LuaScript[] = [SAVE_DRAFT, CLAIM, CANCEL, FINISH, SETTLE, MARK_NOTIFIED];

/** A script's answer: [kind, ...] → kind, the flag (second element 1), the order of a trailing hash. */
const reply = (raw: unknown, refId: string) => {
  const list = raw as Array<string | number | string[]>;
  const hash = list.at(-1);
  return {
    kind: list[0] as string,
    flag: list[1] === 1,
    order: Array.isArray(hash) ? orderFromHash(refId, pairs(hash)) : undefined,
    list,
  };
};

/** The codes for sale as the claim script reads them (`|A|B|`), written once per set (once per catalogue). */
const offeredArgs = new WeakMap<ReadonlySet<string>, string>();
function offeredArg(codes: ReadonlySet<string>): string {
  let arg = offeredArgs.get(codes);
  if (arg === undefined) {
    arg = `|${[...codes].join("|")}|`;
    offeredArgs.set(codes, arg);
  }
  return arg;
}

/** A draft's steps: saved (once per ref id), found again by its chat, claimed once or cancelled. */
export function createRedisDrafts(
  ctx: RedisLedgerContext,
  read: OrderReader,
): Pick<
  OrderLedger,
  "saveDraft" | "openDraftOf" | "openDraftsIn" | "claim" | "cancel" | "partnerOrder" | "partnerRefOf"
> {
  const { redis, prefix, keys, dayOf, hourOf } = ctx;
  const { get, compacted } = read;
  return {
    async saveDraft(order, ttlMs) {
      const kept = await SAVE_DRAFT(
        redis,
        [keys.order(order.refId), keys.openDraft(order.chatId, order.userId)],
        [ttlMs, order.refId, paidFromSaldo(order) ? order.price! : "", ...Object.entries(draftFields(order)).flat()],
      );
      return Number(kept) === 1 ? ((await get(order.refId)) ?? order) : order;
    },

    partnerOrder: async (userId, partnerRef) => (await redis.get(keys.partnerRef(userId, partnerRef))) ?? undefined,
    partnerRefOf: async (refId) => (await redis.get(keys.partnerRefOf(refId))) ?? undefined,

    async openDraftOf(chatId, userId) {
      return (await redis.get(keys.openDraft(chatId, userId))) ?? undefined;
    },

    async openDraftsIn(chatId) {
      // By key (SCAN, never KEYS): a chat has a handful of members with a draft at most.
      const found: Array<{ userId: number; refId: string }> = [];
      const start = keys.openDraft(chatId, 0).slice(0, -1);
      for await (const batch of redis.scanIterator({ MATCH: `${start}*`, COUNT: 500 })) {
        for (const key of batch) {
          const refId = await redis.get(key);
          if (refId !== null) found.push({ userId: Number(key.slice(start.length)), refId });
        }
      }
      return found;
    },

    async claim(refId, by): Promise<ClaimResult> {
      const ms = Date.parse(by.at);
      const r = reply(
        await CLAIM(
          redis,
          [
            keys.order(refId),
            keys.inflight,
            keys.wallet(by.userId),
            keys.statement(by.userId),
            keys.wallets,
            keys.walletTotals,
            keys.partnerRef(by.userId, by.partnerRef ?? ""),
            keys.partnerRefOf(refId),
            keys.callbacksDue,
            keys.callbacksInfo,
          ],
          [
            by.userId,
            by.at,
            msKey(ms),
            refId,
            by.summaryMessageId ?? "",
            by.offered === undefined ? "" : offeredArg(by.offered),
            dayOf(by.at),
            prefix,
            packMovementTime(by.at, refId),
            hourOf(ms),
            by.partnerRef ?? "",
            by.attempt?.provider ?? "",
            by.attempt?.code ?? "",
            by.draft === undefined ? "" : "1",
            by.oweAtMs ?? "",
            by.draft !== undefined && paidFromSaldo(by.draft) ? by.draft.price! : "",
            by.recentMs === undefined ? "" : Math.max(1, Math.round(by.recentMs)),
            ...(by.draft === undefined ? [] : Object.entries(draftFields(by.draft)).flat()),
          ],
        ),
        refId,
      );
      if (r.kind === "claimed" && r.order !== undefined) return { kind: "claimed", order: r.order };
      if (r.kind === "used") return { kind: "used", refId: String(r.list[1]) };
      if (r.kind === "short") return { kind: "short", saldo: Number(r.list[1]) };
      if (r.kind === "not-offered" && r.order !== undefined) return { kind: "not-offered", order: r.order };
      if (r.kind === "taken" && r.order !== undefined) return { kind: "taken", order: r.order };
      if (r.kind === "not-yours") return { kind: "not-yours" };
      // No hash: never drafted, expired, or compacted long after it was sent (an old button).
      const old = await compacted(refId);
      if (old === undefined) return { kind: "not-found" };
      return old.userId === by.userId ? { kind: "taken", order: old } : { kind: "not-yours" };
    },

    async cancel(refId, by): Promise<CancelResult> {
      const r = reply(
        await CANCEL(redis, [keys.order(refId), keys.openDraft(by.chatId, by.userId)], [by.userId, by.at, refId]),
        refId,
      );
      if ((r.kind === "cancelled" || r.kind === "taken") && r.order !== undefined)
        return { kind: r.kind, order: r.order };
      if (r.kind === "not-yours") return { kind: "not-yours" };
      const old = await compacted(refId);
      if (old === undefined) return { kind: "not-found" };
      return old.userId === by.userId ? { kind: "taken", order: old } : { kind: "not-yours" };
    },
  };
}

/** An order's end: the provider's outcome, an admin's settlement, the user told; what the sales saw last. */
export function createRedisOutcomes(
  ctx: RedisLedgerContext,
  read: OrderReader,
): Pick<OrderLedger, "finish" | "settle" | "markNotified" | "lastBalance" | "balances" | "lastProviderPrices"> {
  const { redis, prefix, keys, dayOf } = ctx;
  const { compacted } = read;
  return {
    async finish(order, outcome, opts = {}): Promise<FinishResult> {
      const balance = opts.balance;
      const provider = opts.provider ?? MAIN_PROVIDER;
      const own = keys.ofProvider(provider);
      const empty = outcome.state === "failed" && (opts.providerEmpty ?? providerDepositEmpty(outcome.result));
      const r = reply(
        await FINISH(
          redis,
          [
            keys.order(order.refId),
            keys.inflight,
            keys.unknown,
            own.lastBalance,
            own.lowBalance,
            keys.wallet(order.userId),
            keys.statement(order.userId),
            keys.walletTotals,
            own.providerEmpty,
            keys.callbacksDue,
            keys.callbacksInfo,
          ],
          [
            outcome.state,
            outcome.at,
            order.refId,
            balance === undefined ? "" : JSON.stringify(balance),
            balance === undefined ? "" : balance.balance,
            opts.lowBalanceThreshold ?? "",
            opts.acceptLate === true ? "1" : "0",
            order.userId,
            outcome.state === "success" ? (costOf(outcome.result) ?? "") : 0,
            dayOf(outcome.at),
            prefix,
            packMovementTime(outcome.at, order.refId),
            empty ? "1" : "",
            provider === MAIN_PROVIDER ? "" : provider,
            opts.answered === true ? "1" : "",
            ...resultFields(outcome.result),
          ],
        ),
        order.refId,
      );
      if (r.kind === "finished" && r.order !== undefined)
        return { kind: "finished", order: r.order, lowBalance: r.flag, providerEmpty: r.list[2] === 1 };
      if (r.order !== undefined) return { kind: "stale", order: r.order };
      const old = await compacted(order.refId);
      return old === undefined ? { kind: "not-found" } : { kind: "stale", order: old };
    },

    async settle(order, outcome): Promise<SettleResult> {
      const r = reply(
        await SETTLE(
          redis,
          [
            keys.order(order.refId),
            keys.unknown,
            keys.wallet(order.userId),
            keys.statement(order.userId),
            keys.walletTotals,
          ],
          [
            outcome.state,
            outcome.at,
            outcome.adminId,
            order.refId,
            order.userId,
            outcome.state === "success" ? (costOf(outcome.result) ?? "") : 0,
            prefix,
            packMovementTime(outcome.at, order.refId),
            ...resultFields(outcome.result),
          ],
        ),
        order.refId,
      );
      if (r.order !== undefined) return { kind: r.kind === "settled" ? "settled" : "not-pending", order: r.order };
      const old = await compacted(order.refId);
      return old === undefined ? { kind: "not-found" } : { kind: "not-pending", order: old };
    },

    async markNotified(refId, at) {
      await MARK_NOTIFIED(redis, [keys.order(refId)], [at]);
    },

    async lastBalance() {
      const latest = await redis.get(keys.lastBalance);
      return latest === null ? undefined : (JSON.parse(latest) as BalanceSeen);
    },

    async balances() {
      const others = (await redis.sMembers(keys.balanceProviders)).sort();
      const names = [MAIN_PROVIDER, ...others.filter((name) => name !== MAIN_PROVIDER)];
      const seen = await redis.mGet(names.map((name) => keys.ofProvider(name).lastBalance));
      const all = new Map<string, BalanceSeen>();
      names.forEach((name, i) => {
        const text = seen[i];
        if (typeof text === "string") all.set(name, JSON.parse(text) as BalanceSeen);
      });
      return all;
    },

    async lastProviderPrices() {
      const all = await redis.hGetAll(`${prefix}pcost`);
      return new Map(Object.entries(all).map(([code, price]) => [code, Number(price)]));
    },
  };
}
