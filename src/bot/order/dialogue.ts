import { checkPlayerId, findOffered, type Buyer, type OfferedMatch } from "../../catalog/catalog.js";
import { Callback } from "../callback-data.js";
import type { BotConversation, InnerContext } from "../context.js";
import { gamesKeyboard, productsKeyboard } from "./keyboards.js";
import { dialogueIo, messageIdOf, passOn, typedText } from "../dialogue-io.js";
import { quoteTyped } from "../format.js";
import { menuOwner } from "../groups.js";
import { draftRefusal } from "./gate.js";
import { originOf, showOnce } from "../origin.js";
import { draftRequest, summaryMessage } from "./summary.js";

export const ORDER_DIALOGUE = "order";

/** Where a dialogue begins. Plain JSON: it is stored with the conversation. */
export interface OrderPreset {
  code?: string;
  /** A player id typed with `/order CODE ID` that did not pass the game's rule. */
  badPlayerId?: string;
  /** The menu message whose product button was tapped: it becomes the question for the player id. */
  menuMessageId?: number;
}

/**
 * A product of the catalogue in use, read once (the catalogue may change between replays): the
 * stored result keeps its game without the game's product list, which the dialogue never needs.
 */
const lookup = (conversation: BotConversation, ctx: InnerContext, code: string, buyer: Buyer) =>
  conversation.external(async (): Promise<OfferedMatch | null> => {
    const match = findOffered(await ctx.services.shop.catalog(), code, buyer);
    return match === undefined ? null : { ...match, game: { ...match.game, products: [] } };
  });

/** The product, and the menu message to turn into the next question when a button chose it. */
async function chooseProduct(
  conversation: BotConversation,
  ctx: InnerContext,
): Promise<{ match: OfferedMatch; menuMessageId?: number; replyTo?: number | undefined }> {
  const t = ctx.tr;
  const buyer = ctx.buyer!;
  const io = dialogueIo(conversation, ctx);
  // Game and "back" buttons are handled outside (order/menu.ts): they change no state. In a
  // group the buttons are the member's own (another member's tap is refused).
  const owner = menuOwner(ctx);
  const menuId = await io.menu(async () => {
    const catalog = await ctx.services.shop.catalog();
    return catalog.games.length === 1
      ? {
          text: t("order-choose-product", { game: catalog.games[0]!.name }),
          other: {
            reply_markup: productsKeyboard(catalog, 0, t, buyer, owner, await ctx.services.orders.unavailable(catalog)),
          },
        }
      : { text: t("order-choose-game"), other: { reply_markup: gamesKeyboard(catalog, buyer, owner) } };
  }, messageIdOf(ctx));
  for (;;) {
    const next = await conversation.wait();
    const query = next.callbackQuery;
    const code = query === undefined ? typedText(next) : Callback.product.decode(query.data ?? "");
    if (code === undefined) {
      await passOn(conversation, next);
      if (next.message !== undefined) await io.ask(t("order-expect-choice"), messageIdOf(next));
      continue;
    }
    const match = await lookup(conversation, ctx, code, buyer);
    if (match !== null) {
      if (query !== undefined) {
        await io.answer(query.id);
        return { match, menuMessageId: query.message?.message_id ?? menuId };
      }
      // Typed: the menu says what was chosen, the question comes below the user's message.
      await io.edit(menuId, t("order-chosen", { code: match.product.code, product: match.product.name }));
      return { match, replyTo: messageIdOf(next) };
    }
    if (query !== undefined) await io.answer(query.id, t("callback-invalid"));
    else await io.ask(t("order-unknown-code", { code: code.trim().slice(0, 40) }), messageIdOf(next));
  }
}

