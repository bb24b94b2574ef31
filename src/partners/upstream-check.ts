import type { Logger } from "../logger.js";
import type { TopupClient, TopupStatusResult } from "../topup/types.js";
import { currentAttempt, type OrderRecord } from "../orders/order.js";
import { SN, type SettleOutcome, type SettleRequest } from "../orders/settle.js";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Past this age an unknown order is no longer asked about: an admin decides. */
const GIVE_UP_AFTER_MS = 25 * HOUR_MS;

/**
 * The "admin" of a settlement made on the provider's own status answer: 0, an id no Telegram user
 * has, so every screen can tell it from an admin's verdict.
 */
export const SETTLED_BY_PROVIDER = 0;

/** The reason an order settled as failed on the provider's status answer is given. */
export const FAILED_BY_STATUS = "The provider's status says the order failed.";

/**
 * How long to wait between two status queries about an unknown order of this age (since it was
 * sent): a minute during its first hour, when most late outcomes arrive, then an hour until it is
 * 25 hours old; undefined after that (never asked again).
 */
export function askIntervalMs(ageMs: number): number | undefined {
  if (!Number.isFinite(ageMs) || ageMs >= GIVE_UP_AFTER_MS) return undefined;
  return ageMs < HOUR_MS ? MINUTE_MS : HOUR_MS;
}

export interface UpstreamCheckDeps {
  /** The orders whose result is unknown, oldest first. */
  orders: { pending(): Promise<OrderRecord[]> };
  /** The settlement an admin's verdict goes through: it tells the user and the admins. */
  settle(req: SettleRequest): Promise<SettleOutcome>;
  /**
   * The client of a provider by its name (undefined: no such provider now). An order is asked about
   * at the provider of its current attempt, under that attempt's ref id.
   */
  clientOf(provider: string): Pick<TopupClient, "status"> | undefined;
  logger: Logger;
  now: () => Date;
}

/**
 * Settles unknown orders on the provider's own status answer, when the provider offers one (a
 * shop running this bot does). An order is asked about at the provider it was waiting for (its
 * current attempt's), under the ref id that provider was sent: each `sweep` asks about the orders that are due (see
 * {@link askIntervalMs}) and settles those the provider reports finished, exactly as an admin's
 * verdict would, with {@link SETTLED_BY_PROVIDER} as the admin. Anything else (not known yet, not
 * found, no answer) is left as it is; `not-found` in particular is never taken for a failure, since
 * the order may still be on its way to the provider.
 *
 * When each order was last asked is kept in memory only: one process (the holder of the
 * background lease) sweeps, and a process that takes over asks once early, which is harmless as
 * asking is only a read. A provider that does not answer is left alone on its own: the others are
 * still asked. A sweep never throws; a sweep asked for while one runs joins it.
 */

/** How long a provider that has not answered the status operation yet is left alone after it did not. */
export const NO_STATUS_QUIET_MS = 10 * 60_000;

