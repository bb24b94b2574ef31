import { InlineKeyboard } from "grammy";
import type { Lang, OrderRecord } from "../../orders/order.js";
import type { ReceiptPicture } from "../../pictures/receipt-picture.js";
import { Callback } from "../callback-data.js";
import { formatTime } from "../format.js";
import type { Translate } from "../i18n.js";

/** Telegram copies 1 to 256 characters with a copy_text button. */
const MAX_COPY = 256;

/** The SN, when a copy button can carry it. */
function copyableSn(order: OrderRecord): string | undefined {
  const sn = order.result?.sn;
  return sn !== undefined && sn.length >= 1 && sn.length <= MAX_COPY ? sn : undefined;
}

/**
 * The buttons under a successful result (and under /status of one): Receipt, and one that copies
 * the SN with a tap. Nothing for an order that did not succeed.
 */
export function resultKeyboard(t: Translate, order: OrderRecord): InlineKeyboard | undefined {
  if (order.state !== "success") return undefined;
  const keyboard = new InlineKeyboard().text(t("receipt-button"), Callback.receipt.encode(order.refId));
  const sn = copyableSn(order);
  if (sn !== undefined) keyboard.copyText(t("copy-sn-button"), sn);
  return keyboard;
}

/** Under the receipt itself: only the SN's copy button. */
export function receiptKeyboard(t: Translate, order: OrderRecord): InlineKeyboard | undefined {
  const sn = copyableSn(order);
  return sn === undefined ? undefined : new InlineKeyboard().copyText(t("copy-sn-button"), sn);
}

const zoneNames = new Map<string, Intl.DateTimeFormat>();

/** The time zone as people read it: `WIB`, `WITA`, `WIT` in Indonesian, `GMT+7` in English. */
function zoneName(iso: string, lang: Lang, timeZone: string): string {
  const key = `${lang} ${timeZone}`;
  let format = zoneNames.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(lang === "id" ? "id-ID" : "en-US", { timeZone, timeZoneName: "short" });
    zoneNames.set(key, format);
  }
  return format.formatToParts(new Date(iso)).find((p) => p.type === "timeZoneName")?.value ?? timeZone;
}

/** When the order finished (an admin's settlement counts), in the shop's time zone. */
export function receiptTime(order: OrderRecord, lang: Lang, timeZone: string): string {
  const at = order.finishedAt ?? order.settledAt ?? order.submittedAt ?? order.createdAt;
  return `${formatTime(at, lang, timeZone)} ${zoneName(at, lang, timeZone)}`;
}

/**
 * The receipt of a successful order, for the end customer, to be forwarded as it is: the shop,
 * when, what, for whom, the SN and the ref id. Never a balance, a saldo, a price or the
 * provider's trx id.
 */
export function renderReceipt(
  t: Translate,
  order: OrderRecord,
  opts: { lang: Lang; shopName: string; timeZone: string },
): string {
  const r = order.result ?? {};
  const lines = [
    t("receipt-title", { shop: opts.shopName }),
    "",
    t("receipt-time", { time: receiptTime(order, opts.lang, opts.timeZone) }),
    t("receipt-status"),
    t("receipt-game", { game: order.gameName }),
    t("receipt-product", { code: order.productCode, product: order.productName }),
    t("receipt-player-id", { playerId: order.playerId }),
  ];
  if (r.destinationName !== undefined) lines.push(t("receipt-player-name", { playerName: r.destinationName }));
  lines.push(t("receipt-sn", { sn: r.sn ?? t("value-none") }));
  lines.push(t("receipt-ref", { refId: order.refId }), "", t("receipt-thanks"));
  return lines.join("\n");
}

/**
 * The same receipt as the picture's fields (plain text, the reader's language): what
 * pictures/receipt-picture.ts draws. The same fields as the text, nothing more.
 */
export function receiptPicture(
  t: Translate,
  order: OrderRecord,
  opts: { lang: Lang; shopName: string; timeZone: string },
): ReceiptPicture {
  const r = order.result ?? {};
  const rows = [
    { label: t("receipt-picture-game"), value: order.gameName },
    { label: t("receipt-picture-product"), value: `${order.productCode} · ${order.productName}` },
    { label: t("receipt-picture-player-id"), value: order.playerId },
  ];
  if (r.destinationName !== undefined) rows.push({ label: t("receipt-picture-player-name"), value: r.destinationName });
  return {
    shop: opts.shopName,
    title: t("receipt-picture-title"),
    status: t("receipt-picture-status"),
    time: receiptTime(order, opts.lang, opts.timeZone),
    rows,
    snLabel: t("receipt-picture-sn"),
    sn: r.sn ?? "–",
    refLabel: t("receipt-picture-ref"),
    refId: order.refId,
    thanks: t("receipt-picture-thanks"),
  };
}
