import { dayIn, hourIn } from "../calendar.js";
import { luaScript, type LuaScript, type RedisClient } from "../storage/redis.js";
import type { CancelResult, ClaimResult, FinishResult, Ledger, OrderLedger, SettleResult } from "./ledger.js";
import { COMPACTION_SCRIPTS, compactRedisLedger, STATEMENT_CHUNK } from "./ledger-redis-compact.js";
import {
  LUA_BASICS,
  LUA_CHUNKS,
  LUA_LINEAR_HASH,
  LUA_RESOLVE,
  LUA_TIME_INDEX,
  ledgerKeys,
  pairs,
  TALLY,
} from "./ledger-redis-lua.js";
import { createTextDictionary, MissingText, TEXT_SCRIPTS } from "./ledger-redis-texts.js";
import { upgradeRedisLedger } from "./ledger-redis-upgrade.js";
import {
  draftFields,
  elementHeader,
  int36,
  movementFromLine,
  msKey,
  orderFromHash,
  packMovementTime,
  resultFields,
  STATE_LETTER,
  textIdsOf,
  unpackMovements,
  unpackOrder,
  escapeField,
} from "./order-codec.js";
import {
  costOf,
  paidFromSaldo,
  providerDepositEmpty,
  type BalanceSeen,
  type OrderRecord,
  type OrderState,
} from "./order.js";
import { figuresOf } from "./report.js";
import type { Deposit, DepositConfirmResult, Wallet, Wallets } from "./wallet.js";

/*
 * Layout 4 (every key starts with the prefix; ledger-version says which layout a Redis holds):
 *
 * Orders
 *   o:REF            an order while it is a draft, open, or recent: a hash of short fields
 *                    (order-codec.ts: draftFields, resultFields; sk = submit time in 9 base-36
 *                    digits, dy = its day in the shop's time zone, hr = the hour of that day it was
 *                    sent (00-23), h = what a reseller's order holds, ws = the reseller's saldo
 *                    after its last movement). Finished orders older than
 *                    LEDGER_HOT_DAYS leave it for their element in the time index (compaction).
 *   open-draft:CHAT:USER   the ref id of the draft shown in that chat (expires with the draft)
 *   t:DAY, t-days, u:USER, p:N, p-meta, pp:…   the time, user and player indexes (ledger-redis-lua.ts),
 *                    written in the claim's step; a compacted order's element holds the order
 *   pcost            hash: product code → the provider price last seen for it (by the outcome's
 *                    step); a claim copies it into the order (lc) for a settlement's cost
 *   uc               hash: user id → how many orders they submitted; orders-count: everyone's
 *   r:N, r-meta      hash buckets: ref id → submit time, for ref ids that do not tell it (ledger-redis-lua.ts:
 *                    rfind finds any other compacted order from the time in its ref id)
 *   fh               hash: UTC day → finished orders of that day still in a hash (for compaction)
 *   dict, dict-ids, dict-seq   the texts compacted orders share, by number (ledger-redis-texts.ts)
 *   orders-inflight, orders-unknown       sets of ref ids
 *   last-balance     the balance reported by the sale recorded last (JSON), set in that sale's step
 *   low-balance-alerted                   set while the balance is below the alert threshold
 *   provider-empty-alerted                set from the failure that said the shop's deposit with the
 *                                         provider is empty until the next sale
 * Money
 *   wallet:USER      hash: saldo, held, deposits, corrections, spent (whole rupiah)
 *   statement:USER   list of movements, oldest first, appended in the step that moves money
 *                    (order-codec.ts: movementLine; lines of layout 2 are JSON); its older part
 *                    moves to sc:USER, chunks of exactly 256 movements packed together
 *                    (packMovements), scn: user → how many movements sc:USER holds. The newest 20
 *                    (and what does not fill a chunk) always stay here.
 *   wallets          set of the resellers who have a wallet
 *   dep:ID           hash: d = the deposit's JSON, s = state, w = reseller, a = amount,
 *                    db/da = confirmed by/at, ws = saldo after, na = reseller told at, dy = its day
 *   deposits-by-time sorted set of credited deposit ids, scored by the time they were credited
 *   deposits-untold  set of credited deposit ids whose reseller has not been told yet
 *   wallet-totals    hash: saldo and held of all resellers together (what the shop owes)
 * Figures
 *   day:DAY          hash: a day's figures (DAY in the shop's time zone, the day an order was
 *                    submitted): c:p/c:s/c:f/c:u = orders submitting/success/failed/unknown,
 *                    sell/cost = selling and provider price of the successes (sellu/nu = the selling
 *                    and count of successes whose provider price is unknown), dep = deposits less
 *                    corrections credited, bal/balAt = the provider balance last seen that day
 *   dayd:DAY         hash: the same day by product (p:CODE:n/s/v/m/w = count, selling, cost, name,
 *                    seen at, u = selling at an unknown provider price), by user (u:ID:n/s/v/u/m/w)
 *                    by reseller (r:ID:n/s/v/u/d/m/t/w, d = deposits, t = tier) and by the
 *                    hour orders were sent (h:HH:n/s/v, HH = 00-23: orders sent, whatever their
 *                    outcome; selling and provider price of the successes, an unknown cost as 0)
 *   ledger-version   4 (who is compacting now is the lease `lease:compact`, storage/leases.ts)
 *
 * The figures move with the order's state in the same script that changes it (claim, outcome,
 * settlement, deposit), so they always equal a recount of the orders. The scripts name other keys
 * than their KEYS (a day's figures, the indexes): one Redis, not a cluster.
 *
 * State changes are Lua scripts: each checks the state it starts from and writes the record, its
 * indexes and the money it moves in one atomic step, so a crash can never leave one without the
 * others, and two steps that race each other can never both move the same rupiah.
 */

