import type { Ledger, OrderLedger } from "../orders/ledger.js";
import { compactElement, orderTexts } from "./packed-order-codec.js";
import { orderLine } from "../orders/order-line.js";
import { storesAttempt } from "./attempt-codec.js";
import {
  costOf,
  currentAttempt,
  MAIN_PROVIDER,
  outcomeKnown,
  paidFromSaldo,
  providerDepositEmpty,
  type BalanceSeen,
  type OrderRecord,
} from "../orders/order.js";
import { memoryMoney, type Money } from "./memory-money.js";
import { memoryStore, type Store } from "./memory-store.js";
import { memoryFigures, type Figures } from "./memory-figures.js";
import { memoryWallets } from "./memory-wallets.js";
import { oweInMemory, type OwedEntry } from "../storage/owed-callbacks.js";
import type { memoryRecentNote } from "../storage/recent-orders.js";

type MemoryRecentNote = ReturnType<typeof memoryRecentNote>;

/** A draft's steps: saved once per ref id, found again by its chat, claimed once or cancelled. */
function memoryDrafts(
  store: Store,
  figures: Figures,
  money: Money,
  owed: Map<string, OwedEntry>,
  recent: MemoryRecentNote | undefined,
): Pick<
  OrderLedger,
  "saveDraft" | "openDraftOf" | "openDraftsIn" | "claim" | "nextAttempt" | "cancel" | "partnerOrder" | "partnerRefOf"
> {
  const { live, copy, draftKey, openDrafts, now } = store;
  const partnerKey = (userId: number, ref: string) => `${userId}:${ref}`;
  return {
    partnerOrder: async (userId, ref) => store.partnerRefs.get(partnerKey(userId, ref)),
    partnerRefOf: async (refId) => store.partnerRefOf.get(refId),

    async saveDraft(order, ttlMs) {
      const kept = live(order.refId);
      if (kept !== undefined) return copy(kept);
      store.wrote();
      const expiresAt = now() + ttlMs;
      store.orders.set(order.refId, { order: copy(order), expiresAt });
      openDrafts.set(draftKey(order.chatId, order.userId), { refId: order.refId, expiresAt });
      return copy(order);
    },

    async openDraftOf(chatId, userId) {
      const e = openDrafts.get(draftKey(chatId, userId));
      return e === undefined || e.expiresAt <= now() ? undefined : e.refId;
    },

    async openDraftsIn(chatId) {
      const t = now();
      return [...openDrafts]
        .filter(([key, e]) => key.startsWith(`${chatId}:`) && e.expiresAt > t)
        .map(([key, e]) => ({ userId: Number(key.slice(`${chatId}:`.length)), refId: e.refId }));
    },

    async claim(refId, by) {
      let fresh = false;
      if (by.draft !== undefined && live(refId) === undefined) {
        // Nobody looked at it before this claim (the H2H API): written now, gone again if refused.
        const made =
          by.partnerRef === undefined ? undefined : store.partnerRefs.get(partnerKey(by.userId, by.partnerRef));
        if (made !== undefined) return { kind: "used", refId: made };
        store.wrote();
        store.orders.set(refId, { order: copy({ ...by.draft, refId, state: "draft" }), expiresAt: undefined });
        fresh = true;
      }
      const refused = <T>(answer: T): T => {
        if (fresh) store.orders.delete(refId);
        return answer;
      };
      const o = live(refId);
      if (o === undefined) return { kind: "not-found" };
      if (o.userId !== by.userId) return { kind: "not-yours" };
      if (o.state !== "draft") return { kind: "taken", order: copy(o) };
      const partner = by.partnerRef === undefined ? undefined : partnerKey(o.userId, by.partnerRef);
      const made = partner === undefined ? undefined : store.partnerRefs.get(partner);
      if (made !== undefined) return { kind: "used", refId: made };
      if (by.offered !== undefined && !by.offered.has(o.productCode.toUpperCase()))
        return refused({ kind: "not-offered", order: copy(o) });
      if (paidFromSaldo(o)) {
        const saldo = money.wallet(o.userId).saldo;
        if (saldo < o.price!) return refused({ kind: "short", saldo });
        money.hold(o, by.at);
      }
      o.state = "submitting";
      o.submittedAt = by.at;
      const seenCost = store.lastCosts.get(o.productCode);
      if (seenCost !== undefined) o.lastProviderPrice = seenCost;
      if (by.summaryMessageId !== undefined) o.summaryMessageId = by.summaryMessageId;
      if (by.attempt !== undefined && storesAttempt(o.productCode, by.attempt))
        o.attempt = { provider: by.attempt.provider, code: by.attempt.code, refId, at: by.at };
      store.orders.get(refId)!.expiresAt = undefined;
      store.inflight.add(refId);
      store.byTime.set(refId, Date.parse(by.at));
      figures.submitted(refId, by.at);
      figures.tally(o, undefined, "submitting");
      if (partner !== undefined) {
        store.partnerRefs.set(partner, refId);
        store.partnerRefOf.set(refId, by.partnerRef!);
      }
      if (by.oweAtMs !== undefined) oweInMemory(owed, refId, by.oweAtMs);
      if (by.recentMs !== undefined)
        recent?.(
          {
            refId,
            at: by.at,
            userId: o.userId,
            userName: o.userName,
            productCode: o.productCode,
            playerId: o.playerId,
          },
          by.recentMs,
        );
      return { kind: "claimed", order: copy(o) };
    },

    async nextAttempt(order, step) {
      const o = live(order.refId);
      if (o === undefined) return { kind: "not-found" };
      if (o.userId !== order.userId) throw new Error("nextAttempt: the order belongs to another user");
      const current = currentAttempt(o);
      if (o.state !== "submitting" || current.refId !== step.from) return { kind: "stale", order: copy(o) };
      const { reason, errorCode, errorMsg } = step.refusal;
      o.refused = [
        ...(o.refused ?? []),
        {
          ...copy(current),
          reason,
          ...(errorCode === undefined ? {} : { errorCode }),
          ...(errorMsg === undefined ? {} : { errorMsg }),
        },
      ];
      o.attempt = copy(step.next);
      return { kind: "next", order: copy(o) };
    },

    async cancel(refId, by) {
      const o = live(refId);
      if (o === undefined) return { kind: "not-found" };
      if (o.userId !== by.userId) return { kind: "not-yours" };
      if (o.state === "draft") {
        o.state = "cancelled";
        o.finishedAt = by.at;
        const key = draftKey(by.chatId, by.userId);
        if (openDrafts.get(key)?.refId === refId) openDrafts.delete(key);
      }
      return o.state === "cancelled" ? { kind: "cancelled", order: copy(o) } : { kind: "taken", order: copy(o) };
    },
  };
}

