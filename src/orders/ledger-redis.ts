import { luaScript, type RedisClient } from "../storage/redis.js";
import type { CancelResult, ClaimResult, FinishResult, OrderLedger, SettleResult } from "./ledger.js";
import type { BalanceSeen, DraftFields, OrderRecord, OrderState } from "./order.js";

/*
 * Layout (every key starts with the prefix):
 *   o:REF            hash: d = the draft's JSON (never changes), u = user id, s = state,
 *                    sa/fa/na = submitted/finished/notified at, m = summary message id,
 *                    r = result JSON, sb/st = settled by/at
 *   open-draft:CHAT:USER   the ref id of the draft shown in that chat (expires with the draft)
 *   orders-by-time, orders-by-user:USER   sorted sets of submitted ref ids, scored by submit time
 *   orders-inflight, orders-unknown       sets of ref ids
 *   balances                              the balances seen, newest first: pushed in the same
 *                                         step that records the sale, so the last one recorded wins
 *   low-balance-alerted                   set while the balance is below the alert threshold
 *
 * State changes are Lua scripts: each checks the state it starts from and writes the record and
 * its indexes in one atomic step, so a crash can never leave one without the other.
 */

const HGETALL = "redis.call('HGETALL', KEYS[1])";

const SAVE_DRAFT = luaScript(`
redis.call('HSET', KEYS[1], 'd', ARGV[1], 'u', ARGV[2], 's', 'draft')
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[3])
return 0
`);

// One HMGET reads what the step needs; the claimed order is built from the draft it returns.
const CLAIM = luaScript(`
local f = redis.call('HMGET', KEYS[1], 's', 'u', 'd')
if not f[1] then return {'not-found'} end
if f[2] ~= ARGV[1] then return {'not-yours'} end
if f[1] ~= 'draft' then return {'taken', ${HGETALL}} end
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[1], 's', 'submitting', 'sa', ARGV[2], 'm', ARGV[5])
else
  redis.call('HSET', KEYS[1], 's', 'submitting', 'sa', ARGV[2])
end
redis.call('PERSIST', KEYS[1])
redis.call('SADD', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[4])
return {'claimed', f[3]}
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

// A late answer (the order was marked unknown by recovery, nobody settled it) replaces that
// unknown; the user is then told again. The balance log keeps its newest 100 (trimmed now and then).
const FINISH = luaScript(`
local f = redis.call('HMGET', KEYS[1], 's', 'sb', 'd', 'sa', 'm')
if not f[1] then return {'not-found'} end
local late = f[1] == 'unknown' and ARGV[8] == '1' and not f[2]
if f[1] ~= 'submitting' and not late then return {'stale', 0, ${HGETALL}} end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'r', ARGV[2], 'fa', ARGV[3])
if late then redis.call('HDEL', KEYS[1], 'na') else redis.call('SREM', KEYS[2], ARGV[4]) end
if ARGV[1] == 'unknown' then
  redis.call('SADD', KEYS[3], ARGV[4])
elseif late then
  redis.call('SREM', KEYS[3], ARGV[4])
end
local low = 0
if ARGV[5] ~= '' then
  if redis.call('LPUSH', KEYS[4], ARGV[5]) > 150 then redis.call('LTRIM', KEYS[4], 0, 99) end
  if ARGV[7] ~= '' then
    if tonumber(ARGV[6]) < tonumber(ARGV[7]) then
      if redis.call('SET', KEYS[5], ARGV[6], 'NX') then low = 1 end
    else
      redis.call('DEL', KEYS[5])
    end
  end
