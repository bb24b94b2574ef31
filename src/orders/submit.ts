import { codesForSale } from "../catalog/catalog.js";
import type { Logger } from "../logger.js";
import { retry } from "../retry.js";
import type { Pause, Shop } from "../shop/shop.js";
import type { Route } from "../catalog/catalog.js";
import type { ChosenRoute, Supply } from "../providers/supply.js";
import type { TopupResult } from "../topup/types.js";
import type { OrderEvents } from "./events.js";
import type { FinishResult, OrderLedger, Outcome } from "./ledger.js";
import {
  currentAttempt,
  FINAL_STATES,
  MAIN_PROVIDER,
  type Attempt,
  type BalanceSeen,
  type OrderRecord,
} from "./order.js";
import { fromTopupResult } from "./outcome.js";
import { attemptRefId } from "./ref-id.js";
import { PLACED_BEFORE_MS } from "./drafts.js";
import type { RecentOrders } from "../storage/recent-orders.js";
import type { Telling } from "./telling.js";

export interface ConfirmRequest {
  refId: string;
  /** Who tapped Confirm: only the user who made the draft may send it. */
  userId: number;
  /** The summary message that was tapped, kept with the order so its text can show the outcome. */
  summaryMessageId?: number;
  /** Runs once the order is claimed, beside the provider call (never delaying it): the tap's answer. */
  onClaimed?: (order: OrderRecord) => Promise<void>;
  /** An order of the H2H API: the partner's ref id, used by this claim and never again. */
  partnerRef?: string;
  /**
   * A draft nobody was shown (the H2H API): not saved before, written by the claim's own step
   * (`refId` is its ref id). A refusal leaves nothing of it.
   */
  draft?: OrderRecord;
  /** Its partner is owed a callback from the claim on, due at this time (ms), until given the outcome. */
  oweAtMs?: number;
  /**
   * Whether whoever asked is still there to read the outcome in the answer (the H2H API's
   * request not hung up), asked as the outcome is recorded: then it is recorded as told, and the
   * callback owed dropped, in the same step.
   */
  answering?: () => boolean;
}

/**
 * What a tap on Confirm led to. Only `submitted` means this tap called the provider; by then the
 * user has been told the outcome (and, for `already`, told it again if nobody had).
 */
export type ConfirmOutcome =
  | { kind: "submitted"; order: OrderRecord }
  | { kind: "already"; order: OrderRecord }
  | { kind: "in-progress"; order: OrderRecord }
  | { kind: "cancelled"; order: OrderRecord }
  /** Orders are paused: the user's draft stays a draft, nothing is sent. */
  | { kind: "paused"; order: OrderRecord; pause: Pause }
  /** A reseller's saldo is less than the price: nothing was sent. */
  | { kind: "short"; order: OrderRecord; saldo: number }
  /** The product is not for sale any more: nothing was sent, the draft stays a draft. */
  | { kind: "not-offered"; order: OrderRecord }
  /** Every provider of the product rests for now: nothing was sent, the draft stays a draft. */
  | { kind: "unavailable"; order: OrderRecord }
  /** The partner's ref id made the order `refId` before: nothing was sent. */
  | { kind: "used"; refId: string }
  | { kind: "not-yours" }
  | { kind: "not-found" };

interface Recovery {
  isStale(order: OrderRecord): boolean;
  markInterrupted(order: OrderRecord): Promise<OrderRecord | undefined>;
}

/**
 * The submit-once protocol. Orders must be open; then one atomic ledger step claims the draft (only
 * a product still for sale, at the price the summary showed): it becomes `submitting` with its
 * indexes, or the tap learns who was first. Only the claiming tap calls the provider, once, with
 * the ref_id fixed in the draft; its outcome is recorded before anyone is told.
 */
