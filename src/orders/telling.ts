import type { Logger } from "../logger.js";
import type { OrderEvents, OutcomeHeading } from "./events.js";
import type { OrderLedger } from "./ledger.js";
import type { OrderRecord } from "./order.js";

/**
 * The one way an outcome reaches its user, whatever finished the order (a Confirm, a late answer,
 * recovery after a crash, an admin's settlement): the listener says it, then the ledger records
 * that it was said, so a later tap on the old summary gets a short answer instead of the whole
 * result again. At least once: a crash between the two says it again at the next tap.
 */
export function createTelling(deps: {
  ledger: Pick<OrderLedger, "markNotified">;
  events: Pick<OrderEvents, "tellOutcome">;
  logger: Logger;
  now: () => Date;
}) {
  const { logger } = deps;

  /** Tells the user; the order comes back marked as told (unchanged when it could not be told). Never throws. */
  async function tell(order: OrderRecord, heading?: OutcomeHeading): Promise<OrderRecord> {
    try {
      await deps.events.tellOutcome(order, heading);
    } catch (err) {
      // Not told: the next tap on the summary, or /status, tells it.
      logger.warn({ refId: order.refId, err }, "outcome not delivered to the user");
      return order;
    }
    const at = deps.now().toISOString();
    try {
      await deps.ledger.markNotified(order.refId, at);
    } catch (err) {
      logger.warn({ refId: order.refId, err }, "outcome told but not recorded as told");
      return order;
    }
    return { ...order, notifiedAt: at };
  }

  return {
    tell,
    /** Tells only when nobody has yet (a tap on an order that another tap or process finished). */
    tellIfUntold: (order: OrderRecord, heading: "already") =>
      order.notifiedAt === undefined ? tell(order, heading) : Promise.resolve(order),
  };
}

export type Telling = ReturnType<typeof createTelling>;