/** An order's end: the provider's outcome, an admin's settlement, the user told; what the sales saw last. */
function memoryOutcomes(
  store: Store,
  figures: Figures,
  money: Money,
  owed: Map<string, OwedEntry>,
): Pick<OrderLedger, "finish" | "settle" | "markNotified" | "lastBalance" | "balances" | "lastProviderPrices"> {
  const { live, copy } = store;
  /** Each provider's balance reported with its sale recorded last. */
  const balances = new Map<string, BalanceSeen>();
  /** The providers whose low-balance alert, and whose deposit-empty alert, went out since. */
  const lowBalanceAlerted = new Set<string>();
  const providerEmptyAlerted = new Set<string>();
  return {
    async finish(order, outcome, opts = {}) {
      const o = live(order.refId);
      if (o === undefined) return { kind: "not-found" };
      if (o.userId !== order.userId) throw new Error("finish: the order belongs to another user");
      const late = o.state === "unknown" && opts.acceptLate === true && o.settledBy === undefined;
      if (o.state !== "submitting" && !late) return { kind: "stale", order: copy(o) };
      const from = o.state;
      o.state = outcome.state;
      o.result = copy(outcome.result);
      o.finishedAt = outcome.at;
      if (outcome.state !== "unknown") delete o.lastProviderPrice;
      const cost = outcome.state === "success" ? costOf(outcome.result) : undefined;
      if (cost !== undefined) store.lastCosts.set(o.productCode, cost);
      figures.tally(o, from, outcome.state);
      // A late answer replaces the unknown the user was told: they are to be told again.
      if (late) delete o.notifiedAt;
      if (opts.answered === true && outcome.state !== "unknown") {
        o.notifiedAt = outcome.at;
        owed.delete(order.refId);
      }
      store.inflight.delete(order.refId);
      if (outcome.state === "unknown") store.unknown.add(order.refId);
      else store.unknown.delete(order.refId);
      money.settleHold(o, outcome.state, outcome.at);
      const provider = opts.provider ?? MAIN_PROVIDER;
      let lowBalance = false;
      if (opts.balance !== undefined) {
        // The day's balance is main's.
        if (provider === MAIN_PROVIDER) figures.balanceSeen(opts.balance.balance, outcome.at);
        balances.set(provider, { ...opts.balance });
        if (opts.lowBalanceThreshold !== undefined) {
          if (opts.balance.balance < opts.lowBalanceThreshold) {
            lowBalance = !lowBalanceAlerted.has(provider);
            lowBalanceAlerted.add(provider);
          } else {
            lowBalanceAlerted.delete(provider);
          }
        }
      }
      let providerEmpty = false;
      const empty = outcome.state === "failed" && (opts.providerEmpty ?? providerDepositEmpty(outcome.result));
      if (outcome.state === "success") providerEmptyAlerted.delete(provider);
      else if (empty && !providerEmptyAlerted.has(provider)) {
        providerEmptyAlerted.add(provider);
        providerEmpty = true;
      }
      return { kind: "finished", order: copy(o), lowBalance, providerEmpty };
    },

    async settle(order, outcome) {
      const o = live(order.refId);
      if (o === undefined) return { kind: "not-found" };
      if (o.userId !== order.userId) throw new Error("settle: the order belongs to another user");
      if (o.state !== "unknown") return { kind: "not-pending", order: copy(o) };
      o.state = outcome.state;
      o.result = copy(outcome.result);
      o.settledAt = outcome.at;
      o.settledBy = outcome.adminId;
      delete o.notifiedAt;
      delete o.lastProviderPrice;
      store.unknown.delete(order.refId);
      money.settleHold(o, outcome.state, outcome.at);
      figures.tally(o, "unknown", outcome.state);
      return { kind: "settled", order: copy(o) };
    },

    async markNotified(refId, at) {
      const o = live(refId);
      if (o !== undefined) o.notifiedAt = at;
    },

    async lastBalance() {
      const latest = balances.get(MAIN_PROVIDER);
      return latest === undefined ? undefined : { ...latest };
    },

    async balances() {
      const names = [...balances.keys()].sort((a, b) =>
        a === MAIN_PROVIDER ? -1 : b === MAIN_PROVIDER ? 1 : a < b ? -1 : a > b ? 1 : 0,
      );
      return new Map(names.map((name) => [name, { ...balances.get(name)! }]));
    },

    lastProviderPrices: async () => new Map(store.lastCosts),
  };
}

