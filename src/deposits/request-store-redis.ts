import { luaScript, type RedisClient } from "../storage/redis.js";
import {
  FIGURES,
  LETTER,
  noRequestFigures,
  REQUEST_LIMIT_WINDOW_MS,
  type DepositProof,
  type DepositRequest,
  type DepositRequestState,
  type DepositRequestStore,
  type HandCreditResult,
} from "./request.js";

/*
 * Layout (every key starts with the prefix):
 *   dr:ID          hash: u reseller, c chat, l language, a amount, k code, x exact, t created ms, e expires ms,
 *                  s state, m message id, pf/pu/pk/pm/ph/pt/pb proof file id, unique id, kind,
 *                  mime, SHA-256, at, sent before for; db/dt decided by/at, dx credited, rr reason, ct closed at,
 *                  na announced at, tt told at, hd the deposit that credited it by hand
 *   dr:x           hash exact amount → the request that has it
 *   dr:open        set of open requests
 *   dr:due         sorted set: requests waiting for their proof, by expiry
 *   dr:u:RESELLER  sorted set: the reseller's requests by creation (also their limit per hour)
 *   dr:uo:RESELLER set: the reseller's open requests
 *   dr:f:UNIQUE    the first request a file (by Telegram's unique id) was sent for
 *   dr:s:SHA256    the first request a file of these bytes was sent for
 *   dr:crediting   set: approved, deposit not known to be credited
 *   dr:untold      set: rejected or expired, reseller not told yet
 *   dr:hold:RESELLER  a proof waiting for the reseller to say which request it is for (JSON, expires)
 *   dr:d:DAY       hash: the day's figures, rn/ra asked (count, exact amounts), an/aa approved
 *                  (count, credited), jn/ja rejected, xn/xa expired
 * Requests are kept (they are the deposits' evidence); they are small.
 */

/** Closes a request in its own step (KEYS none; the prefix, id, state, closed at are locals). */
const CLOSE_FN = `
local function close(pre, id, state, at)
  local key = pre .. 'dr:' .. id
  local u = redis.call('HGET', key, 'u')
  redis.call('HSET', key, 's', state, 'ct', at)
  redis.call('SREM', pre .. 'dr:open', id)
  redis.call('ZREM', pre .. 'dr:due', id)
  redis.call('SREM', pre .. 'dr:uo:' .. u, id)
end
local function count(pre, day, letter, amount)
  redis.call('HINCRBY', pre .. 'dr:d:' .. day, letter .. 'n', 1)
  redis.call('HINCRBY', pre .. 'dr:d:' .. day, letter .. 'a', amount)
end
local function expireIfDue(pre, id, now, day)
  local key = pre .. 'dr:' .. id
  local v = redis.call('HMGET', key, 's', 'e', 'x')
  if v[1] == 'proof' and tonumber(v[2]) <= tonumber(now) then
    close(pre, id, 'expired', v[2])
    redis.call('SADD', pre .. 'dr:untold', id)
    count(pre, day, 'x', v[3])
    return true
  end
  return false
end
`;

// ARGV: prefix, id, reseller, chat, amount, created, expires, first code, max open, reuse ms, language, day,
// max per hour ('' none), hour ms
const CREATE = luaScript(`${CLOSE_FN}
local pre, id = ARGV[1], ARGV[2]
local key = pre .. 'dr:' .. id
if redis.call('EXISTS', key) == 1 then return {'made'} end
local amount, now, reuse = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[10])
if ARGV[13] ~= '' then
  local mine, perHour = pre .. 'dr:u:' .. ARGV[3], tonumber(ARGV[13])
  local since = '(' .. string.format('%d', now - tonumber(ARGV[14]))
  local recent = redis.call('ZCOUNT', mine, since, '+inf')
  if recent >= perHour then
    local oldest = redis.call('ZRANGEBYSCORE', mine, since, '+inf', 'WITHSCORES', 'LIMIT', recent - perHour, 1)
    return {'too-soon', string.format('%d', tonumber(oldest[2]) + tonumber(ARGV[14]))}
  end
end
local open = redis.call('SCARD', pre .. 'dr:uo:' .. ARGV[3])
if open >= tonumber(ARGV[9]) then return {'too-many', open} end
local code = tonumber(ARGV[8])
for i = 1, 999 do
  local exact = string.format('%d', amount + code)
  local holder = redis.call('HGET', pre .. 'dr:x', exact)
  local free = not holder
  if holder then
    local h = redis.call('HMGET', pre .. 'dr:' .. holder, 's', 'ct', 'u')
    free = (not h[1]) or (h[2] and (tonumber(h[2]) + reuse <= now or (h[1] == 'cancelled' and h[3] ~= ARGV[3])))
  end
  if free then
    redis.call('HSET', key, 'u', ARGV[3], 'c', ARGV[4], 'a', ARGV[5], 'k', code, 'x', exact,
      't', ARGV[6], 'e', ARGV[7], 's', 'proof', 'l', ARGV[11])
    redis.call('HSET', pre .. 'dr:x', exact, id)
    redis.call('SADD', pre .. 'dr:open', id)
    redis.call('ZADD', pre .. 'dr:due', ARGV[7], id)
    redis.call('SADD', pre .. 'dr:uo:' .. ARGV[3], id)
    redis.call('ZADD', pre .. 'dr:u:' .. ARGV[3], ARGV[6], id)
    count(pre, ARGV[12], 'r', exact)
    return {'made'}
  end
  code = code % 999 + 1
end
return {'no-code'}
`);

