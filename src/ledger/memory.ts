import { dayIn, hourIn } from "../calendar.js";
import type { Ledger, OrderLedger } from "../orders/ledger.js";
import { compactElement, orderTexts, unpackOrder } from "./packed-order-codec.js";
import { orderLine } from "../orders/order-line.js";
import {
  costOf,
  outcomeKnown,
  paidFromSaldo,
  providerDepositEmpty,
  viaApi,
  type BalanceSeen,
  type OrderRecord,
  type OrderState,
} from "../orders/order.js";
import { memoryMoney, type Money } from "./memory-money.js";
import { figuresOf } from "../orders/day-figures.js";
import { emptyWallet, type Deposit, type Wallets } from "../orders/wallet.js";

/** The one-letter state codes of the day figures (as STATE_CODE in redis-lua.ts). */
const STATE_CODE: Partial<Record<OrderState, string>> = { submitting: "p", success: "s", failed: "f", unknown: "u" };

/** What the memory ledger holds, shared by its parts: the records, their indexes, and how to read them. */
type Store = ReturnType<typeof memoryStore>;

/** The memory ledger's records and indexes, read through `live` (a draft past its time is gone). */
function memoryStore(opts: { now?: () => number; timeZone?: string }) {
  const now = opts.now ?? Date.now;
  /** The shop's time zone decides the day and the hour an order counts in (UTC unless given). */
  const timeZone = opts.timeZone ?? "UTC";
  const orders = new Map<string, { order: OrderRecord; expiresAt: number | undefined }>();
  const openDrafts = new Map<string, { refId: string; expiresAt: number }>();
  const deposits = new Map<string, { deposit: Deposit; expiresAt: number | undefined }>();
  /** Compacted orders: their packed element (packed-order-codec.ts), and the texts they share by number. */
  const compacted = new Map<string, string>();
  const textOf = new Map<string, string>();
  let writes = 0;
  const store = {
    now,
    dayOf: (iso: string) => dayIn(timeZone, new Date(iso)),
    /** The head of an hour's fields in the day figures (`h:HH:`). */
    hourOf: (iso: string) => `h:${String(hourIn(timeZone, Date.parse(iso))).padStart(2, "0")}:`,
    orders,
    openDrafts,
    /** Submitted orders: ref id → submit time (ms). */
    byTime: new Map<string, number>(),
    inflight: new Set<string>(),
    unknown: new Set<string>(),
    /** The provider price last seen for each product (code as the catalogue writes it). */
    lastCosts: new Map<string, number>(),
    deposits,
    /** Credited deposits: id → the time credited (ms). */
    depositTimes: new Map<string, number>(),
    untold: new Set<string>(),
    /** A partner's ref id (`userId:ref`) → the order it made; and back. */
    partnerRefs: new Map<string, string>(),
    partnerRefOf: new Map<string, string>(),
    compacted,
    textIds: new Map<string, string>(),
    textOf,
    copy: <T>(o: T): T => structuredClone(o),
    draftKey: (chatId: number, userId: number) => `${chatId}:${userId}`,
    live: (refId: string): OrderRecord | undefined => {
      const entry = orders.get(refId);
      if (entry === undefined) {
        const element = compacted.get(refId);
        return element === undefined ? undefined : unpackOrder(element, (id) => textOf.get(id)!);
      }
      if (entry.expiresAt !== undefined && entry.expiresAt <= now()) {
        orders.delete(refId);
        return undefined;
      }
      return entry.order;
    },
    liveDeposit: (id: string): Deposit | undefined => {
      const entry = deposits.get(id);
      if (entry === undefined) return undefined;
      if (entry.expiresAt !== undefined && entry.expiresAt <= now()) {
        deposits.delete(id);
        return undefined;
      }
      return entry.deposit;
    },
    /** Counts a new record; every thousandth sweeps out the expired ones. */
    wrote: () => {
      if (++writes % 1000 !== 0) return;
      // Expired drafts go when new ones come, so an idle bot holds nothing it no longer needs.
      const t = now();
      for (const [refId, e] of orders) if (e.expiresAt !== undefined && e.expiresAt <= t) orders.delete(refId);
      for (const [k, e] of openDrafts) if (e.expiresAt <= t) openDrafts.delete(k);
      for (const [id, e] of deposits) if (e.expiresAt !== undefined && e.expiresAt <= t) deposits.delete(id);
    },
  };
  return store;
}

