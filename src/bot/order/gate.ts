import type { Pause } from "../../shop/shop.js";
import type { Translate } from "../i18n.js";

/** What a user is told while orders are paused: the admin's reason, when there is one. */
export function pausedText(t: Translate, pause: Pause): string {
  return pause.reason === "" ? t("orders-paused") : t("orders-paused-reason", { reason: pause.reason });
}

/** The same, short enough for a button's alert (200 characters at most). */
export function pausedAlert(t: Translate, pause: Pause): string {
  const text = pause.reason === "" ? t("callback-paused") : t("callback-paused-reason", { reason: pause.reason });
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
