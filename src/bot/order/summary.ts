import type { ProductMatch } from "../../catalog/catalog.js";
import type { OrderRecord } from "../../orders/order.js";
import type { DraftInput } from "../../orders/order-service.js";
import type { InnerContext } from "../context.js";
import { confirmKeyboard } from "./keyboards.js";
import { renderSummary } from "./messages.js";

/** Shows the summary with Confirm and Cancel bound to the order's ref_id. */
export async function sendSummary(ctx: InnerContext, order: OrderRecord): Promise<void> {
  await ctx.reply(renderSummary(ctx.tr, order), { reply_markup: confirmKeyboard(order.refId, ctx.tr) });
}

/** The draft of an order from the chat it is made in: who, where, what and for whom. */
export function draftInput(
  ctx: Pick<InnerContext, "chat" | "from" | "lang">,
  match: ProductMatch,
  playerId: string,
): DraftInput {
  const from = ctx.from!;
  return {
    chatId: ctx.chat!.id,
    userId: from.id,
    userName: [from.first_name, from.last_name].filter(Boolean).join(" ") || String(from.id),
    lang: ctx.lang,
    gameName: match.game.name,
    productCode: match.product.code,
    productName: match.product.name,
    price: match.product.price ?? null,
    playerId,
  };
}
