import { randomBytes } from "node:crypto";
import type { Logger } from "../logger.js";
import type { Store } from "../storage/store.js";
import type { TopupClient, TopupResult } from "../topup/types.js";
import { FINAL_STATES, type Lang, type OrderRecord, type OrderResult } from "./order.js";

/** What the bot knows of an order before Confirm; the service adds ref_id, state and time. */
export type DraftInput = Pick<
  OrderRecord,
  "chatId" | "userId" | "userName" | "lang" | "gameName" | "productCode" | "productName" | "price" | "playerId"
>;

/** What a tap on Confirm led to. Only `submitted` means this tap called the provider. */
export type ConfirmOutcome =
  | { kind: "submitted"; order: OrderRecord }
  | { kind: "already"; order: OrderRecord }
  | { kind: "in-progress"; order: OrderRecord }
  | { kind: "cancelled"; order: OrderRecord }
  | { kind: "not-yours" }
  | { kind: "not-found" };

export type SettleOutcome =
  | { kind: "settled"; order: OrderRecord }
  | { kind: "not-pending"; order: OrderRecord }
  | { kind: "not-found" };

export interface BalanceSeen {
  balance: number;
  at: string;
  refId: string;
}

export type CancelOutcome =
  | { kind: "cancelled"; order: OrderRecord }
  | { kind: "too-late"; order: OrderRecord }
  | { kind: "not-yours" }
  | { kind: "not-found" };

export interface OrderService {
  /** Fixes the ref_id and writes the draft: this happens before Confirm is ever shown. */
  createDraft(input: DraftInput): Promise<OrderRecord>;
  get(refId: string): Promise<OrderRecord | undefined>;
  /** Submits the order to the provider at most once per ref_id, across taps, processes and restarts. */
  confirm(
    refId: string,
    userId: number,
    hooks?: { beforeSend?: () => Promise<void> },
    /** The record as the caller just read it, to save a read (it is re-checked by the guard). */
    known?: OrderRecord,
  ): Promise<ConfirmOutcome>;
  cancel(refId: string, userId: number): Promise<CancelOutcome>;
  /** Records that the user has been told the outcome (so a later tap does not repeat it). */
  markNotified(order: OrderRecord): Promise<void>;
  /** The draft a user is looking at in a chat, so that /cancel can retire it. */
  openDraftOf(chatId: number, userId: number): Promise<string | undefined>;
  /** Orders a user placed (or everyone's), newest first, one page. Drafts never confirmed are not orders. */
  history(userId: number | "all", page: number, pageSize: number): Promise<{ orders: OrderRecord[]; total: number }>;
  /** Orders submitted in [fromMs, toMs], oldest first: the source of reports. */
  submittedBetween(fromMs: number, toMs: number): Promise<OrderRecord[]>;
  /** Orders sent to the provider whose answer is not recorded (yet): after a crash, these. */
  inFlight(): Promise<OrderRecord[]>;
  /** Orders whose result is unknown, oldest first, for admins to settle. */
  pending(): Promise<OrderRecord[]>;
  /** Settles an `unknown` order once, after an admin checked with the provider. */
  settle(refId: string, adminId: number, outcome: { state: "success"; sn: string } | { state: "failed"; reason: string }): Promise<SettleOutcome>;
  /** The partner balance of the most recent successful sale. */
  lastBalance(): Promise<BalanceSeen | undefined>;
  /**
   * Turns orders left `submitting` by a crash into `unknown` once their provider call must have
   * ended (older than the timeout plus a grace period). Never resends. Returns the orders changed.
   */
  recoverInterrupted(): Promise<OrderRecord[]>;
}

export interface OrderServiceDeps {
  store: Store;
  topup: TopupClient;
  refIdPrefix: string;
  /** TOPUP_TIMEOUT_MS: after this (plus grace) a `submitting` order cannot still be in flight. */
  timeoutMs: number;
  logger: Logger;
  now?: () => Date;
  /** Called after every order reaches a final state (by a tap or by recovery). Must not throw. */
  onFinished?: (order: OrderRecord, how: FinishedHow) => void | Promise<void>;
  draftTtlMs?: number;
}

export type FinishedHow = "confirmed" | "recovered" | "settled";

const GRACE_MS = 5_000;
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A ref_id unique forever: the millisecond clock in base 32 (sortable) plus 50 random bits.
 * Letters and digits only, because the provider's rules for ref_id are not shown.
 */
