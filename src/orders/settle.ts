import type { Logger } from "../logger.js";
import type { OrderEvents } from "./events.js";
import type { OrderLedger } from "./ledger.js";
import type { OrderRecord, OrderResult } from "./order.js";
import type { Telling } from "./telling.js";

/** An SN as the provider's dashboard shows it: 1 to 64 characters, no spaces. */
export const SN = /^[^\s]{1,64}$/u;
/** The longest reason an order failed that an admin may give. */
export const MAX_REASON = 200;

/** The largest provider price an admin may give a settled order (a typo of three zeros should not pass). */
export const MAX_PROVIDER_PRICE = 100_000_000;

/**
 * Whether an admin's verdict is one the ledger may take: an SN of the right shape (and a provider
 * price, when given, of 0 to MAX_PROVIDER_PRICE whole rupiah), a reason of 1 to 200 characters.
 */
export function verdictProblem(outcome: SettleRequest["outcome"]): "bad-sn" | "bad-cost" | "bad-reason" | undefined {
  if (outcome.state === "success") {
    if (!SN.test(outcome.sn)) return "bad-sn";
    const cost = outcome.cost;
    return cost === undefined || (Number.isSafeInteger(cost) && cost >= 0 && cost <= MAX_PROVIDER_PRICE)
      ? undefined
      : "bad-cost";
  }
  const reason = outcome.reason.trim();
  return reason.length === 0 || reason.length > MAX_REASON ? "bad-reason" : undefined;
}

/**
 * What an admin's verdict leaves as an order's result: whatever the provider did say is kept; a
 * success gets the SN (and no reason any more), a failure the admin's reason. A success the
 * provider never named a price for gets its cost from the admin, else the provider price last seen
 * for the product before the order was sent (`lastSeen`); with neither, its cost stays unknown and
 * its margin is left out of the books, never counted as bought for nothing.
 */
export function settledResult(
  result: OrderResult | undefined,
  verdict: SettleRequest["outcome"],
  lastSeen?: number,
): OrderResult {
  if (verdict.state === "failed") return { ...result, reason: "settled", errorMsg: verdict.reason };
  const settled: OrderResult = { ...result, sn: verdict.sn, reason: undefined, detail: undefined };
  if (result?.productDetail?.priceRp !== undefined) return settled;
  if (verdict.cost !== undefined) return { ...settled, providerPrice: verdict.cost, providerPriceFrom: "admin" };
  if (lastSeen !== undefined) return { ...settled, providerPrice: lastSeen, providerPriceFrom: "last-seen" };
  return settled;
}

/** Whether an order was settled by this very verdict: the same admin, outcome, SN or reason. */
function sameVerdict(order: OrderRecord, req: SettleRequest): boolean {
  if (order.settledBy !== req.adminId || order.state !== req.outcome.state) return false;
  const r = order.result ?? {};
  return req.outcome.state === "success"
    ? r.sn === req.outcome.sn
    : r.reason === "settled" && r.errorMsg === req.outcome.reason;
}

export interface SettleRequest {
  refId: string;
  adminId: number;
  /** `cost`: what the provider charged, when the admin knows it (optional). */
  outcome: { state: "success"; sn: string; cost?: number } | { state: "failed"; reason: string };
}

export type SettleOutcome =
  | { kind: "settled"; order: OrderRecord }
  | { kind: "not-pending"; order: OrderRecord }
  | { kind: "not-found" }
  /** The SN, the provider price or the reason is not one the ledger takes: nothing changed. */
  | { kind: "bad-sn" }
  | { kind: "bad-cost" }
  | { kind: "bad-reason" };

/**
 * An admin's verdict on an order whose result is unknown, after checking with the provider: once,
 * whoever settles it from wherever (a chat command, a button, the Mini App); the user is told.
 */
export function createSettlement(deps: {
  ledger: OrderLedger;
  logger: Logger;
  events: OrderEvents;
  telling: Telling;
  now: () => Date;
}) {
  const { ledger, logger, now } = deps;
  return {
    async settle(req: SettleRequest): Promise<SettleOutcome> {
      const problem = verdictProblem(req.outcome);
      if (problem !== undefined) return { kind: problem };
      const order = await ledger.get(req.refId);
      if (order === undefined) return { kind: "not-found" };
      // The same verdict by the same admin again (the update or the page's request handled a
      // second time): answered as it was the first time; nothing changes and nobody is told twice.
      if (order.state !== "unknown")
        return sameVerdict(order, req) ? { kind: "settled", order } : { kind: "not-pending", order };
      const result = settledResult(order.result, req.outcome, order.lastProviderPrice);
      // The ledger settles an order once, even when two admins tap at the same moment.
      const r = await ledger.settle(order, {
        state: req.outcome.state,
        result,
        adminId: req.adminId,
        at: now().toISOString(),
      });
      if (r.kind === "not-pending" && sameVerdict(r.order, req)) return { kind: "settled", order: r.order };
      if (r.kind !== "settled") return r;
      logger.info({ refId: req.refId, state: r.order.state, settledBy: req.adminId }, "order state changed");
      const told = await deps.telling.tell(r.order, "settled");
      await deps.events.finished(told, "settled", { lowBalance: false });
      return { kind: "settled", order: told };
    },
  };
}