export function createUpstreamCheck(deps: UpstreamCheckDeps): { sweep(): Promise<void> } {
  const { logger } = deps;
  const lastAsked = new Map<string, number>();
  let running: Promise<void> | undefined;
  // A provider that never answered the status operation (most do not offer it) is asked again only
  // after a quiet while, not about every order every minute; one that answered once is trusted to.
  // Each provider on its own.
  const answersStatus = new Set<string>();
  const quietUntil = new Map<string, number>();
  const quiet = (provider: string, at: number) => !answersStatus.has(provider) && at < (quietUntil.get(provider) ?? 0);

  async function settleOn(order: OrderRecord, answer: TopupStatusResult): Promise<void> {
    const refId = order.refId;
    let req: SettleRequest;
    if (answer.kind === "success") {
      // Outer spaces are noise, as in an order's own answer; any other odd SN is an admin's call.
      const sn = answer.sn.trim();
      if (!SN.test(sn)) {
        logger.warn({ refId, snLength: answer.sn.length }, "provider status says success, but its SN is not usable");
        return;
      }
      req = {
        refId,
        adminId: SETTLED_BY_PROVIDER,
        outcome: { state: "success", sn, cost: Math.round(answer.productDetail.priceRp) },
      };
    } else if (answer.kind === "failed") {
      req = { refId, adminId: SETTLED_BY_PROVIDER, outcome: { state: "failed", reason: FAILED_BY_STATUS } };
    } else {
      const detail = "detail" in answer ? answer.detail : undefined;
      logger.debug({ refId, status: answer.kind, detail }, "provider status leaves the order unknown");
      return;
    }
    const outcome = await deps.settle(req);
    if (outcome.kind === "settled" || outcome.kind === "not-pending" || outcome.kind === "not-found") {
      lastAsked.delete(refId);
      const level = outcome.kind === "settled" ? "info" : "debug";
      logger[level](
        { refId, state: req.outcome.state, outcome: outcome.kind },
        "order settled on the provider's status",
      );
      return;
    }
    // bad-sn, bad-cost, bad-reason: the ledger refused the verdict; asked again when next due.
    logger.warn(
      { refId, state: req.outcome.state, outcome: outcome.kind },
      "provider status could not settle the order",
    );
  }

  /** Asks about one order at its provider when it is due; "no-answer" when the provider did not answer. */
  async function check(
    order: OrderRecord,
    provider: string,
    status: NonNullable<TopupClient["status"]>,
  ): Promise<"asked" | "no-answer" | undefined> {
    // Only orders still waiting for a verdict; an order an admin settled is never touched again.
    if (order.state !== "unknown" || order.result?.reason === "settled") {
      lastAsked.delete(order.refId);
      return;
    }
    const at = deps.now().getTime();
    const interval = askIntervalMs(at - Date.parse(order.submittedAt ?? order.createdAt));
    if (interval === undefined) {
      lastAsked.delete(order.refId);
      return;
    }
    const last = lastAsked.get(order.refId);
    if (last !== undefined && at - last < interval) return;
    // Recorded before asking: an answer that never comes must not turn into asking every sweep.
    lastAsked.set(order.refId, at);
    const answer = await status(currentAttempt(order).refId);
    if (answer.kind !== "no-answer") answersStatus.add(provider);
    else if (!answersStatus.has(provider)) quietUntil.set(provider, at + NO_STATUS_QUIET_MS);
    await settleOn(order, answer);
    return answer.kind === "no-answer" ? "no-answer" : "asked";
  }

  async function sweepOnce(): Promise<void> {
    // Decided once per round: a round that asks a provider, asks it about every order that is due.
    const startedAt = deps.now().getTime();
    let orders: OrderRecord[];
    try {
      orders = await deps.orders.pending();
    } catch (err) {
      logger.warn({ err }, "unknown orders could not be listed for the provider's status");
      return;
    }
    const pending = new Set<string>();
    const silent = new Set<string>();
    for (const order of orders) {
      pending.add(order.refId);
      const { provider } = currentAttempt(order);
      // A provider that did not answer is not asked about its other orders in this round: a round
      // stays short (the background work waits for it at a stop), and the next round goes on.
      if (silent.has(provider) || quiet(provider, startedAt)) continue;
      // No such provider now, or one that offers no status (the built-in sandbox): an admin decides.
      const status = deps.clientOf(provider)?.status;
      if (status === undefined) continue;
      try {
        if ((await check(order, provider, status)) === "no-answer") silent.add(provider);
      } catch (err) {
        logger.warn({ refId: order.refId, provider, err }, "provider status check of an order failed");
      }
    }
    // Orders settled or gone since: forget them, so the map holds the unknown orders only.
    for (const refId of lastAsked.keys()) if (!pending.has(refId)) lastAsked.delete(refId);
  }

  return {
    sweep() {
      running ??= sweepOnce().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}
