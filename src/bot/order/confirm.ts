import { Composer } from "grammy";
import type { OrderRecord } from "../../orders/order.js";
import type { OrderService } from "../../orders/order-service.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { BotContext } from "../context.js";
import type { Notifier } from "../notifier.js";
import { renderOutcomeToast, renderSummaryAfter } from "./messages.js";

/**
 * Confirm and Cancel on a summary. Both carry the order's ref_id and act on that order only; the
 * ledger decides, in one atomic step, which tap wins. They need no conversation state, so they
 * run before the dialogues and no waiting step can swallow them.
 */
export function confirmButtons(deps: { orders: OrderService; notifier: Notifier }): Composer<BotContext> {
  const { orders, notifier } = deps;
  const composer = new Composer<BotContext>();

  /** The summary without its buttons, saying where the order stands. Failures are cosmetic. */
  const retire = async (ctx: BotContext, order: OrderRecord) => {
    const message = ctx.callbackQuery?.message;
    if (message === undefined) return;
    await ctx.api
      .editMessageText(message.chat.id, message.message_id, renderSummaryAfter(ctx.tr, order))
      .catch((err: unknown) => ctx.log.debug({ err, refId: order.refId }, "summary not edited"));
  };

  onCallback(composer, Callback.confirm, async (ctx, refId) => {
    const t = ctx.tr;
    const outcome = await orders.confirm({
      refId,
      userId: ctx.from.id,
      ...(ctx.callbackQuery.message === undefined ? {} : { summaryMessageId: ctx.callbackQuery.message.message_id }),
      // Answered at once (Telegram gives up on a query after ~10 s; a provider call can take
      // longer), and the buttons go only now that the order is claimed.
      onClaimed: async (order) => {
        await answerQuery(ctx, { text: t("callback-processing") });
        await retire(ctx, order);
      },
    });
    switch (outcome.kind) {
      case "submitted":
        await notifier.deliverOutcome(outcome.order);
        return;
      case "already":
        await answerQuery(ctx, { text: renderOutcomeToast(t, outcome.order), show_alert: true });
        // Another tap or process finished it; tell the outcome only if nobody has yet.
        if (outcome.order.notifiedAt === undefined) await notifier.deliverOutcome(outcome.order, "already");
        return;
      case "in-progress":
        await answerQuery(ctx, { text: t("callback-in-progress"), show_alert: true });
        await ctx.reply(t("order-in-progress", { refId: outcome.order.refId }));
        return;
      case "cancelled":
        await answerQuery(ctx, { text: t("callback-cancelled"), show_alert: true });
        return;
      case "not-yours":
        await answerQuery(ctx, { text: t("callback-not-yours"), show_alert: true });
        return;
      case "not-found":
        await answerQuery(ctx, { text: t("callback-expired"), show_alert: true });
    }
  });

  onCallback(composer, Callback.cancel, async (ctx, refId) => {
    const t = ctx.tr;
    const outcome = await orders.cancel({ refId, userId: ctx.from.id, chatId: ctx.chat?.id ?? ctx.from.id });
    switch (outcome.kind) {
      case "cancelled":
        await answerQuery(ctx, { text: t("order-cancelled") });
        await retire(ctx, outcome.order);
        return;
      case "too-late":
        await answerQuery(ctx, { text: t("order-cancel-too-late"), show_alert: true });
        return;
      case "not-yours":
        await answerQuery(ctx, { text: t("callback-not-yours"), show_alert: true });
        return;
      case "not-found":
        await answerQuery(ctx, { text: t("callback-expired"), show_alert: true });
    }
  });

  return composer;
}
