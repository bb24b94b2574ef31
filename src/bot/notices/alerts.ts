import type { Api } from "grammy";
import { currentAttempt, MAIN_PROVIDER, type Lang, type OrderRecord } from "../../orders/order.js";
import type { HealthChange } from "../../providers/resting.js";
import { formatRupiah } from "../format.js";
import { translator, type Texts, type Translate } from "../i18n.js";
import type { AdminFanOut } from "./fan-out.js";

/** A provider as its alerts need it: its name and its low-balance threshold. */
export interface AlertedProvider {
  name: string;
  lowBalance?: number | undefined;
}

/**
 * The admins' alerts about the shop's money with a provider: its balance went below its threshold
 * (LOW_BALANCE_THRESHOLD for main, TOPUP_<NAME>_LOW_BALANCE for another), or the shop's deposit
 * with it ran out and an order was refused for it. Each provider has its own: the one of the
 * order's current attempt (the one that answered). A shop with several providers reads which one
 * in the alert; a shop with one reads it as before. The order service decides when one is due
 * (once per crossing, per provider); this only says it.
 */
export function createAlerts(deps: {
  api: Api;
  texts: Texts;
  fanOut: AdminFanOut;
  lowBalanceThreshold: number | undefined;
  /** The configured providers, in preference order (absent: main alone). */
  providers?: readonly AlertedProvider[] | undefined;
}) {
  const tFor = (lang: Lang): Translate => translator(deps.texts, lang);
  const alert = (notice: string, build: (t: Translate, lang: Lang) => string) =>
    deps.fanOut.toAdmins(notice, (to) => deps.api.sendMessage(to.chatId, build(tFor(to.lang), to.lang), to.topic));
  const several = (deps.providers?.length ?? 1) > 1;
  const thresholdOf = (provider: string): number | undefined =>
    provider === MAIN_PROVIDER
      ? deps.lowBalanceThreshold
      : deps.providers?.find((p) => p.name === provider)?.lowBalance;
  /** The provider's name in front of an alert, when the shop has several. */
  const named = (t: Translate, provider: string, text: string): string =>
    several ? t("alert-at-provider", { provider, alert: text }) : text;

  return {
    async lowBalance(order: OrderRecord): Promise<void> {
      const balance = order.result?.lastBalance;
      const { provider } = currentAttempt(order);
      const threshold = thresholdOf(provider);
      if (balance === undefined || threshold === undefined) return;
      await alert("low balance", (t, lang) =>
        named(
          t,
          provider,
          t("low-balance-alert", {
            balance: formatRupiah(balance, lang),
            refId: order.refId,
            threshold: formatRupiah(threshold, lang),
          }),
        ),
      );
    },
    /** The shop's own deposit with the order's provider ran out: an order was refused for it. */
    async providerEmpty(order: OrderRecord): Promise<void> {
      const r = order.result ?? {};
      const { provider } = currentAttempt(order);
      await alert("provider empty", (t) =>
        named(
          t,
          provider,
          t("provider-empty-alert", {
            errorCode: r.errorCode ?? t("value-none"),
            errorMsg: r.errorMsg ?? t("order-failed-no-message"),
            refId: order.refId,
          }),
        ),
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
