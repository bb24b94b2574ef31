import { InlineKeyboard, type Api } from "grammy";
import type { People, Person } from "../../access/people.js";
import type { Logger } from "../../logger.js";
import { paidFromSaldo, viaApi, type Lang, type OrderRecord } from "../../orders/order.js";
import { saleMargin } from "../../reports/figures.js";
import { Callback } from "../callback-data.js";
import { formatRupiah } from "../format.js";
import { translator, type Texts, type Translate } from "../i18n.js";
import { renderState } from "../order/messages.js";
import { attemptLines, wentElsewhere } from "../order/attempts.js";
import { nameBefore } from "../people.js";
import type { AdminFanOut } from "./fan-out.js";
import { sandboxLine } from "./order-outcome.js";
import type { PendingMessages } from "./pending-messages.js";

/**
 * What the admins read about a finished order: its outcome, the providers it went to when not only
 * main, why it failed, the reseller's price and margin, who settled it.
 */
function orderNoticeText(
  t: Translate,
  lang: Lang,
  order: OrderRecord,
  settler: Person | undefined,
  partnerRef?: string,
): string {
  const r = order.result ?? {};
  const heading = t(
    `notice-heading-${order.state === "success" ? "success" : order.state === "failed" ? "failed" : "unknown"}`,
    {
      user: order.userName,
      userId: String(order.userId),
    },
  );
  let text = `${heading}\n${t("notice-order", {
    code: order.productCode,
    product: order.productName,
    playerName: r.destinationName ?? t("value-none"),
    playerId: order.playerId,
    price: order.price === null ? t("order-price-none") : formatRupiah(order.price, lang),
    outcome: renderState(t, order),
    sn: r.sn ?? t("value-none"),
    balance: r.lastBalance === undefined ? t("value-none") : formatRupiah(r.lastBalance, lang),
    refId: order.refId,
  })}`;
  // Sent elsewhere than main, or refused first: each provider with the ref id it knows the order by.
  if (wentElsewhere(order)) text += `\n${attemptLines(t, order).join("\n")}`;
  // Why it failed, as the user is told: the provider's code and message (or the admin's reason).
  if (order.state === "failed") {
    if (r.reason === "settled") text += `\n${t("line-reason", { reason: r.errorMsg ?? t("value-none") })}`;
    else if (r.reason === "not-sent") text += `\n${t("notice-not-sent")}`;
    else {
      text += `\n${t("line-error-code", { errorCode: r.errorCode ?? t("value-none") })}`;
      text += `\n${t("line-error-msg", { errorMsg: r.errorMsg ?? t("order-failed-no-message") })}`;
    }
  }
  if (paidFromSaldo(order)) {
    // The reseller's price and what became of it; on a sale, what the shop made on it (once
    // the provider price is known).
    const sale = saleMargin(order);
    const key =
      order.state === "failed"
        ? "notice-reseller-released"
        : order.state === "unknown"
          ? "notice-reseller-held"
          : sale === undefined
            ? "notice-reseller"
            : "notice-reseller-margin";
    text += `\n${t(key, {
      tier: order.tier ?? "",
      price: formatRupiah(order.price!, lang),
      cost: sale === undefined ? "" : formatRupiah(sale.cost, lang),
      margin: sale === undefined ? "" : formatRupiah(sale.margin, lang),
    })}`;
  }
  // A sale below what the provider charged for it is a loss, whoever bought it: said plainly.
  const sold = saleMargin(order);
  if (sold !== undefined && sold.margin < 0)
    text += `\n${t("notice-loss", { price: formatRupiah(order.price!, lang), cost: formatRupiah(sold.cost, lang), loss: formatRupiah(-sold.margin, lang) })}`;
  if (order.settledBy === 0) text += `\n${t("notice-settled-by-provider")}`;
  else if (order.settledBy !== undefined)
    text += `\n${t("notice-settled", { adminId: String(order.settledBy), adminName: nameBefore(settler) })}`;
  if (viaApi(order)) text += `\n${t("notice-via-api")}`;
  // The partner's own ref_id beside the shop's: what their system will ask about.
  if (partnerRef !== undefined) text += `\n${t("line-partner-ref", { partnerRef })}`;
  return text;
}

/** /pending's buttons for an order whose result is unknown: settle it as a success or as failed. */
export const settleButtons = (t: Translate, refId: string) =>
  new InlineKeyboard()
    .text(t("button-settle-success"), Callback.settle.encode({ outcome: "success", refId }))
    .text(t("button-settle-failed"), Callback.settle.encode({ outcome: "failed", refId }));

export interface OrderNoticesDeps {
  api: Api;
  texts: Texts;
  fanOut: AdminFanOut;
  adminIds: readonly number[];
  logger: Logger;
  sandbox?: boolean | undefined;
  /** People's names, for who settled an order. */
  people?: Pick<People, "get"> | undefined;
  /** The /pending messages that show an order, whose buttons go once it is settled. */
  pendingMessages?: PendingMessages | undefined;
  /** The partner's ref_id of an H2H order. */
  partnerRefOf?: ((refId: string) => Promise<string | undefined>) | undefined;
}

/**
 * The admins' notice of each finished order (an unknown one with /pending's Success / Failed), and
 * a settled order's /pending messages losing their buttons.
 */
export function createOrderNotices(deps: OrderNoticesDeps) {
  const { api, logger } = deps;
  const tFor = (lang: Lang): Translate => translator(deps.texts, lang);

  async function tellAdmins(order: OrderRecord): Promise<void> {
    // Sales by someone else: an admin's own order is told to them once, as its result (unless the
    // notices go to the admin room, which keeps the shop's record of every sale).
    const except = deps.adminIds.includes(order.userId) ? order.userId : undefined;
    const settler =
      order.settledBy === undefined ? undefined : (await deps.people?.get([order.settledBy]))?.get(order.settledBy);
    // An unknown result waits for an admin: the notice has /pending's Success / Failed, and is
    // remembered so that its buttons go once the order is settled (from anywhere).
    const unknown = order.state === "unknown";
    const partnerRef = viaApi(order) ? await deps.partnerRefOf?.(order.refId).catch(() => undefined) : undefined;
    await deps.fanOut.toAdmins(
      "order",
      (to) => {
        const t = tFor(to.lang);
        const text = `${orderNoticeText(t, to.lang, order, settler, partnerRef)}${sandboxLine(t, deps.sandbox)}`;
        return api.sendMessage(to.chatId, text, {
          ...to.topic,
          ...(unknown ? { reply_markup: settleButtons(t, order.refId) } : {}),
        });
      },
      {
        except,
        sent: async (m) => {
          if (!unknown) return;
          await deps.pendingMessages
            ?.add(order.refId, { chatId: m.chat.id, messageId: m.message_id })
            .catch((err: unknown) =>
              logger.warn(
                { err, refId: order.refId },
                "unknown order's notice not remembered: its buttons stay once it is settled",
              ),
            );
        },
      },
    );
  }

  /** A settled order's /pending messages lose their buttons (a tap there would only be refused). */
  async function retirePendingButtons(order: OrderRecord): Promise<void> {
    for (const at of (await deps.pendingMessages?.take(order.refId)) ?? []) {
      await api
        .editMessageReplyMarkup(at.chatId, at.messageId)
        .catch((err: unknown) => logger.debug({ err, refId: order.refId }, "pending buttons not removed"));
    }
  }

  return { tellAdmins, retirePendingButtons };
}
