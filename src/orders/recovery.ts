import type { Logger } from "../logger.js";
import type { OrderLedger } from "./ledger.js";
import type { OrderRecord } from "./order.js";
import type { OrderEvents } from "./order-service.js";

/** How long after its timeout a provider call is certainly over, even on a slow machine. */
const GRACE_MS = 5_000;

/**
 * Orders left `submitting` by a crash: once their provider call must be over, they become
 * `unknown` (the provider may have them), are reported, and are never sent again.
 */
export function createRecovery(deps: {
  ledger: OrderLedger;
  timeoutMs: number;
  logger: Logger;
  events: OrderEvents;
  now: () => Date;
}) {
  const { ledger, logger, now } = deps;

  const isStale = (order: OrderRecord) =>
    now().getTime() - Date.parse(order.submittedAt ?? order.createdAt) > deps.timeoutMs + GRACE_MS;

  /** Marks one stale order interrupted; undefined when it finished meanwhile. */
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
    await deps.events.finished(r.order, "recovered", { lowBalance: false });
    return r.order;
  }

  return {
    isStale,
    markInterrupted,
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
