import { dayIn, dayRange, hourIn, isDay } from "../calendar.js";
import { luaScript, type RedisClient } from "../storage/redis.js";
import type { UpgradeResult } from "../orders/ledger.js";
import { LUA_BASICS, LUA_CHUNKS, LUA_LINEAR_HASH, LUA_TIME_INDEX, TALLY, type LedgerKeys } from "./redis-lua.js";
import { draftFields, msKey, orderFromHash, resultFields } from "./order-codec.js";
import { costOf, outcomeKnown, type OrderRecord } from "../orders/order.js";
import { hoursOf } from "../orders/day-figures.js";

/**
 * The layout this code writes (ledger-version): 2 kept per-day figures, 3 compact orders and
 * indexes, 4 the day figures by the hour orders were sent.
 */
export const LEDGER_VERSION = 4;

/*
 * Layout 2 (the keys the upgrade from it reads and removes):
 *   o:REF            hash: d = the draft's JSON, u, s, h, sa, fa, na, m, sb, st, ws, dy,
 *                    r = the result's JSON
 *   orders-by-time, orders-by-user:USER, orders-by-player:PLAYER_ID
 *                    sorted sets of submitted ref ids, scored by submit time
 *   balances         list of the balances seen (JSON), newest first
 *   statement:USER   lines of JSON (still read as they are: statement-codec.ts movementFromLine)
 * Layout 1 had no day figures (day:DAY, dayd:DAY, wallet-totals); upgrading it to 2 builds them.
 * Layout 3 is layout 4 without the day figures by hour (dayd:DAY h:HH:…, an open order's hr);
 * upgrading it to 4 counts them from the orders.
 */

/**
 * Puts an order of layout 1 (no submit day yet) into its day's figures, once: it gets its day, and
 * its state is counted there; it is found by its player id from then on. KEYS: order;
 * ARGV: submit day, provider cost, key prefix, submit time (ms)
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

/**
 * A submitted order of layout 2 becomes one of layout 3, in one step: its hash rewritten with
 * short fields, its entries in the time, user and player indexes and the counts, and it leaves the
 * old sorted sets (which is how a resumed upgrade knows it is done). Nothing happens to an order no
 * longer in orders-by-time, nor to a hash that is not the one read (`d` compared).
 * KEYS: order, orders-by-time
 * ARGV: key prefix, ref, user, player id, submit time (9 digits), the `d` read, final (1/0), then
 *       the new hash's fields and values
 */
const MIGRATE_ORDER = luaScript(`${LUA_BASICS}${LUA_TIME_INDEX}${LUA_LINEAR_HASH}${LUA_CHUNKS}
local pre, ref, user, player, sk = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
if not redis.call('ZSCORE', KEYS[2], ref) then return 0 end
if redis.call('HGET', KEYS[1], 'd') ~= ARGV[6] then return redis.error_reply('upgrade: order ' .. ref .. ' changed while it was read') end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 8))
local day = dayOfKey(sk)
tinsert(pre .. 't:' .. day, sk .. ref)
redis.call('ZADD', pre .. 't-days', day, day)
local entry = entryOf(sk, ref)
rnoteOdd(pre, ref, sk)
cinsert(pre .. 'u:' .. user, entry)
redis.call('HINCRBY', pre .. 'uc', user, 1)
redis.call('INCR', pre .. 'orders-count')
pinsert(pre, player, entry)
if ARGV[7] == '1' then redis.call('HINCRBY', pre .. 'fh', day, 1) end
redis.call('ZREM', KEYS[2], ref)
redis.call('ZREM', pre .. 'orders-by-user:' .. user, ref)
redis.call('ZREM', pre .. 'orders-by-player:' .. player, ref)
return 1
`);

/** A draft (or cancelled draft) of layout 2 rewritten, keeping its time to live. KEYS: order; ARGV: the `d` read, fields… */
const MIGRATE_DRAFT = luaScript(`
if redis.call('HGET', KEYS[1], 'd') ~= ARGV[1] then return 0 end
local s = redis.call('HGET', KEYS[1], 's')
if s ~= 'draft' and s ~= 'cancelled' then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1
`);

/** The newest balance of the old list becomes the one value kept. KEYS: balances, last balance */
const MIGRATE_BALANCE = luaScript(`
local latest = redis.call('LINDEX', KEYS[1], 0)
if latest and redis.call('EXISTS', KEYS[2]) == 0 then redis.call('SET', KEYS[2], latest) end
redis.call('DEL', KEYS[1])
return 0
`);

/** The fields of a day's totals that every order's step changes: unchanged, no order of the day moved. */
const HOUR_GUARD = ["c:p", "c:s", "c:f", "c:u", "sell", "cost"] as const;

/**
 * A day's figures by hour, counted from its orders, replace whatever hours it had, and the open
 * orders among them (sent, or unknown) learn their hour (`hr`), which their outcome's step adds to.
 * Only while the day's counts are still those read before its orders were: an order that moved
 * meanwhile (another process) changes nothing here, and the caller counts the day again.
 * KEYS: day totals, day detail; ARGV: the counts as read, key prefix, how many open orders, their
 * ref ids and hours in pairs, then the hour fields and values
 */
