import { paidFromSaldo, type OrderRecord } from "../../orders/order.js";
import type { PlacedBefore } from "../../orders/order-service.js";
import { formatClock, formatRupiah } from "../format.js";
import { mention } from "../groups.js";
import type { Translate } from "../i18n.js";

/** The summary's body; a reseller's shows their price, and their saldo when it is known. */
function summaryBody(t: Translate, order: OrderRecord, saldo?: number): string {
  const vars = {
    code: order.productCode,
    product: order.productName,
    game: order.gameName,
    playerId: order.playerId,
    price: order.price === null ? t("order-price-none") : formatRupiah(order.price, order.lang),
    refId: order.refId,
  };
  if (!paidFromSaldo(order)) return t("order-summary", vars);
  const body = t("order-summary-reseller", vars);
  if (saldo === undefined) return body;
  const after = saldo - order.price!;
  const line =
    after >= 0
      ? t("order-summary-saldo", { saldo: formatRupiah(saldo, order.lang), after: formatRupiah(after, order.lang) })
      : t("order-summary-saldo-short", { saldo: formatRupiah(saldo, order.lang) });
  return `${body}\n${line}`;
}

/**
 * The summary shown with Confirm and Cancel. With too little saldo it says so instead of inviting
 * a tap (a tap then orders nothing: the ledger checks the saldo again when it holds the price).
 */
export function renderSummary(
  t: Translate,
  order: OrderRecord,
  saldo?: number,
  before?: { placed: PlacedBefore; timeZone: string },
): string {
  const short = paidFromSaldo(order) && saldo !== undefined && saldo < order.price!;
  const hint = short
    ? t("order-summary-hint-short", { price: formatRupiah(order.price!, order.lang) })
    : t(before === undefined ? "order-summary-hint" : "order-summary-hint-again");
  const note = before === undefined ? "" : `\n\n${renderPlacedBefore(t, order, before.placed, before.timeZone)}`;
  return `${summaryBody(t, order, saldo)}${note}\n\n${hint}`;
}

/**
 * "Ordered before": the same product for the same player id a few minutes ago, when, and by whom
 * (the user themselves, or, to the shop's own people, another user by name).
 */
export function renderPlacedBefore(t: Translate, order: OrderRecord, placed: PlacedBefore, timeZone: string): string {
  const vars = {
    time: formatClock(placed.at, order.lang, timeZone),
    minutes: placed.minutesAgo,
    refId: placed.refId,
    name: placed.userName,
  };
  return t(placed.userId === order.userId ? "order-placed-before-you" : "order-placed-before-other", vars);
}

/** The summary once Confirm was tapped: the same text, no buttons, and where the order stands. */
export function renderSummaryAfter(t: Translate, order: OrderRecord): string {
  const r = order.result ?? {};
  const line =
    order.state === "submitting"
      ? t("summary-processing")
      : order.state === "success"
        ? r.sn === undefined
          ? t("summary-success")
          : t("summary-success-sn", { sn: r.sn })
        : order.state === "failed"
          ? t("summary-failed")
          : order.state === "unknown"
            ? t("summary-unknown")
            : t("summary-cancelled");
  return `${summaryBody(t, order)}\n\n${line}`;
}

/**
 * The full outcome of a finished order. Lines whose value the ledger does not have (an order an
 * admin settled has an SN but no player name, balance or trx id) are left out, not shown empty.
 */
