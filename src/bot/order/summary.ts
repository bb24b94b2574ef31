import type { OfferedMatch } from "../../catalog/catalog.js";
import { paidFromSaldo, type OrderRecord } from "../../orders/order.js";
import type { DraftInput } from "../../orders/order-service.js";
import type { Wallets } from "../../orders/wallet.js";
import type { InnerContext } from "../context.js";
import { confirmKeyboard } from "./keyboards.js";
import { renderSummary } from "./messages.js";

/**
 * Shows the summary with Confirm and Cancel bound to the order's ref_id; a reseller's shows their
 * price and saldo (read here, or given by a dialogue that read it once).
 */
export async function sendSummary(ctx: InnerContext, order: OrderRecord, saldo?: number): Promise<void> {
  await ctx.reply(renderSummary(ctx.tr, order, saldo), { reply_markup: confirmKeyboard(order.refId, ctx.tr) });
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
  };
}
