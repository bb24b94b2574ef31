import { InlineKeyboard } from "grammy";
import type { Catalog } from "../../catalog/catalog.js";
import { encodeCallback } from "../callback-data.js";
import type { Translate } from "../text.js";

/** One game per row: names can be long on a phone screen. */
export function gamesKeyboard(catalog: Catalog): InlineKeyboard {
  const kb = new InlineKeyboard();
  catalog.games.forEach((game, index) => kb.text(game.name, encodeCallback({ type: "game", index })).row());
  return kb;
}

/** Each product button shows its code and name, as the contract asks; a way back to the games. */
export function productsKeyboard(catalog: Catalog, gameIndex: number, t: Translate): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const product of catalog.games[gameIndex]?.products ?? []) {
    kb.text(`${product.code} · ${product.name}`, encodeCallback({ type: "product", code: product.code })).row();
  }
  if (catalog.games.length > 1) kb.text(t("order-button-back"), encodeCallback({ type: "games" }));
  return kb;
}

export function confirmKeyboard(refId: string, t: Translate): InlineKeyboard {
  return new InlineKeyboard()
    .text(t("button-confirm"), encodeCallback({ type: "confirm", refId }))
    .text(t("button-cancel"), encodeCallback({ type: "cancel", refId }));
}
