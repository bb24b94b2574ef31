import { InlineKeyboard } from "grammy";
import type { Catalog } from "../../catalog/catalog.js";
import { Callback } from "../callback-data.js";
import type { Translate } from "../i18n.js";

/** One game per row: names can be long on a phone screen. */
export function gamesKeyboard(catalog: Catalog): InlineKeyboard {
  return InlineKeyboard.from(
    catalog.games.map((game, index) => [InlineKeyboard.text(game.name, Callback.game.encode(index))]),
  );
}

/** Each product button shows its code and name, as the contract asks; a way back to the games. */
export function productsKeyboard(catalog: Catalog, gameIndex: number, t: Translate): InlineKeyboard {
  const rows = (catalog.games[gameIndex]?.products ?? []).map((p) => [
    InlineKeyboard.text(`${p.code} · ${p.name}`, Callback.product.encode(p.code)),
  ]);
  if (catalog.games.length > 1) rows.push([InlineKeyboard.text(t("order-button-back"), Callback.games.encode(null))]);
  return InlineKeyboard.from(rows);
}

export function confirmKeyboard(refId: string, t: Translate): InlineKeyboard {
  return new InlineKeyboard()
    .text(t("button-confirm"), Callback.confirm.encode(refId))
    .text(t("button-cancel"), Callback.cancel.encode(refId));
}
