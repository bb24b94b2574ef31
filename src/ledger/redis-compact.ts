import { luaScript, type RedisClient } from "../storage/redis.js";
import type { CompactOptions, CompactResult } from "../orders/ledger.js";
import { LUA_BASICS, LUA_LINEAR_HASH, LUA_TIME_INDEX, type LedgerKeys } from "./redis-lua.js";
import type { TextDictionary } from "./redis-texts.js";
import { msKey, orderFromHash, utcDay } from "./order-codec.js";
import { compactElement, orderTexts } from "./packed-order-codec.js";
import { movementFromLine, packMovements } from "./statement-codec.js";
import type { OrderRecord } from "../orders/order.js";

/** Movements per packed chunk of a compacted statement (every chunk holds exactly this many). */
export const STATEMENT_CHUNK = 256;
/** The newest movements of a statement always stay in its list: /saldo and a first page (20) read only them. */
const STATEMENT_KEEP = 20;
/** An order nobody has been told about yet is compacted only a day after it finished (see eligible). */
const UNTOLD_GRACE_MS = 24 * 60 * 60 * 1000;
const BATCH = 200;
/** Statement lines read at a time (small answers keep a connection's reply buffer small). */
const READ_LINES = 64;

/**
 * The ref ids of a day's orders that may be compacted: still a hash, submitted before `cutoff`,
 * finished (success or failed: never one that is open or whose result is unknown), and told, or
 * finished before `untoldBefore` (a later tap on its old summary then tells it again).
 * ARGV: key prefix, UTC day, cutoff (9 digits), untold before (ISO), at most
 */
const ELIGIBLE = luaScript(`${LUA_BASICS}${LUA_TIME_INDEX}
local pre = ARGV[1]
local key = pre .. 't:' .. ARGV[2]
local max = tonumber(ARGV[5])
local upto = firstAtOrAfter(key, ARGV[3], redis.call('LLEN', key))
local out = {}
local i = 0
while i < upto and #out < max do
  for _, e in ipairs(redis.call('LRANGE', key, i, math.min(upto, i + 500) - 1)) do
    if #headerOf(e) == #e then
      local ref = string.sub(e, 10)
      local f = redis.call('HMGET', pre .. 'o:' .. ref, 's', 'na', 'fa', 'st')
      if f[1] == 'success' or f[1] == 'failed' then
        local done = f[4] or f[3]
        if f[2] or (done and before(done, ARGV[4])) then out[#out + 1] = ref end
      end
    end
    if #out >= max then break end
  end
  i = i + 500
end
return out
`);

/**
 * Replaces orders' hashes by their packed elements, each order in its own check: still in the
 * state it was read in (and told or not as it was), still only a header in the time index. The
 * element, the ref id's entry and the hash's removal happen together, so an order is in exactly
 * one form at every moment; a crash in between leaves the rest for the next pass.
 * ARGV: key prefix, then for each order: ref, state, told at ('' none), element
 */
const COMMIT = luaScript(`${LUA_BASICS}${LUA_TIME_INDEX}${LUA_LINEAR_HASH}
local pre = ARGV[1]
local done = 0
for i = 2, #ARGV, 4 do
  local ref, state, told, element = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  local key = pre .. 'o:' .. ref
  local f = redis.call('HMGET', key, 's', 'na', 'sk')
  if f[1] == state and (f[2] or '') == told and f[3] then
    local h = f[3] .. ref
    if string.sub(element, 1, #h + 1) == h .. '\\t' then
      local day = dayOfKey(f[3])
      local tkey = pre .. 't:' .. day
      local at, e = tfind(tkey, h)
      if at and e == h then
        redis.call('LSET', tkey, at, element)
        redis.call('DEL', key, pre .. 'tl:' .. day)
        if redis.call('HINCRBY', pre .. 'fh', day, -1) <= 0 then redis.call('HDEL', pre .. 'fh', day) end
        done = done + 1
      end
    end
  end
end
return done
`);

/**
 * Writes a day's list again, element by element: replacing short elements by long ones in place
 * leaves Redis's list nodes half full, a fresh list packs them. KEYS: the day's list
 */
const REPACK = luaScript(`
local all = redis.call('LRANGE', KEYS[1], 0, -1)
if #all == 0 then return 0 end
redis.call('DEL', KEYS[1])
for i = 1, #all, 1000 do redis.call('RPUSH', KEYS[1], unpack(all, i, math.min(#all, i + 999))) end
return #all
`);

/**
 * Moves the oldest `n` lines of a statement (whole chunks of STATEMENT_CHUNK) into its packed
 * chunks, each chunk written once. Only when the statement and the chunks are still what was read
 * (another compaction would have changed them): all or nothing.
 * KEYS: statement, chunks, counts; ARGV: user, n, first line, n-th line, chunks, compacted count, chunk…
 */
const COMMIT_STATEMENT = luaScript(`
local n = tonumber(ARGV[2])
if redis.call('LLEN', KEYS[1]) < n then return 0 end
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[3] or redis.call('LINDEX', KEYS[1], n - 1) ~= ARGV[4] then return 0 end
if redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[5]) then return 0 end
if tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '0') ~= tonumber(ARGV[6]) then return 0 end
redis.call('LTRIM', KEYS[1], n, -1)
for i = 7, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('HINCRBY', KEYS[3], ARGV[1], n)
return 1
`);