const HGETALL = "redis.call('HGETALL', KEYS[1])";

/** The fields of the order hash TALLY needs, read with HMGET after others, into a `draft` table. */
const DRAFT_OF = (first: number) => `
local function draftOf(f)
  return { price = f[${first}], productCode = f[${first + 1}], productName = f[${first + 2}],
    userName = f[${first + 3}], role = f[${first + 4}], tier = f[${first + 5}] }
end
`;
const DRAFT_HMGET = "'p', 'k', 'pn', 'n', 'o', 't'";

/**
 * Lua that appends one movement to a statement (order-codec.ts: movementLine); `at` is packed
 * (packMovementTime), `kind` its letter, the amounts whole rupiah written in base 36.
 */
const MOVEMENT = `
local DIGITS36 = '0123456789abcdefghijklmnopqrstuvwxyz'
local function int36(n)
  if n < 0 then return '-' .. int36(-n) end
  local s = ''
  repeat
    local r = n % 36
    s = string.sub(DIGITS36, r + 1, r + 1) .. s
    n = math.floor(n / 36)
  until n == 0
  return s
end
local function movement(stmtKey, at, kind, ref, amount, saldo, held)
  redis.call('RPUSH', stmtKey, at .. '\\t' .. kind .. '\\t' .. ref .. '\\t' .. int36(amount) .. '\\t' ..
    int36(saldo) .. '\\t' .. int36(held))
end
`;

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
// KEYS: order, inflight, wallet, statement, wallets, wallet totals
// ARGV: user, at, submit time (9 digits), ref, message id, codes for sale, submit day, key prefix, at packed,
//       submit hour (00-23, in the shop's time zone)
const CLAIM = luaScript(`${LUA_BASICS}${LUA_TIME_INDEX}${LUA_LINEAR_HASH}${LUA_CHUNKS}${MOVEMENT}
local f = redis.call('HMGET', KEYS[1], 's', 'u', 'h', 'k', 'y')
if not f[1] then return {'not-found'} end
if f[2] ~= ARGV[1] then return {'not-yours'} end
if f[1] ~= 'draft' then return {'taken', ${HGETALL}} end
if ARGV[6] ~= '' then
  local code = '|' .. string.upper(f[4] or '') .. '|'
  if not string.find(ARGV[6], code, 1, true) then return {'not-offered', ${HGETALL}} end
end
local pre = ARGV[8]
local hold = tonumber(f[3] or '0')
if hold > 0 then
  local have = tonumber(redis.call('HGET', KEYS[3], 'saldo') or '0')
  if have < hold then return {'short', string.format('%d', have)} end
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
-- The provider price last seen for the product, as the order is sent: its cost if it ends unknown
-- and an admin settles it as a success.
local seenCost = redis.call('HGET', pre .. 'pcost', f[4] or '')
if seenCost then redis.call('HSET', KEYS[1], 'lc', seenCost) end
redis.call('HINCRBY', pre .. 'day:' .. ARGV[7], 'c:p', 1)
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
return {'claimed', ${HGETALL}}
`);

