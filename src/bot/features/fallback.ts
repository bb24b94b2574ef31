import { Composer } from "grammy";
import type { OrderService } from "../../orders/order-service.js";
import { parseCallback } from "../callback-data.js";
import type { BotContext } from "../context.js";
import { safeTranslate } from "../text.js";
import { answerQuery } from "../answer.js";

const HTML = { parse_mode: "HTML" } as const;

/** Last in the chain: whatever nothing else took gets an answer, never silence or a spinning button. */
export function fallbackFeature(deps: { orders: OrderService }): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.on("callback_query", async (ctx) => {
    const t = safeTranslate(ctx.t.bind(ctx));
    const data = parseCallback(ctx.callbackQuery.data);
    const text = data === undefined ? t("callback-invalid") : t("order-menu-closed");
    await answerQuery(ctx, { text, show_alert: data === undefined });
  });

  composer.on("message", async (ctx) => {
    const t = safeTranslate(ctx.t.bind(ctx));
    if (ctx.message.text?.startsWith("/")) {
      await ctx.reply(t("unknown-command"), HTML);
      return;
    }
    if (ctx.chat.type !== "private") return;
    const draftRef = await deps.orders.openDraftOf(ctx.chat.id, ctx.from.id);
    const open = draftRef !== undefined && (await deps.orders.get(draftRef))?.state === "draft";
    await ctx.reply(t(open ? "order-open-draft" : "fallback"), HTML);
  });

  return composer;
}
