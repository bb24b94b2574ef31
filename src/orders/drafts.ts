import type { Logger } from "../logger.js";
import type { OrderLedger } from "./ledger.js";
import type { DraftFields, OrderRecord } from "./order.js";
import { newRefId } from "./ref-id.js";

export type CancelOutcome =
  | { kind: "cancelled"; order: OrderRecord }
  | { kind: "too-late"; order: OrderRecord }
  | { kind: "not-yours" }
  | { kind: "not-found" };

const DAY = 24 * 60 * 60 * 1000;

/** Drafts: an order with its ref_id fixed before Confirm is shown, and its cancellation. */
export function createDrafts(deps: {
  ledger: OrderLedger;
  refIdPrefix: string;
  logger: Logger;
  now: () => Date;
  draftTtlMs?: number;
}) {
  const { ledger, logger, now } = deps;
  const ttlMs = deps.draftTtlMs ?? DAY;
  return {
    async create(input: Omit<DraftFields, "refId" | "createdAt">): Promise<OrderRecord> {
      const createdAt = now();
      const order: OrderRecord = {
        ...input,
        refId: newRefId(deps.refIdPrefix, createdAt),
        createdAt: createdAt.toISOString(),
        state: "draft",
      };
      await ledger.saveDraft(order, ttlMs);
      logger.info({ refId: order.refId, state: "draft", product: order.productCode }, "order state changed");
      return order;
    },

    /** Cancel wins only over a draft nobody confirmed: the ledger decides between the two taps. */
    async cancel(req: { refId: string; userId: number; chatId: number }): Promise<CancelOutcome> {
      const r = await ledger.cancel(req.refId, { userId: req.userId, chatId: req.chatId, at: now().toISOString() });
      if (r.kind === "taken") return { kind: "too-late", order: r.order };
      if (r.kind === "cancelled") logger.info({ refId: req.refId, state: "cancelled" }, "order state changed");
      return r;
    },
  };
}