const CANCEL = luaScript(`
local s = redis.call('HGET', KEYS[1], 's')
if not s then return {'not-found'} end
if redis.call('HGET', KEYS[1], 'u') ~= ARGV[1] then return {'not-yours'} end
if s == 'draft' then
  redis.call('HSET', KEYS[1], 's', 'cancelled', 'fa', ARGV[2])
  if redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
end
if s == 'draft' or s == 'cancelled' then return {'cancelled', ${HGETALL}} end
return {'taken', ${HGETALL}}
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
// alert goes out when this step set it); a sale clears it.
// KEYS: order, inflight, unknown, last balance, low-balance flag, wallet, statement, wallet totals,
//       provider-empty flag
// ARGV: state, at, ref, balance entry, balance, threshold, accept late, user, provider cost,
//       day of the outcome (for the balance), key prefix, at packed, '1' when the provider said its
//       deposit is empty, then the result's fields
const FINISH = luaScript(`${LUA_BASICS}${MOVEMENT}${SETTLE_HOLD}${TALLY}${DROP_RESULT}${DRAFT_OF(9)}
local f = redis.call('HMGET', KEYS[1], 's', 'sb', 'h', 'u', 'dy', 'sa', 'sk', 'hr', ${DRAFT_HMGET})
if not f[1] then return {'not-found'} end
if f[4] ~= ARGV[8] then return redis.error_reply('finish: the order belongs to another user') end
local late = f[1] == 'unknown' and ARGV[7] == '1' and not f[2]
if f[1] ~= 'submitting' and not late then return {'stale', 0, ${HGETALL}} end
local pre = ARGV[11]
dropResult(KEYS[1])
redis.call('HSET', KEYS[1], 's', ARGV[1], 'fa', ARGV[2], unpack(ARGV, 14))
if ARGV[1] ~= 'unknown' then redis.call('HDEL', KEYS[1], 'lc') end
if ARGV[1] == 'success' and ARGV[9] ~= '' and f[10] then redis.call('HSET', pre .. 'pcost', f[10], ARGV[9]) end
if late then redis.call('HDEL', KEYS[1], 'na') else redis.call('SREM', KEYS[2], ARGV[3]) end
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
  local balDay = pre .. 'day:' .. ARGV[10]
  local seenAt = redis.call('HGET', balDay, 'balAt')
  if not seenAt or seenAt <= ARGV[2] then redis.call('HSET', balDay, 'bal', ARGV[5], 'balAt', ARGV[2]) end
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
return {'finished', low, empty, ${HGETALL}}
`);

// KEYS: order, unknown, wallet, statement, wallet totals
// ARGV: state, at, admin, ref, user, provider cost, key prefix, at packed, then the result's fields
const SETTLE = luaScript(`${LUA_BASICS}${MOVEMENT}${SETTLE_HOLD}${TALLY}${DROP_RESULT}${DRAFT_OF(8)}
local f = redis.call('HMGET', KEYS[1], 's', 'h', 'u', 'dy', 'sa', 'sk', 'hr', ${DRAFT_HMGET})
if not f[1] then return {'not-found'} end
if f[3] ~= ARGV[5] then return redis.error_reply('settle: the order belongs to another user') end
if f[1] ~= 'unknown' then return {'not-pending', ${HGETALL}} end
local pre = ARGV[7]
dropResult(KEYS[1])
redis.call('HSET', KEYS[1], 's', ARGV[1], 'st', ARGV[2], 'sb', ARGV[3], unpack(ARGV, 9))
redis.call('HDEL', KEYS[1], 'na', 'lc')
redis.call('SREM', KEYS[2], ARGV[4])
settleHold(KEYS[1], KEYS[3], KEYS[4], ARGV[1], tonumber(f[2] or '0'), ARGV[8], ARGV[4], KEYS[5])
if f[4] then tally(pre, f[4], draftOf(f), f[3], 'u', STATE_CODE[ARGV[1]], tonumber(ARGV[6]), f[5] or '', f[7]) end
if f[6] then redis.call('HINCRBY', pre .. 'fh', dayOfKey(f[6]), 1) end
return {'settled', ${HGETALL}}
`);

// Only an order that is still a hash: a compacted order keeps the time it was told, if any.
const MARK_NOTIFIED = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'na', ARGV[1]) end
return 0
`);

/**
 * One order by ref id: its hash, or its element in the time index once compacted.
 * KEYS: order; ARGV: key prefix, ref
 */
const FIND = luaScript(`${LUA_BASICS}${LUA_TIME_INDEX}${LUA_LINEAR_HASH}
local h = redis.call('HGETALL', KEYS[1])
if #h > 0 then return {'h', h} end
local e = rfind(ARGV[1], ARGV[2])
if e and #headerOf(e) < #e then return {'c', e} end
return {'n'}
`);

/**
 * Submitted orders newest first from the time index, each element followed by the order's hash
 * (empty once compacted): headers below `upper` (exclusive; '' = no bound) and at or above `lower`
 * ('' = none), the first `skip` left out, at most `take`. Without a filter the skipped ones are
 * counted, not read; with one (a state, a user), only matching orders count and come back (a
 * compacted order of the JSON form always comes back: the reader checks it).
 * A player prefix keeps only orders whose player id starts with it (raw for a hash, escaped as a
 * compacted element writes it).
 * ARGV: key prefix, upper, lower, skip, take, state letter, state, user (base 36), user, player
 *       prefix, player prefix escaped
 */