// ARGV: prefix, id, reseller, file id, unique id, kind, mime, at, day, SHA-256 ('' unknown)
const PROOF = luaScript(`${CLOSE_FN}
local pre, id = ARGV[1], ARGV[2]
local key = pre .. 'dr:' .. id
local u = redis.call('HGET', key, 'u')
if not u then return {'not-found'} end
if u ~= ARGV[3] then return {'not-yours'} end
expireIfDue(pre, id, ARGV[8], ARGV[9])
local v = redis.call('HMGET', key, 's', 'pu')
if v[1] == 'review' and v[2] == ARGV[5] then return {'attached'} end
if v[1] ~= 'proof' then return {'closed'} end
local before = redis.call('GET', pre .. 'dr:f:' .. ARGV[5])
if not before then redis.call('SET', pre .. 'dr:f:' .. ARGV[5], id) end
if ARGV[10] ~= '' then
  local bytes = redis.call('GET', pre .. 'dr:s:' .. ARGV[10])
  if not bytes then redis.call('SET', pre .. 'dr:s:' .. ARGV[10], id) end
  if (not before or before == id) and bytes and bytes ~= id then before = bytes end
  redis.call('HSET', key, 'ph', ARGV[10])
end
redis.call('HSET', key, 's', 'review', 'pf', ARGV[4], 'pu', ARGV[5], 'pk', ARGV[6], 'pt', ARGV[8])
if ARGV[7] ~= '' then redis.call('HSET', key, 'pm', ARGV[7]) end
if before and before ~= id then redis.call('HSET', key, 'pb', before) end
redis.call('ZREM', pre .. 'dr:due', id)
return {'attached'}
`);

// ARGV: prefix, id, verdict, by, at, credited, day
const DECIDE = luaScript(`${CLOSE_FN}
local pre, id = ARGV[1], ARGV[2]
local key = pre .. 'dr:' .. id
if redis.call('EXISTS', key) == 0 then return {'not-found'} end
expireIfDue(pre, id, ARGV[5], ARGV[7])
if redis.call('HGET', key, 's') ~= 'review' then return {'taken'} end
close(pre, id, ARGV[3], ARGV[5])
redis.call('HSET', key, 'db', ARGV[4], 'dt', ARGV[5])
if ARGV[3] == 'approved' then
  redis.call('HSET', key, 'dx', ARGV[6])
  redis.call('SADD', pre .. 'dr:crediting', id)
  count(pre, ARGV[7], 'a', ARGV[6])
else
  redis.call('SADD', pre .. 'dr:untold', id)
  count(pre, ARGV[7], 'j', redis.call('HGET', key, 'x'))
end
return {'decided'}
`);

// ARGV: prefix, id, reseller, at, day
const CANCEL = luaScript(`${CLOSE_FN}
local pre, id = ARGV[1], ARGV[2]
local key = pre .. 'dr:' .. id
local u = redis.call('HGET', key, 'u')
if not u then return {'not-found'} end
if u ~= ARGV[3] then return {'not-yours'} end
expireIfDue(pre, id, ARGV[4], ARGV[5])
if redis.call('HGET', key, 's') ~= 'proof' then return {'closed'} end
close(pre, id, 'cancelled', ARGV[4])
redis.call('HSET', key, 'tt', ARGV[4])
return {'cancelled'}
`);