/** The day figures, field for field as the Redis ledger keeps them (figuresOf reads both maps). */
function memoryFigures(store: Store) {
  const days = new Map<string, Record<string, string>>();
  const dayDetails = new Map<string, Record<string, string>>();
  /** Each claimed order's submit day. */
  const submitDay = new Map<string, string>();
  const hashOf = (map: Map<string, Record<string, string>>, day: string) => {
    let h = map.get(day);
    if (h === undefined) map.set(day, (h = {}));
    return h;
  };
  const incr = (h: Record<string, string>, field: string, by: number) => {
    h[field] = String(Number(h[field] ?? 0) + by);
  };
  const read: Pick<OrderLedger, "dayFigures" | "daysFigures" | "daysDetail"> = {
    dayFigures: async (day) => figuresOf(days.get(day) ?? {}, dayDetails.get(day) ?? {}),
    daysFigures: async (list) => list.map((day) => figuresOf(days.get(day) ?? {}, {})),
    daysDetail: async (list) => list.map((day) => figuresOf(days.get(day) ?? {}, dayDetails.get(day) ?? {})),
  };
  return {
    read,
    /** An order counts in the day it was submitted (its claim). */
    submitted(refId: string, at: string) {
      submitDay.set(refId, store.dayOf(at));
    },
    /** Moves an order in its day's figures (see TALLY in redis-lua.ts). */
    tally(o: OrderRecord, from: OrderState | undefined, to: OrderState) {
      const day = submitDay.get(o.refId);
      if (day === undefined) return;
      const t = hashOf(days, day);
      const detail = hashOf(dayDetails, day);
      const when = o.submittedAt ?? "";
      const hour = store.hourOf(when);
      if (from !== undefined) incr(t, `c:${STATE_CODE[from]}`, -1);
      else incr(detail, `${hour}n`, 1);
      incr(t, `c:${STATE_CODE[to]}`, 1);
      // The H2H API's part (a:…): no step moves an order out of success or failed, so it only grows.
      const api = viaApi(o);
      if (api && from === undefined) incr(t, "a:n", 1);
      if (api && to === "failed") incr(t, "a:f", 1);
      if (to !== "success") return;
      const sell = o.price ?? 0;
      const cost = costOf(o.result);
      incr(t, "sell", sell);
      if (api) {
        incr(t, "a:s", 1);
        incr(t, "a:sell", sell);
      }
      if (cost === undefined) {
        incr(t, "sellu", sell);
        incr(t, "nu", 1);
      } else incr(t, "cost", cost);
      // An hour's provider money counts a cost nobody knows as 0 (its selling price still counts).
      incr(detail, `${hour}s`, sell);
      incr(detail, `${hour}v`, cost ?? 0);
      const line = (head: string, name: string, tier?: string) => {
        incr(detail, `${head}n`, 1);
        incr(detail, `${head}s`, sell);
        if (cost === undefined) incr(detail, `${head}u`, sell);
        else incr(detail, `${head}v`, cost);
        if ((detail[`${head}w`] ?? "") <= when) {
          detail[`${head}w`] = when;
          detail[`${head}m`] = name;
          if (tier !== undefined) detail[`${head}t`] = tier;
        }
      };
      line(`p:${o.productCode}:`, o.productName);
      line(`u:${o.userId}:`, o.userName);
      if (paidFromSaldo(o)) line(`r:${o.userId}:`, o.userName, o.tier ?? "");
    },
    /** A deposit (or a correction) in the day it was credited. */
    deposited(resellerId: number, amount: number, at: string) {
      const day = store.dayOf(at);
      incr(hashOf(days, day), "dep", amount);
      incr(hashOf(dayDetails, day), `r:${resellerId}:d`, amount);
    },
    /** The provider balance a sale reported, as the day's last unless a later one was seen. */
    balanceSeen(balance: number, at: string) {
      const day = hashOf(days, store.dayOf(at));
      if ((day.balAt ?? "") <= at) Object.assign(day, { bal: String(balance), balAt: at });
    },
  };
}

