import { Composer } from "grammy";
import { codesForSale } from "../../catalog/catalog.js";
import type { Shop } from "../../shop/shop.js";
import type { OrderRecord } from "../../orders/order.js";
import type { OrderService } from "../../orders/order-service.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { BotContext } from "../context.js";
import { formatRupiah } from "../format.js";
import type { Notifier } from "../notifier.js";
import { pausedAlert, pausedText } from "./gate.js";
import { renderOutcomeToast, renderSummaryAfter } from "./messages.js";

/** How long a provider call may take before the summary says it is being processed. */
const PROCESSING_NOTICE_MS = 1000;

/**
 * Confirm and Cancel on a summary. Both carry the order's ref_id and act on that order only; the
 * ledger decides, in one atomic step, which tap wins. They need no conversation state, so they
 * run before the dialogues and no waiting step can swallow them.
 */
export function confirmButtons(deps: { orders: OrderService; notifier: Notifier; shop: Shop }): Composer<BotContext> {
  const { orders, notifier, shop } = deps;
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
    // Sent only while orders are open, and only a product still for sale (at the price the summary
    // showed): the ledger checks the product in the same step that claims the order.
    const state = await shop.state();
    if (state.pause !== undefined) {
      const draft = await orders.get(refId);
      if (draft?.state === "draft" && draft.userId === ctx.from.id) {
        await answerQuery(ctx, { text: pausedAlert(t, state.pause), show_alert: true });
        await ctx.reply(pausedText(t, state.pause));
        return;
      }
    }
    // A slow provider: the summary says "processing" (and loses its buttons) while the user waits.
    // A fast one answers before that, and the summary goes straight to the outcome.
    let processing: NodeJS.Timeout | undefined;
    let shown: Promise<void> = Promise.resolve();
    const outcome = await orders.confirm({
      refId,
      userId: ctx.from.id,
      ...(ctx.callbackQuery.message === undefined ? {} : { summaryMessageId: ctx.callbackQuery.message.message_id }),
      offered: codesForSale(state.catalog),
      // Answered at once (Telegram gives up on a query after ~10 s; a provider call can take
      // longer); the buttons go only once the order is claimed (and the call is slow).
      onClaimed: async (order) => {
        processing = setTimeout(() => {
          shown = retire(ctx, order);
        }, PROCESSING_NOTICE_MS);
        await answerQuery(ctx, { text: t("callback-processing") });
      },
    });
    clearTimeout(processing);
    await shown; // the outcome's edit of the summary must come after this one
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
      case "short": {
        // Nothing was held and nothing sent; the summary keeps its buttons for after a deposit.
        const vars = {
          saldo: formatRupiah(outcome.saldo, ctx.lang),
          price: formatRupiah(outcome.order.price ?? 0, ctx.lang),
        };
        await answerQuery(ctx, { text: t("callback-saldo-short", vars), show_alert: true });
        await ctx.reply(t("order-saldo-short", vars));
        return;
      }
      case "not-offered": {
        // Hidden or removed since the summary was shown: nothing was held or sent; it is closed.
        const vars = { code: outcome.order.productCode, product: outcome.order.productName };
        await answerQuery(ctx, { text: t("callback-product-gone", vars), show_alert: true });
        const cancelled = await orders.cancel({ refId, userId: ctx.from.id, chatId: outcome.order.chatId });
        if (cancelled.kind === "cancelled") await retire(ctx, cancelled.order);
        await ctx.reply(t("order-product-gone", vars));
        return;
      }
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