const TIME_SCAN = luaScript(`${LUA_BASICS}${LUA_TIME_INDEX}
local pre, upper, lower = ARGV[1], ARGV[2], ARGV[3]
local skip, take = tonumber(ARGV[4]), tonumber(ARGV[5])
local letter, state, user36, user = ARGV[6], ARGV[7], ARGV[8], ARGV[9]
local player, player7 = ARGV[10] or '', ARGV[11] or ''
local filtered = letter ~= '' or user ~= '' or player ~= ''
local function startsWith(text, start) return start == '' or string.sub(text or '', 1, #start) == start end
local maxDay = '+inf'
if upper ~= '' then maxDay = dayOfKey(upper) end
local minDay = '-inf'
if lower ~= '' then minDay = dayOfKey(lower) end
local out, count = {}, 0
if take <= 0 then return out end
-- Whether an element's order passes the filter, and its hash when it has one.
local function pass(e)
  local t = string.find(e, '\\t', 1, true)
  if not t then
    local h = redis.call('HGETALL', pre .. 'o:' .. string.sub(e, 10))
    local s, u, y
    for i = 1, #h, 2 do
      if h[i] == 's' then s = h[i + 1] elseif h[i] == 'u' then u = h[i + 1] elseif h[i] == 'y' then y = h[i + 1] end
    end
    return (state == '' or s == state) and (user == '' or u == user) and startsWith(y, player), h
  end
  local v, l, u, _c, _w, _h, y = string.match(e, '^([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)', t + 1)
  if v ~= '1' then return true, {} end
  return (letter == '' or l == letter) and (user36 == '' or u == user36) and startsWith(y, player7), {}
end
for _, day in ipairs(redis.call('ZRANGE', pre .. 't-days', maxDay, minDay, 'BYSCORE', 'REV')) do
  local key = pre .. 't:' .. day
  local n = redis.call('LLEN', key)
  local hi, lo = n, 0
  if upper ~= '' and day == maxDay then hi = firstAtOrAfter(key, upper, n) end
  if lower ~= '' and day == minDay then lo = firstAtOrAfter(key, lower, n) end
  if filtered then
    local pos = hi - 1
    while pos >= lo and count < take do
      local from = math.max(lo, pos - 199)
      local els = redis.call('LRANGE', key, from, pos)
      for i = #els, 1, -1 do
        local ok, h = pass(els[i])
        if ok then
          if skip > 0 then
            skip = skip - 1
          else
            out[#out + 1] = els[i]
            out[#out + 1] = h
            count = count + 1
            if count >= take then break end
          end
        end
      end
      pos = from - 1
    end
  elseif hi - lo > 0 then
    local cnt = hi - lo
    if skip >= cnt then
      skip = skip - cnt
    else
      local from = hi - 1 - skip
      skip = 0
      local to = math.max(lo, from - (take - count) + 1)
      local els = redis.call('LRANGE', key, to, from)
      for i = #els, 1, -1 do
        local e = els[i]
        out[#out + 1] = e
        if #headerOf(e) == #e then out[#out + 1] = redis.call('HGETALL', pre .. 'o:' .. string.sub(e, 10)) else out[#out + 1] = {} end
        count = count + 1
      end
    end
  end
  if count >= take then break end
end
return out
`);

/**
 * Orders of a user or a player id, newest first: their index entries below `upper` (exclusive)
 * and at or above `lower`, `skip` of them left out, at most `take`, then each resolved to its
 * element(s) and hash (LUA_RESOLVE). Source: 'l' = the list KEY (u:USER), 'p' = the player id KEY
 * (its bucket, or its own list when it has many orders).
 * ARGV: key prefix, source, key, upper, lower, skip, take
 */
const ENTRY_SCAN = luaScript(`${LUA_BASICS}${LUA_TIME_INDEX}${LUA_LINEAR_HASH}${LUA_RESOLVE}
local pre, source, key = ARGV[1], ARGV[2], ARGV[3]
local upper, lower = ARGV[4], ARGV[5]
local skip, take = tonumber(ARGV[6]), tonumber(ARGV[7])
local single
if source == 'p' then
  local h = redis.sha1hex(key)
  local field = string.sub(h, 1, 9)
  local v = redis.call('HGET', lhBucket(pre .. 'p:', lhMeta(pre .. 'p-meta'), h), field)
  if not v then return {} end
  if v == '+' then key = pre .. 'pp:' .. field else single = v end
end
local entries = {}
local bounded = upper ~= '' or lower ~= ''
local function walk(chunk)
  if not bounded and skip >= #chunk / 12 then
    skip = skip - #chunk / 12
    return false
  end
  for j = #chunk - 11, 1, -12 do
    local e = string.sub(chunk, j, j + 11)
    if lower ~= '' and before(e, lower) then return true end
    if upper == '' or before(e, upper) then
      if skip > 0 then
        skip = skip - 1
      else
        entries[#entries + 1] = e
        if #entries >= take then return true end
      end
    end
  end
  return false
end
if take > 0 then
  if single then
    walk(single)
  else
    local i = redis.call('LLEN', key) - 1
    local done = false
    while i >= 0 and not done do
      local batch = redis.call('LRANGE', key, math.max(0, i - 15), i)
      for b = #batch, 1, -1 do
        if walk(batch[b]) then done = true break end
      end
      i = i - 16
    end
  end
end
local out = {}
for _, e in ipairs(entries) do resolve(pre, e, out) end
return out
`);

