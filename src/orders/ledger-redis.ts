import { luaScript, type RedisClient } from "../storage/redis.js";
import type { CancelResult, ClaimResult, FinishResult, Ledger, OrderLedger, SettleResult } from "./ledger.js";
import { figuresOf } from "./report.js";
import { paidFromSaldo, type BalanceSeen, type DraftFields, type OrderRecord, type OrderState } from "./order.js";
import type { Deposit, DepositConfirmResult, Movement, Wallet, Wallets } from "./wallet.js";

/*
 * Layout (every key starts with the prefix):
 *   o:REF            hash: d = the draft's JSON (never changes), u = user id, s = state,
 *                    h = the amount a reseller's order holds, sa/fa/na = submitted/finished/notified
 *                    at, m = summary message id, r = result JSON, sb/st = settled by/at,
 *                    ws = the reseller's saldo after the order's last movement
 *   open-draft:CHAT:USER   the ref id of the draft shown in that chat (expires with the draft)
 *   orders-by-time, orders-by-user:USER, orders-by-player:PLAYER_ID
 *                    sorted sets of submitted ref ids, scored by submit time
 *   orders-inflight, orders-unknown       sets of ref ids
 *   balances                              the balances seen, newest first: pushed in the same
 *                                         step that records the sale, so the last one recorded wins
 *   low-balance-alerted                   set while the balance is below the alert threshold
 *   wallet:USER      hash: saldo, held, deposits, corrections, spent (whole rupiah)
 *   statement:USER   list of movements (JSON), oldest first, appended in the step that moves money
 *   wallets          set of the resellers who have a wallet
 *   dep:ID           hash: d = the deposit's JSON, s = state, w = reseller, a = amount,
 *                    db/da = confirmed by/at, ws = saldo after, na = reseller told at
 *   deposits-by-time sorted set of credited deposit ids, scored by the time they were credited
 *   deposits-untold  set of credited deposit ids whose reseller has not been told yet
 *   day:DAY          hash: a day's figures (DAY in the shop's time zone, the day an order was
 *                    submitted): c:p/c:s/c:f/c:u = orders submitting/success/failed/unknown,
 *                    sell/cost = selling and provider price of the successes, dep = deposits less
 *                    corrections credited, bal/balAt = the provider balance last seen that day
 *   dayd:DAY         hash: the same day by product (p:CODE:n/s/v/t = count, selling, cost, name),
 *                    by user (u:ID:n/s/v/m/w = count, selling, cost, name, seen at) and by reseller
 *                    (r:ID:n/s/v/d/m/t/w, d = deposits)
 *   wallet-totals    hash: saldo and held of all resellers together (what the shop owes)
 *   ledger-version   2 once every order and deposit of an older layout is in the day figures
 *
 * An order's hash keeps its submit day (dy); the figures move with the order's state in the same
 * script that changes it (claim, outcome, settlement, deposit), so they always equal a recount of
 * the orders. The scripts name a day's keys from the stored day: one Redis, not a cluster.
 *
 * State changes are Lua scripts: each checks the state it starts from and writes the record, its
 * indexes and the money it moves in one atomic step, so a crash can never leave one without the
 * others, and two steps that race each other can never both move the same rupiah.
 */

const HGETALL = "redis.call('HGETALL', KEYS[1])";

/**
 * Lua that moves an order in its day's figures (see the layout above): from one state's count to
 * another's; a success adds its money, by product, by user and, for a reseller's order, by
 * reseller. \`pre\` is the key prefix, \`day\` the order's submit day, \`draft\` its decoded draft,
 * \`user\` its user id as stored, \`from\`/\`to\` one-letter states ('' when it was not counted yet),
 * \`cost\` the provider's price in whole rupiah, \`when\` its submit time (the newest name wins).
 */
