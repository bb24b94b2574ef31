import type { Composer } from "grammy";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { FeatureContext } from "../context.js";
import { menuOwner } from "../groups.js";
import { gamesKeyboard, productsKeyboard } from "./keyboards.js";

/**
 * Moving through the product menu: a game's products, and back to the games. The buttons carry
 * all there is to know, so this needs no dialogue state (it runs before the dialogues); it reads
 * only the catalogue in use (and, with several providers, which products rest).
 */
export function menuButtons<C extends FeatureContext<"shop" | "orders">>(composer: Composer<C>): void {
  // Browsing orders nothing: while storage is out of reach, the catalogue last read will do.
  const browse = (ctx: FeatureContext<"shop">) => {
    const { shop } = ctx.services;
    return shop.catalog().catch(() => shop.cachedCatalog());
  };
  const show = async (ctx: FeatureContext<"shop">, text: string, keyboard: ReturnType<typeof gamesKeyboard>) => {
    await answerQuery(ctx);
    // "message is not modified" after a double tap is harmless.
    await ctx
      .editMessageText(text, { reply_markup: keyboard })
      .catch((err: unknown) => ctx.log.debug({ err }, "menu not edited"));
  };
  onCallback(composer, Callback.game, async (ctx, index) => {
    const catalog = await browse(ctx);
    const game = catalog.games[index];
    if (game === undefined) return answerQuery(ctx, { text: ctx.tr("callback-invalid") });
    const resting = await ctx.services.orders.unavailable(catalog);
    await show(
      ctx,
      ctx.tr("order-choose-product", { game: game.name }),
      productsKeyboard(catalog, index, ctx.tr, ctx.buyer!, menuOwner(ctx), resting),
    );
  });
  onCallback(composer, Callback.games, async (ctx) =>
    show(ctx, ctx.tr("order-choose-game"), gamesKeyboard(await browse(ctx), ctx.buyer!, menuOwner(ctx))),
  );
}
