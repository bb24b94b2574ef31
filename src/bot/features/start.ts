import { Composer } from "grammy";
import type { Catalog } from "../../catalog/catalog.js";
import type { BotContext } from "../context.js";
import { languageOf } from "../i18n.js";
import { safeTranslate } from "../text.js";

const HTML = { parse_mode: "HTML" } as const;

/** /start and /help answer anyone: a refused user learns their id here too. */
export function startFeature(deps: { catalog: Catalog; mayOrder: (userId: number) => Promise<boolean> }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const firstGame = deps.catalog.games[0]!;
  const example = {
    exampleCode: firstGame.products[0]!.code,
    examplePlayer: firstGame.destination?.example ?? "123456789",
  };

  composer.command("start", async (ctx) => {
    const t = safeTranslate(ctx.t.bind(ctx));
    const userId = ctx.from?.id ?? 0;
    const greeting = t("start-greeting", { name: ctx.from?.first_name ?? "" });
    const menu = (await deps.mayOrder(userId)) ? t("start-menu", example) : t("access-refused", { userId: String(userId) });
    // Remember the Telegram language: notices to this user (an admin's sale notices) use it.
    const session = await ctx.session;
    const seen = languageOf(ctx.from?.language_code);
    if (session.telegramLanguage !== seen) session.telegramLanguage = seen;
    await ctx.reply(`${greeting}\n\n${menu}`, { parse_mode: "HTML" });
  });

  composer.command("help", async (ctx) => {
    const t = safeTranslate(ctx.t.bind(ctx));
    const codes = deps.catalog.games.flatMap((g) => g.products.map((p) => p.code)).join(", ");
    await ctx.reply(`${t("help")}\n\n${t("help-products", { codes })}`, HTML);
  });

  return composer;
}
