import type { Logger } from "../logger.js";
import type { Claims } from "../storage/claims.js";
import type { OrderEvents } from "./events.js";
import type { OrderLedger } from "./ledger.js";
import { currentAttempt, MAIN_PROVIDER, type OrderRecord } from "./order.js";
import type { Telling } from "./telling.js";

/** How long after its timeout a provider call is certainly over, even on a slow machine. */
const GRACE_MS = 5_000;
/** How long the mark "its user was told it was interrupted" is kept: longer than any stop. */
const TOLD_MARK_MS = 7 * 24 * 3600_000;

/**
 * Orders left `submitting` by a crash: at the next start (or when their Confirm is handed on by a
 * process that died) their users learn that the result is unknown; once their provider call must be
 * over, they become `unknown` (the provider may have them), are reported to the admins, and are never
 * sent again. A user hears "result unknown" once per order: whichever path tells first takes the
 * mark `told`, and recovery then only brings the summary up to date.
 */
export function createRecovery(deps: {
  ledger: OrderLedger;
  /** TOPUP_TIMEOUT_MS: main's call time limit (and any provider's that names none of its own). */
  timeoutMs: number;
  /** Each provider's call time limit (by name). */
  supply?: { line(provider: string): { timeoutMs: number } | undefined };
  logger: Logger;
  events: OrderEvents;
  telling: Telling;
  /** Once per order: the user was told its result is unknown because the bot stopped. */
  told: Claims;
  now: () => Date;
}) {
  const { ledger, logger, now } = deps;

  /** True for the first path to tell this order's user (a storage error: tell, rather than stay silent). */
  const firstToTell = (refId: string) =>
    deps.told.take(refId, TOLD_MARK_MS).catch((err: unknown) => {
      logger.warn({ refId, err }, "interrupted order: the once-mark was not reached; the user is told anyway");
      return true;
    });

  /** Stale: its current attempt began longer ago than that provider's call may take. */
  const isStale = (order: OrderRecord) => {
    const attempt = currentAttempt(order);
    const timeoutMs =
      attempt.provider === MAIN_PROVIDER
        ? deps.timeoutMs
        : (deps.supply?.line(attempt.provider)?.timeoutMs ?? deps.timeoutMs);
    return now().getTime() - Date.parse(attempt.at) > timeoutMs + GRACE_MS;
  };

  /** Marks one stale order interrupted and tells its user; the order as it now stands (undefined: gone). */
  async function markInterrupted(order: OrderRecord): Promise<OrderRecord | undefined> {
    const r = await ledger.finish(order, {
      state: "unknown",
      at: now().toISOString(),
      result: {
        reason: "interrupted",
        detail: "the bot stopped while the order was being sent; the provider may have it",
      },
    });
    if (r.kind !== "finished") return r.kind === "stale" ? r.order : undefined;
    logger.warn({ refId: order.refId, state: "unknown", reason: "interrupted" }, "order state changed");
    const first = await firstToTell(order.refId);
    const told = await deps.telling.tell(r.order, first ? undefined : "told");
    await deps.events.finished(told, "recovered", { lowBalance: false });
    return told;
  }

  return {
    isStale,
    markInterrupted,
    /** Users of orders a stopped run left in flight learn that the result is unknown (once per order). */
    async tellInterrupted(orders: readonly OrderRecord[]): Promise<void> {
      for (const order of orders) if (await firstToTell(order.refId)) await deps.events.interrupted(order);
    },
    async recoverInterrupted(): Promise<OrderRecord[]> {
      const changed: OrderRecord[] = [];
      for (const order of await ledger.inFlight()) {
        // A live confirm in another process gets all the time its own call may take.
        if (!isStale(order)) continue;
        const updated = await markInterrupted(order);
        if (updated?.state === "unknown" && updated.result?.reason === "interrupted") changed.push(updated);
      }
      return changed;
    },
  };
}
