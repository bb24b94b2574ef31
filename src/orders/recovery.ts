import type { Logger } from "../logger.js";
import type { OrderEvents } from "./events.js";
import type { OrderLedger } from "./ledger.js";
import type { OrderRecord } from "./order.js";
import type { Telling } from "./telling.js";

/** How long after its timeout a provider call is certainly over, even on a slow machine. */
const GRACE_MS = 5_000;

/**
 * Orders left `submitting` by a crash: at the next start their users learn that the order was
 * being sent; once their provider call must be over, they become `unknown` (the provider may have
 * them), are reported, and are never sent again.
 */
export function createRecovery(deps: {
  ledger: OrderLedger;
  timeoutMs: number;
  logger: Logger;
  events: OrderEvents;
  telling: Telling;
  now: () => Date;
}) {
  const { ledger, logger, now } = deps;

  const isStale = (order: OrderRecord) =>
    now().getTime() - Date.parse(order.submittedAt ?? order.createdAt) > deps.timeoutMs + GRACE_MS;

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
    const told = await deps.telling.tell(r.order);
    await deps.events.finished(told, "recovered", { lowBalance: false });
    return told;
  }

  return {
    isStale,
    markInterrupted,
    /** Users of orders a previous run left in flight learn that they are being looked after. */
    async tellInterrupted(orders: readonly OrderRecord[]): Promise<void> {
      for (const order of orders) await deps.events.interrupted(order);
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
