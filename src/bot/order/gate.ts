import type { DraftResult } from "../../orders/order-service.js";
import type { Pause } from "../../shop/shop.js";
import type { Translate } from "../i18n.js";
import { quoteTyped } from "../format.js";

/** What a user is told while orders are paused: the admin's reason, when there is one. */
export function pausedText(t: Translate, pause: Pause): string {
  return pause.reason === "" ? t("orders-paused") : t("orders-paused-reason", { reason: pause.reason });
}

/** The same, short enough for a button's alert (200 characters at most). */
export function pausedAlert(t: Translate, pause: Pause): string {
  const text = pause.reason === "" ? t("callback-paused") : t("callback-paused-reason", { reason: pause.reason });
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** Why the service made no draft: orders paused, the product not for sale (any more), a bad player id. */
export function draftRefusal(t: Translate, refused: Exclude<DraftResult, { kind: "draft" }>): string {
  switch (refused.kind) {
    case "paused":
      return pausedText(t, refused.pause);
    case "not-offered":
      return t("order-product-gone", { code: refused.code, product: refused.product ?? refused.code });
    case "bad-player-id":
      return t("order-bad-player-any", { input: quoteTyped(refused.playerId) });
  }
}
