import { InlineKeyboard } from "grammy";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import { defineFeature } from "../feature.js";
import { translator } from "../i18n.js";

/** /language for anyone: the choice is kept per user and wins over the Telegram language. */
export const languageFeature = defineFeature({
  name: "language",
  needs: ["prefs", "texts"],
  commands: [{ name: "language", menu: ["everyone"], help: [{ key: "help-language", for: ["anyone"] }] }],
  setup(at) {
    const composer = at("anyone");
    composer.command("language", async (ctx) => {
      await ctx.reply(ctx.tr("language-choose"), {
        reply_markup: new InlineKeyboard()
          .text("English", Callback.language.encode("en"))
          .text("Bahasa Indonesia", Callback.language.encode("id")),
      });
    });
    onCallback(composer, Callback.language, async (ctx, lang) => {
      await ctx.services.prefs.setLanguage(ctx.from.id, lang);
      const text = translator(ctx.services.texts, lang)("language-set");
      await answerQuery(ctx, { text });
      await ctx.editMessageText(text).catch(async (err: unknown) => {
        ctx.log.debug({ err }, "language menu not edited; answering with a new message");
        await ctx.reply(text);
      });
    });
  },
});