end
return {'finished', low, f[3], f[4] or '', f[5] or ''}
`);

const SETTLE = luaScript(`
local s = redis.call('HGET', KEYS[1], 's')
if not s then return {'not-found'} end
if s ~= 'unknown' then return {'not-pending', ${HGETALL}} end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'r', ARGV[2], 'st', ARGV[3], 'sb', ARGV[4])
redis.call('HDEL', KEYS[1], 'na')
redis.call('SREM', KEYS[2], ARGV[5])
return {'settled', ${HGETALL}}
`);

/** A hash as HGETALL gives it (an object, or a flat list from a script) → the order, if it exists. */
function toOrder(hash: Record<string, string> | string[]): OrderRecord | undefined {
  const h: Record<string, string> = Array.isArray(hash) ? {} : hash;
  if (Array.isArray(hash)) for (let i = 0; i + 1 < hash.length; i += 2) h[hash[i]!] = hash[i + 1]!;
  if (h.d === undefined || h.s === undefined) return undefined;
  const order: OrderRecord = { ...(JSON.parse(h.d) as DraftFields), state: h.s as OrderState };
  if (h.sa !== undefined) order.submittedAt = h.sa;
  if (h.fa !== undefined) order.finishedAt = h.fa;
  if (h.na !== undefined) order.notifiedAt = h.na;
  if (h.m !== undefined) order.summaryMessageId = Number(h.m);
  if (h.sb !== undefined) order.settledBy = Number(h.sb);
  if (h.st !== undefined) order.settledAt = h.st;
  if (h.r !== undefined) order.result = JSON.parse(h.r) as OrderRecord["result"];
  return order;
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
  return JSON.stringify(draft);
}

export function createRedisLedger(redis: RedisClient, prefix: string): OrderLedger {
  const orderKey = (refId: string) => `${prefix}o:${refId}`;
  const openDraftKey = (chatId: number, userId: number) => `${prefix}open-draft:${chatId}:${userId}`;
  const byTimeKey = `${prefix}orders-by-time`;
  const byUserKey = (userId: number) => `${prefix}orders-by-user:${userId}`;
  const inflightKey = `${prefix}orders-inflight`;
  const unknownKey = `${prefix}orders-unknown`;
  const balanceKey = `${prefix}balances`;
  const lowBalanceKey = `${prefix}low-balance-alerted`;

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

  return {
    async saveDraft(order, ttlMs) {
      await SAVE_DRAFT(
        redis,
        [orderKey(order.refId), openDraftKey(order.chatId, order.userId)],
        [draftJson(order), order.userId, ttlMs, order.refId],
      );
    },

    async get(refId) {
      return toOrder(await redis.hGetAll(orderKey(refId)));
    },

    getMany,

    async openDraftOf(chatId, userId) {
      return (await redis.get(openDraftKey(chatId, userId))) ?? undefined;
    },

    async claim(refId, by): Promise<ClaimResult> {
      const r = reply(
        await CLAIM(
          redis,
          [orderKey(refId), inflightKey, byTimeKey, byUserKey(by.userId)],
          [by.userId, by.at, Date.parse(by.at), refId, by.summaryMessageId ?? ""],
        ),
      );
      if (r.kind === "claimed") {
        const draft = JSON.parse(r.list[1] as string) as DraftFields;
        const order: OrderRecord = { ...draft, state: "submitting", submittedAt: by.at };
        if (by.summaryMessageId !== undefined) order.summaryMessageId = by.summaryMessageId;
        return { kind: "claimed", order };
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

    async finish(refId, outcome, opts = {}): Promise<FinishResult> {
      const balance = opts.balance;
      const r = reply(
        await FINISH(
          redis,
          [orderKey(refId), inflightKey, unknownKey, balanceKey, lowBalanceKey],
          [
            outcome.state,
            JSON.stringify(outcome.result),
            outcome.at,
            refId,
            balance === undefined ? "" : JSON.stringify(balance),
            balance === undefined ? "" : balance.balance,
            opts.lowBalanceThreshold ?? "",
            opts.acceptLate === true ? "1" : "0",
          ],
        ),
      );
      if (r.kind === "finished") {
        const [, , draft, submittedAt, messageId] = r.list as [string, number, string, string, string];
        const order: OrderRecord = { ...(JSON.parse(draft) as DraftFields), state: outcome.state };
        if (submittedAt !== "") order.submittedAt = submittedAt;
        if (messageId !== "") order.summaryMessageId = Number(messageId);
        order.finishedAt = outcome.at;
        order.result = outcome.result;
        return { kind: "finished", order, lowBalance: r.flag };
      }
      return r.order === undefined ? { kind: "not-found" } : { kind: "stale", order: r.order };
    },

    async settle(refId, outcome): Promise<SettleResult> {
      const r = reply(
        await SETTLE(
          redis,
          [orderKey(refId), unknownKey],
          [outcome.state, JSON.stringify(outcome.result), outcome.at, outcome.adminId, refId],
        ),
      );
      if (r.order === undefined) return { kind: "not-found" };
      return { kind: r.kind === "settled" ? "settled" : "not-pending", order: r.order };
    },

    async markNotified(refId, at) {
      // A plain HSET: it is only ever called for an order that was claimed, and those are kept.
      await redis.hSet(orderKey(refId), "na", at);
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
      const orders = await getMany(await redis.sMembers(unknownKey));
      return orders.filter((o) => o.state === "unknown").sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async lastBalance() {
      const latest = await redis.lIndex(balanceKey, 0);
      return latest === null ? undefined : (JSON.parse(latest) as BalanceSeen);
    },
  };
}
