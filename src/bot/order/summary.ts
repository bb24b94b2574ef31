import type { OfferedMatch } from "../../catalog/catalog.js";
import { paidFromSaldo, type OrderRecord } from "../../orders/order.js";
import type { DraftInput } from "../../orders/order-service.js";
import type { Wallets } from "../../orders/wallet.js";
import type { InnerContext } from "../context.js";
import { isGroup, mention } from "../groups.js";
import { confirmKeyboard } from "./keyboards.js";
import { renderSummary } from "./messages.js";

/**
 * Shows the summary with Confirm and Cancel bound to the order's ref_id; a reseller's shows their
 * price and saldo (read here, or given by a dialogue that read it once).
 */
export async function sendSummary(
  ctx: InnerContext,
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

/** A reseller's saldo for the summary (undefined for an order on the shop's account). */
export async function saldoForSummary(wallets: Wallets, order: OrderRecord): Promise<number | undefined> {
  return paidFromSaldo(order) ? (await wallets.get(order.userId)).saldo : undefined;
}

/** The draft of an order from the chat it is made in: who, where, what and for whom, at what price. */
export function draftInput(
  ctx: Pick<InnerContext, "chat" | "from" | "lang" | "buyer">,
  match: OfferedMatch,
  playerId: string,
  requestMessageId?: number,
): DraftInput {
  const from = ctx.from!;
  const buyer = ctx.buyer!;
  return {
    chatId: ctx.chat!.id,
    userId: from.id,
    userName: [from.first_name, from.last_name].filter(Boolean).join(" ") || String(from.id),
    lang: ctx.lang,
    gameName: match.game.name,
    productCode: match.product.code,
    productName: match.product.name,
    price: match.price,
    playerId,
    role: buyer.role,
    ...(buyer.role === "reseller" ? { tier: buyer.tier } : {}),
    ...(requestMessageId !== undefined && isGroup(ctx) ? { requestMessageId } : {}),
  };
}
