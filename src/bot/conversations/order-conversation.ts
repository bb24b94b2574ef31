import { checkPlayerId, findProduct, type Catalog, type ProductMatch } from "../../catalog/catalog.js";
import type { OrderService } from "../../orders/order-service.js";
import { parseCallback } from "../callback-data.js";
import type { InnerContext, OrderConversation } from "../context.js";
import { gamesKeyboard, productsKeyboard } from "../keyboards/order-keyboards.js";
import { safeTranslate } from "../text.js";
import { draftInput, sendSummary } from "../features/order-summary.js";
import { answerQuery } from "../answer.js";

export const ORDER_CONVERSATION = "order";

/** Where `/order …` asks the conversation to begin. Plain JSON: it is stored with the conversation. */
export interface OrderPreset {
  code?: string;
  /** A player id typed with `/order CODE ID` that did not pass the game's rule. */
  badPlayerId?: string;
}

export interface OrderConversationDeps {
  catalog: Catalog;
  orders: OrderService;
}

const HTML = { parse_mode: "HTML" } as const;

/**
 * The order dialogue: product (buttons or a typed code), then player id, then the summary.
 * It ends when the summary is shown: Confirm and Cancel are handled outside, by handlers that
 * nothing replays, and bound to the order's ref_id (see features/order.ts).
 *
 * Replay rules: everything with a side effect or a changing value (the draft with its new
 * ref_id) runs in `conversation.external`; Bot API calls stay outside it.
 */
export function createOrderConversation(deps: OrderConversationDeps) {
  const { catalog, orders } = deps;

  async function chooseProduct(conversation: OrderConversation, ctx: InnerContext): Promise<ProductMatch> {
    const t = safeTranslate(ctx.t.bind(ctx));
    const onlyGame = catalog.games.length === 1;
    const menu = onlyGame
      ? await ctx.reply(t("order-choose-product", { game: catalog.games[0]!.name }), {
          ...HTML,
          reply_markup: productsKeyboard(catalog, 0, t),
        })
      : await ctx.reply(t("order-choose-game"), { ...HTML, reply_markup: gamesKeyboard(catalog) });

    for (;;) {
      const next = await conversation.wait();
      const data = next.callbackQuery === undefined ? undefined : parseCallback(next.callbackQuery.data);
      if (data?.type === "game" && catalog.games[data.index] !== undefined) {
        await answerQuery(next);
        await ctx.api
          .editMessageText(menu.chat.id, menu.message_id, t("order-choose-product", { game: catalog.games[data.index]!.name }), {
            ...HTML,
            reply_markup: productsKeyboard(catalog, data.index, t),
          })
          .catch(() => undefined); // "message is not modified" after a double tap is harmless
        continue;
      }
      if (data?.type === "games") {
        await answerQuery(next);
        await ctx.api
          .editMessageText(menu.chat.id, menu.message_id, t("order-choose-game"), { ...HTML, reply_markup: gamesKeyboard(catalog) })
          .catch(() => undefined);
        continue;
      }
      const typed = next.message?.text;
      const code = data?.type === "product" ? data.code : typed !== undefined && !typed.startsWith("/") ? typed : undefined;
      if (code !== undefined) {
        const match = findProduct(catalog, code);
        if (match !== undefined) {
          if (next.callbackQuery !== undefined) await answerQuery(next);
          await ctx.api
            .editMessageText(menu.chat.id, menu.message_id, t("order-chosen", { code: match.product.code, product: match.product.name }), HTML)
            .catch(() => undefined);
          return match;
        }
        if (next.callbackQuery !== undefined) await answerQuery(next, { text: t("callback-invalid") });
        else await next.reply(t("order-unknown-code", { code: code.trim().slice(0, 40) }), HTML);
        continue;
      }
      // Other commands and buttons (/balance, a history page…) go to their handlers; we wait on.
      if (typed?.startsWith("/") || (next.callbackQuery !== undefined && data?.type !== "product")) {
        await conversation.skip({ next: true });
      }
      // A sticker, a photo, a voice note: say what we expect.
      if (next.message !== undefined) await next.reply(t("order-expect-choice"), HTML);
    }
  }

  async function askPlayerId(
    conversation: OrderConversation,
    ctx: InnerContext,
    match: ProductMatch,
    badInput: string | undefined,
  ): Promise<string> {
    const t = safeTranslate(ctx.t.bind(ctx));
    const { game, product } = match;
    const badText = (input: string) =>
      game.destination === undefined
        ? t("order-bad-player-any", { input: input.slice(0, 64) })
        : t("order-bad-player", { input: input.slice(0, 64), game: game.name, example: game.destination.example });
    if (badInput !== undefined) await ctx.reply(badText(badInput), HTML);
    else {
      const vars = { code: product.code, product: product.name, game: game.name };
      await ctx.reply(
        game.destination === undefined
          ? t("order-ask-player-any", vars)
          : t("order-ask-player", { ...vars, example: game.destination.example }),
        HTML,
      );
    }
    for (;;) {
      const next = await conversation.wait();
      const text = next.message?.text;
      if (text !== undefined && !text.startsWith("/")) {
        const checked = checkPlayerId(game, text);
        if (checked.ok) return checked.playerId;
        await next.reply(badText(text.trim()), HTML);
        continue;
      }
      if (text?.startsWith("/") || (next.callbackQuery !== undefined && parseCallback(next.callbackQuery.data)?.type !== "product")) {
        await conversation.skip({ next: true });
      }
      if (next.callbackQuery !== undefined) await answerQuery(next, { text: t("order-tap-not-now") });
      else if (next.message !== undefined) await next.reply(t("order-expect-text"), HTML);
    }
  }

  return async function order(conversation: OrderConversation, ctx: InnerContext, preset: OrderPreset = {}) {
    const presetMatch = preset.code === undefined ? undefined : findProduct(catalog, preset.code);
    const match = presetMatch ?? (await chooseProduct(conversation, ctx));
    const playerId = await askPlayerId(conversation, ctx, match, presetMatch === undefined ? undefined : preset.badPlayerId);
    const input = draftInput(ctx.chat!.id, ctx.from!, await ctx.i18n.getLocale(), match, playerId);
    // The ref_id is made and the draft written here, once: replays get the stored result back.
    const draft = await conversation.external(() => orders.createDraft(input));
    await sendSummary(ctx, draft);
  };
}
