import type { InlineKeyboard } from "grammy";
import type { ReplyParameters } from "grammy/types";
import type { OfferedMatch } from "../../catalog/catalog.js";
import type { OrderRecord } from "../../orders/order.js";
import type { DraftRequest, PlacedBefore } from "../../orders/order-service.js";
import type { InnerContext } from "../context.js";
import type { Services } from "../services.js";
import { isGroup, mention } from "../groups.js";
import { confirmKeyboard } from "./keyboards.js";
import { renderSummary, renderSummaryAfter } from "./messages.js";

/**
 * The summary as a message: with Confirm and Cancel bound to the order's ref_id while it is a
 * draft; once it is not (a second handling of the update that made it, after a Confirm or a
 * Cancel), where the order stands, without buttons. A reseller's shows their price and saldo (as
 * the service read it with the draft). In a group it names the member and replies to their message.
 */
export function summaryMessage(
  ctx: Pick<InnerContext, "tr" | "chat" | "from"> & { services: Pick<Services, "place"> },
  made: { draft: OrderRecord; saldo?: number; before?: PlacedBefore },
  replyTo?: number,
): { text: string; other: { reply_markup?: InlineKeyboard; reply_parameters?: ReplyParameters } } {
  const { draft: order, saldo, before } = made;
  const open = order.state === "draft";
  const placed = before === undefined ? undefined : { placed: before, timeZone: ctx.services.place.timeZone };
  const text = open ? renderSummary(ctx.tr, order, saldo, placed) : renderSummaryAfter(ctx.tr, order);
  const markup = open ? { reply_markup: confirmKeyboard(order.refId, ctx.tr, before !== undefined) } : {};
  if (!isGroup(ctx) || ctx.from === undefined) return { text, other: markup };
  return {
    text: `${mention(ctx.from)}\n${text}`,
    other: {
      ...markup,
      ...(replyTo === undefined
        ? {}
        : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } }),
    },
  };
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