const SAVE_DEPOSIT = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
redis.call('HSET', KEYS[1], 'd', ARGV[1], 's', 'draft', 'w', ARGV[2], 'a', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 0
`);

// Credits a deposit once; a correction that would take the saldo below 0 changes nothing.
// KEYS: deposit, wallet, statement, wallets, deposits-by-time, untold, wallet totals
// ARGV: admin, at, score, id, reseller, day credited, key prefix, at packed
const CONFIRM_DEPOSIT = luaScript(`${MOVEMENT}
local f = redis.call('HMGET', KEYS[1], 's', 'w', 'a')
if not f[1] then return {'not-found'} end
if f[2] ~= ARGV[5] then return redis.error_reply('deposit: another reseller') end
if f[1] ~= 'draft' then return {'taken', ${HGETALL}} end
local amount = tonumber(f[3])
local have = tonumber(redis.call('HGET', KEYS[2], 'saldo') or '0')
if have + amount < 0 then return {'short', string.format('%d', have)} end
local saldo = redis.call('HINCRBY', KEYS[2], 'saldo', amount)
redis.call('HINCRBY', KEYS[7], 'saldo', amount)
redis.call('HINCRBY', ARGV[7] .. 'day:' .. ARGV[6], 'dep', amount)
redis.call('HINCRBY', ARGV[7] .. 'dayd:' .. ARGV[6], 'r:' .. ARGV[5] .. ':d', amount)
local kind = 'deposit'
if amount < 0 then kind = 'correction' end
redis.call('HINCRBY', KEYS[2], kind == 'deposit' and 'deposits' or 'corrections', amount)
local held = tonumber(redis.call('HGET', KEYS[2], 'held') or '0')
movement(KEYS[3], ARGV[8], string.sub(kind, 1, 1), ARGV[4], amount, saldo, held)
redis.call('SADD', KEYS[4], ARGV[5])
redis.call('HSET', KEYS[1], 's', 'done', 'db', ARGV[1], 'da', ARGV[2], 'ws', saldo, 'dy', ARGV[6])
redis.call('PERSIST', KEYS[1])
redis.call('ZADD', KEYS[5], ARGV[3], ARGV[4])
redis.call('SADD', KEYS[6], ARGV[4])
return {'done', ${HGETALL}}
`);

const CANCEL_DEPOSIT = luaScript(`
local s = redis.call('HGET', KEYS[1], 's')
if not s then return {'not-found'} end
if s == 'draft' then redis.call('HSET', KEYS[1], 's', 'cancelled', 'da', ARGV[1]) end
if s == 'draft' or s == 'cancelled' then return {'cancelled', ${HGETALL}} end
return {'taken', ${HGETALL}}
`);

/**
 * A page of a statement, newest first from `start`: the hot lines it covers (oldest first), and
 * the compacted chunks it covers, read together so that a compaction cannot fall in between.
 * KEYS: statement, compacted chunks, compacted counts; ARGV: user, start, count, chunk size
 * Returns: hot length, compacted count, hot lines, first chunk number, chunks.
 */
const STATEMENT_PAGE = luaScript(`
local start, count, size = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local hot = redis.call('LLEN', KEYS[1])
local cold = tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '0')
local lines = {}
if start < hot and count > 0 then
  local last = hot - 1 - start
  lines = redis.call('LRANGE', KEYS[1], math.max(0, last - count + 1), last)
end
local first, chunks = 0, {}
local cs = math.max(start, hot) - hot
local ce = math.min(start + count - 1 - hot, cold - 1)
if count > 0 and ce >= cs then
  first = math.floor((cold - 1 - ce) / size)
  chunks = redis.call('LRANGE', KEYS[2], first, math.floor((cold - 1 - cs) / size))
