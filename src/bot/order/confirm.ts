import type { Composer } from "grammy";
import { answerQuery } from "../answer.js";
import { Callback } from "../callback-data.js";
import type { FeatureContext } from "../context.js";
import { cancelAnswer, confirmAnswer } from "../notices/order-outcome.js";
import { summaryButtons } from "../summary-buttons.js";

/**
 * Confirm and Cancel on an order's summary. Both carry the order's ref_id and act on that order
 * only; the order service decides (orders open, the product still for sale, the ledger's one
 * atomic claim) and tells the outcome. They need no conversation state, so they run before the
 * dialogues and no waiting step can swallow them.
 */
export function confirmButtons<C extends FeatureContext<"orders" | "handledAgain" | "payInfo" | "depositRequests">>(
  composer: Composer<C>,
): void {
  summaryButtons(composer, {
    confirm: Callback.confirm,
    cancel: Callback.cancel,
    async onConfirm(ctx, refId) {
      const t = ctx.tr;
      const { orders } = ctx.services;
      const outcome = await orders.confirm({
        refId,
        userId: ctx.from.id,
        ...(ctx.callbackQuery.message === undefined ? {} : { summaryMessageId: ctx.callbackQuery.message.message_id }),
        // Answered at once (Telegram gives up on a query after ~10 s; a provider call can take
        // longer). The outcome reaches the user from the service, which tells every outcome.
        onClaimed: () => answerQuery(ctx, { text: t("callback-processing") }),
      });
      // What a tap shows is decided in notices/order-outcome.ts; here only what it must learn first.
      switch (outcome.kind) {
        case "in-progress": {
          const handledAgain = ctx.services.handledAgain(ctx.update);
          if (handledAgain) await orders.tellInterrupted([outcome.order]);
          return confirmAnswer(t, ctx.lang, outcome, { handledAgain });
        }
        case "short": {
          const deposits = (await ctx.services.payInfo.get()) !== undefined;
          return confirmAnswer(t, ctx.lang, outcome, {
            depositLimits: deposits ? ctx.services.depositRequests.limits : undefined,
          });
        }
        case "not-offered": {
          const cancelled = await orders.cancel({ refId, userId: ctx.from.id, chatId: outcome.order.chatId });
          return confirmAnswer(t, ctx.lang, outcome, {
            closed: cancelled.kind === "cancelled" ? cancelled.order : undefined,
          });
        }
        default:
          return confirmAnswer(t, ctx.lang, outcome);
      }
    },
    async onCancel(ctx, refId) {
      const t = ctx.tr;
      const outcome = await ctx.services.orders.cancel({
        refId,
        userId: ctx.from.id,
        chatId: ctx.chat?.id ?? ctx.from.id,
      });
      return cancelAnswer(t, outcome);
    },
  });
}
