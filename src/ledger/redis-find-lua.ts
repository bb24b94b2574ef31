import { luaScript, type LuaScript } from "../storage/redis.js";
import { LUA_BASICS, LUA_LINEAR_HASH, LUA_RESOLVE, LUA_TIME_INDEX } from "./redis-lua.js";

/*
 * The Lua scripts that find orders in the Redis ledger (redis-find.ts calls them): one order by
 * ref id, pages through the time, user and player indexes, and a day's lines for the CSV.
 */

/**
 * One order by ref id: its hash, or its element in the time index once compacted.
 * KEYS: order; ARGV: key prefix, ref
 */
export const FIND_ORDER = luaScript(`${LUA_BASICS}${LUA_TIME_INDEX}${LUA_LINEAR_HASH}
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
export const TIME_SCAN = luaScript(`${LUA_BASICS}${LUA_TIME_INDEX}
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
export const ENTRY_SCAN = luaScript(`${LUA_BASICS}${LUA_TIME_INDEX}${LUA_LINEAR_HASH}${LUA_RESOLVE}
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

/**
 * What a list of orders prints of each order submitted below `upper` (exclusive; '' = no bound)
 * and at or above `lower` ('' = none), newest first, at most `take`: one text of one entry per
 * order, joined by line breaks (a list of thousands of orders comes back as one string, not
 * thousands), the number of orders, and the hashes of the orders that keep no line. An order is
 * one entry, its compacted element as it is; or, for a recent order, three entries: its day's
 * kept line (LUA_LINE: its ref id, byte 1, the line), its header (the 9 digits of its submit
 * time and its ref id) and '!'; or two: its header and '#', its hash coming next in the hashes.
 * The script only points at strings Redis already holds, making none per order. Neither a
 * compacted element (escapeField) nor a kept line holds a line break.
 * ARGV: key prefix, upper, lower, take
 */
export const DAY_LINES = luaScript(`${LUA_BASICS}${LUA_TIME_INDEX}
local pre, upper, lower, take = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local maxDay = '+inf'
if upper ~= '' then maxDay = dayOfKey(upper) end
local minDay = '-inf'
if lower ~= '' then minDay = dayOfKey(lower) end
local entries, hashes, count = {}, {}, 0
for _, day in ipairs(redis.call('ZRANGE', pre .. 't-days', maxDay, minDay, 'BYSCORE', 'REV')) do
  if count >= take then break end
  local key = pre .. 't:' .. day
  local n = redis.call('LLEN', key)
  local hi, lo = n, 0
  if upper ~= '' and day == maxDay then hi = firstAtOrAfter(key, upper, n) end
  if lower ~= '' and day == minDay then lo = firstAtOrAfter(key, lower, n) end
  if hi > lo then
    local els = redis.call('LRANGE', key, math.max(lo, hi - (take - count)), hi - 1)
    local kept
    for i = #els, 1, -1 do
      local e = els[i]
      if string.find(e, '\t', 10, true) then
        -- A compacted order, as it is (it is never '!' or '#', the last entries of a recent one).
        entries[#entries + 1] = e
      else
        if not kept then
          -- The day's kept lines by ref id, read once (a later line of a ref id replaces the earlier).
          kept = {}
          for _, line in ipairs(redis.call('LRANGE', pre .. 'tl:' .. day, 0, -1)) do
            local cut = string.find(line, '\\1', 1, true)
            if cut then kept[string.sub(line, 1, cut - 1)] = cut < #line and line end
          end
        end
        local ref = string.sub(e, 10)
        local line = kept[ref]
        if line then
          entries[#entries + 1] = line
          entries[#entries + 1] = e
          entries[#entries + 1] = '!'
        else
          entries[#entries + 1] = e
          entries[#entries + 1] = '#'
          hashes[#hashes + 1] = redis.call('HGETALL', pre .. 'o:' .. ref)
        end
      end
      count = count + 1
    end
  end
end
return {table.concat(entries, '\\n'), count, hashes}
`);

/** The lookup scripts (loaded at start with the ledger's). */
export const FIND_SCRIPTS: readonly LuaScript[] = [FIND_ORDER, TIME_SCAN, ENTRY_SCAN, DAY_LINES];
