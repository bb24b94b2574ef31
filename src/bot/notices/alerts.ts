import type { Api } from "grammy";
import type { Lang, OrderRecord } from "../../orders/order.js";
import type { HealthChange } from "../../providers/resting.js";
import { formatRupiah } from "../format.js";
import { translator, type Texts, type Translate } from "../i18n.js";
import type { AdminFanOut } from "./fan-out.js";

/**
 * The admins' alerts about the shop's money with the provider: the balance went below
 * LOW_BALANCE_THRESHOLD, or the shop's deposit ran out and an order was refused for it. The order
 * service decides when one is due (once per crossing); this only says it.
 */
export function createAlerts(deps: {
  api: Api;
  texts: Texts;
  fanOut: AdminFanOut;
  lowBalanceThreshold: number | undefined;
}) {
  const tFor = (lang: Lang): Translate => translator(deps.texts, lang);
  const alert = (notice: string, build: (t: Translate, lang: Lang) => string) =>
    deps.fanOut.toAdmins(notice, (to) => deps.api.sendMessage(to.chatId, build(tFor(to.lang), to.lang), to.topic));

  return {
    async lowBalance(order: OrderRecord): Promise<void> {
      const balance = order.result?.lastBalance;
      const threshold = deps.lowBalanceThreshold;
      if (balance === undefined || threshold === undefined) return;
      await alert("low balance", (t, lang) =>
        t("low-balance-alert", {
          balance: formatRupiah(balance, lang),
          refId: order.refId,
          threshold: formatRupiah(threshold, lang),
        }),
      );
    },
    /** The shop's own deposit with the provider ran out: an order was refused for it. */
    async providerEmpty(order: OrderRecord): Promise<void> {
      const r = order.result ?? {};
      await alert("provider empty", (t) =>
        t("provider-empty-alert", {
          errorCode: r.errorCode ?? t("value-none"),
          errorMsg: r.errorMsg ?? t("order-failed-no-message"),
          refId: order.refId,
        }),
      );
    },
    /** A provider started resting (orders go around it), or answered again: told once each. */
    async providerHealth(change: HealthChange, timeZone: string): Promise<void> {
      if (change.kind === "back") {
        await alert("provider back", (t) => t("provider-back-alert", { provider: change.provider }));
        return;
      }
      const until = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit" }).format(
        new Date(change.until),
      );
      await alert("provider resting", (t) =>
        t(change.why === "empty" ? "provider-resting-empty-alert" : "provider-resting-alert", {
          provider: change.provider,
          until,
        }),
      );
    },
  };
}
