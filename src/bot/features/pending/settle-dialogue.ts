import type { SettleOutcome, SettleRequest } from "../../../orders/order-service.js";
import { verdictProblem } from "../../../orders/settle.js";
import type { BotConversation, InnerContext } from "../../context.js";
import { dialogueIo, messageIdOf, passOn, typedText } from "../../dialogue-io.js";
import type { Translate } from "../../i18n.js";
import { renderState } from "../../order/messages.js";

export const SETTLE_DIALOGUE = "settle";

/** The admin's answer to a settlement, whichever way it was asked for. */
export function settleReply(t: Translate, refId: string, outcome: SettleOutcome): string {
  if (outcome.kind === "bad-sn") return t("settle-bad-sn");
  if (outcome.kind === "bad-reason") return t("settle-bad-reason");
  if (outcome.kind === "not-found") return t("settle-not-found", { refId });
  if (outcome.kind === "not-pending") return t("settle-not-pending", { refId, outcome: renderState(t, outcome.order) });
  return t("settle-done", { refId, outcome: renderState(t, outcome.order) });
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
) {
  const t = ctx.tr;
  const io = dialogueIo(conversation, ctx);
  // A question the admin answers by typing: in a group (the admin chat) a force_reply to them.
  await io.ask(t(outcome === "success" ? "settle-ask-sn" : "settle-ask-reason", { refId }));
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
      outcome === "success" ? { state: "success", sn: text } : { state: "failed", reason: text };
    // The service's rule for an SN or a reason: asked again here rather than refused there.
    if (verdictProblem(verdict) !== undefined) {
      await io.ask(t(outcome === "success" ? "settle-bad-sn" : "settle-bad-reason"), messageIdOf(next));
      continue;
    }
    const adminId = next.from!.id;
    const result = await conversation.external(() => ctx.services.orders.settle({ refId, adminId, outcome: verdict }));
    await io.say(settleReply(t, refId, result));
    return;
  }
}
