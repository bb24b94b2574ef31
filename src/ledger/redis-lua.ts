import { owedCallbackKeys } from "../storage/owed-callbacks.js";
import { MAIN_PROVIDER } from "../topup/types.js";

/*
 * Lua shared by the Redis ledger's scripts (redis-orders.ts, redis-find.ts,
 * redis-wallets.ts, redis-compact.ts, redis-upgrade.ts): the indexes that find
 * orders by time, by user and by player id, kept in the same atomic step as the order they index,
 * the day figures and the statement lines. Plain text functions, prepended to a script.
 *
 * Strings are compared byte by byte (`before`), never with Lua's `<`: that one follows the server's
 * collation locale, and an index must not depend on how a Redis was started.
 *
 * The indexes (every key after the prefix):
 *   t:DAY      the time index: one list per UTC day (DAY = days since 1970), oldest first, of the
 *              orders submitted that day. An element starts with its header: the submit time in 9
 *              base-36 digits and the ref id; a recent order's element is only that (its hash o:REF
 *              holds it), a compacted order's goes on after a tab with the packed order
 *              (packed-order-codec.ts).
 *   t-days     sorted set of the days that have a list (score = DAY)
 *   u:USER     a user's orders: a list of chunks (at most 64 entries each), oldest first, each a run
 *              of 12-character entries in time order: the submit time (9) and the ref id's last 3
 *              characters; an entry leads to its element in t:DAY
 *   p:N        a player id's orders: hash buckets by linear hashing (LUA_LINEAR_HASH, meta p-meta),
 *              the field the first 9 hex digits of the id's SHA-1, the value that player's entries
 *              while they fit in 60 bytes, then "+" and the entries move to their own list of
 *              chunks pp:FIELD, like u:USER
 *   r:N        ref ids that do not tell when their order was submitted (LUA_LINEAR_HASH: rnoteOdd):
 *              ref id → submit time (9 digits), buckets by linear hashing (meta r-meta). Any other
 *              compacted order is found from the time its ref id was made (rfind).
 */

/** Byte-wise order of two strings, and the header of a time index element. */
export const LUA_BASICS = `
local function before(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end
local function headerOf(e)
  local t = string.find(e, '\\t', 1, true)
  if t then return string.sub(e, 1, t - 1) end
  return e
end
local function dayOfKey(key)
  return string.format('%d', math.floor(tonumber(string.sub(key, 1, 9), 36) / 86400000))
end
local function entryOf(ms9, ref)
  return ms9 .. string.sub('___' .. ref, -3)
end
local B36 = '0123456789abcdefghijklmnopqrstuvwxyz'
local function msKey(ms)
  local s = ''
  ms = math.floor(ms)
  for _ = 1, 9 do
    local r = ms % 36
    s = string.sub(B36, r + 1, r + 1) .. s
    ms = math.floor(ms / 36)
  end
  return s
end
local CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
-- The creation time a ref id carries (ref-id.ts: prefix, 9 base-32 digits of ms, 10 random), or nil.
local function refMs(ref)
  if #ref < 19 then return nil end
  local ms = 0
  for i = #ref - 18, #ref - 10 do
    local d = string.find(CROCKFORD, string.sub(ref, i, i), 1, true)
    if not d then return nil end
    ms = ms * 32 + d - 1
  end
  return ms
end
-- How long after its ref id was made an order can be submitted (a draft lives 24 hours at most).
local REF_WINDOW = 25 * 3600000
`;

/**
 * The time index: insert an element in time order (usually at the end), and find the element of a
 * header (its position and value) by binary search.
 */
export const LUA_TIME_INDEX = `
local function firstAtOrAfter(key, h, n)
  local lo, hi = 0, n
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if before(headerOf(redis.call('LINDEX', key, mid)), h) then lo = mid + 1 else hi = mid end
  end
  return lo
end
local function tinsert(key, element)
  local h = headerOf(element)
  local n = redis.call('LLEN', key)
  if n == 0 or not before(h, headerOf(redis.call('LINDEX', key, -1))) then
    redis.call('RPUSH', key, element)
    return
  end
  local at = firstAtOrAfter(key, h, n)
  if at == 0 then
    redis.call('LPUSH', key, element)
  elseif n - at <= 64 then
    -- Near the end (orders claimed at once arrive a little out of order): the few elements after
    -- it are put back behind it, instead of LINSERT finding its pivot from the head of the day.
    local after = redis.call('LRANGE', key, at, -1)
    redis.call('LTRIM', key, 0, at - 1)
    redis.call('RPUSH', key, element, unpack(after))
  else
    redis.call('LINSERT', key, 'BEFORE', redis.call('LINDEX', key, at), element)
  end
end
local function tfind(key, h)
  local n = redis.call('LLEN', key)
  local at = firstAtOrAfter(key, h, n)
  if at < n then
    local e = redis.call('LINDEX', key, at)
    if headerOf(e) == h then return at, e end
  end
  return nil, nil
end
`;