const TALLY = `
local function tally(pre, day, draft, user, from, to, cost, when)
  local totals = pre .. 'day:' .. day
  local detail = pre .. 'dayd:' .. day
  if from ~= '' then redis.call('HINCRBY', totals, 'c:' .. from, -1) end
  redis.call('HINCRBY', totals, 'c:' .. to, 1)
  if to ~= 's' then return end
  local sell = tonumber(draft.price) or 0
  redis.call('HINCRBY', totals, 'sell', sell)
  redis.call('HINCRBY', totals, 'cost', cost)
  local function line(head, name, extra)
    redis.call('HINCRBY', detail, head .. 'n', 1)
    redis.call('HINCRBY', detail, head .. 's', sell)
    redis.call('HINCRBY', detail, head .. 'v', cost)
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
 * Lua that appends one movement to a statement (KEYS[stmt]) and returns nothing. Every value in it
 * is a number, an ISO time or an id of letters and digits: the JSON can be put together as text.
 */
const MOVEMENT = `
local function movement(stmtKey, at, kind, ref, amount, saldo, held)
  redis.call('RPUSH', stmtKey, '{"at":"' .. at .. '","kind":"' .. kind .. '","ref":"' .. ref .. '","amount":' ..
    string.format('%d', amount) .. ',"saldo":' .. string.format('%d', saldo) .. ',"held":' .. string.format('%d', held) .. '}')
end
`;

const SAVE_DRAFT = luaScript(`
redis.call('HSET', KEYS[1], 'd', ARGV[1], 'u', ARGV[2], 's', 'draft')
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'h', ARGV[5]) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[3])
return 0
`);

// One HMGET reads what the step needs; the claimed order is built from the draft it returns. A
// reseller's order holds its price from the saldo in this same step, or is not claimed at all.
// KEYS: order, inflight, by-time, by-user, wallet, statement, wallets, wallet totals
// ARGV: user, at, score, ref, message id, codes for sale, submit day, key prefix
const CLAIM = luaScript(`${MOVEMENT}
local f = redis.call('HMGET', KEYS[1], 's', 'u', 'd', 'h')
if not f[1] then return {'not-found'} end
if f[2] ~= ARGV[1] then return {'not-yours'} end
if f[1] ~= 'draft' then return {'taken', ${HGETALL}} end
local draft = cjson.decode(f[3])
if ARGV[6] ~= '' then
  local code = '|' .. string.upper(draft.productCode) .. '|'
  if not string.find(ARGV[6], code, 1, true) then return {'not-offered', f[3]} end
end
local hold = tonumber(f[4] or '0')
local saldo = ''
if hold > 0 then
  local have = tonumber(redis.call('HGET', KEYS[5], 'saldo') or '0')
  if have < hold then return {'short', string.format('%d', have)} end
  saldo = redis.call('HINCRBY', KEYS[5], 'saldo', -hold)
  local held = redis.call('HINCRBY', KEYS[5], 'held', hold)
  redis.call('HINCRBY', KEYS[8], 'saldo', -hold)
  redis.call('HINCRBY', KEYS[8], 'held', hold)
  redis.call('SADD', KEYS[7], ARGV[1])
  movement(KEYS[6], ARGV[2], 'hold', ARGV[4], -hold, saldo, held)
  redis.call('HSET', KEYS[1], 'ws', saldo)
end
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[1], 's', 'submitting', 'sa', ARGV[2], 'dy', ARGV[7], 'm', ARGV[5])
else
  redis.call('HSET', KEYS[1], 's', 'submitting', 'sa', ARGV[2], 'dy', ARGV[7])
end
redis.call('HINCRBY', ARGV[8] .. 'day:' .. ARGV[7], 'c:p', 1)
redis.call('ZADD', ARGV[8] .. 'orders-by-player:' .. draft.playerId, ARGV[3], ARGV[4])
redis.call('PERSIST', KEYS[1])
redis.call('SADD', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[4])
return {'claimed', f[3], tostring(saldo)}
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
    movement(stmtKey, at, 'spend', ref, hold, saldo, held)
  else
    saldo = redis.call('HINCRBY', walletKey, 'saldo', hold)
    redis.call('HINCRBY', totalsKey, 'saldo', hold)
    movement(stmtKey, at, 'release', ref, hold, saldo, held)
  end
  redis.call('HSET', orderKey, 'ws', saldo)
  return saldo