type Figures = ReturnType<typeof memoryFigures>;

/** A draft's steps: saved once per ref id, found again by its chat, claimed once or cancelled. */
function memoryDrafts(
  store: Store,
  figures: Figures,
  money: Money,
): Pick<
  OrderLedger,
  "saveDraft" | "openDraftOf" | "openDraftsIn" | "claim" | "cancel" | "partnerOrder" | "partnerRefOf"
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
      const o = live(refId);
      if (o === undefined) return { kind: "not-found" };
      if (o.userId !== by.userId) return { kind: "not-yours" };
      if (o.state !== "draft") return { kind: "taken", order: copy(o) };
      const partner = by.partnerRef === undefined ? undefined : partnerKey(o.userId, by.partnerRef);
      const made = partner === undefined ? undefined : store.partnerRefs.get(partner);
      if (made !== undefined) return { kind: "used", refId: made };
      if (by.offered !== undefined && !by.offered.has(o.productCode.toUpperCase()))
        return { kind: "not-offered", order: copy(o) };
      if (paidFromSaldo(o)) {
        const saldo = money.wallet(o.userId).saldo;
        if (saldo < o.price!) return { kind: "short", saldo };
        money.hold(o, by.at);
      }
      o.state = "submitting";
      o.submittedAt = by.at;
      const seenCost = store.lastCosts.get(o.productCode);
      if (seenCost !== undefined) o.lastProviderPrice = seenCost;
      if (by.summaryMessageId !== undefined) o.summaryMessageId = by.summaryMessageId;
      store.orders.get(refId)!.expiresAt = undefined;
      store.inflight.add(refId);
      store.byTime.set(refId, Date.parse(by.at));
      figures.submitted(refId, by.at);
      figures.tally(o, undefined, "submitting");
      if (partner !== undefined) {
        store.partnerRefs.set(partner, refId);
        store.partnerRefOf.set(refId, by.partnerRef!);
      }
      return { kind: "claimed", order: copy(o) };
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
): Pick<OrderLedger, "finish" | "settle" | "markNotified" | "lastBalance" | "lastProviderPrices"> {
  const { live, copy } = store;
  const balances: BalanceSeen[] = [];
  let lowBalanceAlerted = false;
  let providerEmptyAlerted = false;
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
      store.inflight.delete(order.refId);
      if (outcome.state === "unknown") store.unknown.add(order.refId);
      else store.unknown.delete(order.refId);
      money.settleHold(o, outcome.state, outcome.at);
      let lowBalance = false;
      if (opts.balance !== undefined) {
        figures.balanceSeen(opts.balance.balance, outcome.at);
        balances.push({ ...opts.balance });
        if (balances.length > 100) balances.shift();
        if (opts.lowBalanceThreshold !== undefined) {
          if (opts.balance.balance < opts.lowBalanceThreshold) {
            lowBalance = !lowBalanceAlerted;
            lowBalanceAlerted = true;
          } else {
            lowBalanceAlerted = false;
          }
        }
      }
      let providerEmpty = false;
      if (outcome.state === "success") providerEmptyAlerted = false;
      else if (outcome.state === "failed" && providerDepositEmpty(outcome.result) && !providerEmptyAlerted) {
        providerEmptyAlerted = true;
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
      const latest = balances.at(-1);
      return latest === undefined ? undefined : { ...latest };
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

/** The wallets: saldo, deposits credited once, statements. */
function memoryWallets(store: Store, figures: Figures, money: Money): Wallets {
  const { copy, liveDeposit, deposits, depositTimes, untold } = store;
  const { walletOf, statements, totals } = money;
  return {
    get: async (userId) => copy(walletOf.get(userId) ?? emptyWallet(userId)),
    statement: async (userId, last = 10) => copy((statements.get(userId) ?? []).slice(-last)),
    async statementPage(userId, page, pageSize) {
      const lines = statements.get(userId) ?? [];
      const end = lines.length - page * pageSize;
      const movements = end <= 0 ? [] : lines.slice(Math.max(0, end - pageSize), end).reverse();
      return { movements: copy(movements), total: lines.length };
    },
    all: async () => [...walletOf.values()].sort((a, b) => a.userId - b.userId).map(copy),
    async saveDeposit(deposit, ttlMs) {
      const kept = liveDeposit(deposit.id);
      if (kept !== undefined) return copy(kept);
      store.wrote();
      deposits.set(deposit.id, { deposit: copy(deposit), expiresAt: store.now() + ttlMs });
      return copy(deposit);
    },
    async getDeposit(id) {
      const d = liveDeposit(id);
      return d === undefined ? undefined : copy(d);
    },
    async confirmDeposit(id, by) {
      const d = liveDeposit(id);
      if (d === undefined) return { kind: "not-found" };
      if (d.state !== "draft") return { kind: "taken", deposit: copy(d) };
      const w = money.wallet(d.resellerId);
      if (w.saldo + d.amount < 0) return { kind: "short", deposit: copy(d), saldo: w.saldo };
      w.saldo += d.amount;
      totals.saldo += d.amount;
      figures.deposited(d.resellerId, d.amount, by.at);
      if (d.amount >= 0) w.deposits += d.amount;
      else w.corrections += d.amount;
      money.move(d.resellerId, by.at, d.amount >= 0 ? "deposit" : "correction", id, d.amount);
      d.state = "done";
      d.doneAt = by.at;
      d.doneBy = by.adminId;
      d.saldoAfter = w.saldo;
      deposits.get(id)!.expiresAt = undefined;
      depositTimes.set(id, Date.parse(by.at));
      untold.add(id);
      return { kind: "done", deposit: copy(d), wallet: copy(w) };
    },
    async cancelDeposit(id, at) {
      const d = liveDeposit(id);
      if (d === undefined) return { kind: "not-found" };
      if (d.state === "draft") {
        d.state = "cancelled";
        d.doneAt = at;
      }
      return { kind: d.state === "cancelled" ? "cancelled" : "taken", deposit: copy(d) };
    },
    async markDepositTold(id, at) {
      const d = liveDeposit(id);
      if (d !== undefined) d.toldAt = at;
      untold.delete(id);
    },
    async untoldDeposits() {
      return [...untold]
        .map((id) => liveDeposit(id))
        .filter((d): d is Deposit => d !== undefined && d.state === "done" && d.toldAt === undefined)
        .map(copy);
    },
    totals: async () => ({ ...totals }),
    async depositsBetween(fromMs, toMs) {
      return [...depositTimes]
        .filter(([, t]) => t >= fromMs && t <= toMs)
        .sort(([, a], [, b]) => a - b)
        .map(([id]) => liveDeposit(id))
        .filter((d): d is Deposit => d !== undefined)
        .map(copy);
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
export function createMemoryLedger(opts: { now?: () => number; timeZone?: string } = {}): Ledger {
  const store = memoryStore(opts);
  const figures = memoryFigures(store);
  const money = memoryMoney();
  return {
    orders: {
      ...memoryDrafts(store, figures, money),
      ...memoryOutcomes(store, figures, money),
      ...memoryLookups(store),
      ...figures.read,
    },
    wallets: memoryWallets(store, figures, money),
    // Nothing older to bring up to date: memory starts empty at every start.
    upgrade: async () => undefined,
    compact: memoryCompaction(store),
  };
}
