import { settleTold } from "../../../partners/settle-told.js";
import { createConversation } from "@grammyjs/conversations";
import { costOf, providerPriceOf, viaApi, type Lang, type OrderRecord } from "../../../orders/order.js";
import { adminOnly } from "../../admin.js";
import { answerQuery } from "../../answer.js";
import { Callback, onCallback } from "../../callback-data.js";
import type { BaseContext, InnerContext } from "../../context.js";
import { defineFeature } from "../../feature.js";
import { formatRupiah, formatTime, quoteTyped } from "../../format.js";
import type { Translate } from "../../i18n.js";
import { settleButtons } from "../../notices/order-notices.js";
import { renderReason, renderState } from "../../order/messages.js";
import { atProvider, waitingAt, SETTLE_DIALOGUE, settleDialogue, settleReply, snAndCost } from "./settle-dialogue.js";

function pendingLine(
  t: Translate,
  order: OrderRecord,
  lang: Lang,
  timeZone: string,
  partnerRef: string | undefined,
): string {
  // The same provider price as the Mini App's and the CSV's (the answer's, else the last seen).
  const price = providerPriceOf(order);
  const cost =
    price === undefined
      ? t("pending-cost-unknown")
      : costOf(order.result) === undefined
        ? t("pending-cost", { cost: formatRupiah(price, lang) })
        : t("pending-cost-answer", { cost: formatRupiah(price, lang) });
  const line = t("pending-line", {
    refId: order.refId,
    time: formatTime(order.submittedAt ?? order.createdAt, lang, timeZone),
    code: order.productCode,
    product: order.productName,
    playerId: order.playerId,
    user: `${order.userName} (${order.userId})`,
    reason: renderReason(t, order),
  });
  // With several providers: which one to look the order up at, under which ref id.
  const where = atProvider(t, order);
  // An H2H order: the partner's own ref_id, what they will ask about.
  const partner = partnerRef === undefined ? [] : [t("line-partner-ref", { partnerRef })];
  return [line, ...partner, ...(where === undefined ? [] : [where]), cost].join("\n");
}

/**
 * /pending lists orders whose result is unknown; /settle and the buttons (a short dialogue that
 * asks for the SN or the reason) settle them, once, through the order service, which tells the user.
 */
export const pendingFeature = defineFeature({
  name: "pending",
  needs: ["orders", "reports", "place", "telegram", "pendingMessages", "partners"],
  commands: [
    { name: "pending", menu: ["admin"], help: [{ key: "help-pending", for: ["admin"] }] },
    { name: "settle", menu: ["admin"] },
  ],
  setup(at) {
    const commands = at("buyers");
    commands.command("pending", adminOnly, async (ctx) => {
      const t = ctx.tr;
      const pending = await ctx.services.reports.orders.pending();
      if (pending.length === 0) return void (await ctx.reply(t("pending-none")));
      await ctx.reply(`${t("pending-title", { count: String(pending.length) })}\n${t("pending-help")}`);
      // One message per order, with its own buttons, so each can be settled where it stands; each
      // is remembered, so that its buttons go once the order is settled (from anywhere).
      for (const order of pending.slice(0, 20)) {
        const partnerRef = viaApi(order) ? await ctx.services.reports.orders.partnerRefOf(order.refId) : undefined;
        const sent = await ctx.reply(pendingLine(t, order, ctx.lang, ctx.services.place.timeZone, partnerRef), {
          reply_markup: settleButtons(t, order.refId),
        });
        await ctx.services.pendingMessages
          .add(order.refId, { chatId: sent.chat.id, messageId: sent.message_id })
          .catch((err: unknown) => ctx.log.warn({ err, refId: order.refId }, "pending message not remembered"));
      }
    });

    commands.command("settle", adminOnly, async (ctx) => {
      const t = ctx.tr;
      const m = /^(\S+)\s+(success|failed)\s+(.+)$/is.exec(ctx.match.trim());
      if (m === null) return void (await ctx.reply(t("settle-usage")));
      const [, typed, how, rest] = m as unknown as [string, string, string, string];
      const value = rest.trim();
      const success = how.toLowerCase() === "success";
      // A ref id in any case (the shop's own ids are found however they were typed), or a
      // partner's ref_id; an id that names several orders settles none of them.
      const found = await ctx.services.reports.orders.named(typed);
      if (found.length > 1)
        return void (await ctx.reply(
          t("settle-several", { id: typed, refIds: found.map((o) => `<code>${o.refId}</code>`).join("\n") }),
        ));
      const refId = found[0]?.refId ?? typed;
      // The service refuses an SN, a price or a reason of the wrong shape; the reply says which.
      const outcome = await ctx.services.orders.settle({
        refId,
        adminId: ctx.from!.id,
        outcome: success ? { state: "success", ...snAndCost(value) } : { state: "failed", reason: value },
      });
      // A ref id that is no order's is quoted short (it may be anything, of any length).
      const told = outcome.kind === "settled" ? await settleTold(ctx.services.partners, outcome.order) : "user";
      await ctx.reply(
        settleReply(t, ctx.lang, outcome.kind === "not-found" ? quoteTyped(refId) : refId, outcome, told),
      );
    });

    at("dialogues").use(createConversation<BaseContext, InnerContext>(settleDialogue, { id: SETTLE_DIALOGUE }));

    // A settle button enters the dialogue that asks for the SN or the reason.
    onCallback(
      at("dialogue-entry"),
      Callback.settle,
      async (ctx, data) => {
        const t = ctx.tr;
        const order = await ctx.services.reports.orders.get(data.refId);
        if (order === undefined || order.state !== "unknown") {
          const text =
            order === undefined
              ? t("settle-not-found", { refId: data.refId })
              : t("settle-not-pending", { refId: data.refId, outcome: renderState(t, order) });
          // Settled already: refused, and this message loses its buttons too.
          await ctx
            .editMessageReplyMarkup()
            .catch((err: unknown) => ctx.log.debug({ err }, "stale settle buttons not removed"));
          return answerQuery(ctx, { text: text.replace(/<[^>]+>/g, ""), show_alert: true });
        }
        await answerQuery(ctx);
        await ctx.conversation.exitAll();
        const at = waitingAt(order);
        if (at === undefined) await ctx.conversation.enter(SETTLE_DIALOGUE, data.refId, data.outcome);
        else await ctx.conversation.enter(SETTLE_DIALOGUE, data.refId, data.outcome, at);
      },
      adminOnly,
    );
  },
});
