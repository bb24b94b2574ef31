import type { Api } from "grammy";
import type { Logger } from "../../logger.js";
import { paidFromSaldo, type OrderRecord } from "../../orders/order.js";
import type { LowSaldoWatch } from "../../orders/low-saldo.js";
import type { Deposit } from "../../orders/wallet.js";
import { formatRupiah } from "../format.js";
import { translator, type Texts } from "../i18n.js";
import type { UserPrefs } from "../user-prefs.js";
import { sendNotice } from "./fan-out.js";

/**
 * RESELLER_LOW_SALDO: the reseller hears, in their private chat and language, that a sale left
 * their saldo below the threshold, with how to top up; once per crossing (the watch decides, across
 * processes). Every successful sale paid from saldo counts, from the chat, the Mini App or the H2H
 * API alike; a deposit that brings the saldo back up lets the next fall be told.
 */
export function createLowSaldoNotice(deps: {
  api: Api;
  texts: Texts;
  prefs: Pick<UserPrefs, "languageFor">;
  logger: Logger;
  threshold: number;
  watch: LowSaldoWatch;
}) {
  return {
    async afterOrder(order: OrderRecord): Promise<void> {
      if (order.state !== "success" || !paidFromSaldo(order) || order.saldoAfter === undefined) return;
      if (!(await deps.watch.afterSale(order.userId, order.saldoAfter))) return;
      const lang = await deps.prefs.languageFor(order.userId);
      const text = translator(deps.texts, lang)("reseller-low-saldo", {
        saldo: formatRupiah(order.saldoAfter, lang),
        threshold: formatRupiah(deps.threshold, lang),
      });
      await sendNotice(deps.logger, order.userId, "low saldo", () =>
        deps.api.sendMessage(order.userId, text, { parse_mode: "HTML" }),
      );
    },
    afterDeposit: (deposit: Deposit, saldo: number) => deps.watch.afterDeposit(deposit.resellerId, saldo),
  };
}