/**
 * Linear hashing (Litwin, 1980) for the hash buckets of the player and ref id indexes: a field goes
 * to bucket `x mod 2^L` (or `mod 2^(L+1)` once that bucket was split in this round), x being the
 * first 32 bits of the SHA-1 the caller gives. Each new field counts; when the fields outnumber 48
 * a bucket, the next bucket in turn splits in two. So buckets hold ~48 fields however many there
 * are (Redis keeps such a hash as a listpack, a few bytes a field), and a shop of 100 orders has 3
 * buckets, not thousands. The meta hash holds l, s (level, next to split) and n (fields).
 */
export const LUA_LINEAR_HASH = `
local LOAD = 48
local function lhMeta(metaKey)
  local m = redis.call('HMGET', metaKey, 'l', 's')
  return { tonumber(m[1] or '0'), tonumber(m[2] or '0') }
end
local function lhBucket(base, meta, sha)
  local x = tonumber(string.sub(sha, 1, 8), 16)
  local a = x % (2 ^ meta[1])
  if a < meta[2] then a = x % (2 ^ (meta[1] + 1)) end
  return base .. string.format('%d', a)
end
-- shaOf(field) gives the SHA-1 a field was placed by.
local function lhGrow(base, metaKey, shaOf)
  local n = redis.call('HINCRBY', metaKey, 'n', 1)
  local meta = lhMeta(metaKey)
  local L, S = meta[1], meta[2]
  if n <= LOAD * (2 ^ L + S) then return end
  local from = base .. string.format('%d', S)
  local to = base .. string.format('%d', S + 2 ^ L)
  local all = redis.call('HGETALL', from)
  local moved, fields = {}, {}
  for i = 1, #all, 2 do
    if tonumber(string.sub(shaOf(all[i]), 1, 8), 16) % (2 ^ (L + 1)) ~= S then
      moved[#moved + 1] = all[i]
      moved[#moved + 1] = all[i + 1]
      fields[#fields + 1] = all[i]
    end
  end
  if #fields > 0 then
    redis.call('HSET', to, unpack(moved))
    redis.call('HDEL', from, unpack(fields))
  end
  S = S + 1
  if S == 2 ^ L then
    L = L + 1
    S = 0
  end
  redis.call('HSET', metaKey, 'l', string.format('%d', L), 's', string.format('%d', S))
end
-- The ref id index of compacted orders: ref → submit time (9 digits).
local function rbucket(pre, ref)
  return lhBucket(pre .. 'r:', lhMeta(pre .. 'r-meta'), redis.sha1hex(ref))
end
local function rinsert(pre, ref, ms9)
  if redis.call('HSET', rbucket(pre, ref), ref, ms9) == 1 then lhGrow(pre .. 'r:', pre .. 'r-meta', redis.sha1hex) end
end
-- A ref id that does not say when it was submitted (not made by ref-id.ts, or submitted more than
-- REF_WINDOW after it was made) gets an entry in the ref id index, so it is found once compacted.
local function rnoteOdd(pre, ref, ms9)
  local made = refMs(ref)
  local at = tonumber(ms9, 36)
  if not made or at < made or at - made > REF_WINDOW then rinsert(pre, ref, ms9) end
end
-- The element of a ref id in the time index, from the time it was made on (or from the ref id
-- index for an odd one), nil when there is none.
local function rfind(pre, ref)
  local made = refMs(ref)
  if made and made < 4102444800000 then
    local last = msKey(made + REF_WINDOW)
    local day = math.floor(made / 86400000)
    local lastDay = math.floor((made + REF_WINDOW) / 86400000)
    local n0 = #ref + 9
    local past = false
    while day <= lastDay and not past do
      local key = pre .. 't:' .. string.format('%d', day)
      local n = redis.call('LLEN', key)
      local i = 0
      if day == math.floor(made / 86400000) then i = firstAtOrAfter(key, msKey(made), n) end
      while i < n and not past do
        for _, e in ipairs(redis.call('LRANGE', key, i, i + 99)) do
          if before(last, string.sub(e, 1, 9)) then past = true break end
          if string.sub(e, 10, n0) == ref and (#e == n0 or string.sub(e, n0 + 1, n0 + 1) == '\t') then return e end
        end
        i = i + 100
      end
      day = day + 1
    end
  end
  local ms9 = redis.call('HGET', rbucket(pre, ref), ref)
  if not ms9 then return nil end
  local _, e = tfind(pre .. 't:' .. dayOfKey(ms9), ms9 .. ref)
  return e
end
`;