export function renderOutcome(t: Translate, order: OrderRecord, lang = order.lang): string {
  const r = order.result ?? {};
  // Balances and saldos are for a private chat: in a group every member would read them.
  const money = order.chatId > 0;
  const lines: string[] = [];
  const add = (key: string, vars: Record<string, string>) => lines.push(t(key, vars));
  const product = { code: order.productCode, product: order.productName };
  if (order.state === "success") {
    lines.push(
      t(
        order.settledBy === undefined
          ? "order-success"
          : order.settledBy === 0
            ? "order-success-by-provider"
            : "order-success-settled",
      ),
    );
    add("line-product", product);
    if (r.destinationName !== undefined)
      add("line-player", { playerName: r.destinationName, playerId: order.playerId });
    else add("line-player-id", { playerId: order.playerId });
    add("line-sn", { sn: r.sn ?? t("value-none") });
    // A reseller sees their own saldo, never the shop's balance with the provider.
    if (!money) {
      // nothing: /balance or /saldo in a private chat tells it
    } else if (paidFromSaldo(order)) {
      if (order.saldoAfter !== undefined) add("line-saldo", { saldo: formatRupiah(order.saldoAfter, lang) });
    } else if (r.lastBalance !== undefined) add("line-balance", { balance: formatRupiah(r.lastBalance, lang) });
    // The provider's trx id is the shop's business with it: a reseller has the ref id (as in /status and the app).
    if (r.trxId !== undefined && !paidFromSaldo(order)) add("line-trx", { trxId: r.trxId });
    add("line-ref", { refId: order.refId });
    return lines.join("\n");
  }
  if (order.state === "failed" && paidFromSaldo(order)) {
    // A reseller reads the shop's word: it failed and the price came back. The provider's message,
    // code and trx id (and an admin's own reason, which often quotes them) are for the admins: the
    // provider's "saldo tidak cukup" would read as if the reseller's saldo were short.
    lines.push(
      t(
        r.reason === "not-sent"
          ? "order-not-sent"
          : r.reason !== "settled"
            ? "order-failed-reseller"
            : order.settledBy === 0
              ? "order-failed-by-provider"
              : "order-failed-settled",
      ),
    );
    add("line-product", product);
    add("line-player-id", { playerId: order.playerId });
    add("line-ref", { refId: order.refId });
    const price = formatRupiah(order.price!, lang);
    if (money && order.saldoAfter !== undefined)
      add("line-saldo-released", { price, saldo: formatRupiah(order.saldoAfter, lang) });
    else add("line-price-returned", { price });
    lines.push(t(r.reason === "not-sent" ? "order-try-again" : "order-order-again"));
    return lines.join("\n");
  }
  if (order.state === "failed") {
    if (r.reason === "not-sent") lines.push(t("order-not-sent"));
    else if (r.reason === "settled")
      lines.push(t(order.settledBy === 0 ? "order-failed-by-provider" : "order-failed-settled"));
    else lines.push(t("order-failed"));
    add("line-product", product);
    add("line-player-id", { playerId: order.playerId });
    if (r.reason === "settled") add("line-reason", { reason: r.errorMsg ?? t("value-none") });
    else if (r.reason !== "not-sent") {
      add("line-error-code", { errorCode: r.errorCode ?? t("value-none") });
      add("line-error-msg", { errorMsg: r.errorMsg ?? t("order-failed-no-message") });
    }
    add("line-ref", { refId: order.refId });
    if (money && paidFromSaldo(order) && order.saldoAfter !== undefined) {
      add("line-saldo-released", {
        price: formatRupiah(order.price!, lang),
        saldo: formatRupiah(order.saldoAfter, lang),
      });
    }
    lines.push(t(r.reason === "not-sent" ? "order-try-again" : "order-order-again"));
    return lines.join("\n");
  }
  lines.push(t("order-unknown", { reason: renderReason(t, order) }));
  add("line-product", product);
  add("line-player-id", { playerId: order.playerId });
  add("line-ref", { refId: order.refId });
  if (money && paidFromSaldo(order)) add("line-saldo-held", { price: formatRupiah(order.price!, lang) });
  return lines.join("\n");
}

export function renderReason(t: Translate, order: OrderRecord): string {
  const reason = order.result?.reason ?? "interrupted";
  if (reason === "status-not-sukses")
    return t("reason-status-not-sukses", { status: order.result?.productDetail?.status ?? "?" });
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
    case "cancelled":
      return t("outcome-cancelled");
    default:
      return t("outcome-submitting");
  }
}

/** The message text for an outcome, with a heading when it is a reminder or a settlement. */
export function outcomeText(
  t: Translate,
  order: OrderRecord,
  heading?: "already" | "settled",
  lang = order.lang,
): string {
  // In a group: the member it is for (the result also replies to their summary).
  const who = order.chatId < 0 ? `${mention({ id: order.userId, first_name: order.userName })}\n` : "";
  const body = `${who}${renderOutcome(t, order, lang)}`;
  if (heading === "already") return `${t("order-already-heading")}\n\n${body}`;
  // Settled by 0: by the provider's own status answer, not by an admin.
  if (heading === "settled")
    return `${t(order.settledBy === 0 ? "order-provider-heading" : "order-settled-heading")}\n\n${body}`;
  return body;
}