export function createSubmission(deps: {
  ledger: OrderLedger;
  shop: Pick<Shop, "state">;
  supply: Supply;
  logger: Logger;
  events: OrderEvents;
  telling: Telling;
  now: () => Date;
  lowBalanceThreshold?: number | undefined;
  recovery: Recovery;
  /** "Ordered before" is on (drafts.ts reads it): the claim notes each order for it. */
  recent?: RecentOrders | undefined;
  /** The first pause between attempts to record an outcome (then twice, …): 200 ms. */
  recordRetryMs?: number;
}) {
  const { ledger, logger, now, telling } = deps;

  /**
   * The result must reach the ledger: a few quick tries, then a loud log with every field. It is
   * the answer of the order's current attempt, at `provider`.
   */
  async function record(
    order: OrderRecord,
    outcome: Outcome,
    provider: string,
    empty: boolean,
    answered: boolean,
  ): Promise<FinishResult> {
    const main = provider === MAIN_PROVIDER;
    const balance: BalanceSeen | undefined =
      outcome.state === "success" && outcome.result.lastBalance !== undefined
        ? { balance: outcome.result.lastBalance, at: outcome.at, refId: order.refId, ...(main ? {} : { provider }) }
        : undefined;
    const threshold = main ? deps.lowBalanceThreshold : deps.supply.line(provider)?.lowBalance;
    const opts = {
      acceptLate: true,
      ...(balance === undefined ? {} : { balance }),
      ...(threshold === undefined ? {} : { lowBalanceThreshold: threshold }),
      ...(main ? {} : { provider }),
      ...(deps.supply.single ? {} : { providerEmpty: empty }),
      ...(answered ? { answered } : {}),
    };
    // Only the ledger step is tried again: the provider was called once, before this, and never again.
    const base = deps.recordRetryMs ?? 200;
    try {
      return await retry(() => ledger.finish(order, outcome, opts), {
        delayMs: (attempt) => (attempt < 3 ? base * attempt : undefined),
      });
    } catch (err) {
      logger.error(
        { err, order, outcome },
        "could not record the outcome of an order; it stays in flight and recovery reports it as unknown",
      );
      throw err;
    }
  }

  /** A tap on an order someone else already claimed (or cancelled): what the user should hear. */
  async function describeTaken(order: OrderRecord): Promise<ConfirmOutcome> {
    if (order.state === "cancelled") return { kind: "cancelled", order };
    if (FINAL_STATES.has(order.state)) return { kind: "already", order: await telling.tellIfUntold(order, "already") };
    if (order.state === "submitting" && deps.recovery.isStale(order)) {
      // Left behind by a crash: settle it as unknown now rather than at the next recovery round
      // (which tells the user): this tap then only gets the short answer.
      const recovered = await deps.recovery.markInterrupted(order);
      if (recovered !== undefined && FINAL_STATES.has(recovered.state))
        return { kind: "already", order: await telling.tellIfUntold(recovered, "already") };
    }
    return { kind: "in-progress", order };
  }

  /**
   * Sends a claimed order to its route, and on to the next one only while the last one refused it
   * before anything was ordered (a call never sent, or one of that provider's failover codes). Each
   * next attempt is written first (the refusal, the new ref id, provider and start) in one ledger
   * step that holds only while the order is still being sent; a result that is not known never
   * goes anywhere else. The last answer is the order's.
   */
  async function sendAlong(
    claimed: OrderRecord,
    routes: readonly Route[],
    first: ChosenRoute,
  ): Promise<
    | {
        kind: "answered";
        order: OrderRecord;
        attempt: Attempt;
        route: ChosenRoute;
        answer: TopupResult;
        /** What the answer taught of its provider is recorded already. */
        observed?: boolean;
      }
    | { kind: "settled"; order: OrderRecord }
  > {
    let order = claimed;
    let route = first;
    let attempt = currentAttempt(order);
    for (;;) {
      const line = deps.supply.line(attempt.provider);
      const answer: TopupResult =
        line === undefined
          ? { kind: "failed", reason: "not-sent", detail: `provider ${attempt.provider} is not configured` }
          : await line.client.order({ refId: attempt.refId, itemCode: attempt.code, destination: order.playerId });
      if (answer.kind !== "failed" || !deps.supply.failsOver(attempt.provider, answer))
        return { kind: "answered", order, attempt, route, answer };
      await deps.supply.observe(route, answer);
      const next = await deps.supply.choose(routes, route.index + 1).catch((err: unknown) => {
        logger.warn({ err, refId: order.refId }, "the next provider could not be chosen; the refusal stands");
        return undefined;
      });
      if (next === undefined) return { kind: "answered", order, attempt, route, observed: true, answer };
      const nextAttempt: Attempt = {
        provider: next.provider,
        code: next.code,
        refId: attemptRefId(order.refId, (order.refused?.length ?? 0) + 2),
        at: now().toISOString(),
      };
      const step = await ledger
        .nextAttempt(order, {
          from: attempt.refId,
          refusal: {
            reason: answer.reason,
            ...(answer.errorCode === undefined ? {} : { errorCode: answer.errorCode }),
            ...(answer.errorMsg === undefined ? {} : { errorMsg: answer.errorMsg }),
          },
          next: nextAttempt,
        })
        .catch((err: unknown) => {
          // Not written: the refusal is recorded as the order's outcome instead; nothing is sent again.
          logger.error({ err, refId: order.refId }, "the next attempt could not be written; the order fails");
          return undefined;
        });
      if (step === undefined) {
        await deps.supply.release(next);
        return { kind: "answered", order, attempt, route, observed: true, answer };
      }
      if (step.kind !== "next") {
        await deps.supply.release(next);
        logger.warn({ refId: order.refId }, "order settled while it went to the next provider; the settlement stands");
        return { kind: "settled", order: step.kind === "stale" ? step.order : order };
      }
      logger.info(
        {
          refId: order.refId,
          refused: { provider: attempt.provider, errorCode: answer.errorCode, reason: answer.reason },
          next: { provider: nextAttempt.provider, refId: nextAttempt.refId },
        },
        "order sent to the next provider",
      );
      order = step.order;
      attempt = nextAttempt;
      route = next;
    }
  }

  return {
    async confirm(req: ConfirmRequest): Promise<ConfirmOutcome> {
      /** The draft as it stands: the one given (not saved before the claim), or the ledger's. */
      const draftNow = async () => req.draft ?? (await ledger.get(req.refId));
      const state = await deps.shop.state();
      if (state.pause !== undefined) {
        // Paused: the user's own draft is not sent. Anything else is answered as it stands.
        const draft = await draftNow();
        if (draft?.state === "draft" && draft.userId === req.userId)
          return { kind: "paused", order: draft, pause: state.pause };
      }
      // Several providers: the first route whose provider is not resting, chosen before the claim so
      // that the claim records it (a product whose every route rests is not claimed at all).
      let routes: Route[] = [];
      let route: ChosenRoute | undefined;
      // Most orders of a healthy shop go to main under their own code: then nothing is read first.
      if (!deps.supply.quickFirst()) {
        const draft = await draftNow();
        if (draft?.state === "draft" && draft.userId === req.userId) {
          routes = deps.supply.routes(draft.productCode);
          route = await deps.supply.choose(routes, 0);
          if (route === undefined) return { kind: "unavailable", order: draft };
        }
      }
      const claim = await ledger.claim(req.refId, {
        userId: req.userId,
        at: now().toISOString(),
        ...(req.summaryMessageId === undefined ? {} : { summaryMessageId: req.summaryMessageId }),
        offered: codesForSale(state.catalog),
        ...(req.partnerRef === undefined ? {} : { partnerRef: req.partnerRef }),
        ...(route === undefined ? {} : { attempt: { provider: route.provider, code: route.code } }),
        ...(req.draft === undefined ? {} : { draft: req.draft }),
        ...(req.oweAtMs === undefined ? {} : { oweAtMs: req.oweAtMs }),
        // For the next summary of the same product and player id ("ordered before").
        ...(deps.recent === undefined ? {} : { recentMs: PLACED_BEFORE_MS + 60_000 }),
      });
      if (claim.kind !== "claimed" && route !== undefined) await deps.supply.release(route);
      if (claim.kind === "used") return claim;
      if (claim.kind === "not-found" || claim.kind === "not-yours" || claim.kind === "not-offered") return claim;
      if (claim.kind === "short") {
        const draft = await draftNow();
        return draft === undefined ? { kind: "not-found" } : { kind: "short", order: draft, saldo: claim.saldo };
      }
      if (claim.kind === "taken") return describeTaken(claim.order);

      let order = claim.order;
      logger.info({ refId: order.refId, state: "submitting", product: order.productCode }, "order state changed");
      deps.events.claimed(order);
      await req
        .onClaimed?.(order)
        .catch((err: unknown) => logger.warn({ err, refId: order.refId }, "claimed order not shown"));
      if (route === undefined) {
        // Sent to main under its own code without asking: its routes, for a failover, from the catalogue.
        route = { ...currentAttempt(order), index: 0, clean: true };
        if (!deps.supply.single) routes = deps.supply.routes(order.productCode);
      }
      const sent = await sendAlong(order, routes, route);
      if (sent.kind === "settled") return { kind: "already", order: sent.order };
      order = sent.order;
      const answer = sent.answer;
      const provider = sent.attempt.provider;
      // Recorded straight away, without another await in between: the ledger's sequence of sales
      // is the order in which their answers arrived.
      const finished = await record(
        order,
        { ...fromTopupResult(answer), at: now().toISOString() },
        provider,
        deps.supply.isEmpty(provider, answer),
        req.answering?.() === true,
      );
      // What the answer taught of its provider, once the order's outcome is safe.
      if (sent.observed !== true) await deps.supply.observe(sent.route, answer);
      if (finished.kind !== "finished") {
        // An admin settled it while the call ran (it had been reported interrupted): theirs stands.
        logger.warn(
          { refId: order.refId, answer: answer.kind },
          "provider answer arrived after the order was settled; kept the settlement",
        );
        return { kind: "already", order: finished.kind === "stale" ? finished.order : order };
      }
      const done = finished.order;
      logger.info(
        {
          refId: done.refId,
          state: done.state,
          reason: done.result?.reason,
          errorCode: done.result?.errorCode,
          trxId: done.result?.trxId,
        },
        "order state changed",
      );
      // The admins' notices go out beside the user's answer, not before it.
      void deps.events
        .finished(done, "confirmed", {
          lowBalance: finished.lowBalance,
          providerEmpty: finished.providerEmpty === true,
        })
        .catch((err: unknown) => logger.error({ err, refId: done.refId }, "order notices failed"));
      // Read in the answer and recorded as told in the outcome's own step: nobody else is to be told.
      if (done.notifiedAt !== undefined && req.answering !== undefined) return { kind: "submitted", order: done };
      return { kind: "submitted", order: await telling.tell(done) };
    },
  };
}
