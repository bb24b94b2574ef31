import { InlineKeyboard } from "grammy";
import { offeredTo, type Buyer, type Catalog } from "../../catalog/catalog.js";
import { Callback } from "../callback-data.js";
import { owned } from "../groups.js";
import { summaryKeyboard } from "../summary-buttons.js";
import type { Translate } from "../i18n.js";

/**
 * The games with something for this buyer, one per row (names can be long on a phone screen). In a
 * group the buttons carry their `owner`: only the member whose menu it is can use them.
 */
export function gamesKeyboard(catalog: Catalog, buyer: Buyer, owner?: number): InlineKeyboard {
  const rows = catalog.games.flatMap((game, index) =>
    game.products.some((p) => offeredTo(p, buyer))
      ? [[InlineKeyboard.text(game.name, owned(Callback.game.encode(index), owner))]]
      : [],
  );
  return InlineKeyboard.from(rows);
}

/**
 * The products of a game this buyer may order; each button shows its code and name (the code
 * is what /order and the price list use), and says so when the product is temporarily
 * unavailable (`resting`: every route of it rests; it can still be chosen, and comes back by
 * itself); a way back to the games.
 */
export function productsKeyboard(
  catalog: Catalog,
  gameIndex: number,
  t: Translate,
  buyer: Buyer,
  owner?: number,
  resting: ReadonlySet<string> = new Set(),
): InlineKeyboard {
  const rows = (catalog.games[gameIndex]?.products ?? [])
    .filter((p) => offeredTo(p, buyer))
    .map((p) => {
      const label = `${p.code} · ${p.name}`;
      const shown = resting.has(p.code.toUpperCase()) ? `${label} · ${t("order-button-resting")}` : label;
      return [InlineKeyboard.text(shown, owned(Callback.product.encode(p.code), owner))];
    });
  if (catalog.games.length > 1)
    rows.push([InlineKeyboard.text(t("order-button-back"), owned(Callback.games.encode(null), owner))]);
  return InlineKeyboard.from(rows);
}

/**
 * Confirm and Cancel under an order's summary, bound to its ref_id; Confirm reads "order again"
 * when the same order was sent a moment ago.
 */
export function confirmKeyboard(refId: string, t: Translate, again = false): InlineKeyboard {
  return summaryKeyboard(
    t,
    { confirm: Callback.confirm, cancel: Callback.cancel },
    refId,
    again ? "button-order-again" : undefined,
  );
}