export function newRefId(prefix: string, now: Date): string {
  let time = "";
  let t = now.getTime();
  for (let i = 0; i < 9; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(10);
  let rand = "";
  for (let i = 0; i < 10; i++) rand += CROCKFORD[bytes[i]! % 32];
  return `${prefix}${time}${rand}`;
}

export function createOrderService(deps: OrderServiceDeps): OrderService {
  const { store, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const draftTtlMs = deps.draftTtlMs ?? 24 * 60 * 60 * 1000;
  const orderKey = (refId: string) => store.key("order", refId);
  const guardKey = (refId: string) => store.key("submit-guard", refId);
  const inflightKey = store.key("orders-inflight");
  // Indexes: sorted sets scored by submit time (ZADD is atomic: concurrent orders lose nothing).
  const byTimeKey = store.key("orders-by-time");
  const byUserKey = (userId: number) => store.key("orders-by-user", String(userId));
  const unknownKey = store.key("orders-unknown");
  const balanceKey = store.key("balance-log");
  const settleKey = (refId: string) => store.key("settle-guard", refId);
  const openDraftKey = (chatId: number, userId: number) => store.key("open-draft", String(chatId), String(userId));

  const get = async (refId: string) => (await store.keyv.get<OrderRecord>(orderKey(refId))) ?? undefined;
  const save = async (order: OrderRecord, ttlMs?: number) => {
    await store.keyv.set(orderKey(order.refId), order, ttlMs);
  };

  const getMany = async (refIds: string[]): Promise<OrderRecord[]> => {
    if (refIds.length === 0) return [];
    const found = await store.keyv.get<OrderRecord>(refIds.map(orderKey));
    return (found as Array<OrderRecord | undefined>).filter((o): o is OrderRecord => o !== undefined && o !== null);
  };

  /** The result must reach the ledger: a few quick tries, then a loud log with every field. */
  async function saveFinal(order: OrderRecord): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        // One pipeline, in this order on the connection: the record first, the indexes after.
        const writes: Array<Promise<void>> = [
          save(order),
          order.state === "unknown" ? store.atomic.setAdd(unknownKey, order.refId) : store.atomic.setRemove(unknownKey, order.refId),
        ];
        if (order.state === "success" && order.result?.lastBalance !== undefined) {
          const at = order.finishedAt ?? now().toISOString();
          const seen: BalanceSeen = { balance: order.result.lastBalance, at, refId: order.refId };
          writes.push(store.atomic.zAdd(balanceKey, Date.parse(at), JSON.stringify(seen)), store.atomic.zTrim(balanceKey, 100));
        }
        writes.push(store.atomic.setRemove(inflightKey, order.refId));
        await Promise.all(writes);
        return;
      } catch (err) {
        if (attempt >= 3) {
          logger.error({ err, order }, "could not record the outcome of an order; it stays in-flight and will be reported as unknown");
          throw err;
        }
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  }

  /** The chat's open draft pointer goes only if it still points at this order (not a newer one). */
  async function forgetOpenDraft(order: OrderRecord) {
    const key = openDraftKey(order.chatId, order.userId);
    if ((await store.keyv.get<string>(key)) === order.refId) await store.keyv.delete(key);
  }

  async function finished(order: OrderRecord, how: FinishedHow) {
    try {
      await deps.onFinished?.(order, how);
    } catch (err) {
      logger.error({ err, refId: order.refId }, "order notification failed");
    }
  }

  function isStale(order: OrderRecord, since: string | undefined): boolean {
    const started = Date.parse(since ?? order.createdAt);
    return now().getTime() - started > deps.timeoutMs + GRACE_MS;
  }

  async function markInterrupted(order: OrderRecord, submittedAt: string | undefined): Promise<OrderRecord> {
    const updated: OrderRecord = {
      ...order,
      state: "unknown",
      submittedAt: submittedAt ?? order.submittedAt,
      finishedAt: now().toISOString(),
      result: { reason: "interrupted", detail: "the bot stopped while the order was being sent; the provider may have it" },
    };
    await saveFinal(updated);
    logger.warn({ refId: order.refId, state: "unknown", reason: "interrupted" }, "order state changed");
    return updated;
  }

  /** When a confirm started, written before the guard is claimed (see confirm). */
  async function guardTime(refId: string): Promise<string | undefined> {
    return (await store.keyv.get<string>(guardKey(refId) + ":at")) ?? undefined;
  }

  return {
    get,

    async createDraft(input) {
      const createdAt = now();
      const order: OrderRecord = {
        ...input,
        refId: newRefId(deps.refIdPrefix, createdAt),
        state: "draft",
        createdAt: createdAt.toISOString(),
      };
      // Independent writes go out together: one round trip.
      await Promise.all([save(order, draftTtlMs), store.keyv.set(openDraftKey(input.chatId, input.userId), order.refId, draftTtlMs)]);
      logger.info({ refId: order.refId, state: "draft", product: order.productCode }, "order state changed");
      return order;
    },

    async markNotified(order) {
      if (!FINAL_STATES.has(order.state)) return;
      await save({ ...order, notifiedAt: now().toISOString() });
    },

    async openDraftOf(chatId, userId) {
      return (await store.keyv.get<string>(openDraftKey(chatId, userId))) ?? undefined;
    },

    async cancel(refId, userId) {
      const order = await get(refId);
      if (order === undefined) return { kind: "not-found" };
      if (order.userId !== userId) return { kind: "not-yours" };
      if (order.state !== "draft" && order.state !== "cancelled") return { kind: "too-late", order };
      // The guard decides between a cancel and a concurrent confirm: whoever claims it wins.
      if (order.state === "draft" && !(await store.atomic.claim(guardKey(refId), "cancelled"))) {
        return { kind: "too-late", order: (await get(refId)) ?? order };
      }
      const cancelled: OrderRecord = { ...order, state: "cancelled", finishedAt: now().toISOString() };
      await save(cancelled, draftTtlMs);
      await forgetOpenDraft(order);
      logger.info({ refId, state: "cancelled" }, "order state changed");
      return { kind: "cancelled", order: cancelled };
    },

    async confirm(refId, userId, hooks, known) {
      const order = known?.refId === refId ? known : await get(refId);
      if (order === undefined) return { kind: "not-found" };
      if (order.userId !== userId) return { kind: "not-yours" };
      if (order.state === "cancelled") return { kind: "cancelled", order };
      if (FINAL_STATES.has(order.state)) return { kind: "already", order };
      if (order.state === "submitting") {
        if (isStale(order, order.submittedAt)) return { kind: "already", order: await markInterrupted(order, undefined) };
        return { kind: "in-progress", order };
      }

      // Write-ahead: the in-flight index first (so a crash from here on is found by recovery),
      // then the one-time guard, then the `submitting` record, and only then the provider.
      // Commands issued together are pipelined by the Redis client and run in the order sent: the
      // in-flight index and the start time are written before the guard is claimed, in one round
      // trip. A losing tap rewrites both harmlessly (same member, a later time).
      const submittedAt = now().toISOString();
      const [, , claimed] = await Promise.all([
        store.atomic.setAdd(inflightKey, refId),
        store.keyv.set(guardKey(refId) + ":at", submittedAt),
        store.atomic.claim(guardKey(refId), "submitted"),
      ]);
      if (!claimed) {
        const current = (await get(refId)) ?? order;
        if (current.state === "cancelled") return { kind: "cancelled", order: current };
        if (FINAL_STATES.has(current.state)) return { kind: "already", order: current };
        return { kind: "in-progress", order: current };
      }
      const submitting: OrderRecord = { ...order, state: "submitting", submittedAt };
      const score = Date.parse(submittedAt);
      // All three must be written before the call: if one fails, nothing is sent.
      await Promise.all([
        save(submitting),
        store.atomic.zAdd(byTimeKey, score, refId),
        store.atomic.zAdd(byUserKey(order.userId), score, refId),
      ]);
      logger.info({ refId, state: "submitting", product: order.productCode }, "order state changed");
      // Show "processing" only now that the order is claimed; alongside the call, never delaying it.
      const shown = hooks?.beforeSend?.().catch(() => undefined);
      const result = await deps.topup.order({ refId, itemCode: order.productCode, destination: order.playerId });
      await shown;
      const done: OrderRecord = { ...submitting, ...fromTopupResult(result), finishedAt: now().toISOString() };
      await saveFinal(done);
      logger.info(
        { refId, state: done.state, reason: done.result?.reason, errorCode: done.result?.errorCode, trxId: done.result?.trxId },
        "order state changed",
      );
      // Notices go out beside the user's answer, not before it.
      void finished(done, "confirmed");
      return { kind: "submitted", order: done };
    },

    async history(userId, page, pageSize) {
      const key = userId === "all" ? byTimeKey : byUserKey(userId);
      const total = await store.atomic.zCard(key);
      const refIds = await store.atomic.zRevRange(key, page * pageSize, page * pageSize + pageSize - 1);
      return { orders: await getMany(refIds), total };
    },

    async submittedBetween(fromMs, toMs) {
      return getMany(await store.atomic.zRangeByScore(byTimeKey, fromMs, toMs));
    },

    async inFlight() {
      const orders = await getMany(await store.atomic.setMembers(inflightKey));
      return orders.filter((o) => o.state === "submitting");
    },

    async pending() {
      const orders = await getMany(await store.atomic.setMembers(unknownKey));
      return orders.filter((o) => o.state === "unknown").sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async lastBalance() {
      const [latest] = await store.atomic.zRevRange(balanceKey, 0, 0);
      return latest === undefined ? undefined : (JSON.parse(latest) as BalanceSeen);
    },

    async settle(refId, adminId, outcome) {
      const order = await get(refId);
      if (order === undefined) return { kind: "not-found" };
      if (order.state !== "unknown") return { kind: "not-pending", order };
      // One settlement per order, even if two admins tap at the same moment.
      if (!(await store.atomic.claim(settleKey(refId), String(adminId)))) {
        return { kind: "not-pending", order: (await get(refId)) ?? order };
      }
      const at = now().toISOString();
      const result =
        outcome.state === "success"
          ? { ...order.result, sn: outcome.sn, reason: undefined, detail: undefined }
          : { ...order.result, reason: "settled" as const, errorMsg: outcome.reason };
      const settled: OrderRecord = { ...order, state: outcome.state, result, settledBy: adminId, settledAt: at, notifiedAt: undefined };
      await saveFinal(settled);
      logger.info({ refId, state: settled.state, settledBy: adminId }, "order state changed");
      await finished(settled, "settled");
      return { kind: "settled", order: settled };
    },

    async recoverInterrupted() {
      const changed: OrderRecord[] = [];
      for (const refId of await store.atomic.setMembers(inflightKey)) {
        const order = await get(refId);
        if (order === undefined || FINAL_STATES.has(order.state) || order.state === "cancelled") {
          await store.atomic.setRemove(inflightKey, refId);
          continue;
        }
        const startedAt = order.state === "submitting" ? order.submittedAt : await guardTime(refId);
        // Give a live confirm in another process all the time its own call may take.
        if (!isStale(order, startedAt)) continue;
        if (order.state === "draft") {
          const guard = await store.atomic.get(guardKey(refId));
          if (guard === undefined) {
            // The process died before claiming the guard: nothing was sent, Confirm still works.
            await store.atomic.setRemove(inflightKey, refId);
            continue;
          }
          // Guard claimed but `submitting` never written: the provider is called only after that
          // write, so this order was not sent. It stays unsendable (the guard is held forever).
          const notSent: OrderRecord = {
            ...order,
            state: "failed",
            submittedAt: startedAt,
            finishedAt: now().toISOString(),
            result: { reason: "not-sent", detail: "the bot stopped before sending the order" },
          };
          await saveFinal(notSent);
          logger.warn({ refId, state: "failed", reason: "not-sent" }, "order state changed");
          changed.push(notSent);
          await finished(notSent, "recovered");
          continue;
        }
        const updated = await markInterrupted(order, startedAt);
        changed.push(updated);
        await finished(updated, "recovered");
      }
      return changed;
    },
  };
}

/** Maps the provider's answer onto the ledger's state and fields. */
export function fromTopupResult(result: TopupResult): Pick<OrderRecord, "state" | "result"> {
  switch (result.kind) {
    case "success":
      return {
        state: "success",
        result: {
          trxId: result.trxId,
          destinationName: result.destinationName,
          sn: result.sn,
          lastBalance: result.lastBalance,
          message: result.message,
          productDetail: result.productDetail,
        },
      };
    case "failed": {
      const r: OrderResult = { reason: result.reason };
      if (result.errorCode !== undefined) r.errorCode = result.errorCode;
      if (result.errorMsg !== undefined) r.errorMsg = result.errorMsg;
      if (result.detail !== undefined) r.detail = result.detail;
      return { state: "failed", result: r };
    }
    case "unknown": {
      const r: OrderResult = { reason: result.reason, detail: result.detail };
      for (const k of ["trxId", "sn", "destinationName", "lastBalance", "productDetail", "errorCode", "errorMsg"] as const) {
        if (result[k] !== undefined) (r as Record<string, unknown>)[k] = result[k];
      }
      return { state: "unknown", result: r };
    }
  }
}
