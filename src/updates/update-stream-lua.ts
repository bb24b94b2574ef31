import { luaScript } from "../storage/redis.js";

/*
 * The Lua scripts of the update stream (update-stream.ts calls them and describes each step and
 * the keys): every step that moves an update is one of these.
 */

/** The head of a lane: its first entry that still exists (others are dropped), counted as an attempt. */
const HEAD = `
local function head(lane, stream, tries)
  while true do
    local first = redis.call('ZRANGE', lane, 0, 0)
    if #first == 0 then return nil end
    local found = redis.call('XRANGE', stream, first[1], first[1])
    if #found > 0 then
      local fields = found[1][2]
      local json = ''
      for i = 1, #fields, 2 do if fields[i] == 'u' then json = fields[i + 1] end end
      return {first[1], json, redis.call('HINCRBY', tries, first[1], 1)}
    end
    redis.call('ZREM', lane, first[1])
  end
end
`;

// KEYS: stream, offset, lease, then per update: seen bucket, lane
// ARGV: fence ('' = none), offset ('' = none), seen ms, then per update: update_id, lane, json
export const INTAKE = luaScript(`
if ARGV[1] ~= '' and redis.call('GET', KEYS[3]) ~= ARGV[1] then return -1 end
local added = 0
local n = (#KEYS - 3) / 2
for i = 1, n do
  local seen, lane = KEYS[2 + 2 * i], KEYS[3 + 2 * i]
  local id, laneName, json = ARGV[3 * i + 1], ARGV[3 * i + 2], ARGV[3 * i + 3]
  if redis.call('HSETNX', seen, id, 'q') == 1 then
    redis.call('PEXPIRE', seen, ARGV[3])
    local entry = redis.call('XADD', KEYS[1], '*', 'i', id, 'l', laneName, 'u', json)
    redis.call('ZADD', lane, id, entry)
    added = added + 1
  end
end
if ARGV[2] ~= '' then redis.call('SET', KEYS[2], ARGV[2]) end
return added
`);

// KEYS: lock, lane, stream, tries; ARGV: consumer, lock ms, a gone holder whose lock is taken over ('' = none)
export const LOCK_AND_HEAD = luaScript(`${HEAD}
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and holder ~= ARGV[3] then return {'busy', holder} end
local h = head(KEYS[2], KEYS[3], KEYS[4])
if not h then
  if holder then redis.call('DEL', KEYS[1]) end
  return {'empty'}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {'entry', h[1], h[2], h[3]}
`);

// KEYS: lock, lane, stream, tries, seen bucket
// ARGV: consumer, lock ms, entry id, group, 'release' or '', mark (d or x), update_id, long idle ms
export const DONE_AND_NEXT = luaScript(`${HEAD}
redis.call('ZREM', KEYS[2], ARGV[3])
redis.call('XACK', KEYS[3], ARGV[4], ARGV[3])
redis.call('XDEL', KEYS[3], ARGV[3])
redis.call('HDEL', KEYS[4], ARGV[3])
if redis.call('HEXISTS', KEYS[5], ARGV[7]) == 1 then redis.call('HSET', KEYS[5], ARGV[7], ARGV[6]) end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {'lost'} end
if ARGV[5] == 'release' then
  redis.call('DEL', KEYS[1])
  -- What follows in the lane goes to whichever process claims first, at once.
  local following = redis.call('ZRANGE', KEYS[2], 0, 0)
  if #following > 0 then redis.call('XCLAIM', KEYS[3], ARGV[4], ARGV[1], 0, following[1], 'IDLE', ARGV[8], 'JUSTID') end
  return {'released'}
end
local h = head(KEYS[2], KEYS[3], KEYS[4])
if not h then
  redis.call('DEL', KEYS[1])
  return {'empty'}
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {'entry', h[1], h[2], h[3]}
`);

// KEYS: lock, stream; ARGV: consumer, group, entry id
export const GIVE_BACK = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('XCLAIM', KEYS[2], ARGV[2], ARGV[1], 0, ARGV[3], 'JUSTID')
return 1
`);

// An entry whose handling did not start (a stopping process): not counted as an attempt, and
// claimable by any other process at once.
// KEYS: lock, stream, tries; ARGV: consumer, group, entry id, long idle ms
export const RELEASE = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
if redis.call('HINCRBY', KEYS[3], ARGV[3], -1) <= 0 then redis.call('HDEL', KEYS[3], ARGV[3]) end
redis.call('XCLAIM', KEYS[2], ARGV[2], ARGV[1], 0, ARGV[3], 'IDLE', ARGV[4], 'JUSTID')
return 1
`);

// KEYS: locks; ARGV: consumer, lock ms. Returns the indexes (1-based) of the locks lost.
export const RENEW_LOCKS = luaScript(`
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2]) else lost[#lost + 1] = i end
end
return lost
`);

// KEYS: stream; ARGV: group, consumer, idle ms
export const HAND_BACK = luaScript(`
local total = 0
local start = '-'
while true do
  local pending = redis.call('XPENDING', KEYS[1], ARGV[1], start, '+', 500, ARGV[2])
  if #pending == 0 then return total end
  -- Lua passes every value of unpack() only as the last argument: the command is built whole.
  local command = {'XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0}
  for _, p in ipairs(pending) do command[#command + 1] = p[1] end
  command[#command + 1] = 'IDLE'
  command[#command + 1] = ARGV[3]
  command[#command + 1] = 'JUSTID'
  redis.call(unpack(command))
  total = total + #pending
  start = '(' .. pending[#pending][1]
end
`);

// KEYS: stream; ARGV: group, idle ms
export const FORGET_CONSUMERS = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local ok, consumers = pcall(redis.call, 'XINFO', 'CONSUMERS', KEYS[1], ARGV[1])
if not ok then return 0 end
local n = 0
for _, c in ipairs(consumers) do
  local info = {}
  for i = 1, #c, 2 do info[c[i]] = c[i + 1] end
  if tonumber(info['pending']) == 0 and tonumber(info['idle']) >= tonumber(ARGV[2]) then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], info['name'])
    n = n + 1
  end
end
return n
`);