const RECOUNT_HOURS = luaScript(`
local seen = redis.call('HMGET', KEYS[1], ${HOUR_GUARD.map((f) => `'${f}'`).join(", ")})
local now = {}
for i = 1, #seen do now[i] = seen[i] or '' end
if table.concat(now, ',') ~= ARGV[1] then return 0 end
local old = {}
for _, field in ipairs(redis.call('HKEYS', KEYS[2])) do
  if string.sub(field, 1, 2) == 'h:' then old[#old + 1] = field end
end
if #old > 0 then redis.call('HDEL', KEYS[2], unpack(old)) end
local open = tonumber(ARGV[3])
for i = 4, 3 + 2 * open, 2 do
  local key = ARGV[2] .. 'o:' .. ARGV[i]
  if redis.call('EXISTS', key) == 1 then redis.call('HSET', key, 'hr', ARGV[i + 1]) end
end
if #ARGV > 3 + 2 * open then redis.call('HSET', KEYS[2], unpack(ARGV, 4 + 2 * open)) end
return 1
`);

/** The hash of layout 3 for an order read from layout 2 (or any order: this is its whole record). */
function orderHashFields(order: OrderRecord, extra: { hold?: number; day?: string }): string[] {
  const fields: string[] = [...Object.entries(draftFields(order)).flat(), "s", order.state];
  if (extra.hold !== undefined) fields.push("h", String(extra.hold));
  if (order.submittedAt !== undefined) fields.push("sa", order.submittedAt, "sk", msKey(Date.parse(order.submittedAt)));
  if (extra.day !== undefined) fields.push("dy", extra.day);
  if (order.summaryMessageId !== undefined) fields.push("m", String(order.summaryMessageId));
  if (order.finishedAt !== undefined) fields.push("fa", order.finishedAt);
  if (order.notifiedAt !== undefined) fields.push("na", order.notifiedAt);
  if (order.settledAt !== undefined) fields.push("st", order.settledAt);
  if (order.settledBy !== undefined) fields.push("sb", String(order.settledBy));
  if (order.saldoAfter !== undefined) fields.push("ws", String(order.saldoAfter));
  if (order.result !== undefined) fields.push(...resultFields(order.result));
  return fields;
}

interface Context {
  redis: RedisClient;
  keys: LedgerKeys;
  /** The shop's time zone: the day and hour an order counts in. */
  timeZone: string;
  /** The ledger's own read of the orders submitted in [fromMs, toMs]. */
  submittedBetween: (fromMs: number, toMs: number) => Promise<OrderRecord[]>;
}

const BATCH = 500;

/** Layout 1 → 2: every order and deposit gets its day figures (as the bot before this one did). */
async function tallyOldOrders(ctx: Context): Promise<{ orders: number; deposits: number }> {
  const { redis, keys } = ctx;
  const dayOf = (iso: string) => dayIn(ctx.timeZone, new Date(iso));
  const byTime = `${keys.prefix}orders-by-time`;
  let orders = 0;
  let deposits = 0;
  for (let start = 0; ; start += BATCH) {
    const refIds = await redis.zRange(byTime, start, start + BATCH - 1);
    if (refIds.length === 0) break;
    const hashes = await Promise.all(refIds.map((ref) => redis.hGetAll(keys.order(ref))));
    for (const [i, ref] of refIds.entries()) {
      const order = orderFromHash(ref, hashes[i]!);
      if (order?.submittedAt === undefined) continue;
      const cost = order.state === "success" ? (costOf(order.result) ?? "") : 0;
      const args = [dayOf(order.submittedAt), cost, keys.prefix, Date.parse(order.submittedAt)];
      orders += Number(await TALLY_OLD_ORDER(redis, [keys.order(ref)], args));
    }
  }
  for (const id of await redis.zRange(keys.depositsByTime, 0, -1)) {
    const hash = await redis.hGetAll(keys.deposit(id));
    const doneAt = hash.da;
    if (hash.s !== "done" || doneAt === undefined) continue;
    deposits += Number(await TALLY_OLD_DEPOSIT(redis, [keys.deposit(id)], [dayOf(doneAt), keys.prefix]));
  }
  await SUM_WALLETS(redis, [keys.wallets, keys.walletTotals], [keys.prefix]);
  return { orders, deposits };
}

