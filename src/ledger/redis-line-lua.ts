/*
 * The Lua that keeps each finished order's line (redis-orders.ts prepends it, after LUA_BASICS, to
 * the outcome's and the settlement's scripts).
 */

/**
 * Lua: an order's line (what a day's CSV prints of it) kept on write, so that a list of thousands
 * of recent orders reads one list per day instead of every field of every order's hash. The
 * outcome's and the settlement's steps keep it (`keepLine`), after every other field they change:
 * it is appended to `tl:DAY` (DAY as in the time index) as the ref id, byte 1 and the line; the
 * last one of a ref id is its line (the ref id and byte 1 alone: none). Compaction deletes a day's
 * list (its orders leave their hash); an order without a line there (not finished yet, finished
 * before lines were kept, or with a value the line does not carry) is read from its hash. The list
 * can be deleted at any time.
 * The line: the state's letter, the submit time ('' when it is the time index's own: a canonical
 * ISO time), the role's letter, then the raw values of LINE_FIELDS (a result field's pieces
 * joined), then the providers that refused it before (comma-separated), separated by byte 1; byte 2 stands for a field the hash does not have (and the fields
 * missing at the end are left out), and bytes 1, 2 and 3 and a line break in a value are written
 * 3a, 3b, 3c and 3d after byte 3 (a line holds no line break: DAY_LINES joins lines with them).
 * order-codec.ts: lineOfKept reads it as orderLine(orderFromHash(hash)) would.
 */
export const LUA_LINE = `
local LINE_STATES = {success = 's', failed = 'f', unknown = 'u'}
local LINE_ROLES = {staff = 's', reseller = 'r', admin = 'a'}
local LINE_FIELDS = {'u', 'n', 'k', 'pn', 'y', 'p', 'rt', 'rn', 'rs', 'rb', 'rpi', 't', 'rc', 're',
  'r~providerPrice', 'r~providerPriceFrom', 'xp'}
-- Fields whose value would reach the line in another form (the old JSON order, a result value of
-- another type): such an order keeps no line.
local LINE_UNKEPT = {'d', 'r~trxId', 'r~destinationName', 'r~sn', 'r~lastBalance', 'r~errorCode', 'r~errorMsg',
  'r~productDetail', 'rp~priceRp'}
local LINE_ESCAPES = {['\\1'] = '\\3a', ['\\2'] = '\\3b', ['\\3'] = '\\3c', ['\\n'] = '\\3d'}
local function lineValue(v)
  if not v then return '\\2' end
  return (string.gsub(v, '[\\1\\2\\3\\n]', LINE_ESCAPES))
end
local function keepLine(pre, key, ref)
  local flat = redis.call('HGETALL', key)
  local h = {}
  for i = 1, #flat, 2 do h[flat[i]] = flat[i + 1] end
  if not h.sk then return end
  local list = pre .. 'tl:' .. dayOfKey(h.sk)
  local state = LINE_STATES[h.s or '']
  local role = '\\2'
  if h.o then role = LINE_ROLES[h.o] end
  local keep = state and role and h.u
  for _, f in ipairs(LINE_UNKEPT) do
    if h[f] then keep = false end
  end
  if not keep then
    -- No line: an earlier one of the order no longer holds.
    redis.call('RPUSH', list, ref .. '\\1')
    return
  end
  local at = h.sa or h.a
  if at == '' then
    at = nil
  elseif h.sa and string.find(h.sa, '^[12]%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%d%.%d%d%dZ$') and h.sa >= '1970' then
    at = ''
  end
  local slots = {ref, state, lineValue(at), role}
  for _, f in ipairs(LINE_FIELDS) do
    local v = h[f]
    if v then
      local n = 1
      while h[f .. '#' .. n] do
        v = v .. h[f .. '#' .. n]
        n = n + 1
      end
    end
    slots[#slots + 1] = lineValue(v)
  end
  local refused = {}
  local n = 1
  while h['xf' .. n] do
    refused[n] = string.match(h['xf' .. n], '^[^\t]*')
    n = n + 1
  end
  if n > 1 then slots[#slots + 1] = lineValue(table.concat(refused, ',')) end
  while slots[#slots] == '\\2' do slots[#slots] = nil end
  redis.call('RPUSH', list, table.concat(slots, '\\1'))
end
`;
