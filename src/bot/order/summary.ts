import type { OfferedMatch } from "../../catalog/catalog.js";
import type { OrderRecord } from "../../orders/order.js";
import type { DraftRequest } from "../../orders/order-service.js";
import type { InnerContext } from "../context.js";
import { isGroup, mention } from "../groups.js";
import { confirmKeyboard } from "./keyboards.js";
import { renderSummary } from "./messages.js";

/**
 * Shows the summary with Confirm and Cancel bound to the order's ref_id; a reseller's shows their
 * price and saldo (as the service read it with the draft).
 */
export async function sendSummary(
  ctx: Pick<InnerContext, "reply" | "tr" | "chat" | "from">,
  order: OrderRecord,
  saldo?: number,
  replyTo?: number,
): Promise<void> {
  const text = renderSummary(ctx.tr, order, saldo);
  const markup = { reply_markup: confirmKeyboard(order.refId, ctx.tr) };
  if (!isGroup(ctx) || ctx.from === undefined) return void (await ctx.reply(text, markup));
  // In a group: whose summary it is, as a reply to their message.
  await ctx.reply(`${mention(ctx.from)}\n${text}`, {
    ...markup,
    ...(replyTo === undefined ? {} : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } }),
  });
}

/** The draft an order asks for, from the chat it is made in: who, where, what and for whom. */
export function draftRequest(
  ctx: Pick<InnerContext, "chat" | "from" | "lang" | "buyer">,
  match: Pick<OfferedMatch, "product">,
  playerId: string,
  requestMessageId?: number,
): DraftRequest {
  const from = ctx.from!;
  return {
    chatId: ctx.chat!.id,
    userId: from.id,
    userName: [from.first_name, from.last_name].filter(Boolean).join(" ") || String(from.id),
    lang: ctx.lang,
    buyer: ctx.buyer!,
    productCode: match.product.code,
    playerId,
    ...(requestMessageId !== undefined && isGroup(ctx) ? { requestMessageId } : {}),
  };
}
