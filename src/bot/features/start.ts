import { Composer } from "grammy";
import type { Catalog } from "../../catalog/catalog.js";
import type { BotContext } from "../context.js";
import { safeTranslate } from "../text.js";

const HTML = { parse_mode: "HTML" } as const;

/** /start and /help answer anyone: a refused user learns their id here too. */
export function startFeature(deps: { catalog: Catalog; mayOrder: (userId: number) => boolean }): Composer<BotContext> {
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
    const menu = deps.mayOrder(userId) ? t("start-menu", example) : t("access-refused", { userId: String(userId) });
    await ctx.reply(`${greeting}\n\n${menu}`, { parse_mode: "HTML" });
  });

  composer.command("help", async (ctx) => {
    const t = safeTranslate(ctx.t.bind(ctx));
    const codes = deps.catalog.games.flatMap((g) => g.products.map((p) => p.code)).join(", ");
    await ctx.reply(`${t("help")}\n\n${t("help-products", { codes })}`, HTML);
  });

  return composer;
}