// ARGV: prefix, now, day → the ids closed now
const EXPIRE = luaScript(`${CLOSE_FN}
local pre = ARGV[1]
local ids = redis.call('ZRANGEBYSCORE', pre .. 'dr:due', '-inf', ARGV[2], 'LIMIT', 0, 500)
local closed = {}
for _, id in ipairs(ids) do
  if expireIfDue(pre, id, ARGV[2], ARGV[3]) then closed[#closed + 1] = id end
end
return closed
`);

// ARGV: prefix, id, reseller, deposit id, amount, by, at, day
const HAND = luaScript(`${CLOSE_FN}
local pre, id = ARGV[1], ARGV[2]
local key = pre .. 'dr:' .. id
local v = redis.call('HMGET', key, 'u', 's', 'hd')
if not v[1] then return {'not-found'} end
if v[1] ~= ARGV[3] then return {'not-yours'} end
if v[2] == 'approved' then
  if v[3] == ARGV[4] then return {'decided'} end
  return {'taken'}
end
close(pre, id, 'approved', ARGV[7])
redis.call('HSET', key, 'db', ARGV[6], 'dt', ARGV[7], 'dx', ARGV[5], 'hd', ARGV[4])
redis.call('HSETNX', key, 'tt', ARGV[7])
redis.call('SREM', pre .. 'dr:untold', id)
redis.call('SADD', pre .. 'dr:crediting', id)
count(pre, ARGV[8], 'a', ARGV[5])
return {'decided'}
`);

// ARGV: prefix, id, field, value, state it must be in ('' any): sets the field once.
const SET_ONCE = luaScript(`
local key = ARGV[1] .. 'dr:' .. ARGV[2]
if redis.call('EXISTS', key) == 0 then return 0 end
if ARGV[5] ~= '' and redis.call('HGET', key, 's') ~= ARGV[5] then return 0 end
return redis.call('HSETNX', key, ARGV[3], ARGV[4])
`);

const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));

function fromHash(id: string, h: Record<string, string>): DepositRequest | undefined {
  if (h.u === undefined) return undefined;
  const opt = <K extends keyof DepositRequest>(k: K, v: DepositRequest[K] | undefined) =>
    v === undefined ? {} : ({ [k]: v } as Pick<DepositRequest, K>);
  const proof: DepositProof | undefined =
    h.pf === undefined
      ? undefined
      : {
          fileId: h.pf,
          fileUniqueId: h.pu ?? "",
          kind: h.pk === "document" ? "document" : "photo",
          at: Number(h.pt),
          ...(h.pm === undefined ? {} : { mime: h.pm }),
          ...(h.ph === undefined ? {} : { sha256: h.ph }),
          ...(h.pb === undefined ? {} : { sentBeforeFor: h.pb }),
        };
  return {
    id,
    resellerId: Number(h.u),
    chatId: Number(h.c),
    lang: h.l === "id" ? "id" : "en",
    amount: Number(h.a),
    code: Number(h.k),
    exact: Number(h.x),
    createdAt: Number(h.t),
    expiresAt: Number(h.e),
    state: h.s as DepositRequestState,
    ...opt("messageId", num(h.m)),
    ...opt("proof", proof),
    ...opt("decidedBy", num(h.db)),
    ...opt("decidedAt", num(h.dt)),
    ...opt("credited", num(h.dx)),
    ...opt("reason", h.rr),
    ...opt("closedAt", num(h.ct)),
    ...opt("announcedAt", num(h.na)),
    ...opt("toldAt", num(h.tt)),
    ...opt("byHand", h.hd),
  };
}