/** Orders by ref id, pages of them newest first, the open and the unknown ones. */
function memoryLookups(
  store: Store,
): Pick<
  OrderLedger,
  "get" | "getMany" | "findOrders" | "history" | "submittedBetween" | "eachSubmittedLine" | "inFlight" | "pending"
> {
  const { live, copy, byTime } = store;
  const getMany = (refIds: readonly string[]) =>
    refIds
      .map(live)
      .filter((o): o is OrderRecord => o !== undefined)
      .map(copy);
  const submitted = (filter: (o: OrderRecord) => boolean) =>
    [...byTime]
      .sort(([a, ta], [b, tb]) => ta - tb || (a < b ? -1 : 1))
      .map(([refId]) => live(refId))
      .filter((o): o is OrderRecord => o !== undefined && filter(o));
  /** Orders submitted in [fromMs, toMs], oldest first (the stored records: copy what leaves). */
  const between = (fromMs: number, toMs: number) =>
    submitted((o) => {
      const t = byTime.get(o.refId)!;
      return t >= fromMs && t <= toMs;
    });
  return {
    async get(refId) {
      const o = live(refId);
      return o === undefined ? undefined : copy(o);
    },

    getMany: async (refIds) => getMany(refIds),

    async findOrders(q) {
      const all = submitted((o) => {
        const t = byTime.get(o.refId)!;
        return (
          (q.fromMs === undefined || t >= q.fromMs) &&
          (q.toMs === undefined || t <= q.toMs) &&
          (q.userId === undefined || o.userId === q.userId) &&
          (q.playerId === undefined || o.playerId === q.playerId) &&
          (q.playerPrefix === undefined || o.playerId.startsWith(q.playerPrefix)) &&
          (q.state === undefined || o.state === q.state)
        );
      }).reverse();
      const start = q.page * q.pageSize;
      return { orders: all.slice(start, start + q.pageSize).map(copy), hasMore: all.length > start + q.pageSize };
    },

    async history(scope, page, pageSize) {
      const all = submitted((o) => scope === "all" || o.userId === scope).reverse();
      return { orders: all.slice(page * pageSize, page * pageSize + pageSize).map(copy), total: all.length };
    },

    async submittedBetween(fromMs, toMs) {
      return between(fromMs, toMs).map(copy);
    },

    async eachSubmittedLine(fromMs, toMs, each) {
      for (const o of between(fromMs, toMs)) each(orderLine(o));
    },

    async inFlight() {
      return getMany([...store.inflight]).filter((o) => o.state === "submitting");
    },

    async pending() {
      return getMany([...store.unknown])
        .filter((o) => o.state === "unknown")
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },
  };
}