/** The compaction's scripts (loaded at start with the ledger's). */
export const COMPACTION_SCRIPTS = [ELIGIBLE, COMMIT, REPACK, COMMIT_STATEMENT];

interface Context {
  redis: RedisClient;
  keys: LedgerKeys;
  texts: TextDictionary;
}

/** Compacts the finished orders of one UTC day that are due; how many. */
async function compactDay(ctx: Context, day: number, opts: CompactOptions): Promise<number> {
  const { redis, keys, texts } = ctx;
  const cutoff = msKey(opts.before.getTime());
  const untoldBefore = new Date(opts.now.getTime() - UNTOLD_GRACE_MS).toISOString();
  let total = 0;
  for (;;) {
    if (opts.shouldStop?.() === true) return total;
    const refs = (await ELIGIBLE(redis, [], [keys.prefix, day, cutoff, untoldBefore, BATCH])) as string[];
    if (refs.length === 0) return total;
    const hashes = await Promise.all(refs.map((ref) => redis.hGetAll(keys.order(ref))));
    const found: OrderRecord[] = [];
    refs.forEach((ref, i) => {
      const order = orderFromHash(ref, hashes[i]!);
      if (order?.submittedAt !== undefined) found.push(order);
    });
    const allTexts = found.map(orderTexts);
    const flat = allTexts.flatMap((t) => [t.who, t.what, t.detail ?? t.who, t.message ?? t.who]);
    const ids = await texts.intern(flat);
    const args: string[] = [keys.prefix];
    found.forEach((order, i) => {
      const t = allTexts[i]!;
      const [who, what, detail, message] = ids.slice(i * 4, i * 4 + 4) as [string, string, string, string];
      const element = compactElement(
        order,
        {
          who,
          what,
          ...(t.detail === undefined ? {} : { detail }),
          ...(t.message === undefined ? {} : { message }),
        },
        t,
      );
      args.push(order.refId, order.state, order.notifiedAt ?? "", element);
    });
    const done = Number(await COMMIT(redis, [], args));
    total += done;
    // Nothing moved although some were due (each changed meanwhile): the next pass takes them.
    if (done === 0) return total;
  }
}

/**
 * Moves a statement's movements older than `before` into packed chunks, whole chunks only (the
 * newest 20, and what does not fill a chunk, stay in the list): each chunk is written once.
 */
async function compactStatement(ctx: Context, userId: number, before: string): Promise<number> {
  const { redis, keys } = ctx;
  let moved = 0;
  // A chunk at a time: small requests and answers (a connection's buffers grow to its largest).
  for (;;) {
    const hot = await redis.lLen(keys.statement(userId));
    if (hot - STATEMENT_KEEP < STATEMENT_CHUNK) return moved;
    const lines: string[] = [];
    for (let at = 0; at < STATEMENT_CHUNK; at += READ_LINES)
      lines.push(...(await redis.lRange(keys.statement(userId), at, at + READ_LINES - 1)));
    const movements = lines.map(movementFromLine);
    if (lines.length < STATEMENT_CHUNK || !(movements.at(-1)!.at < before)) return moved;
    const [countRaw, chunks] = await Promise.all([
      redis.hGet(keys.coldStatementCounts, String(userId)),
      redis.lLen(keys.coldStatement(userId)),
    ]);
    const ok = Number(
      await COMMIT_STATEMENT(
        redis,
        [keys.statement(userId), keys.coldStatement(userId), keys.coldStatementCounts],
        [userId, STATEMENT_CHUNK, lines[0]!, lines.at(-1)!, chunks, Number(countRaw ?? 0), packMovements(movements)],
      ),
    );
    if (ok !== 1) return moved;
    moved += STATEMENT_CHUNK;
  }
}

/**
 * One compaction pass of the Redis ledger: every finished order submitted before `opts.before`
 * leaves its hash for a packed element in its day's list, and every statement's movements before
 * it leave the list for packed chunks, 256 at a time (the newest 20 always stay). Safe to interrupt at any point and to run
 * beside the bot's own steps; two passes at once would not double anything either (each move
 * checks what it moves), but the caller runs one at a time (compaction.ts).
 */
export async function compactRedisLedger(ctx: Context, opts: CompactOptions): Promise<CompactResult> {
  const { redis, keys } = ctx;
  const lastDay = utcDay(opts.before.getTime());
  const due = Object.entries(await redis.hGetAll(keys.finishedHot))
    .filter(([day, n]) => Number(day) <= lastDay && Number(n) > 0)
    .map(([day]) => Number(day))
    .sort((a, b) => a - b);
  let orders = 0;
  for (const day of due) {
    if (opts.shouldStop?.() === true) break;
    const done = await compactDay(ctx, day, opts);
    if (done > 0) await REPACK(redis, [keys.day(day)], []);
    orders += done;
  }
  let movements = 0;
  const before = opts.before.toISOString();
  for (const id of await redis.sMembers(keys.wallets)) {
    if (opts.shouldStop?.() === true) break;
    movements += await compactStatement(ctx, Number(id), before);
  }
  return { orders, movements };
}