/** The chunked entry lists of u:USER and pp:…: insert an entry in time order. */
export const LUA_CHUNKS = `
local CHUNK = 768
local function cinsert(key, entry)
  local n = redis.call('LLEN', key)
  if n == 0 then redis.call('RPUSH', key, entry) return end
  local i = n - 1
  local chunk = redis.call('LINDEX', key, i)
  if not before(entry, string.sub(chunk, -12)) then
    if #chunk < CHUNK then redis.call('LSET', key, i, chunk .. entry) else redis.call('RPUSH', key, entry) end
    return
  end
  while i > 0 and before(entry, string.sub(chunk, 1, 12)) do
    i = i - 1
    chunk = redis.call('LINDEX', key, i)
  end
  local pos = #chunk
  for j = 1, #chunk, 12 do
    if before(entry, string.sub(chunk, j, j + 11)) then pos = j - 1 break end
  end
  local new = string.sub(chunk, 1, pos) .. entry .. string.sub(chunk, pos + 1)
  if #new <= CHUNK then redis.call('LSET', key, i, new) return end
  -- Too long: split in two. The chunks after it are put back behind the second half.
  local half = math.floor(#new / 24) * 12
  local after = redis.call('LRANGE', key, i + 1, -1)
  redis.call('LTRIM', key, 0, i)
  redis.call('LSET', key, i, string.sub(new, 1, half))
  redis.call('RPUSH', key, string.sub(new, half + 1))
  if #after > 0 then redis.call('RPUSH', key, unpack(after)) end
end
local function pinsert(pre, player, entry)
  local h = redis.sha1hex(player)
  local field = string.sub(h, 1, 9)
  local bucket = lhBucket(pre .. 'p:', lhMeta(pre .. 'p-meta'), h)
  local v = redis.call('HGET', bucket, field)
  if v == '+' then cinsert(pre .. 'pp:' .. field, entry) return end
  local new = not v
  v = v or ''
  local pos = #v
  for j = 1, #v, 12 do
    if before(entry, string.sub(v, j, j + 11)) then pos = j - 1 break end
  end
  v = string.sub(v, 1, pos) .. entry .. string.sub(v, pos + 1)
  if #v <= 60 then
    redis.call('HSET', bucket, field, v)
  else
    redis.call('HSET', bucket, field, '+')
    redis.call('RPUSH', pre .. 'pp:' .. field, v)
  end
  if new then lhGrow(pre .. 'p:', pre .. 'p-meta', function(f) return f end) end
end
`;

/**
 * Index entries → the elements they lead to (all elements of that submit time and ref id tail;
 * the reader keeps those of its user or player), each followed by the order's hash while it has
 * one (a flat list; empty for a compacted order).
 */
export const LUA_RESOLVE = `
local function resolve(pre, entry, out)
  local ms9 = string.sub(entry, 1, 9)
  local tail = string.sub(entry, 10, 12)
  local key = pre .. 't:' .. dayOfKey(ms9)
  local n = redis.call('LLEN', key)
  local at = firstAtOrAfter(key, ms9, n)
  while at < n do
    local e = redis.call('LINDEX', key, at)
    if string.sub(e, 1, 9) ~= ms9 then break end
    local h = headerOf(e)
    if string.sub('___' .. h, -3) == tail then
      out[#out + 1] = e
      if #h == #e then out[#out + 1] = redis.call('HGETALL', pre .. 'o:' .. string.sub(h, 10)) else out[#out + 1] = {} end
    end
    at = at + 1
  end
end
`;