/** Layout 2 → 3: submitted orders in time order (each one step), then drafts, then the balance. */
async function compactLayout(ctx: Context, onProgress?: (done: number) => void): Promise<number> {
  const { redis, keys } = ctx;
  const byTime = `${keys.prefix}orders-by-time`;
  let done = 0;
  for (;;) {
    // Always from the start: each migrated order leaves the set.
    const batch = await redis.zRangeWithScores(byTime, 0, BATCH - 1);
    if (batch.length === 0) break;
    const hashes = await Promise.all(batch.map(({ value }) => redis.hGetAll(keys.order(value))));
    const steps = batch.map(({ value: ref, score }, i) => {
      const hash = hashes[i]!;
      const order = orderFromHash(ref, hash);
      if (order === undefined || hash.d === undefined) {
        // Nothing of layout 2 to rewrite (an order the old set still named): it only leaves the set.
        return redis.zRem(byTime, ref).then(() => 0);
      }
      const fields = orderHashFields(order, {
        ...(hash.h === undefined ? {} : { hold: Number(hash.h) }),
        ...(hash.dy === undefined ? {} : { day: hash.dy }),
      });
      const final = outcomeKnown(order.state) ? "1" : "0";
      return MIGRATE_ORDER(
        redis,
        [keys.order(ref), byTime],
        [keys.prefix, ref, order.userId, order.playerId, msKey(score), hash.d, final, ...fields],
      ).then(Number);
    });
    done += (await Promise.all(steps)).reduce((a, b) => a + b, 0);
    onProgress?.(done);
  }
  // Drafts are not in the sets: found by key (a SCAN, once).
  for await (const found of redis.scanIterator({ MATCH: `${keys.prefix}o:*`, COUNT: 1000 })) {
    const heads = await Promise.all(found.map((key) => redis.hmGet(key, ["d", "s"])));
    const old = found.filter((_, i) => {
      const [d, s] = heads[i]!;
      return d !== null && d !== undefined && (s === "draft" || s === "cancelled");
    });
    for (const key of old) {
      const hash = await redis.hGetAll(key);
      const order = orderFromHash(key.slice(keys.order("").length), hash);
      if (order === undefined || hash.d === undefined) continue;
      const fields = orderHashFields(order, hash.h === undefined ? {} : { hold: Number(hash.h) });
      done += Number(await MIGRATE_DRAFT(redis, [key], [hash.d, ...fields]));
    }
  }
  await MIGRATE_BALANCE(redis, [`${keys.prefix}balances`, keys.lastBalance], []);
  return done;
}

/** How many times a day is counted again when its orders keep moving while it is counted. */
const RECOUNT_TRIES = 5;

/**
 * Layout 3 → 4: every day that has figures gets them by the hour its orders were sent, counted
 * from its orders (replacing any it had: counting twice gives the same). How many days.
 */
async function recountHours(ctx: Context): Promise<number> {
  const { redis, keys, timeZone } = ctx;
  const head = `${keys.prefix}day:`;
  const days = new Set<string>();
  for await (const batch of redis.scanIterator({ MATCH: `${head}*`, COUNT: 1000 })) {
    for (const key of batch) if (isDay(key.slice(head.length))) days.add(key.slice(head.length));
  }
  for (const day of days) {
    for (let tries = 1; ; tries++) {
      const seen = (await redis.hmGet(`${head}${day}`, [...HOUR_GUARD])).map((v) => v ?? "").join(",");
      const range = dayRange(day, timeZone)!;
      const orders = await ctx.submittedBetween(range.fromMs, range.toMs);
      const hh = (hour: number) => String(hour).padStart(2, "0");
      const open = orders
        .filter((o) => (o.state === "submitting" || o.state === "unknown") && o.submittedAt !== undefined)
        .flatMap((o) => [o.refId, hh(hourIn(timeZone, Date.parse(o.submittedAt!)))]);
      const fields = hoursOf(orders, timeZone)
        .filter((line) => line.count > 0)
        .flatMap((l) => [`h:${hh(l.hour)}:n`, l.count, `h:${hh(l.hour)}:s`, l.selling, `h:${hh(l.hour)}:v`, l.provider])
        .map(String);
      const args = [seen, keys.prefix, String(open.length / 2), ...open, ...fields];
      if (Number(await RECOUNT_HOURS(redis, [`${head}${day}`, `${keys.prefix}dayd:${day}`], args)) === 1) break;
      if (tries >= RECOUNT_TRIES) throw new Error(`ledger upgrade: the orders of ${day} kept changing while counted`);
    }
  }
  return days.size;
}

/**
 * Brings a Redis written by an older bot up to layout 4, in place, once; resumable after a crash
 * at any point (each order is rewritten by one atomic step that also takes it off the old index).
 */
export async function upgradeRedisLedger(
  ctx: Context,
  opts: { onProgress?: (done: number) => void } = {},
): Promise<UpgradeResult | undefined> {
  const { redis, keys } = ctx;
  const from = Number((await redis.get(keys.version)) ?? 0);
  if (from >= LEDGER_VERSION) return undefined;
  if (from === 0) {
    // No version: a new Redis, or data of layout 1. A new one has nothing to bring up.
    const old = await redis.exists([`${keys.prefix}orders-by-time`, keys.wallets, keys.depositsByTime]);
    if (old === 0) {
      await redis.set(keys.version, String(LEDGER_VERSION));
      return undefined;
    }
  }
  let tallied = { orders: 0, deposits: 0 };
  if (from < 2) {
    tallied = await tallyOldOrders(ctx);
    await redis.set(keys.version, "2");
  }
  let orders = 0;
  if (from < 3) {
    orders = await compactLayout(ctx, opts.onProgress);
    await redis.set(keys.version, "3");
  }
  const hours = await recountHours(ctx);
  await redis.set(keys.version, String(LEDGER_VERSION));
  return { from, to: LEDGER_VERSION, tallied, orders, hours };
}