end
`;

// A late answer (the order was marked unknown by recovery, nobody settled it) replaces that
// unknown; the user is then told again. The balance log keeps its newest 100 (trimmed now and then).
// KEYS: order, inflight, unknown, balances, low-balance flag, wallet, statement, wallet totals
// ARGV: state, result, at, ref, balance entry, balance, threshold, accept late, user, provider cost,
//       day of the outcome (for the balance), key prefix
const FINISH = luaScript(`${MOVEMENT}${SETTLE_HOLD}${TALLY}
local f = redis.call('HMGET', KEYS[1], 's', 'sb', 'd', 'sa', 'm', 'h', 'u', 'dy')
if not f[1] then return {'not-found'} end
if f[7] ~= ARGV[9] then return redis.error_reply('finish: the order belongs to another user') end
local late = f[1] == 'unknown' and ARGV[8] == '1' and not f[2]
if f[1] ~= 'submitting' and not late then return {'stale', 0, ${HGETALL}} end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'r', ARGV[2], 'fa', ARGV[3])
if late then redis.call('HDEL', KEYS[1], 'na') else redis.call('SREM', KEYS[2], ARGV[4]) end
if ARGV[1] == 'unknown' then
  redis.call('SADD', KEYS[3], ARGV[4])
elseif late then
  redis.call('SREM', KEYS[3], ARGV[4])
end
local ws = settleHold(KEYS[1], KEYS[6], KEYS[7], ARGV[1], tonumber(f[6] or '0'), ARGV[3], ARGV[4], KEYS[8])
if f[8] then
  tally(ARGV[12], f[8], cjson.decode(f[3]), f[7], STATE_CODE[f[1]], STATE_CODE[ARGV[1]], tonumber(ARGV[10]), f[4] or '')
end
local low = 0
if ARGV[5] ~= '' then
  local balDay = ARGV[12] .. 'day:' .. ARGV[11]
  local seenAt = redis.call('HGET', balDay, 'balAt')
  if not seenAt or seenAt <= ARGV[3] then redis.call('HSET', balDay, 'bal', ARGV[6], 'balAt', ARGV[3]) end
  if redis.call('LPUSH', KEYS[4], ARGV[5]) > 150 then redis.call('LTRIM', KEYS[4], 0, 99) end
  if ARGV[7] ~= '' then
    if tonumber(ARGV[6]) < tonumber(ARGV[7]) then
      if redis.call('SET', KEYS[5], ARGV[6], 'NX') then low = 1 end
    else
      redis.call('DEL', KEYS[5])
    end
  end