/**
 * Lua that moves an order in its day's figures (see the layout in redis.ts): from one
 * state's count to another's; a success adds its money, by product, by user, by the hour it was
 * sent and, for a reseller's order, by reseller. An order of the H2H API (chat id 0) also counts in
 * the API's part of the day (a:…). `pre` is the key prefix, `day` the order's submit day, `draft`
 * its fields (price, productCode, productName, userName, role, tier, chat, provider: its current
 * attempt's, nil for main), `user` its user
 * id as stored, `from`/`to` one-letter states ('' when it was not counted yet), `cost` the
 * provider's price in whole rupiah, `when` its submit time (the newest name wins), `hour` the hour
 * of that time in the shop's time zone ('00'..'23'; nil for an order that does not carry it, whose
 * hours the layout upgrade counts from the orders instead).
 * A provider's line (v:NAME:) counts the order once, when its outcome is first recorded, under
 * the provider of its current attempt then (the one that fulfilled a success); its money as any
 * line's. Main has none: its line is the day's totals less the other providers' lines (figuresOf),
 * so that a day of one provider, and every day before there were several, keeps what it kept.
 */
export const TALLY = `
local function tally(pre, day, draft, user, from, to, cost, when, hour)
  local totals = pre .. 'day:' .. day
  local detail = pre .. 'dayd:' .. day
  if from ~= '' then redis.call('HINCRBY', totals, 'c:' .. from, -1) end
  redis.call('HINCRBY', totals, 'c:' .. to, 1)
  if from == '' and hour then redis.call('HINCRBY', detail, 'h:' .. hour .. ':n', 1) end
  -- The H2H API's part: orders sent, failed, sold and what those sold for. No step moves an order
  -- out of success or failed, so these only grow. An order without a chat field (an old one) is a
  -- chat's.
  local api = draft.chat == '0'
  if api and from == '' then redis.call('HINCRBY', totals, 'a:n', 1) end
  if api and to == 'f' then redis.call('HINCRBY', totals, 'a:f', 1) end
  local vendor = nil
  if type(draft.provider) == 'string' and draft.provider ~= 'main' then vendor = 'v:' .. draft.provider .. ':' end
  if vendor and to ~= 'p' and (from == '' or from == 'p') then redis.call('HINCRBY', detail, vendor .. 'n', 1) end
  if to ~= 's' then return end
  local sell = tonumber(draft.price) or 0
  redis.call('HINCRBY', totals, 'sell', sell)
  if api then
    redis.call('HINCRBY', totals, 'a:s', 1)
    redis.call('HINCRBY', totals, 'a:sell', sell)
  end
  if hour then
    -- An hour's provider money counts a cost nobody knows as 0 (its selling price still counts).
    redis.call('HINCRBY', detail, 'h:' .. hour .. ':s', sell)
    redis.call('HINCRBY', detail, 'h:' .. hour .. ':v', cost or 0)
  end
  -- A success whose provider price nobody knows (cost nil): its selling price is counted apart
  -- (sellu, nu; a line's u), so that the margin leaves it out instead of counting a cost of 0.
  if vendor then
    redis.call('HINCRBY', detail, vendor .. 's', sell)
    if cost then redis.call('HINCRBY', detail, vendor .. 'v', cost) else redis.call('HINCRBY', detail, vendor .. 'u', sell) end
  end
  if cost then
    redis.call('HINCRBY', totals, 'cost', cost)
  else
    redis.call('HINCRBY', totals, 'sellu', sell)
    redis.call('HINCRBY', totals, 'nu', 1)
  end
  local function line(head, name, extra)
    redis.call('HINCRBY', detail, head .. 'n', 1)
    redis.call('HINCRBY', detail, head .. 's', sell)
    if cost then redis.call('HINCRBY', detail, head .. 'v', cost) else redis.call('HINCRBY', detail, head .. 'u', sell) end
    local seen = redis.call('HGET', detail, head .. 'w')
    if not seen or seen <= when then
      redis.call('HSET', detail, head .. 'w', when, head .. 'm', name)
      if extra then redis.call('HSET', detail, head .. 't', extra) end
    end
  end
  line('p:' .. draft.productCode .. ':', draft.productName, nil)
  line('u:' .. user .. ':', draft.userName, nil)
  if draft.role == 'reseller' and tonumber(draft.price) then
    local tier = draft.tier
    if type(tier) ~= 'string' then tier = '' end
    line('r:' .. user .. ':', draft.userName, tier)
  end
end
local STATE_CODE = { submitting = 'p', success = 's', failed = 'f', unknown = 'u' }
`;

