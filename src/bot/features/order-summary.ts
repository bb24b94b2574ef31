import type { Context } from "grammy";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { ProductMatch } from "../../catalog/catalog.js";
import type { OrderRecord } from "../../orders/order.js";
import type { DraftInput } from "../../orders/order-service.js";
import { languageOf } from "../i18n.js";
import { confirmKeyboard } from "../keyboards/order-keyboards.js";
import { renderSummary } from "../order-messages.js";
import { safeTranslate } from "../text.js";

/** Shows the summary with Confirm and Cancel bound to the order's ref_id. */
export async function sendSummary(ctx: Context & I18nFlavor, order: OrderRecord): Promise<void> {
  const t = safeTranslate(ctx.t.bind(ctx));
  await ctx.reply(renderSummary(t, order), { parse_mode: "HTML", reply_markup: confirmKeyboard(order.refId, t) });
}

/** The draft of an order from the chat it is made in: who, where, what and for whom. */
export function draftInput(
  chatId: number,
  from: { id: number; first_name: string; last_name?: string },
  lang: string,
  match: ProductMatch,
  playerId: string,
): DraftInput {
  return {
    chatId,
    userId: from.id,
    userName: [from.first_name, from.last_name].filter(Boolean).join(" ") || String(from.id),
    lang: languageOf(lang),
    gameName: match.game.name,
    productCode: match.product.code,
    productName: match.product.name,
    price: match.product.price ?? null,
    playerId,
  };
}
