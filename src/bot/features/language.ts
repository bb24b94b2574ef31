import { Composer, InlineKeyboard } from "grammy";
import type { I18n } from "@grammyjs/i18n";
import { answerQuery } from "../answer.js";
import { encodeCallback, parseCallback } from "../callback-data.js";
import type { BotContext } from "../context.js";
import { safeTranslate } from "../text.js";

/** /language for anyone: the choice is kept per user and wins over the Telegram language. */
export function languageFeature(deps: { i18n: I18n<BotContext>; onChange: (userId: number) => void }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("language", async (ctx) => {
    await ctx.reply(safeTranslate(ctx.t.bind(ctx))("language-choose"), {
      reply_markup: new InlineKeyboard()
        .text("English", encodeCallback({ type: "language", lang: "en" }))
        .text("Bahasa Indonesia", encodeCallback({ type: "language", lang: "id" })),
    });
  });
  composer.on("callback_query:data", async (ctx, next) => {
    const data = parseCallback(ctx.callbackQuery.data);
    if (data?.type !== "language") return next();
    const session = await ctx.session;
    session.language = data.lang;
    deps.onChange(ctx.from.id);
    const text = deps.i18n.t(data.lang, "language-set");
    await answerQuery(ctx, { text });
    await ctx.editMessageText(text).catch(() => ctx.reply(text));
  });
  return composer;
}
