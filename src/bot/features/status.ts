import { InputFile } from "grammy";
import type { Person } from "../../access/people.js";
import { paidFromSaldo, showsProviders, type OrderRecord } from "../../orders/order.js";
import { isAdmin } from "../admin.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { BaseContext } from "../context.js";
import { defineFeature } from "../feature.js";
import { formatRupiah, formatTime } from "../format.js";
import type { Translate } from "../i18n.js";
import { nameBefore } from "../people.js";
import { renderReason, renderState } from "../order/messages.js";
import { attemptLines, severalProviders } from "../order/attempts.js";
import { receiptKeyboard, receiptPicture, renderReceipt, resultKeyboard } from "../order/receipt.js";

/** Telegram's limit on a photo's caption, counted without the markup. */
const MAX_CAPTION = 1024;

/** A caption's length as Telegram counts it: the text without its HTML tags and with entities read. */
const captionLength = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&(lt|gt|amp|quot|#39);/g, "x").length;

/** What an order's id may look like when typed: the shop's ref id, or a partner's H2H ref_id. */
const TYPED_REF = /^[A-Za-z0-9_.-]{1,64}$/;

/** The user who placed the order, and admins, may see it; for anyone else it does not exist. */
const maySee = (ctx: BaseContext, order: OrderRecord): boolean => order.userId === ctx.from?.id || isAdmin(ctx);

/**
 * The order's state and result, as /status shows it: no price, saldo or balance; who ordered, the
 * provider's trx id and the providers it went to (each attempt's ref id) for admins only.
 */
function renderStatus(
  t: Translate,
  order: OrderRecord,
  opts: {
    lang: BaseContext["lang"];
    timeZone: string;
    admin: boolean;
    settler?: Person | undefined;
    /** The shop has several providers. */
    several: boolean;
    /** The partner's own ref_id of an H2H order. */
    partnerRef?: string | undefined;
  },
): string {
  const r = order.result ?? {};
  const time = (iso: string) => formatTime(iso, opts.lang, opts.timeZone);
  const state = order.state === "draft" ? t("status-state-draft") : renderState(t, order);
  const lines = [t("status-title"), t("status-state", { state })];
  if (order.state === "draft" || order.state === "cancelled") lines.push(t("status-nothing-ordered"));
  lines.push(
    t("status-game", { game: order.gameName }),
    t("line-product", { code: order.productCode, product: order.productName }),
  );
  if (r.destinationName !== undefined)
    lines.push(t("line-player", { playerName: r.destinationName, playerId: order.playerId }));
  else lines.push(t("line-player-id", { playerId: order.playerId }));
  if (order.state === "success") lines.push(t("line-sn", { sn: r.sn ?? t("value-none") }));
  if (order.state === "failed") {
    // A reseller reads the shop's word (the price came back); the provider's or an admin's are for admins.
    const shopWord = !opts.admin && paidFromSaldo(order);
    if (r.reason === "not-sent") lines.push(t("status-not-sent"));
    else if (shopWord) lines.push(t("order-failed-reseller"));
    else if (r.reason === "settled") lines.push(t("line-reason", { reason: r.errorMsg ?? t("value-none") }));
    else {
      lines.push(t("line-error-code", { errorCode: r.errorCode ?? t("value-none") }));
      lines.push(t("line-error-msg", { errorMsg: r.errorMsg ?? t("order-failed-no-message") }));
    }
    if (shopWord) lines.push(t("line-price-returned", { price: formatRupiah(order.price!, opts.lang) }));
  }
  if (order.state === "unknown") lines.push(t("line-reason", { reason: renderReason(t, order) }));
  if (opts.admin && r.trxId !== undefined) lines.push(t("line-trx", { trxId: r.trxId }));
  lines.push(t("line-ref", { refId: order.refId }));
  if (opts.partnerRef !== undefined) lines.push(t("line-partner-ref", { partnerRef: opts.partnerRef }));
  // Which provider has it (and which refused it before) is the shop's business, not the buyer's.
  if (opts.admin && showsProviders(order, opts.several)) lines.push(...attemptLines(t, order));
  lines.push("");
  lines.push(t("status-created", { time: time(order.createdAt) }));
  if (order.submittedAt !== undefined) lines.push(t("status-submitted", { time: time(order.submittedAt) }));
  if (order.finishedAt !== undefined) lines.push(t("status-finished", { time: time(order.finishedAt) }));
  if (order.settledAt !== undefined) {
    lines.push(
      // Settled by 0: by the provider's own status answer.
      opts.admin && order.settledBy !== undefined && order.settledBy !== 0
        ? t("status-settled-by", {
            time: time(order.settledAt),
            adminId: String(order.settledBy),
            adminName: nameBefore(opts.settler),
          })
        : t("status-settled", { time: time(order.settledAt) }),
    );
  }
  if (opts.admin) lines.push(t("status-ordered-by", { user: order.userName, userId: String(order.userId) }));
  return lines.join("\n");
}

/**
 * /status REF_ID: one order's state and result, for the user who placed it and for admins. For
 * anyone else the answer is the one for an unknown ref id, so nobody learns that it exists.
 * Also the Receipt button under a successful result: a message for the end customer.
 */
export const statusFeature = defineFeature({
  name: "status",
  needs: ["reports", "place", "people", "providerNames"],
  commands: [
    { name: "status", menu: ["everyone"], help: [{ key: "help-status", for: ["staff", "reseller", "admin"] }] },
  ],
  setup(at) {
    const composer = at("buyers");
    composer.command("status", async (ctx, next) => {
      const t = ctx.tr;
      const typed = ctx.match.trim().split(/\s+/)[0] ?? "";
      if (typed === "") return void (await ctx.reply(t("status-usage")));
      // A deposit request's id (DR…) is shown by the deposit requests' /status.
      if (/^DR[0-9A-Z]{19}$/i.test(typed)) return next();
      const { orders: reports } = ctx.services.reports;
      const found = TYPED_REF.test(typed) ? (await reports.named(typed)).filter((o) => maySee(ctx, o)) : [];
      const order = found[0];
      if (order === undefined) {
        const shown = TYPED_REF.test(typed) ? typed : typed.toUpperCase().slice(0, 64);
        return void (await ctx.reply(t("status-not-found", { refId: shown.replace(/[<>&]/g, "") })));
      }
      // Two partners' ref_ids, or a partner's and one of the shop's: each order by the shop's own id.
      if (found.length > 1)
        return void (await ctx.reply(
          t("status-several", { id: typed, refIds: found.map((o) => `<code>${o.refId}</code>`).join("\n") }),
        ));
      const partnerRef = await reports.partnerRefOf(order.refId);
      const keyboard = resultKeyboard(t, order);
      const settler =
        order.settledBy === undefined
          ? undefined
          : (await ctx.services.people.get([order.settledBy])).get(order.settledBy);
      await ctx.reply(
        renderStatus(t, order, {
          lang: ctx.lang,
          timeZone: ctx.services.place.timeZone,
          admin: isAdmin(ctx),
          settler,
          several: severalProviders(ctx.services.providerNames),
          partnerRef,
        }),
        keyboard === undefined ? {} : { reply_markup: keyboard },
      );
    });

    onCallback(composer, Callback.receipt, async (ctx, refId) => {
      const t = ctx.tr;
      const order = await ctx.services.reports.orders.get(refId);
      // An order that is not theirs is answered like one that does not exist.
      if (order === undefined || !maySee(ctx, order)) {
        return answerQuery(ctx, { text: t("callback-not-yours"), show_alert: true });
      }
      if (order.state !== "success") {
        return answerQuery(ctx, { text: t("receipt-not-success", { state: renderState(t, order) }), show_alert: true });
      }
      await answerQuery(ctx, { text: t("receipt-sent") });
      const { place } = ctx.services;
      const text = renderReceipt(t, order, {
        lang: ctx.lang,
        shopName: place.shopName ?? ctx.me.first_name,
        timeZone: place.timeZone,
      });
      const keyboard = receiptKeyboard(t, order);
      const other = keyboard === undefined ? {} : { reply_markup: keyboard };
      // The picture, with the text receipt as its caption (the SN there can be copied); the text
      // alone when the caption would be too long or the picture cannot be drawn.
      const opts = { lang: ctx.lang, shopName: place.shopName ?? ctx.me.first_name, timeZone: place.timeZone };
      // The picture, with the text receipt as its caption (the SN there can be copied); the text
      // alone when the caption would be too long or the picture cannot be drawn. The drawing
      // library is loaded on the first receipt, not at start.
      const picture =
        captionLength(text) > MAX_CAPTION
          ? undefined
          : await import("../../pictures/receipt-picture.js")
              .then(({ receiptPng }) => receiptPng(receiptPicture(t, order, opts)))
              .catch((err: unknown) => {
                ctx.log.warn({ err, refId }, "receipt picture not drawn: the text receipt is sent");
                return undefined;
              });
      if (picture === undefined) return void (await ctx.reply(text, other));
      await ctx.replyWithPhoto(new InputFile(picture, `receipt-${order.refId}.png`), { caption: text, ...other });
    });
  },
});
