import { dayIn, hourIn } from "../calendar.js";
import type { LuaScript, RedisClient } from "../storage/redis.js";
import type { Ledger, OrderLedger } from "../orders/ledger.js";
import { COMPACTION_SCRIPTS, compactRedisLedger } from "./redis-compact.js";
import type { RedisLedgerContext } from "./redis-context.js";
import { createRedisFigures } from "./redis-figures.js";
import { createOrderReader, createRedisLookups } from "./redis-find.js";
import { FIND_SCRIPTS } from "./redis-find-lua.js";
import { ledgerKeys } from "./redis-lua.js";
import { createRedisDrafts, createRedisOutcomes, ORDER_SCRIPTS } from "./redis-orders.js";
import { ATTEMPT_SCRIPTS, createRedisAttempts } from "./redis-attempts.js";
import { createTextDictionary, TEXT_SCRIPTS } from "./redis-texts.js";
import { upgradeRedisLedger } from "./redis-upgrade.js";
import { createRedisWallets, WALLET_SCRIPTS } from "./redis-wallets.js";

/*
 * Layout 4 (every key starts with the prefix; ledger-version says which layout a Redis holds):
 *
 * Orders
 *   o:REF            an order while it is a draft, open, or recent: a hash of short fields
 *                    (order-codec.ts: draftFields, resultFields; sk = submit time in 9 base-36
 *                    digits, dy = its day in the shop's time zone, hr = the hour of that day it was
 *                    sent (00-23), h = what a reseller's order holds, ws = the reseller's saldo
 *                    after its last movement; x… = its attempts at several providers, only
 *                    when not main under its own code: attempt-codec.ts). Finished orders older than
 *                    LEDGER_HOT_DAYS leave it for their element in the time index (compaction).
 *   tl:DAY           list: the lines of that day's orders (DAY as in t:DAY), appended by the outcome's
 *                    and the settlement's steps, the last one of a ref id counting (LUA_LINE in
 *                    redis-line-lua.ts); what a day's CSV reads of a recent order. Deleted when the
 *                    day is compacted; an order without a line is read from its hash
 *   open-draft:CHAT:USER   the ref id of the draft shown in that chat (expires with the draft)
 *   t:DAY, t-days, u:USER, p:N, p-meta, pp:…   the time, user and player indexes (redis-lua.ts),
 *                    written in the claim's step; a compacted order's element holds the order
 *   pcost            hash: product code → the provider price last seen for it (by the outcome's
 *                    step); a claim copies it into the order (lc) for a settlement's cost
 *   uc               hash: user id → how many orders they submitted; orders-count: everyone's
 *   r:N, r-meta      hash buckets: ref id → submit time, for ref ids that do not tell it (redis-lua.ts:
 *                    rfind finds any other compacted order from the time in its ref id)
 *   fh               hash: UTC day → finished orders of that day still in a hash (for compaction)
 *   dict, dict-ids, dict-seq   the texts compacted orders share, by number (redis-texts.ts)
 *   orders-inflight, orders-unknown       sets of ref ids
 *   last-balance     the balance reported by the sale recorded last (JSON), set in that sale's step
 *   low-balance-alerted                   set while the balance is below the alert threshold
 *   provider-empty-alerted                set from the failure that said the shop's deposit with the
 *                                         provider is empty until the next sale
 *                    (these three are main's; another provider's have ":NAME" after them)
 *   last-balance-providers                set of the providers other than main with a last balance
 * Money
 *   wallet:USER      hash: saldo, held, deposits, corrections, spent (whole rupiah)
 *   statement:USER   list of movements, oldest first, appended in the step that moves money
 *                    (statement-codec.ts: movementLine; lines of layout 2 are JSON); its older part
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
 *                    corrections credited, bal/balAt = main's balance last seen that day;
 *                    the orders of the H2H API (chat id 0) apart: a:n = sent, a:s/a:f = success/
 *                    failed, a:sell = selling price of those successes (none on a day without one)
 *   dayd:DAY         hash: the same day by product (p:CODE:n/s/v/m/w = count, selling, cost, name,
 *                    seen at, u = selling at an unknown provider price), by user (u:ID:n/s/v/u/m/w)
 *                    by reseller (r:ID:n/s/v/u/d/m/t/w, d = deposits, t = tier) and by the
 *                    hour orders were sent (h:HH:n/s/v, HH = 00-23: orders sent, whatever their
 *                    outcome; selling and provider price of the successes, an unknown cost as 0)
 *                    and by provider (v:NAME:n/s/v/u: orders whose outcome was recorded at it,
 *                    the money of its successes as a product's)
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

/** Every script of the ledger's daily work, loaded at start (upgrade) so that no order pays for it. */
const SCRIPTS: readonly LuaScript[] = [
  ...ORDER_SCRIPTS,
  ...ATTEMPT_SCRIPTS,
  ...FIND_SCRIPTS,
  ...WALLET_SCRIPTS,
  ...COMPACTION_SCRIPTS,
  ...TEXT_SCRIPTS,
];

/**
 * The ledger on Redis under a key prefix: every state change a Lua script (see the layout above),
 * composed of its parts, which share one context: the order steps (redis-orders.ts), the
 * lookups (redis-find.ts), the day figures (redis-figures.ts), the wallets
 * (redis-wallets.ts), compaction and the layout upgrade. `timeZone` is the shop's: it
 * decides the day and the hour each order counts in.
 */
export function createRedisLedger(redis: RedisClient, prefix: string, timeZone: string): Ledger {
  const keys = ledgerKeys(prefix);
  const ctx: RedisLedgerContext = {
    redis,
    prefix,
    keys,
    texts: createTextDictionary(redis, keys),
    timeZone,
    dayOf: (iso) => dayIn(timeZone, new Date(iso)),
    hourOf: (ms) => String(hourIn(timeZone, ms)).padStart(2, "0"),
  };
  const read = createOrderReader(ctx);
  const orders: OrderLedger = {
    ...createRedisDrafts(ctx, read),
    ...createRedisOutcomes(ctx, read),
    ...createRedisAttempts(ctx, read),
    ...createRedisLookups(ctx, read),
    ...createRedisFigures(ctx),
  };
  return {
    orders,
    wallets: createRedisWallets(ctx),
    async upgrade(opts) {
      // At start: the scripts go into Redis's cache now, a cost of the start, not of the first orders.
      await Promise.all(SCRIPTS.map((script) => script.load(redis)));
      const submittedBetween = (fromMs: number, toMs: number) => orders.submittedBetween(fromMs, toMs);
      return upgradeRedisLedger({ redis, keys, timeZone, submittedBetween }, opts);
    },
    compact: (opts) => compactRedisLedger({ redis, keys, texts: ctx.texts }, opts),
  };
}
