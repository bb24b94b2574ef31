import { luaScript, type LuaScript } from "../storage/redis.js";
import type { RedisLedgerContext } from "./redis-context.js";
import { STATEMENT_CHUNK } from "./redis-compact.js";
import { LUA_HGETALL, LUA_MOVEMENT, pairs } from "./redis-lua.js";
import { movementFromLine, packMovementTime, unpackMovements } from "./statement-codec.js";
import type { Deposit, DepositConfirmResult, Wallet, Wallets } from "../orders/wallet.js";

/*
 * The resellers' money in the Redis ledger: wallets, their statements (the newest lines, and the
 * older ones packed by compaction), and deposits, credited once by a Lua script that moves the
 * saldo, the statement and the day's figures together. The holds of orders move in the order
 * steps (redis-orders.ts).
 */

const SAVE_DEPOSIT = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
redis.call('HSET', KEYS[1], 'd', ARGV[1], 's', 'draft', 'w', ARGV[2], 'a', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 0
`);

// Credits a deposit once; a correction that would take the saldo below 0 changes nothing.
// KEYS: deposit, wallet, statement, wallets, deposits-by-time, untold, wallet totals
// ARGV: admin, at, score, id, reseller, day credited, key prefix, at packed
const CONFIRM_DEPOSIT = luaScript(`${LUA_MOVEMENT}
local f = redis.call('HMGET', KEYS[1], 's', 'w', 'a')
if not f[1] then return {'not-found'} end
if f[2] ~= ARGV[5] then return redis.error_reply('deposit: another reseller') end
if f[1] ~= 'draft' then return {'taken', ${LUA_HGETALL}} end
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
return {'done', ${LUA_HGETALL}}
`);

const CANCEL_DEPOSIT = luaScript(`
local s = redis.call('HGET', KEYS[1], 's')
if not s then return {'not-found'} end
if s == 'draft' then redis.call('HSET', KEYS[1], 's', 'cancelled', 'da', ARGV[1]) end
if s == 'draft' or s == 'cancelled' then return {'cancelled', ${LUA_HGETALL}} end
return {'taken', ${LUA_HGETALL}}
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

/** The wallet scripts (loaded at start with the ledger's). */
export const WALLET_SCRIPTS: readonly LuaScript[] = [SAVE_DEPOSIT, CONFIRM_DEPOSIT, CANCEL_DEPOSIT, STATEMENT_PAGE];

/** The wallets of a Redis ledger: saldo, holds, deposits and statements. */
export function createRedisWallets(ctx: RedisLedgerContext): Wallets {
  const { redis, prefix, keys, dayOf } = ctx;
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
  return wallets;
}
