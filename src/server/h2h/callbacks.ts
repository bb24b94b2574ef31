import type { PartnerStore } from "../../access/partners.js";
import type { Logger } from "../../logger.js";
import type { OrderLedger } from "../../orders/ledger.js";
import { outcomeKnown } from "../../orders/order.js";
import type { PartnerCallbacks } from "../../partners/callbacks-owed.js";
import type { PartnerOrders } from "../../partners/partner-orders.js";
import { orderBody } from "./answers.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** A callback not acknowledged within a day is given up (the status query still answers). */
const GIVE_UP_MS = 24 * HOUR;
const CALL_TIMEOUT_MS = 10_000;
/** How many callbacks one look sends at most (the next look goes on). */
const PER_LOOK = 50;

/** After the n-th failed try: 1 minute, 2, 4, … up to an hour. */
export const backoffMs = (attempts: number): number => Math.min(HOUR, MINUTE * 2 ** Math.max(0, attempts));

/**
 * Sends the callbacks owed to partners: a POST of the status answer's body (JSON) to the
 * partner's callback URL, signed `X-Signature: sha256=<hex HMAC-SHA256 of the body with their
 * key>`; done on a 2xx, else tried again later. Runs in the background look of the one process
 * holding the shared work's lease.
 */
export function createCallbackSender(deps: {
  callbacks: PartnerCallbacks;
  partners: Pick<PartnerStore, "get" | "sign">;
  ledger: Pick<OrderLedger, "get">;
  partnerOrders: Pick<PartnerOrders, "partnerRefOf" | "balance">;
  refIdPrefix: string;
  now: () => Date;
  logger: Logger;
  /** For tests: the POST (by default undici's, with a 10 s timeout). */
  post?: (url: string, body: string, signature: string) => Promise<number>;
}) {
  const { callbacks, logger } = deps;
  const post =
    deps.post ??
    (async (url: string, body: string, signature: string) => {
      // undici is loaded with the first callback: a shop without one does not carry it.
      const { request } = await import("undici");
      const res = await request(url, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "x-signature": `sha256=${signature}` },
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      await res.body.dump();
      return res.statusCode;
    });

  /** One owed callback: sent, tried again later, or dropped; whether it was acknowledged. */
  async function one(refId: string, attempts: number, since: number): Promise<void> {
    const nowMs = deps.now().getTime();
    const order = await deps.ledger.get(refId);
    const partnerRef = await deps.partnerOrders.partnerRefOf(refId);
    if (order === undefined || partnerRef === undefined) return callbacks.done(refId);
    // Not known yet: looked at again in a minute (not a failed try: the backoff starts with the first one).
    if (!outcomeKnown(order.state)) return callbacks.owe(refId, nowMs + MINUTE);
    const partner = await deps.partners.get(order.userId);
    if (partner?.callbackUrl === undefined) return callbacks.done(refId);
    const { balance } = await deps.partnerOrders.balance(order.userId);
    const body = JSON.stringify(orderBody(order, partnerRef, balance, deps.refIdPrefix));
    const signature = await deps.partners.sign(order.userId, body);
    if (signature === undefined) return callbacks.done(refId);
    const status = await post(partner.callbackUrl, body, signature).catch((err: unknown) => {
      logger.debug({ err: String((err as { code?: string }).code ?? err), refId }, "partner callback not reached");
      return 0;
    });
    if (status >= 200 && status < 300) {
      logger.info({ refId, attempts: attempts + 1 }, "partner callback acknowledged");
      return callbacks.done(refId);
    }
    if (nowMs - since >= GIVE_UP_MS) {
      logger.warn({ refId, attempts: attempts + 1, status }, "partner callback given up after a day");
      return callbacks.done(refId);
    }
    await callbacks.later(refId, nowMs + backoffMs(attempts));
  }

  return {
    /** Sends what is due now; a failure of one is logged and the others go on. */
    async sweep(): Promise<void> {
      for (const owed of await callbacks.due(deps.now().getTime(), PER_LOOK)) {
        await one(owed.refId, owed.attempts, owed.since).catch((err: unknown) =>
          logger.error({ err, refId: owed.refId }, "partner callback failed"),
        );
      }
    },
  };
}