end
return {'finished', low, f[3], f[4] or '', f[5] or '', ws and string.format('%d', ws) or ''}
`);

// KEYS: order, unknown, wallet, statement, wallet totals
// ARGV: state, result, at, admin, ref, user, provider cost, key prefix
const SETTLE = luaScript(`${MOVEMENT}${SETTLE_HOLD}${TALLY}
local f = redis.call('HMGET', KEYS[1], 's', 'h', 'u', 'dy', 'd', 'sa')
if not f[1] then return {'not-found'} end
if f[3] ~= ARGV[6] then return redis.error_reply('settle: the order belongs to another user') end
if f[1] ~= 'unknown' then return {'not-pending', ${HGETALL}} end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'r', ARGV[2], 'st', ARGV[3], 'sb', ARGV[4])
redis.call('HDEL', KEYS[1], 'na')
redis.call('SREM', KEYS[2], ARGV[5])
settleHold(KEYS[1], KEYS[3], KEYS[4], ARGV[1], tonumber(f[2] or '0'), ARGV[3], ARGV[5], KEYS[5])
if f[4] then tally(ARGV[8], f[4], cjson.decode(f[5]), f[3], 'u', STATE_CODE[ARGV[1]], tonumber(ARGV[7]), f[6] or '') end
return {'settled', ${HGETALL}}
`);

const SAVE_DEPOSIT = luaScript(`
redis.call('HSET', KEYS[1], 'd', ARGV[1], 's', 'draft', 'w', ARGV[2], 'a', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 0
`);

// Credits a deposit once; a correction that would take the saldo below 0 changes nothing.
// KEYS: deposit, wallet, statement, wallets, deposits-by-time, untold, wallet totals
// ARGV: admin, at, score, id, reseller, day credited, key prefix
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
movement(KEYS[3], ARGV[2], kind, ARGV[4], amount, saldo, held)
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

/** A flat list of field, value, field, value… (HGETALL from a script) → an object. */
function pairs(hash: Record<string, string> | string[]): Record<string, string> {
  if (!Array.isArray(hash)) return hash;
  const h: Record<string, string> = {};
  for (let i = 0; i + 1 < hash.length; i += 2) h[hash[i]!] = hash[i + 1]!;
  return h;
}

/** A hash as HGETALL gives it (an object, or a flat list from a script) → the order, if it exists. */
function toOrder(hash: Record<string, string> | string[]): OrderRecord | undefined {
  const h = pairs(hash);
  if (h.d === undefined || h.s === undefined) return undefined;
  const order: OrderRecord = { ...(JSON.parse(h.d) as DraftFields), state: h.s as OrderState };
  if (h.sa !== undefined) order.submittedAt = h.sa;
  if (h.fa !== undefined) order.finishedAt = h.fa;
  if (h.na !== undefined) order.notifiedAt = h.na;
  if (h.m !== undefined) order.summaryMessageId = Number(h.m);
  if (h.sb !== undefined) order.settledBy = Number(h.sb);
  if (h.st !== undefined) order.settledAt = h.st;
  if (h.ws !== undefined) order.saldoAfter = Number(h.ws);
  if (h.r !== undefined) order.result = JSON.parse(h.r) as OrderRecord["result"];
  return order;
}

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

function draftJson(order: OrderRecord): string {
  const { refId, chatId, userId, userName, lang, gameName, productCode, productName, price, playerId, createdAt } =
    order;
  const draft: DraftFields = {
    refId,
    chatId,
    userId,
    userName,
    lang,
    gameName,
    productCode,
    productName,
    price,
    playerId,
    createdAt,
  };
  if (order.role !== undefined) draft.role = order.role;
  if (order.tier !== undefined) draft.tier = order.tier;
  if (order.requestMessageId !== undefined) draft.requestMessageId = order.requestMessageId;
  return JSON.stringify(draft);
}

/**
 * Puts an order of an older layout (no submit day yet) into its day's figures, once: it gets its
 * day, and its state is counted there. Safe beside live steps: each of them and this one is atomic,
 * and the live ones move only orders that have a day.
 * The order is also found by its player id from then on.
 * KEYS: order; ARGV: submit day, provider cost, key prefix, submit time (ms)
 */
const TALLY_OLD_ORDER = luaScript(`${TALLY}
local f = redis.call('HMGET', KEYS[1], 's', 'd', 'u', 'dy', 'sa')
if not f[1] or f[4] or not STATE_CODE[f[1]] then return 0 end
redis.call('HSET', KEYS[1], 'dy', ARGV[1])
local draft = cjson.decode(f[2])
tally(ARGV[3], ARGV[1], draft, f[3], '', STATE_CODE[f[1]], tonumber(ARGV[2]), f[5] or '')
redis.call('ZADD', ARGV[3] .. 'orders-by-player:' .. draft.playerId, ARGV[4], KEYS[1]:sub(#ARGV[3] + 3))
return 1
`);

/** The same for a credited deposit. KEYS: deposit; ARGV: day credited, key prefix */
const TALLY_OLD_DEPOSIT = luaScript(`
local f = redis.call('HMGET', KEYS[1], 's', 'w', 'a', 'dy')
if f[1] ~= 'done' or f[4] then return 0 end
redis.call('HSET', KEYS[1], 'dy', ARGV[1])
redis.call('HINCRBY', ARGV[2] .. 'day:' .. ARGV[1], 'dep', f[3])
redis.call('HINCRBY', ARGV[2] .. 'dayd:' .. ARGV[1], 'r:' .. f[2] .. ':d', f[3])
return 1
`);

/** What the shop owes all resellers, summed from their wallets. KEYS: wallets set, totals; ARGV: key prefix */
const SUM_WALLETS = luaScript(`
local saldo, held = 0, 0
for _, user in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local w = redis.call('HMGET', ARGV[1] .. 'wallet:' .. user, 'saldo', 'held')
  saldo = saldo + tonumber(w[1] or '0')
  held = held + tonumber(w[2] or '0')
end
redis.call('HSET', KEYS[2], 'saldo', string.format('%d', saldo), 'held', string.format('%d', held))
return 0
`);

/** The provider's price of an order's result, in whole rupiah (0 when it did not say). */
const costOf = (result: OrderRecord["result"]) => Math.round(result?.productDetail?.priceRp ?? 0);

/** The layout version this code writes (ledger-version): 2 keeps per-day figures. */
const LEDGER_VERSION = 2;

export function createRedisLedger(redis: RedisClient, prefix: string, dayOf: (iso: string) => string): Ledger {
  const orderKey = (refId: string) => `${prefix}o:${refId}`;
  const openDraftKey = (chatId: number, userId: number) => `${prefix}open-draft:${chatId}:${userId}`;
  const byTimeKey = `${prefix}orders-by-time`;
  const byUserKey = (userId: number) => `${prefix}orders-by-user:${userId}`;
  const byPlayerKey = (playerId: string) => `${prefix}orders-by-player:${playerId}`;
  const inflightKey = `${prefix}orders-inflight`;
  const unknownKey = `${prefix}orders-unknown`;
  const balanceKey = `${prefix}balances`;
  const lowBalanceKey = `${prefix}low-balance-alerted`;
  const walletKey = (userId: number) => `${prefix}wallet:${userId}`;
  const statementKey = (userId: number) => `${prefix}statement:${userId}`;
  const walletsKey = `${prefix}wallets`;
  const depositKey = (id: string) => `${prefix}dep:${id}`;
  const depositsByTimeKey = `${prefix}deposits-by-time`;
  const untoldKey = `${prefix}deposits-untold`;
  const walletTotalsKey = `${prefix}wallet-totals`;
  const versionKey = `${prefix}ledger-version`;

  /** A script's answer: [kind, ...] → kind, the flag (second element 1), the order of a trailing hash. */
  const reply = (raw: unknown) => {
    const list = raw as Array<string | number | string[]>;
    const hash = list.at(-1);
    return {
      kind: list[0] as string,
      flag: list[1] === 1,
      order: Array.isArray(hash) ? toOrder(hash) : undefined,
      list,
    };
  };

  const getMany = async (refIds: readonly string[]) => {
    const hashes = await Promise.all(refIds.map((refId) => redis.hGetAll(orderKey(refId))));
    return hashes.map((h) => toOrder(h as Record<string, string>)).filter((o): o is OrderRecord => o !== undefined);
  };

  const orders: OrderLedger = {
    async saveDraft(order, ttlMs) {
      await SAVE_DRAFT(
        redis,
        [orderKey(order.refId), openDraftKey(order.chatId, order.userId)],
        [draftJson(order), order.userId, ttlMs, order.refId, paidFromSaldo(order) ? order.price! : ""],
      );
    },

    async get(refId) {
      return toOrder(await redis.hGetAll(orderKey(refId)));
    },

    getMany,

    async openDraftOf(chatId, userId) {
      return (await redis.get(openDraftKey(chatId, userId))) ?? undefined;
    },

    async openDraftsIn(chatId) {
      // By key (SCAN, never KEYS): a chat has a handful of members with a draft at most.
      const found: Array<{ userId: number; refId: string }> = [];
      const start = openDraftKey(chatId, 0).slice(0, -1);
      for await (const keys of redis.scanIterator({ MATCH: `${start}*`, COUNT: 500 })) {
        for (const key of keys) {
          const refId = await redis.get(key);
          if (refId !== null) found.push({ userId: Number(key.slice(start.length)), refId });
        }
      }
      return found;
    },

    async claim(refId, by): Promise<ClaimResult> {
      const r = reply(
        await CLAIM(
          redis,
          [
            orderKey(refId),
            inflightKey,
            byTimeKey,
            byUserKey(by.userId),
            walletKey(by.userId),
            statementKey(by.userId),
            walletsKey,
            walletTotalsKey,
          ],
          [
            by.userId,
            by.at,
            Date.parse(by.at),
            refId,
            by.summaryMessageId ?? "",
            by.offered === undefined ? "" : `|${[...by.offered].join("|")}|`,
            dayOf(by.at),
            prefix,
          ],
        ),
      );
      if (r.kind === "claimed") {
        const [, draft, saldo] = r.list as [string, string, string];
        const order: OrderRecord = { ...(JSON.parse(draft) as DraftFields), state: "submitting", submittedAt: by.at };
        if (by.summaryMessageId !== undefined) order.summaryMessageId = by.summaryMessageId;
        if (saldo !== "") order.saldoAfter = Number(saldo);
        return { kind: "claimed", order };
      }
      if (r.kind === "short") return { kind: "short", saldo: Number(r.list[1]) };
      if (r.kind === "not-offered") {
        const draft = JSON.parse(r.list[1] as string) as DraftFields;
        return { kind: "not-offered", order: { ...draft, state: "draft" } };
      }
      if (r.kind === "taken" && r.order !== undefined) return { kind: "taken", order: r.order };
      return { kind: r.kind === "not-yours" ? "not-yours" : "not-found" };
    },

    async cancel(refId, by): Promise<CancelResult> {
      const r = reply(
        await CANCEL(redis, [orderKey(refId), openDraftKey(by.chatId, by.userId)], [by.userId, by.at, refId]),
      );
      if ((r.kind === "cancelled" || r.kind === "taken") && r.order !== undefined)
        return { kind: r.kind, order: r.order };
      return { kind: r.kind === "not-yours" ? "not-yours" : "not-found" };
    },

    async finish(order, outcome, opts = {}): Promise<FinishResult> {
      const balance = opts.balance;
      const r = reply(
        await FINISH(
          redis,
          [
            orderKey(order.refId),
            inflightKey,
            unknownKey,
            balanceKey,
            lowBalanceKey,
            walletKey(order.userId),
            statementKey(order.userId),
            walletTotalsKey,
          ],
          [
            outcome.state,
            JSON.stringify(outcome.result),
            outcome.at,
            order.refId,
            balance === undefined ? "" : JSON.stringify(balance),
            balance === undefined ? "" : balance.balance,
            opts.lowBalanceThreshold ?? "",
            opts.acceptLate === true ? "1" : "0",
            order.userId,
            outcome.state === "success" ? costOf(outcome.result) : 0,
            dayOf(outcome.at),
            prefix,
          ],
        ),
      );
      if (r.kind === "finished") {
        const [, , draft, submittedAt, messageId, saldo] = r.list as [string, number, string, string, string, string];
        const finished: OrderRecord = { ...(JSON.parse(draft) as DraftFields), state: outcome.state };
        if (submittedAt !== "") finished.submittedAt = submittedAt;
        if (messageId !== "") finished.summaryMessageId = Number(messageId);
        finished.finishedAt = outcome.at;
        if (saldo !== "") finished.saldoAfter = Number(saldo);
        finished.result = outcome.result;
        return { kind: "finished", order: finished, lowBalance: r.flag };
      }
      return r.order === undefined ? { kind: "not-found" } : { kind: "stale", order: r.order };
    },

    async settle(order, outcome): Promise<SettleResult> {
      const r = reply(
        await SETTLE(
          redis,
          [orderKey(order.refId), unknownKey, walletKey(order.userId), statementKey(order.userId), walletTotalsKey],
          [
            outcome.state,
            JSON.stringify(outcome.result),
            outcome.at,
            outcome.adminId,
            order.refId,
            order.userId,
            outcome.state === "success" ? costOf(outcome.result) : 0,
            prefix,
          ],
        ),
      );
      if (r.order === undefined) return { kind: "not-found" };
      return { kind: r.kind === "settled" ? "settled" : "not-pending", order: r.order };
    },

    async markNotified(refId, at) {
      // A plain HSET: it is only ever called for an order that was claimed, and those are kept.
      await redis.hSet(orderKey(refId), "na", at);
    },

    async findOrders(q) {
      const index =
        q.playerId !== undefined ? byPlayerKey(q.playerId) : q.userId !== undefined ? byUserKey(q.userId) : byTimeKey;
      const range = { from: q.toMs ?? "+inf", to: q.fromMs ?? "-inf" };
      const matches = (o: OrderRecord) =>
        (q.state === undefined || o.state === q.state) &&
        (q.userId === undefined || q.playerId === undefined || o.userId === q.userId);
      const filtered = q.state !== undefined || (q.userId !== undefined && q.playerId !== undefined);
      if (!filtered) {
        const refIds = await redis.zRange(index, range.from, range.to, {
          BY: "SCORE",
          REV: true,
          LIMIT: { offset: q.page * q.pageSize, count: q.pageSize + 1 },
        });
        const orders = await getMany(refIds.slice(0, q.pageSize));
        return { orders, hasMore: refIds.length > q.pageSize };
      }
      // A filter no index answers: read the index in batches until the page (and one more) is found.
      const found: OrderRecord[] = [];
      const skip = q.page * q.pageSize;
      let seen = 0;
      const BATCH = 200;
      for (let offset = 0; found.length <= q.pageSize; offset += BATCH) {
        const refIds = await redis.zRange(index, range.from, range.to, {
          BY: "SCORE",
          REV: true,
          LIMIT: { offset, count: BATCH },
        });
        for (const o of await getMany(refIds)) {
          if (!matches(o)) continue;
          if (seen++ >= skip) found.push(o);
          if (found.length > q.pageSize) break;
        }
        if (refIds.length < BATCH) break;
      }
      return { orders: found.slice(0, q.pageSize), hasMore: found.length > q.pageSize };
    },

    async history(scope, page, pageSize) {
      const key = scope === "all" ? byTimeKey : byUserKey(scope);
      const [total, refIds] = await Promise.all([
        redis.zCard(key),
        redis.zRange(key, page * pageSize, page * pageSize + pageSize - 1, { REV: true }),
      ]);
      return { orders: await getMany(refIds), total };
    },

    async submittedBetween(fromMs, toMs) {
      return getMany(await redis.zRangeByScore(byTimeKey, fromMs, toMs));
    },

    async inFlight() {
      return (await getMany(await redis.sMembers(inflightKey))).filter((o) => o.state === "submitting");
    },

    async pending() {
      const found = await getMany(await redis.sMembers(unknownKey));
      return found.filter((o) => o.state === "unknown").sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async lastBalance() {
      const latest = await redis.lIndex(balanceKey, 0);
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
  };

  const wallets: Wallets = {
    async get(userId) {
      return toWallet(userId, await redis.hGetAll(walletKey(userId)));
    },

    async statement(userId, last = 10) {
      const lines = await redis.lRange(statementKey(userId), -last, -1);
      return lines.map((l) => JSON.parse(l) as Movement);
    },

    async statementPage(userId, page, pageSize) {
      const key = statementKey(userId);
      const [total, lines] = await Promise.all([
        redis.lLen(key),
        redis.lRange(key, -(page + 1) * pageSize, -page * pageSize - 1),
      ]);
      // A first page of a short statement: LRANGE clamps the start, nothing is read twice.
      const movements = lines.map((l) => JSON.parse(l) as Movement).reverse();
      return { movements: page * pageSize >= total ? [] : movements, total };
    },

    async all() {
      const ids = (await redis.sMembers(walletsKey)).map(Number).sort((a, b) => a - b);
      return Promise.all(ids.map((id) => wallets.get(id)));
    },

    async saveDeposit(deposit, ttlMs) {
      await SAVE_DEPOSIT(
        redis,
        [depositKey(deposit.id)],
        [JSON.stringify(deposit), deposit.resellerId, deposit.amount, ttlMs],
      );
    },

    async getDeposit(id) {
      return toDeposit(await redis.hGetAll(depositKey(id)));
    },

    async confirmDeposit(id, by): Promise<DepositConfirmResult> {
      const deposit = await wallets.getDeposit(id);
      if (deposit === undefined) return { kind: "not-found" };
      const raw = (await CONFIRM_DEPOSIT(
        redis,
        [
          depositKey(id),
          walletKey(deposit.resellerId),
          statementKey(deposit.resellerId),
          walletsKey,
          depositsByTimeKey,
          untoldKey,
          walletTotalsKey,
        ],
        [by.adminId, by.at, Date.parse(by.at), id, deposit.resellerId, dayOf(by.at), prefix],
      )) as Array<string | string[]>;
      const kind = raw[0] as string;
      if (kind === "short") return { kind: "short", deposit, saldo: Number(raw[1]) };
      if (kind === "not-found") return { kind: "not-found" };
      const current = toDeposit(raw.at(-1) as string[])!;
      if (kind === "taken") return { kind: "taken", deposit: current };
      return { kind: "done", deposit: current, wallet: await wallets.get(deposit.resellerId) };
    },

    async cancelDeposit(id, at) {
      const raw = (await CANCEL_DEPOSIT(redis, [depositKey(id)], [at])) as Array<string | string[]>;
      if (raw[0] === "not-found") return { kind: "not-found" };
      return { kind: raw[0] === "cancelled" ? "cancelled" : "taken", deposit: toDeposit(raw.at(-1) as string[])! };
    },

    async markDepositTold(id, at) {
      await redis.multi().hSet(depositKey(id), "na", at).sRem(untoldKey, id).exec();
    },

    async untoldDeposits() {
      const found = await Promise.all((await redis.sMembers(untoldKey)).map((id) => wallets.getDeposit(id)));
      return found.filter((d): d is Deposit => d !== undefined && d.state === "done" && d.toldAt === undefined);
    },

    async depositsBetween(fromMs, toMs) {
      const ids = await redis.zRangeByScore(depositsByTimeKey, fromMs, toMs);
      const found = await Promise.all(ids.map((id) => wallets.getDeposit(id)));
      return found.filter((d): d is Deposit => d !== undefined);
    },

    async totals() {
      const [saldo, held] = await redis.hmGet(walletTotalsKey, ["saldo", "held"]);
      return { saldo: Number(saldo ?? 0), held: Number(held ?? 0) };
    },
  };

  /** Orders and deposits written by an older layout get their day figures, once (each one flagged). */
  async function upgrade(): Promise<{ orders: number; deposits: number } | undefined> {
    if (Number((await redis.get(versionKey)) ?? 0) >= LEDGER_VERSION) return undefined;
    let orderCount = 0;
    let depositCount = 0;
    const BATCH = 500;
    for (let start = 0; ; start += BATCH) {
      const refIds = await redis.zRange(byTimeKey, start, start + BATCH - 1);
      if (refIds.length === 0) break;
      for (const order of await getMany(refIds)) {
        if (order.submittedAt === undefined) continue;
        const cost = order.state === "success" ? costOf(order.result) : 0;
        const args = [dayOf(order.submittedAt), cost, prefix, Date.parse(order.submittedAt)];
        orderCount += Number(await TALLY_OLD_ORDER(redis, [orderKey(order.refId)], args));
      }
    }
    for (const id of await redis.zRange(depositsByTimeKey, 0, -1)) {
      const deposit = await wallets.getDeposit(id);
      if (deposit?.doneAt === undefined) continue;
      depositCount += Number(await TALLY_OLD_DEPOSIT(redis, [depositKey(id)], [dayOf(deposit.doneAt), prefix]));
    }
    await SUM_WALLETS(redis, [walletsKey, walletTotalsKey], [prefix]);
    await redis.set(versionKey, String(LEDGER_VERSION));
    return { orders: orderCount, deposits: depositCount };
  }

  return { orders, wallets, upgrade };
}
