import type { Composer } from "grammy";
import { answerQuery } from "../answer.js";
import { Callback } from "../callback-data.js";
import type { FeatureContext } from "../context.js";
import { formatRupiah } from "../format.js";
import { summaryButtons } from "../summary-buttons.js";
import { pausedAlert, pausedText } from "./gate.js";
import { renderOutcomeToast, renderSummaryAfter } from "./messages.js";

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
      switch (outcome.kind) {
        case "submitted":
          return {};
        case "already":
          return { alert: renderOutcomeToast(t, outcome.order) };
        case "in-progress": {
          const order = outcome.order;
          // This very Confirm again, after the process handling it died at the provider: the user
          // learns the result is unknown (once per order, whoever sees the restart first), not
          // that a second tap is being processed.
          if (ctx.services.handledAgain(ctx.update)) {
            await orders.tellInterrupted([order]);
            return { alert: t("callback-in-progress") };
          }
          return { alert: t("callback-in-progress"), reply: t("order-in-progress", { refId: order.refId }) };
        }
        case "cancelled":
          return { alert: t("callback-cancelled") };
        case "paused":
          return { alert: pausedAlert(t, outcome.pause), reply: pausedText(t, outcome.pause) };
        case "short": {
          // Nothing was held and nothing sent; the summary keeps its buttons for after a deposit.
          const vars = {
            saldo: formatRupiah(outcome.saldo, ctx.lang),
            price: formatRupiah(outcome.order.price ?? 0, ctx.lang),
          };
          // How to top up: a deposit request of what is missing (at least the smallest one) where
          // the shop takes them, else the admin.
          const { min, max } = ctx.services.depositRequests.limits;
          const missing = Math.min(Math.max((outcome.order.price ?? 0) - outcome.saldo, min), max);
          const reply =
            (await ctx.services.payInfo.get()) === undefined
              ? t("order-saldo-short", vars)
              : t("order-saldo-short-deposit", { ...vars, amount: String(missing) });
          return { alert: t("callback-saldo-short", vars), reply };
        }
        case "not-offered": {
          // Hidden or removed since the summary was shown: nothing was held or sent; it is closed.
          const vars = { code: outcome.order.productCode, product: outcome.order.productName };
          const cancelled = await orders.cancel({ refId, userId: ctx.from.id, chatId: outcome.order.chatId });
          return {
            alert: t("callback-product-gone", vars),
            ...(cancelled.kind === "cancelled" ? { summary: renderSummaryAfter(t, cancelled.order) } : {}),
            reply: t("order-product-gone", vars),
          };
        }
        case "not-yours":
          return { alert: t("callback-not-yours") };
        // "used" answers only an order of the H2H API (a partner's ref id); a chat's never has one.
        case "used":
        case "not-found":
          return { alert: t("callback-expired"), dropButtons: true };
      }
    },
    async onCancel(ctx, refId) {
      const t = ctx.tr;
      const outcome = await ctx.services.orders.cancel({
        refId,
        userId: ctx.from.id,
        chatId: ctx.chat?.id ?? ctx.from.id,
      });
      switch (outcome.kind) {
        case "cancelled":
          return { toast: t("order-cancelled"), summary: renderSummaryAfter(t, outcome.order) };
        case "too-late":
          return { alert: t("order-cancel-too-late") };
        case "not-yours":
          return { alert: t("callback-not-yours") };
        case "not-found":
          return { alert: t("callback-expired"), dropButtons: true };
      }
    },
  });
}
