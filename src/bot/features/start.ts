import { Composer } from "grammy";
import type { Catalog } from "../../catalog/catalog.js";
import type { BotContext } from "../context.js";
import type { UserPrefs } from "../user-prefs.js";

/** /start and /help answer anyone: a refused user learns their id here too. */
export function startFeature(deps: { catalog: Catalog; prefs: UserPrefs }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const firstGame = deps.catalog.games[0]!;
  const example = {
    exampleCode: firstGame.products[0]!.code,
    examplePlayer: firstGame.destination?.example ?? "123456789",
  };

  composer.command("start", async (ctx) => {
    const userId = ctx.from?.id ?? 0;
    const greeting = ctx.tr("start-greeting", { name: ctx.from?.first_name ?? "" });
    const menu =
      ctx.buyer !== undefined ? ctx.tr("start-menu", example) : ctx.tr("access-refused", { userId: String(userId) });
    // Remember the Telegram language: messages sent to this user later (an admin's notices) use it.
    if (ctx.from !== undefined) await deps.prefs.sawTelegramLanguage(ctx.from.id, ctx.from.language_code);
    await ctx.reply(`${greeting}\n\n${menu}`);
  });

  composer.command("help", async (ctx) => {
    const codes = deps.catalog.games.flatMap((g) => g.products.map((p) => p.code)).join(", ");
    await ctx.reply(`${ctx.tr("help")}\n\n${ctx.tr("help-products", { codes })}`);
  });

  return composer;
}
