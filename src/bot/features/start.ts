import { Composer } from "grammy";
import { offeredTo } from "../../catalog/catalog.js";
import type { Shop, ShopState } from "../../shop/shop.js";
import type { BotContext } from "../context.js";
import type { UserPrefs } from "../user-prefs.js";
import { pausedText } from "../order/gate.js";

/** What this user may do, by role: ordering, their account, settings, and an admin's commands. */
function menuFor(ctx: BotContext, example: { exampleCode: string; examplePlayer: string }): string {
  const role = ctx.buyer?.role;
  return [
    ctx.tr("start-menu", example),
    ctx.tr(role === "reseller" ? "menu-reseller" : "menu-staff"),
    ctx.tr("menu-common"),
    ...(role === "admin" ? ["", ctx.tr("menu-admin")] : []),
  ].join("\n");
}

/** /start and /help answer anyone: a refused user learns their id here too. */
export function startFeature(deps: { shop: Shop; prefs: UserPrefs }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  /** A product this user may order, for the example of a one-line order. */
  const exampleFor = async (ctx: BotContext, state: ShopState) => {
    const { catalog, pause } = state;
    const buyer = ctx.buyer ?? { role: "staff" as const };
    const game = catalog.games.find((g) => g.products.some((p) => offeredTo(p, buyer))) ?? catalog.games[0]!;
    const example = {
      exampleCode: (game.products.find((p) => offeredTo(p, buyer)) ?? game.products[0]!).code,
      examplePlayer: game.destination?.example ?? "123456789",
    };
    // While orders are paused, the menu says so first.
    return { example, paused: pause === undefined ? "" : `\n\n${pausedText(ctx.tr, pause)}` };
  };

  composer.command("start", async (ctx) => {
    const userId = ctx.from?.id ?? 0;
    const greeting = ctx.tr("start-greeting", { name: ctx.from?.first_name ?? "" });
    let menu = ctx.tr("access-refused", { userId: String(userId) });
    if (ctx.buyer !== undefined) {
      const { example, paused } = await exampleFor(ctx, await deps.shop.state());
      menu = `${menuFor(ctx, example)}${paused}`;
    }
    // Remember the Telegram language: messages sent to this user later (an admin's notices) use it.
    if (ctx.from !== undefined) await deps.prefs.sawTelegramLanguage(ctx.from.id, ctx.from.language_code);
    await ctx.reply(`${greeting}\n\n${menu}`);
  });

  composer.command("help", async (ctx) => {
    const buyer = ctx.buyer ?? { role: "staff" as const };
    const state = await deps.shop.state();
    const codes = state.catalog.games
      .flatMap((g) => g.products.filter((p) => offeredTo(p, buyer)).map((p) => p.code))
      .join(", ");
    const commands =
      ctx.buyer === undefined ? ctx.tr("menu-common") : menuFor(ctx, (await exampleFor(ctx, state)).example);
    await ctx.reply(`${ctx.tr("help")}\n\n${commands}\n\n${ctx.tr("help-products", { codes })}`);
  });

  return composer;
}
