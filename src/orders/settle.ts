import type { Logger } from "../logger.js";
import type { OrderEvents } from "./events.js";
import type { OrderLedger } from "./ledger.js";
import type { OrderRecord, OrderResult } from "./order.js";
import type { Telling } from "./telling.js";

/** An SN as the provider's dashboard shows it: 1 to 64 characters, no spaces. */
export const SN = /^[^\s]{1,64}$/u;
/** The longest reason an order failed that an admin may give. */
export const MAX_REASON = 200;

/** Whether an admin's verdict is one the ledger may take: an SN of the right shape, a reason of 1 to 200 characters. */
export function verdictProblem(outcome: SettleRequest["outcome"]): "bad-sn" | "bad-reason" | undefined {
  if (outcome.state === "success") return SN.test(outcome.sn) ? undefined : "bad-sn";
  const reason = outcome.reason.trim();
  return reason.length === 0 || reason.length > MAX_REASON ? "bad-reason" : undefined;
}

/**
 * What an admin's verdict leaves as an order's result: whatever the provider did say is kept; a
 * success gets the SN (and no reason any more), a failure the admin's reason.
 */
export function settledResult(result: OrderResult | undefined, verdict: SettleRequest["outcome"]): OrderResult {
  return verdict.state === "success"
    ? { ...result, sn: verdict.sn, reason: undefined, detail: undefined }
    : { ...result, reason: "settled", errorMsg: verdict.reason };
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
  outcome: { state: "success"; sn: string } | { state: "failed"; reason: string };
}

export type SettleOutcome =
  | { kind: "settled"; order: OrderRecord }
  | { kind: "not-pending"; order: OrderRecord }
  | { kind: "not-found" }
  /** The SN or the reason is not one the ledger takes: nothing changed. */
  | { kind: "bad-sn" }
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
      if (problem !== undefined) return problem === "bad-sn" ? { kind: "bad-sn" } : { kind: "bad-reason" };
      const order = await ledger.get(req.refId);
      if (order === undefined) return { kind: "not-found" };
      // The same verdict by the same admin again (the update or the page's request handled a
      // second time): answered as it was the first time; nothing changes and nobody is told twice.
      if (order.state !== "unknown")
        return sameVerdict(order, req) ? { kind: "settled", order } : { kind: "not-pending", order };
      const result = settledResult(order.result, req.outcome);
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