/**
 * Lua that appends one movement to a statement (statement-codec.ts: movementLine); `at` is packed
 * (packMovementTime), `kind` its letter, the amounts whole rupiah written in base 36.
 */
export const LUA_MOVEMENT = `
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

/** Lua: the whole hash of KEYS[1], flat (a script's answer ends with the record it leaves). */
export const LUA_HGETALL = "redis.call('HGETALL', KEYS[1])";

/** A flat list of field, value, field, value… (HGETALL from a script) → an object. */
export function pairs(hash: Record<string, string> | string[]): Record<string, string> {
  if (!Array.isArray(hash)) return hash;
  const h: Record<string, string> = {};
  for (let i = 0; i + 1 < hash.length; i += 2) h[hash[i]!] = hash[i + 1]!;
  return h;
}

/** The ledger's keys under a prefix (the layout is described in redis.ts). */
export function ledgerKeys(prefix: string) {
  return {
    prefix,
    order: (refId: string) => `${prefix}o:${refId}`,
    openDraft: (chatId: number, userId: number) => `${prefix}open-draft:${chatId}:${userId}`,
    day: (utcDay: number | string) => `${prefix}t:${utcDay}`,
    days: `${prefix}t-days`,
    user: (userId: number) => `${prefix}u:${userId}`,
    userCounts: `${prefix}uc`,
    ordersCount: `${prefix}orders-count`,
    finishedHot: `${prefix}fh`,
    inflight: `${prefix}orders-inflight`,
    unknown: `${prefix}orders-unknown`,
    lastBalance: `${prefix}last-balance`,
    lowBalance: `${prefix}low-balance-alerted`,
    providerEmpty: `${prefix}provider-empty-alerted`,
    /** A provider's last balance, low-balance and deposit-empty flags: main's are the keys above. */
    ofProvider: (provider: string) =>
      provider === MAIN_PROVIDER
        ? {
            lastBalance: `${prefix}last-balance`,
            lowBalance: `${prefix}low-balance-alerted`,
            providerEmpty: `${prefix}provider-empty-alerted`,
          }
        : {
            lastBalance: `${prefix}last-balance:${provider}`,
            lowBalance: `${prefix}low-balance-alerted:${provider}`,
            providerEmpty: `${prefix}provider-empty-alerted:${provider}`,
          },
    /** Set of the providers other than main that have a last balance. */
    balanceProviders: `${prefix}last-balance-providers`,
    wallet: (userId: number) => `${prefix}wallet:${userId}`,
    statement: (userId: number) => `${prefix}statement:${userId}`,
    coldStatement: (userId: number) => `${prefix}sc:${userId}`,
    coldStatementCounts: `${prefix}scn`,
    wallets: `${prefix}wallets`,
    deposit: (id: string) => `${prefix}dep:${id}`,
    depositsByTime: `${prefix}deposits-by-time`,
    untold: `${prefix}deposits-untold`,
    walletTotals: `${prefix}wallet-totals`,
    texts: `${prefix}dict`,
    textIds: `${prefix}dict-ids`,
    textSeq: `${prefix}dict-seq`,
    version: `${prefix}ledger-version`,
    /** A partner's ref id, used once and for good: the shop's own ref id of the order it made. */
    partnerRef: (userId: number, ref: string) => `${prefix}pr:${userId}:${ref}`,
    /** The partner's ref id of an order taken by the H2H API. */
    partnerRefOf: (refId: string) => `${prefix}pr-of:${refId}`,
    /** The callbacks owed to H2H partners (storage/owed-callbacks.ts): noted by the claim, dropped by the answer. */
    callbacksDue: owedCallbackKeys(prefix).due,
    callbacksInfo: owedCallbackKeys(prefix).info,
  };
}

export type LedgerKeys = ReturnType<typeof ledgerKeys>;
