import { Composer } from "grammy";
import type { OrderService } from "../../orders/order-service.js";
import { answerQuery } from "../answer.js";
import { isOurCallback } from "../callback-data.js";
import type { BotContext } from "../context.js";

/** Last in the chain: whatever nothing else took gets an answer, never silence or a spinning button. */
export function fallbackFeature(deps: { orders: OrderService }): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.on("callback_query", async (ctx) => {
    const ours = isOurCallback(ctx.callbackQuery.data);
    await answerQuery(ctx, { text: ctx.tr(ours ? "order-menu-closed" : "callback-invalid"), show_alert: !ours });
  });

  // An edit of a message the bot already acted on changes nothing: say so, rather than nothing.
  composer.on("edited_message:text", async (ctx) => {
    const draftRef = await deps.orders.openDraftOf(ctx.chat.id, ctx.from.id);
    const open = draftRef !== undefined && (await deps.orders.get(draftRef))?.state === "draft";
    await ctx.reply(ctx.tr(open ? "edit-not-read-draft" : "edit-not-read"), {
      reply_parameters: { message_id: ctx.editedMessage.message_id, allow_sending_without_reply: true },
    });
  });

  composer.on("message", async (ctx) => {
    if (ctx.message.text?.startsWith("/")) return void (await ctx.reply(ctx.tr("unknown-command")));
    if (ctx.chat.type !== "private") return;
    const draftRef = await deps.orders.openDraftOf(ctx.chat.id, ctx.from.id);
    const open = draftRef !== undefined && (await deps.orders.get(draftRef))?.state === "draft";
    await ctx.reply(ctx.tr(open ? "order-open-draft" : "fallback"));
  });

  return composer;
}