/** Deposit requests in Redis, where every process sees them: each step one Lua script. */
export function redisRequestStore(redis: RedisClient, pre: string): DepositRequestStore {
  const get = async (id: string) => fromHash(id, await redis.hGetAll(`${pre}dr:${id}`));
  const getAll = async (ids: readonly string[]) => {
    if (ids.length === 0) return [];
    const multi = redis.multi();
    for (const id of ids) multi.hGetAll(`${pre}dr:${id}`);
    const hashes = (await multi.exec()) as unknown as Array<Record<string, string>>;
    return ids.flatMap((id, i) => fromHash(id, hashes[i]!) ?? []);
  };
  const must = async (id: string) => (await get(id))!;
  const setOnce = (id: string, field: string, value: string | number, state = "") =>
    SET_ONCE(redis, [], [pre, id, field, value, state]);
  return {
    async create(input, opts) {
      const [kind, n] = (await CREATE(
        redis,
        [],
        [
          pre,
          input.id,
          input.resellerId,
          input.chatId,
          input.amount,
          input.createdAt,
          input.expiresAt,
          opts.firstCode,
          opts.maxOpen,
          opts.reuseMs,
          input.lang,
          opts.day,
          opts.maxPerHour ?? "",
          REQUEST_LIMIT_WINDOW_MS,
        ],
      )) as [string, (number | string)?];
      if (kind === "too-many") return { kind, open: Number(n) };
      if (kind === "too-soon") return { kind, until: Number(n) };
      if (kind === "no-code") return { kind };
      return { kind: "made", request: await must(input.id) };
    },
    get,
    setMessage: async (id, messageId) => void (await setOnce(id, "m", messageId)),
    async attachProof(id, resellerId, proof, day) {
      const [kind] = (await PROOF(
        redis,
        [],
        [
          pre,
          id,
          resellerId,
          proof.fileId,
          proof.fileUniqueId,
          proof.kind,
          proof.mime ?? "",
          proof.at,
          day,
          proof.sha256 ?? "",
        ],
      )) as [string];
      if (kind === "not-found" || kind === "not-yours") return { kind };
      return { kind: kind === "attached" ? "attached" : "closed", request: await must(id) };
    },
    async decide(id, verdict, by, at, day) {
      const credited = verdict.state === "approved" ? verdict.credited : 0;
      const [kind] = (await DECIDE(redis, [], [pre, id, verdict.state, by, at, credited, day])) as [string];
      if (kind === "not-found") return { kind };
      return { kind: kind === "decided" ? "decided" : "taken", request: await must(id) };
    },
    async cancel(id, resellerId, at, day) {
      const [kind] = (await CANCEL(redis, [], [pre, id, resellerId, at, day])) as [string];
      if (kind === "not-found" || kind === "not-yours") return { kind };
      return { kind: kind === "cancelled" ? "cancelled" : "closed", request: await must(id) };
    },
    async creditByHand(id, hand): Promise<HandCreditResult> {
      const [kind] = (await HAND(
        redis,
        [],
        [pre, id, hand.resellerId, hand.depositId, hand.amount, hand.by, hand.at, hand.day],
      )) as [string];
      if (kind === "not-found") return { kind };
      return { kind: kind as "decided" | "not-yours" | "taken", request: await must(id) };
    },
    setReason: async (id, reason) => void (await setOnce(id, "rr", reason, "rejected")),
    async expireDue(now, day) {
      return getAll((await EXPIRE(redis, [], [pre, now, day])) as string[]);
    },
    holdProof: async (resellerId, proof, ttlMs) =>
      void (await redis.set(`${pre}dr:hold:${resellerId}`, JSON.stringify(proof), {
        expiration: { type: "PX", value: Math.max(1, Math.round(ttlMs)) },
      })),
    async heldProof(resellerId) {
      const raw = await redis.get(`${pre}dr:hold:${resellerId}`);
      return raw === null ? undefined : (JSON.parse(raw) as Omit<DepositProof, "at" | "sentBeforeFor">);
    },
    async dayFigures(day) {
      const h = await redis.hGetAll(`${pre}dr:d:${day}`);
      const f = noRequestFigures();
      for (const figure of FIGURES) {
        f[figure].count = Number(h[`${LETTER[figure]}n`] ?? 0);
        f[figure].amount = Number(h[`${LETTER[figure]}a`] ?? 0);
      }
      return f;
    },
    crediting: () => redis.sMembers(`${pre}dr:crediting`),
    credited: async (id) => void (await redis.sRem(`${pre}dr:crediting`, id)),
    markAnnounced: async (id, at) => void (await setOnce(id, "na", at)),
    async markTold(id, at) {
      await setOnce(id, "tt", at);
      await redis.sRem(`${pre}dr:untold`, id);
    },
    untold: async () => getAll(await redis.sMembers(`${pre}dr:untold`)),
    open: async () => (await getAll(await redis.sMembers(`${pre}dr:open`))).sort((a, b) => a.createdAt - b.createdAt),
    ofReseller: async (resellerId, last) =>
      getAll(await redis.zRange(`${pre}dr:u:${resellerId}`, 0, last - 1, { REV: true })),
  };
}
