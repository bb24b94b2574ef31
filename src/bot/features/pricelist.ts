import { offeredTo, priceFor, type Buyer, type Product } from "../../catalog/catalog.js";
import type { Lang } from "../../orders/order.js";
import { isAdmin } from "../admin.js";
import { defineFeature } from "../feature.js";
import { escapeHtml, formatRupiah } from "../format.js";
import type { Translate } from "../i18n.js";
import { splitMessages } from "../message-layout.js";

/**
 * One product of the list at this buyer's price; an admin sees the tier prices too. A product
 * whose every route rests says it is temporarily unavailable.
 */
function priceLine(t: Translate, lang: Lang, p: Product, buyer: Buyer, resting: ReadonlySet<string>): string {
  const price = priceFor(p, buyer);
  const shown = price === null || price === undefined ? t("price-not-set") : formatRupiah(price, lang);
  const tiers =
    buyer.role === "admin" && Object.keys(p.prices).length > 0
      ? ` <i>(${Object.entries(p.prices)
          .map(([tier, amount]) => `${escapeHtml(tier)} ${formatRupiah(amount, lang)}`)
          .join(" · ")})</i>`
      : "";
  const rests = resting.has(p.code.toUpperCase()) ? ` ${t("pricelist-resting")}` : "";
  return `<code>${escapeHtml(p.code)}</code> ${escapeHtml(p.name)}: <b>${shown}</b>${tiers}${rests}`;
}

/**
 * /pricelist: this user's own prices, by game, hidden products left out (an admin is told which),
 * the ones whose providers all rest marked temporarily unavailable.
 */
export const pricelistFeature = defineFeature({
  name: "pricelist",
  needs: ["shop", "orders"],
  commands: [
    { name: "pricelist", menu: ["everyone"], help: [{ key: "help-pricelist", for: ["staff", "reseller", "admin"] }] },
  ],
  setup(at) {
    at("buyers").command("pricelist", async (ctx) => {
      const t = ctx.tr;
      const buyer = ctx.buyer!;
      const catalog = await ctx.services.shop.catalog();
      const resting = await ctx.services.orders.unavailable(catalog);
      const blocks: string[] = [];
      for (const game of catalog.games) {
        const lines = game.products
          .filter((p) => offeredTo(p, buyer))
          .map((p) => priceLine(t, ctx.lang, p, buyer, resting));
        if (lines.length > 0) blocks.push([`<b>${escapeHtml(game.name)}</b>`, ...lines].join("\n"));
      }
      const head = buyer.role === "reseller" ? t("pricelist-title-tier", { tier: buyer.tier }) : t("pricelist-title");
      if (blocks.length === 0) return void (await ctx.reply(`${head}\n\n${t("pricelist-empty")}`));
      const disabled = catalog.games.flatMap((g) => g.products.filter((p) => p.disabled).map((p) => p.code));
      const foot = isAdmin(ctx) && disabled.length > 0 ? [t("pricelist-disabled", { codes: disabled.join(", ") })] : [];
      for (const text of splitMessages([head, ...blocks, ...foot].map((b, i) => (i === 0 ? b : `\n${b}`))))
        await ctx.reply(text);
    });
  },
});
