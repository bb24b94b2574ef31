import { Composer, InlineKeyboard } from "grammy";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { BotContext } from "../context.js";
import { translator } from "../i18n.js";
import type { Texts } from "../i18n.js";
import type { UserPrefs } from "../user-prefs.js";

/** /language for anyone: the choice is kept per user and wins over the Telegram language. */
export function languageFeature(deps: { texts: Texts; prefs: UserPrefs }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("language", async (ctx) => {
    await ctx.reply(ctx.tr("language-choose"), {
      reply_markup: new InlineKeyboard()
        .text("English", Callback.language.encode("en"))
        .text("Bahasa Indonesia", Callback.language.encode("id")),
    });
  });
  onCallback(composer, Callback.language, async (ctx, lang) => {
    await deps.prefs.setLanguage(ctx.from.id, lang);
    const text = translator(deps.texts, lang)("language-set");
    await answerQuery(ctx, { text });
    await ctx.editMessageText(text).catch(async (err: unknown) => {
      ctx.log.debug({ err }, "language menu not edited; answering with a new message");
      await ctx.reply(text);
    });
  });
  return composer;
}
