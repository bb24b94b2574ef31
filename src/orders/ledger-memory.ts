import type { OrderLedger } from "./ledger.js";
import type { BalanceSeen, OrderRecord } from "./order.js";

/**
 * The ledger in process memory (no REDIS_URL: lost at restart, for trying the bot out). Every
 * method does its whole change synchronously, between two awaits, so it is as atomic in one
 * process as a Lua script is in Redis. Records are copied in and out: a caller never holds the
 * stored object.
 */
export function createMemoryLedger(now: () => number = Date.now): OrderLedger {
  const orders = new Map<string, { order: OrderRecord; expiresAt: number | undefined }>();
  const openDrafts = new Map<string, { refId: string; expiresAt: number }>();
  const byTime = new Map<string, number>();
  const inflight = new Set<string>();
  const unknown = new Set<string>();
  const balances: BalanceSeen[] = [];
  let lowBalanceAlerted = false;

  const copy = (o: OrderRecord): OrderRecord => structuredClone(o);
  const live = (refId: string): OrderRecord | undefined => {
    const entry = orders.get(refId);
    if (entry === undefined) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= now()) {
      orders.delete(refId);
      return undefined;
    }
    return entry.order;
  };
  const draftKey = (chatId: number, userId: number) => `${chatId}:${userId}`;
  const sweep = () => {
    // Expired drafts go when new ones come, so an idle bot holds nothing it no longer needs.
    const t = now();
    for (const [refId, e] of orders) if (e.expiresAt !== undefined && e.expiresAt <= t) orders.delete(refId);
    for (const [k, e] of openDrafts) if (e.expiresAt <= t) openDrafts.delete(k);
  };
  let writes = 0;
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

  return {
    async saveDraft(order, ttlMs) {
      if (++writes % 1000 === 0) sweep();
      const expiresAt = now() + ttlMs;
      orders.set(order.refId, { order: copy(order), expiresAt });
      openDrafts.set(draftKey(order.chatId, order.userId), { refId: order.refId, expiresAt });
    },

    async get(refId) {
      const o = live(refId);
      return o === undefined ? undefined : copy(o);
    },

    getMany: async (refIds) => getMany(refIds),

    async openDraftOf(chatId, userId) {
      const e = openDrafts.get(draftKey(chatId, userId));
      return e === undefined || e.expiresAt <= now() ? undefined : e.refId;
    },

    async claim(refId, by) {
      const o = live(refId);
      if (o === undefined) return { kind: "not-found" };
      if (o.userId !== by.userId) return { kind: "not-yours" };
      if (o.state !== "draft") return { kind: "taken", order: copy(o) };
      o.state = "submitting";
      o.submittedAt = by.at;
      if (by.summaryMessageId !== undefined) o.summaryMessageId = by.summaryMessageId;
      orders.get(refId)!.expiresAt = undefined;
      inflight.add(refId);
      byTime.set(refId, Date.parse(by.at));
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

    async finish(refId, outcome, opts = {}) {
      const o = live(refId);
      if (o === undefined) return { kind: "not-found" };
      const late = o.state === "unknown" && opts.acceptLate === true && o.settledBy === undefined;
      if (o.state !== "submitting" && !late) return { kind: "stale", order: copy(o) };
      o.state = outcome.state;
      o.result = structuredClone(outcome.result);
      o.finishedAt = outcome.at;
      // A late answer replaces the unknown the user was told: they are to be told again.
      if (late) delete o.notifiedAt;
      inflight.delete(refId);
      if (outcome.state === "unknown") unknown.add(refId);
      else unknown.delete(refId);
      let lowBalance = false;
      if (opts.balance !== undefined) {
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
      return { kind: "finished", order: copy(o), lowBalance };
    },

    async settle(refId, outcome) {
      const o = live(refId);
      if (o === undefined) return { kind: "not-found" };
      if (o.state !== "unknown") return { kind: "not-pending", order: copy(o) };
      o.state = outcome.state;
      o.result = structuredClone(outcome.result);
      o.settledAt = outcome.at;
      o.settledBy = outcome.adminId;
      delete o.notifiedAt;
      unknown.delete(refId);
      return { kind: "settled", order: copy(o) };
    },

    async markNotified(refId, at) {
      const o = live(refId);
      if (o !== undefined) o.notifiedAt = at;
    },

    async history(scope, page, pageSize) {
      const all = submitted((o) => scope === "all" || o.userId === scope).reverse();
      return { orders: all.slice(page * pageSize, page * pageSize + pageSize).map(copy), total: all.length };
    },

    async submittedBetween(fromMs, toMs) {
      return submitted((o) => {
        const t = byTime.get(o.refId)!;
        return t >= fromMs && t <= toMs;
      }).map(copy);
    },

    async inFlight() {
      return getMany([...inflight]).filter((o) => o.state === "submitting");
    },

    async pending() {
      return getMany([...unknown])
        .filter((o) => o.state === "unknown")
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async lastBalance() {
      const latest = balances.at(-1);
      return latest === undefined ? undefined : { ...latest };
    },
  };
}
