import { currentAttempt, MAIN_PROVIDER, type OrderRecord } from "../../orders/order.js";
import type { Translate } from "../i18n.js";

/** Whether an order took more than one attempt, or was sent somewhere other than main. */
export function wentElsewhere(order: OrderRecord): boolean {
  if (order.state === "draft" || order.state === "cancelled") return false;
  return (order.refused?.length ?? 0) > 0 || currentAttempt(order).provider !== MAIN_PROVIDER;
}

/**
 * An admin's lines about where an order went: the provider that fulfilled it (or holds it, or
 * refused it last) with that attempt's ref id, then each provider that refused it before, with
 * its ref id and error code, oldest first. Ref ids are what each provider knows the order by.
 */
export function attemptLines(t: Translate, order: OrderRecord): string[] {
  const at = currentAttempt(order);
  const lines = [t("line-provider", { provider: at.provider, refId: at.refId })];
  for (const r of order.refused ?? [])
    lines.push(
      t("line-provider-refused", {
        provider: r.provider,
        refId: r.refId,
        errorCode: r.errorCode ?? (r.reason === "not-sent" ? t("provider-not-sent") : t("value-none")),
      }),
    );
  return lines;
}

/** Whether the shop has more than one provider (TOPUP_PROVIDERS): its admins' screens name them. */
export const severalProviders = (names: readonly string[] | undefined): boolean => (names?.length ?? 1) > 1;