/**
 * The same orders as the Redis ledger compacts, packed the same way (so both are held to the same
 * answers); statements stay as they are in memory.
 */
function memoryCompaction(store: Store): Ledger["compact"] {
  const idOf = (text: string) => {
    let id = store.textIds.get(text);
    if (id === undefined) {
      id = (store.textIds.size + 1).toString(36);
      store.textIds.set(text, id);
      store.textOf.set(id, text);
    }
    return id;
  };
  return async (opts) => {
    const untoldBefore = new Date(opts.now.getTime() - 24 * 60 * 60 * 1000).toISOString();
    let count = 0;
    for (const [refId, submittedMs] of store.byTime) {
      if (opts.shouldStop?.() === true) break;
      const entry = store.orders.get(refId);
      if (entry === undefined || submittedMs >= opts.before.getTime()) continue;
      const o = entry.order;
      if (!outcomeKnown(o.state)) continue;
      const finished = o.settledAt ?? o.finishedAt;
      if (o.notifiedAt === undefined && !(finished !== undefined && finished < untoldBefore)) continue;
      const texts = orderTexts(o);
      const ids = {
        who: idOf(texts.who),
        what: idOf(texts.what),
        ...(texts.detail === undefined ? {} : { detail: idOf(texts.detail) }),
        ...(texts.message === undefined ? {} : { message: idOf(texts.message) }),
      };
      store.compacted.set(refId, compactElement(o, ids, texts));
      store.orders.delete(refId);
      count += 1;
    }
    return { orders: count, movements: 0 };
  };
}

/**
 * The ledger in process memory (no REDIS_URL: lost at restart, for trying the bot out). Every
 * method does its whole change synchronously, between two awaits, so it is as atomic in one
 * process as a Lua script is in Redis. Records are copied in and out: a caller never holds the
 * stored object. Composed like the Redis ledger: order steps, lookups, day figures, wallets,
 * compaction, over one store. `timeZone` decides the day and the hour an order counts in.
 */
export function createMemoryLedger(
  opts: {
    now?: () => number;
    timeZone?: string;
    /** The callbacks owed to H2H partners (storage/owed-callbacks.ts): noted by a claim, dropped by an answer. */
    owed?: Map<string, OwedEntry>;
    /** Where a claim notes its order as the latest of its product and player id (storage/recent-orders.ts). */
    recent?: MemoryRecentNote;
  } = {},
): Ledger {
  const store = memoryStore(opts);
  const figures = memoryFigures(store);
  const money = memoryMoney();
  const owed = opts.owed ?? new Map<string, OwedEntry>();
  return {
    orders: {
      ...memoryDrafts(store, figures, money, owed, opts.recent),
      ...memoryOutcomes(store, figures, money, owed),
      ...memoryLookups(store),
      ...figures.read,
    },
    wallets: memoryWallets(store, figures, money),
    // Nothing older to bring up to date: memory starts empty at every start.
    upgrade: async () => undefined,
    compact: memoryCompaction(store),
  };
}
