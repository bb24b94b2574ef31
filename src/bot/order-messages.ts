import type { OrderRecord } from "../orders/order.js";
import { formatNumber, formatRupiah, type Translate } from "./text.js";

/** The summary shown with Confirm and Cancel. */
export function renderSummary(t: Translate, order: OrderRecord): string {
  return t("order-summary", {
    code: order.productCode,
    product: order.productName,
    game: order.gameName,
    playerId: order.playerId,
    price: order.price === null ? t("order-price-none") : formatRupiah(order.price, order.lang),
    refId: order.refId,
  });
}

/** The full outcome of a finished order, in the language it was ordered in. */
export function renderOutcome(t: Translate, order: OrderRecord): string {
  const r = order.result ?? {};
  const base = { code: order.productCode, product: order.productName, playerId: order.playerId, refId: order.refId };
  if (order.state === "success") {
    return t("order-success", {
      ...base,
      playerName: r.destinationName ?? "",
      sn: r.sn ?? "",
      balance: r.lastBalance === undefined ? "" : formatNumber(r.lastBalance, order.lang),
      trxId: r.trxId ?? "",
    });
  }
  if (order.state === "failed") {
    if (r.reason === "not-sent") return t("order-not-sent", base);
    if (r.reason === "settled") return t("order-failed-settled", { ...base, reason: r.errorMsg ?? "" });
    return t("order-failed", {
      ...base,
      errorCode: r.errorCode ?? "",
      errorMsg: r.errorMsg ?? t("order-failed-no-message"),
    });
  }
  return t("order-unknown", { ...base, reason: renderReason(t, order) });
}

export function renderReason(t: Translate, order: OrderRecord): string {
  const reason = order.result?.reason ?? "interrupted";
  if (reason === "status-not-sukses") {
    return t("reason-status-not-sukses", { status: order.result?.productDetail?.status ?? "?" });
  }
  if (reason === "provider-error" || reason === "not-sent" || reason === "settled") return t("reason-malformed");
  return t(`reason-${reason}`);
}

/** The one-word outcome used in notices, history and reports. */
export function renderState(t: Translate, order: OrderRecord): string {
  switch (order.state) {
    case "success":
      return t("outcome-success");
    case "failed":
      return t("outcome-failed");
    case "unknown":
      return t("outcome-unknown");
    default:
      return t("outcome-submitting");
  }
}

/** The message text for an outcome, with a heading when it is a reminder or a settlement. */
export function outcomeText(t: Translate, order: OrderRecord, heading?: "already" | "settled"): string {
  const body = renderOutcome(t, order);
  if (heading === "already") return `${t("order-already-heading")}\n\n${body}`;
  if (heading === "settled") return `${t("order-settled-heading")}\n\n${body}`;
  return body;
}

/** A short line for a callback answer (at most 200 characters) about an order that already ran. */
export function renderOutcomeToast(t: Translate, order: OrderRecord): string {
  if (order.state === "success") return t("callback-already-success", { sn: order.result?.sn ?? "" });
  if (order.state === "failed") return t("callback-already-failed", { errorCode: order.result?.errorCode ?? order.result?.reason ?? "" });
  return t("callback-already-unknown");
}