end
return {hot, cold, lines, first, chunks}
`);

function toDeposit(hash: Record<string, string> | string[]): Deposit | undefined {
  const h = pairs(hash);
  if (h.d === undefined || h.s === undefined) return undefined;
  const deposit: Deposit = { ...(JSON.parse(h.d) as Deposit), state: h.s as Deposit["state"] };
  if (h.da !== undefined) deposit.doneAt = h.da;
  if (h.db !== undefined) deposit.doneBy = Number(h.db);
  if (h.ws !== undefined) deposit.saldoAfter = Number(h.ws);
  if (h.na !== undefined) deposit.toldAt = h.na;
  return deposit;
}

function toWallet(userId: number, h: Record<string, string>): Wallet {
  const n = (k: string) => Number(h[k] ?? 0);
  return {
    userId,
    saldo: n("saldo"),
    held: n("held"),
    deposits: n("deposits"),
    corrections: n("corrections"),
    spent: n("spent"),
  };
}

/** Every script of the ledger's daily work, loaded at start (upgrade) so that no order pays for it. */
const SCRIPTS: readonly LuaScript[] = [
  SAVE_DRAFT,
  CLAIM,
  CANCEL,
  FINISH,
  SETTLE,
  MARK_NOTIFIED,
  FIND,
  TIME_SCAN,
  ENTRY_SCAN,
  SAVE_DEPOSIT,
  CONFIRM_DEPOSIT,
  CANCEL_DEPOSIT,
  STATEMENT_PAGE,
  ...COMPACTION_SCRIPTS,
  ...TEXT_SCRIPTS,
];

/** Reads over 10,000 orders at once are split in scripts of this many (a day's CSV is one or two). */
const SCAN_BATCH = 5_000;

/**
 * The ledger on Redis under a key prefix: every state change a Lua script (see the layout above).
 * `timeZone` is the shop's: it decides the day and the hour each order counts in.
 */
export function createRedisLedger(redis: RedisClient, prefix: string, timeZone: string): Ledger {
  const keys = ledgerKeys(prefix);
  const dayOf = (iso: string) => dayIn(timeZone, new Date(iso));
  const texts = createTextDictionary(redis, keys);

  /** The order a hash or an element holds (the ref id for a hash: it is the key's). */
  const decode = async (found: Array<{ element: string; hash: string[] }>): Promise<OrderRecord[]> => {
    const missing = new Set<string>();
    const one = (f: { element: string; hash: string[] }) => {
      if (f.hash.length > 0) {
        const tab = f.element.indexOf("\t");
        return orderFromHash((tab < 0 ? f.element : f.element.slice(0, tab)).slice(9), pairs(f.hash));
      }
      try {
        return unpackOrder(f.element, (id) => texts.text(id));
      } catch (err) {
        // A text not read yet from the dictionary: all of them are fetched at once, then read again.
        if (!(err instanceof MissingText)) throw err;
        for (const id of textIdsOf(f.element)) missing.add(id);
        return null;
      }
    };
    let orders = found.map(one);
    if (missing.size > 0) {
      await texts.load(missing);
      orders = orders.map((o, i) => (o === null ? one(found[i]!) : o));
    }
    return orders.filter((o): o is OrderRecord => o !== undefined && o !== null);
  };
  /** A scan's flat answer (element, hash, element, hash…) → orders, each once. */
  const ordersOf = async (raw: unknown): Promise<OrderRecord[]> => {
    const list = raw as Array<string | string[]>;
    const found: Array<{ element: string; hash: string[] }> = [];
    for (let i = 0; i + 1 < list.length; i += 2)
      found.push({ element: list[i] as string, hash: list[i + 1] as string[] });
    const seen = new Set<string>();
    return (await decode(found)).filter((o) => !seen.has(o.refId) && seen.add(o.refId));
  };

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

  async function get(refId: string): Promise<OrderRecord | undefined> {
    const raw = (await FIND(redis, [keys.order(refId)], [prefix, refId])) as [string, (string | string[])?];
    if (raw[0] === "h") return orderFromHash(refId, pairs(raw[1] as string[]));
    if (raw[0] === "c") return (await decode([{ element: raw[1] as string, hash: [] }]))[0];
    return undefined;
  }

  const getMany = async (refIds: readonly string[]) =>
    (await Promise.all(refIds.map(get))).filter((o): o is OrderRecord => o !== undefined);

  /** An order that has no hash any more (compacted): what a step on it finds. */
  const compacted = async (refId: string) => {
    const order = await get(refId);
    return order?.state === "success" || order?.state === "failed" ? order : undefined;
  };

  /** The index a query reads, as a function of (upper, lower, skip, take) → orders newest first. */
  type Source = (upper: string, lower: string, skip: number, take: number) => Promise<OrderRecord[]>;
  /** The time index, optionally only the orders in a state and of a user (checked in the script). */
  const timeScan =
    (filter: { state?: OrderState; userId?: number; playerPrefix?: string } = {}): Source =>
    async (upper, lower, skip, take) =>
      ordersOf(
        await TIME_SCAN(
          redis,
          [],
          [
            prefix,
            upper,
            lower,
            skip,
            take,
            filter.state === undefined ? "" : STATE_LETTER[filter.state],
            filter.state ?? "",
            filter.userId === undefined ? "" : int36(filter.userId),
            filter.userId === undefined ? "" : String(filter.userId),
            filter.playerPrefix ?? "",
            filter.playerPrefix === undefined ? "" : escapeField(filter.playerPrefix),
          ],
        ),
      );
  const byTime = timeScan();
  const byEntries =
    (source: "l" | "p", key: string, keep: (o: OrderRecord) => boolean): Source =>
    async (upper, lower, skip, take) =>
      (await ordersOf(await ENTRY_SCAN(redis, [], [prefix, source, key, upper, lower, skip, take]))).filter(keep);
  const byUser = (userId: number) => byEntries("l", keys.user(userId), (o) => o.userId === userId);
  const byPlayer = (playerId: string) => byEntries("p", playerId, (o) => o.playerId === playerId);
  /** The cursor after an order: its index entry (user, player) or its header (time). */
  const cursorOf = (source: "time" | "entry", o: OrderRecord) => {
    const header = elementHeader(Date.parse(o.submittedAt ?? ""), o.refId);
    return source === "time" ? header : header.slice(0, 9) + `___${o.refId}`.slice(-3);
  };

  const orders: OrderLedger = {
    async saveDraft(order, ttlMs) {
      const kept = await SAVE_DRAFT(
        redis,
        [keys.order(order.refId), keys.openDraft(order.chatId, order.userId)],
        [ttlMs, order.refId, paidFromSaldo(order) ? order.price! : "", ...Object.entries(draftFields(order)).flat()],
      );
      return Number(kept) === 1 ? ((await get(order.refId)) ?? order) : order;
    },

    get,
    getMany,

    async lastProviderPrices() {
      const all = await redis.hGetAll(`${prefix}pcost`);
      return new Map(Object.entries(all).map(([code, price]) => [code, Number(price)]));
    },

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
          ],
          [
            by.userId,
            by.at,
            msKey(ms),
            refId,
            by.summaryMessageId ?? "",
            by.offered === undefined ? "" : `|${[...by.offered].join("|")}|`,
            dayOf(by.at),
            prefix,
            packMovementTime(by.at, refId),
            String(hourIn(timeZone, ms)).padStart(2, "0"),
          ],
        ),
        refId,
      );
      if (r.kind === "claimed" && r.order !== undefined) return { kind: "claimed", order: r.order };
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

    async finish(order, outcome, opts = {}): Promise<FinishResult> {
      const balance = opts.balance;
      const r = reply(
        await FINISH(
          redis,
          [
            keys.order(order.refId),
            keys.inflight,
            keys.unknown,
            keys.lastBalance,
            keys.lowBalance,
            keys.wallet(order.userId),
            keys.statement(order.userId),
            keys.walletTotals,
            keys.providerEmpty,
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
            outcome.state === "failed" && providerDepositEmpty(outcome.result) ? "1" : "",
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

    async findOrders(q) {
      if (q.state === "unknown" || q.state === "submitting") {
        // Orders still open or unknown are few, and in a set of their own: no index need be read.
        const ids = await redis.sMembers(q.state === "unknown" ? keys.unknown : keys.inflight);
        const header = (o: OrderRecord) => elementHeader(Date.parse(o.submittedAt ?? ""), o.refId);
        const all = (await getMany(ids))
          .filter((o) => {
            const at = Date.parse(o.submittedAt ?? "");
            return (
              o.state === q.state &&
              (q.userId === undefined || o.userId === q.userId) &&
              (q.playerId === undefined || o.playerId === q.playerId) &&
              (q.fromMs === undefined || at >= q.fromMs) &&
              (q.toMs === undefined || at <= q.toMs)
            );
          })
          .sort((a, b) => (header(a) < header(b) ? 1 : -1));
        const start = q.page * q.pageSize;
        return { orders: all.slice(start, start + q.pageSize), hasMore: all.length > start + q.pageSize };
      }
      const upper = q.toMs === undefined ? "" : msKey(q.toMs + 1);
      const lower = q.fromMs === undefined ? "" : msKey(q.fromMs);
      const viaPlayer = q.playerId !== undefined;
      // A few days are read whole, the script keeping only the state and user asked for; a user's
      // orders over all time come from their own index.
      const narrow = q.fromMs !== undefined && q.toMs !== undefined && q.toMs - q.fromMs <= 3 * 86_400_000;
      let source: Source = byTime;
      let kind: "time" | "entry" = "time";
      if (q.playerPrefix !== undefined)
        source = timeScan({
          playerPrefix: q.playerPrefix,
          ...(q.state === undefined ? {} : { state: q.state }),
          ...(q.userId === undefined ? {} : { userId: q.userId }),
        });
      else if (q.playerId !== undefined) [source, kind] = [byPlayer(q.playerId), "entry"];
      else if (q.userId !== undefined && !(narrow && q.state !== undefined))
        [source, kind] = [byUser(q.userId), "entry"];
      else if (q.state !== undefined)
        source = timeScan({ state: q.state, ...(q.userId === undefined ? {} : { userId: q.userId }) });
      const matches = (o: OrderRecord) =>
        (q.state === undefined || o.state === q.state) &&
        (q.userId === undefined || o.userId === q.userId) &&
        (q.playerPrefix === undefined || o.playerId.startsWith(q.playerPrefix));
      const filtered = q.state !== undefined || q.playerPrefix !== undefined || (viaPlayer && q.userId !== undefined);
      if (!filtered) {
        // One more than the page says whether there are more; nothing else is read.
        const found = await source(upper, lower, q.page * q.pageSize, q.pageSize + 1);
        return { orders: found.slice(0, q.pageSize), hasMore: found.length > q.pageSize };
      }
      // A filter no index answers: read the index in batches until the page (and one more) is found.
      const found: OrderRecord[] = [];
      const skip = q.page * q.pageSize;
      let seen = 0;
      const BATCH = 200;
      let cursor = upper;
      for (;;) {
        const batch = await source(cursor, lower, 0, BATCH);
        for (const o of batch) {
          if (!matches(o)) continue;
          if (seen++ >= skip) found.push(o);
          if (found.length > q.pageSize) break;
        }
        if (found.length > q.pageSize || batch.length < BATCH) break;
        cursor = cursorOf(kind, batch.at(-1)!);
      }
      return { orders: found.slice(0, q.pageSize), hasMore: found.length > q.pageSize };
    },

    async history(scope, page, pageSize) {
      const [total, found] = await Promise.all([
        scope === "all" ? redis.get(keys.ordersCount) : redis.hGet(keys.userCounts, String(scope)),
        (scope === "all" ? byTime : byUser(scope))("", "", page * pageSize, pageSize),
      ]);
      return { orders: found, total: Number(total ?? 0) };
    },

    async submittedBetween(fromMs, toMs) {
      const all: OrderRecord[] = [];
      let cursor = msKey(toMs + 1);
      for (;;) {
        const batch = await byTime(cursor, msKey(fromMs), 0, SCAN_BATCH);
        all.push(...batch);
        if (batch.length < SCAN_BATCH) break;
        cursor = cursorOf("time", batch.at(-1)!);
      }
      return all.reverse();
    },

    async inFlight() {
      return (await getMany(await redis.sMembers(keys.inflight))).filter((o) => o.state === "submitting");
    },

    async pending() {
      const found = await getMany(await redis.sMembers(keys.unknown));
      return found.filter((o) => o.state === "unknown").sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async lastBalance() {
      const latest = await redis.get(keys.lastBalance);
      return latest === null ? undefined : (JSON.parse(latest) as BalanceSeen);
    },

    async dayFigures(day) {
      const [totals, detail] = await Promise.all([
        redis.hGetAll(`${prefix}day:${day}`),
        redis.hGetAll(`${prefix}dayd:${day}`),
      ]);
      return figuresOf(totals, detail);
    },

    async daysFigures(days) {
      const totals = await Promise.all(days.map((day) => redis.hGetAll(`${prefix}day:${day}`)));
      return totals.map((t) => figuresOf(t, {}));
    },

    async daysDetail(days) {
      if (days.length === 0) return [];
      // Both hashes of every day in one transaction: one round trip, and no step lands in between.
      const batch = redis.multi();
      for (const day of days) batch.hGetAll(`${prefix}day:${day}`).hGetAll(`${prefix}dayd:${day}`);
      const replies = (await batch.exec()) as unknown as Array<Record<string, string>>;
      return days.map((_, i) => figuresOf(replies[2 * i]!, replies[2 * i + 1]!));
    },
  };

  /** A statement's movements newest first from `start`, `count` of them, and how many it has. */
  async function statementSlice(userId: number, start: number, count: number) {
    const [hot, cold, lines, first, chunks] = (await STATEMENT_PAGE(
      redis,
      [keys.statement(userId), keys.coldStatement(userId), keys.coldStatementCounts],
      [userId, start, count, STATEMENT_CHUNK],
    )) as [number, number, string[], number, string[]];
    const movements = lines.map(movementFromLine).reverse();
    if (chunks.length > 0) {
      // Positions in the compacted part count from its oldest movement.
      const packed = chunks.flatMap((c) => unpackMovements(c));
      const base = first * STATEMENT_CHUNK;
      const newest = cold - 1 - (Math.max(start, hot) - hot);
      const oldest = Math.max(cold - 1 - (start + count - 1 - hot), 0);
      for (let pos = newest; pos >= oldest; pos--) movements.push(packed[pos - base]!);
    }
    return { movements, total: hot + cold };
  }

  const wallets: Wallets = {
    async get(userId) {
      return toWallet(userId, await redis.hGetAll(keys.wallet(userId)));
    },

    async statement(userId, last = 10) {
      return (await statementSlice(userId, 0, last)).movements.reverse();
    },

    async statementPage(userId, page, pageSize) {
      return statementSlice(userId, page * pageSize, pageSize);
    },

    async all() {
      const ids = (await redis.sMembers(keys.wallets)).map(Number).sort((a, b) => a - b);
      return Promise.all(ids.map((id) => wallets.get(id)));
    },

    async saveDeposit(deposit, ttlMs) {
      const kept = await SAVE_DEPOSIT(
        redis,
        [keys.deposit(deposit.id)],
        [JSON.stringify(deposit), deposit.resellerId, deposit.amount, ttlMs],
      );
      return Number(kept) === 1 ? ((await wallets.getDeposit(deposit.id)) ?? deposit) : deposit;
    },

    async getDeposit(id) {
      return toDeposit(await redis.hGetAll(keys.deposit(id)));
    },

    async confirmDeposit(id, by): Promise<DepositConfirmResult> {
      const deposit = await wallets.getDeposit(id);
      if (deposit === undefined) return { kind: "not-found" };
      const raw = (await CONFIRM_DEPOSIT(
        redis,
        [
          keys.deposit(id),
          keys.wallet(deposit.resellerId),
          keys.statement(deposit.resellerId),
          keys.wallets,
          keys.depositsByTime,
          keys.untold,
          keys.walletTotals,
        ],
        [
          by.adminId,
          by.at,
          Date.parse(by.at),
          id,
          deposit.resellerId,
          dayOf(by.at),
          prefix,
          packMovementTime(by.at, id),
        ],
      )) as Array<string | string[]>;
      const kind = raw[0] as string;
      if (kind === "short") return { kind: "short", deposit, saldo: Number(raw[1]) };
      if (kind === "not-found") return { kind: "not-found" };
      const current = toDeposit(raw.at(-1) as string[])!;
      if (kind === "taken") return { kind: "taken", deposit: current };
      return { kind: "done", deposit: current, wallet: await wallets.get(deposit.resellerId) };
    },

    async cancelDeposit(id, at) {
      const raw = (await CANCEL_DEPOSIT(redis, [keys.deposit(id)], [at])) as Array<string | string[]>;
      if (raw[0] === "not-found") return { kind: "not-found" };
      return { kind: raw[0] === "cancelled" ? "cancelled" : "taken", deposit: toDeposit(raw.at(-1) as string[])! };
    },

    async markDepositTold(id, at) {
      await redis.multi().hSet(keys.deposit(id), "na", at).sRem(keys.untold, id).exec();
    },

    async untoldDeposits() {
      const found = await Promise.all((await redis.sMembers(keys.untold)).map((id) => wallets.getDeposit(id)));
      return found.filter((d): d is Deposit => d !== undefined && d.state === "done" && d.toldAt === undefined);
    },

    async depositsBetween(fromMs, toMs) {
      const ids = await redis.zRangeByScore(keys.depositsByTime, fromMs, toMs);
      const found = await Promise.all(ids.map((id) => wallets.getDeposit(id)));
      return found.filter((d): d is Deposit => d !== undefined);
    },

    async totals() {
      const [saldo, held] = await redis.hmGet(keys.walletTotals, ["saldo", "held"]);
      return { saldo: Number(saldo ?? 0), held: Number(held ?? 0) };
    },
  };

  return {
    orders,
    wallets,
    async upgrade(opts) {
      // At start: the scripts go into Redis's cache now, a cost of the start, not of the first orders.
      await Promise.all(SCRIPTS.map((script) => script.load(redis)));
      return upgradeRedisLedger(
        { redis, keys, timeZone, submittedBetween: (from, to) => orders.submittedBetween(from, to) },
        opts,
      );
    },
    compact: (opts) => compactRedisLedger({ redis, keys, texts }, opts),
  };
}