async function askPlayerId(
  conversation: BotConversation,
  ctx: InnerContext,
  match: OfferedMatch,
  opts: { badInput?: string | undefined; menuMessageId?: number | undefined; replyTo?: number | undefined },
) {
  const t = ctx.tr;
  const io = dialogueIo(conversation, ctx);
  const { game, product } = match;
  const badInput = opts.badInput;
  const badText = (input: string) =>
    game.destination === undefined
      ? t("order-bad-player-any", { input: quoteTyped(input) })
      : t("order-bad-player", { input: quoteTyped(input), game: game.name, example: game.destination.example });
  if (badInput !== undefined) await io.ask(badText(badInput), opts.replyTo);
  else {
    const vars = { code: product.code, product: product.name, game: game.name };
    const question =
      game.destination === undefined
        ? t("order-ask-player-any", vars)
        : t("order-ask-player", { ...vars, example: game.destination.example });
    // The menu a button was tapped on becomes the question: one message fewer in the chat. Not
    // in a group: there the question must be a force_reply to the member, a message of its own.
    if (opts.menuMessageId !== undefined && !io.group) await io.edit(opts.menuMessageId, question);
    else {
      if (opts.menuMessageId !== undefined)
        await io.edit(opts.menuMessageId, t("order-chosen", { code: product.code, product: product.name }));
      await io.ask(question, opts.replyTo);
    }
  }
  for (;;) {
    const next = await conversation.wait();
    const text = typedText(next);
    if (text !== undefined) {
      const checked = checkPlayerId(game, text);
      if (checked.ok) return { playerId: checked.playerId, messageId: messageIdOf(next), origin: originOf(next) };
      await io.ask(badText(text.trim()), messageIdOf(next));
      continue;
    }
    await passOn(conversation, next);
    if (next.callbackQuery !== undefined) await io.answer(next.callbackQuery.id, t("order-tap-not-now"));
    else if (next.message !== undefined) await io.ask(t("order-expect-text"), messageIdOf(next));
  }
}

/**
 * The order dialogue: product (buttons or a typed code), then player id, then the summary. It ends
 * when the summary is shown: Confirm and Cancel are handled outside (order/confirm.ts), by
 * handlers that nothing replays, bound to the order's ref_id.
 *
 * Replay rules (@grammyjs/conversations re-runs this function from the top for every update):
 * the draft with its new ref_id is made in `conversation.external`, once. Messages are sent by
 * `dialogueIo` inside `external` too, keeping only the message id: every result the plugin
 * records is stored with the conversation, and a whole Message object per step is most of what a
 * chat left in the middle of an order would cost in Redis. Commands and buttons that are not for
 * the dialogue pass on to their own handlers (`skip`), so a waiting step never swallows them.
 */
export async function orderDialogue(conversation: BotConversation, ctx: InnerContext, preset: OrderPreset = {}) {
  const presetMatch = preset.code === undefined ? null : await lookup(conversation, ctx, preset.code, ctx.buyer!);
  const chosen =
    presetMatch === null
      ? await chooseProduct(conversation, ctx)
      : { match: presetMatch, menuMessageId: preset.menuMessageId };
  const { playerId, messageId, origin } = await askPlayerId(conversation, ctx, chosen.match, {
    badInput: presetMatch === null ? undefined : preset.badPlayerId,
    menuMessageId: chosen.menuMessageId,
    replyTo: chosen.replyTo ?? messageIdOf(ctx),
  });
  // The ref_id is made and the draft written here, once: replays get the stored result back, and
  // a replay whose result was never stored (its process died first) gets the same draft from the
  // service, which keeps one per update (the player id's message). The service may refuse it:
  // orders paused, or the product hidden, while the id was awaited.
  const request = { ...draftRequest(ctx, chosen.match, playerId, messageId), origin };
  const made = await conversation.external(() => ctx.services.orders.createDraft(request));
  if (made.kind !== "draft") return void (await ctx.reply(draftRefusal(ctx.tr, made)));
  const { text, other } = summaryMessage(ctx, made, messageId);
  const io = dialogueIo(conversation, ctx);
  await conversation.external(() => showOnce(ctx, { origin, shownAs: made.shownAs }, () => io.send(text, other)));
}
