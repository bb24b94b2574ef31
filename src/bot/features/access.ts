import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import { safeTranslate } from "../text.js";
import { answerQuery } from "../answer.js";

/**
 * Stops everyone who may not order, before sessions, conversations and order handlers: nothing
 * they send (a command, a quick order, a forged button) reaches the order service.
 */
export function accessGuard(mayOrder: (userId: number) => Promise<boolean>): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.use(async (ctx, next) => {
    const userId = ctx.from?.id;
    if (userId !== undefined && (await mayOrder(userId))) return next();
    if (userId === undefined) return; // channel posts and the like: nobody to answer
    const t = safeTranslate(ctx.t.bind(ctx));
    if (ctx.callbackQuery !== undefined) {
      await answerQuery(ctx, { text: t("access-refused-alert", { userId: String(userId) }), show_alert: true });
      return;
    }
    // In groups, only answer what was addressed to the bot, not every line of the chat.
    const addressed = ctx.chat?.type === "private" || ctx.message?.text?.startsWith("/") === true;
    if (ctx.message !== undefined && addressed) {
      await ctx.reply(t("access-refused", { userId: String(userId) }), { parse_mode: "HTML" });
    }
  });
  return composer;
}
