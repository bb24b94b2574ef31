import type { SettleOutcome, SettleRequest } from "../../../orders/order-service.js";
import { MAX_PROVIDER_PRICE, verdictProblem } from "../../../orders/settle.js";
import { parseAmount } from "../../../amounts.js";
import type { BotConversation, InnerContext } from "../../context.js";
import { dialogueIo, messageIdOf, passOn, typedText } from "../../dialogue-io.js";
import type { Translate } from "../../i18n.js";
import { costOf, currentAttempt, type Lang, type OrderRecord } from "../../../orders/order.js";
import { formatRupiah } from "../../format.js";
import { renderState } from "../../order/messages.js";

import { settleTold, type SettleTold } from "../../../partners/settle-told.js";

export const SETTLE_DIALOGUE = "settle";

/** The admin's answer to a settlement, whichever way it was asked for. */
export function settleReply(
  t: Translate,
  lang: Lang,
  refId: string,
  outcome: SettleOutcome,
  told: SettleTold = "user",
): string {
  if (outcome.kind === "bad-sn") return t("settle-bad-sn");
  if (outcome.kind === "bad-cost") return t("settle-bad-cost");
  if (outcome.kind === "bad-reason") return t("settle-bad-reason");
  if (outcome.kind === "not-found") return t("settle-not-found", { refId });
  if (outcome.kind === "not-pending") return t("settle-not-pending", { refId, outcome: renderState(t, outcome.order) });
  const done = t("settle-done", { refId, outcome: renderState(t, outcome.order) });
  const cost = outcome.order.state === "success" ? costLine(t, lang, outcome.order) : undefined;
  return [done, t(`settle-told-${told}`), atProvider(t, outcome.order), cost]
    .filter((line) => line !== undefined)
    .join("\n");
}

/**
 * Where an order was waiting for its result: the provider of its current attempt and the ref id it
 * was sent there under (what to look up in that provider's dashboard; a settled success counts
 * under it). Undefined for an order of the one provider a shop had (nothing to tell apart).
 */
export function atProvider(t: Translate, order: OrderRecord): string | undefined {
  const at = waitingAt(order);
  return at === undefined ? undefined : t("settle-at-provider", at);
}

/** The provider and attempt ref id an order waits at; undefined for an order of a one-provider shop. */
export function waitingAt(order: OrderRecord): { provider: string; attemptRef: string } | undefined {
  if (order.attempt === undefined) return undefined;
  const attempt = currentAttempt(order);
  return { provider: attempt.provider, attemptRef: attempt.refId };
}

/** What a settled success counts as its provider price, and where that comes from. */
function costLine(t: Translate, lang: Lang, order: OrderRecord): string | undefined {
  const r = order.result ?? {};
  if (r.productDetail?.priceRp !== undefined) return undefined;
  const cost = costOf(r);
  if (cost === undefined) return t("settle-cost-unknown");
  return t(r.providerPriceFrom === "admin" ? "settle-cost-given" : "settle-cost-last-seen", {
    cost: formatRupiah(cost, lang),
  });
}

/**
 * An SN as an admin types it to settle a success, with the provider price after it if they know
 * it (`SN123 19350`, `SN123 Rp19.350`, `SN123 19,35rb`): the SN, and the price. A price that
 * cannot be read makes it NaN, which the service refuses by name (bad-cost); words that are no
 * price at all leave the whole text as the SN, which the service refuses for its spaces.
 */
export function snAndCost(text: string): { sn: string; cost?: number } {
  const m = /^(\S+)(?:\s+([\s\S]+))?$/u.exec(text.trim());
  if (m === null) return { sn: text.trim() };
  if (m[2] === undefined) return { sn: m[1]! };
  const cost = parseAmount(m[2], { max: MAX_PROVIDER_PRICE });
  if (cost.ok) return { sn: m[1]!, cost: cost.amount };
  // Words after it that do not even begin like an amount: an SN typed with spaces (refused as such).
  return /^(?:rp|idr|[0-9])/i.test(m[2].trim()) ? { sn: m[1]!, cost: Number.NaN } : { sn: text.trim() };
}

/**
 * The settle dialogue, entered from a /pending button: it asks for the SN (success) or the reason
 * (failed), then settles once. Commands and buttons pass on to their own handlers.
 */
export async function settleDialogue(
  conversation: BotConversation,
  ctx: InnerContext,
  refId: string,
  outcome: "success" | "failed",
  /** Where the order waits, when the shop has several providers (see atProvider); absent in older dialogues. */
  at?: { provider: string; attemptRef: string },
) {
  const t = ctx.tr;
  const io = dialogueIo(conversation, ctx);
  // A question the admin answers by typing: in a group (the admin chat) a force_reply to them.
  // With several providers it says where to look (the provider and the ref id it was sent under).
  const where = at === undefined ? undefined : t("settle-at-provider", at);
  const question = t(outcome === "success" ? "settle-ask-sn" : "settle-ask-reason", { refId });
  await io.ask(where === undefined ? question : `${question}\n${where}`);
  // (The provider price may follow the SN: "SN123 19350"; without it the last one seen counts.)
  for (;;) {
    const next = await conversation.wait();
    const text = typedText(next)?.trim();
    if (text === undefined) {
      await passOn(conversation, next);
      if (next.message !== undefined)
        await io.ask(t(outcome === "success" ? "settle-bad-sn" : "settle-bad-reason"), messageIdOf(next));
      continue;
    }
    const verdict: SettleRequest["outcome"] =
      outcome === "success" ? { state: "success", ...snAndCost(text) } : { state: "failed", reason: text };
    // The service's rule for an SN or a reason: asked again here rather than refused there.
    const problem = verdictProblem(verdict);
    if (problem !== undefined) {
      await io.ask(t(`settle-${problem}`), messageIdOf(next));
      continue;
    }
    const adminId = next.from!.id;
    const { result, told } = await conversation.external(async () => {
      const result = await ctx.services.orders.settle({ refId, adminId, outcome: verdict });
      const told = result.kind === "settled" ? await settleTold(ctx.services.partners, result.order) : "user";
      return { result, told };
    });
    await io.say(settleReply(t, ctx.lang, refId, result, told));
    return;
  }
}
