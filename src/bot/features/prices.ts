import { readAmount } from "../../amounts.js";
import { findProduct, type Catalog, type Product } from "../../catalog/catalog.js";
import type { CatalogEdit } from "../../shop/shop.js";
import { adminOnly } from "../admin.js";
import type { FeatureContext } from "../context.js";
import { defineFeature } from "../feature.js";
import { formatRupiah } from "../format.js";
import { originOf, showOnce } from "../origin.js";

const TIER = /^[a-z][a-z0-9_-]{0,31}$/;
const CODE = /^[A-Za-z0-9._-]{1,32}$/;
export const MAX_PRICE = 1_000_000_000;

/**
 * `/price CODE AMOUNT [TIER]` → its parts, or a reason it is not that. The amount is read as
 * people type it (`21000`, `Rp21.000`, `21rb`, `21 ribu`; src/amounts.ts): `amount` when it is
 * 0, negative or too large, `unclear` (with what was typed) when it cannot be read for sure.
 */
export function parsePriceCommand(
  args: string,
):
  | { ok: true; code: string; amount: number; tier: string | undefined }
  | { ok: false; why: "usage" | "amount" | "tier" }
  | { ok: false; why: "unclear"; typed: string } {
  const m = /^(\S+)\s+(\S[\s\S]*)$/.exec(args.trim());
  if (m === null || !CODE.test(m[1]!)) return { ok: false, why: "usage" };
  const read = readAmount(m[2]!, { max: MAX_PRICE });
  if (!read.ok) {
    const outOfRange = read.why === "zero" || read.why === "negative" || read.why === "too-large";
    return outOfRange ? { ok: false, why: "amount" } : { ok: false, why: "unclear", typed: read.typed };
  }
  const rest = m[2]!.slice(read.consumed).trim().split(/\s+/).filter(Boolean);
  if (rest.length > 1) return { ok: false, why: "usage" };
  const tier = rest[0]?.toLowerCase();
  if (tier !== undefined && !TIER.test(tier)) return { ok: false, why: "tier" };
  return { ok: true, code: m[1]!, amount: read.amount, tier };
}

/** The catalogue with one product replaced (found by code, case-insensitively). */
function withProduct(catalog: Catalog, code: string, change: (p: Product) => Product): Catalog {
  const wanted = code.toUpperCase();
  return {
    games: catalog.games.map((g) => ({
      ...g,
      products: g.products.map((p) => (p.code.toUpperCase() === wanted ? change(p) : p)),
    })),
  };
}

/**
 * One product changed, once per update: the answer is worked out on the catalogue as it is now
 * and fixed for this update (a second handling gives the first one's answer, and sends it only if
 * the first did not), and the write is tagged with the update, so that it lands once: a second
 * handling never puts back a price another admin changed in between.
 */
async function editOnce(ctx: FeatureContext<"shop" | "origins">, change: (catalog: Catalog) => CatalogEdit<string>) {
  const { shop, origins } = ctx.services;
  const by = ctx.from!.id;
  const origin = originOf(ctx);
  if (origin === undefined) return void (await ctx.reply(await shop.edit(by, change)));
  const planned = change(await shop.catalog());
  const fixed = await origins.fix(origin, planned.result);
  if (planned.catalog !== undefined) await shop.edit(by, change, origin);
  await showOnce(ctx, { origin, shownAs: fixed.shownAs }, async () => (await ctx.reply(fixed.value)).message_id);
}

/**
 * /price, /disable, /enable for admins: one product changed in the catalogue in use, at once for
 * every process and every new summary (summaries already shown keep their price).
 */
export const pricesFeature = defineFeature({
  name: "prices",
  needs: ["shop", "origins"],
  commands: [
    { name: "price", menu: ["admin"], help: [{ key: "help-prices", for: ["admin"] }] },
    { name: "disable", menu: ["admin"] },
    { name: "enable", menu: ["admin"] },
  ],
  setup(at) {
    const composer = at("buyers");
    composer.command("price", adminOnly, async (ctx) => {
      const t = ctx.tr;
      const parsed = parsePriceCommand(ctx.match);
      if (!parsed.ok) {
        if (parsed.why === "unclear") return void (await ctx.reply(t("amount-unclear", { typed: parsed.typed })));
        const key = { usage: "price-usage", amount: "price-bad-amount", tier: "price-bad-tier" }[parsed.why];
        return void (await ctx.reply(t(key, { max: formatRupiah(MAX_PRICE, ctx.lang) })));
      }
      const { code, amount, tier } = parsed;
      await editOnce(ctx, (catalog) => {
        const match = findProduct(catalog, code);
        if (match === undefined) return { result: t("shop-unknown-code", { code }) };
        const p = match.product;
        const old = tier === undefined ? p.price : p.prices[tier];
        const vars = {
          code: p.code,
          product: p.name,
          tier: tier ?? "",
          from: old === undefined ? t("price-not-set") : formatRupiah(old, ctx.lang),
          to: formatRupiah(amount, ctx.lang),
        };
        const key = tier === undefined ? "price" : "price-tier";
        if (old === amount) return { result: t(`${key}-same`, vars) };
        const next = withProduct(catalog, p.code, (q) =>
          tier === undefined ? { ...q, price: amount } : { ...q, prices: { ...q.prices, [tier]: amount } },
        );
        return { catalog: next, result: t(`${key}-changed`, vars) };
      });
    });

    for (const command of ["disable", "enable"] as const) {
      composer.command(command, adminOnly, async (ctx) => {
        const t = ctx.tr;
        const code = ctx.match.trim();
        if (!CODE.test(code)) return void (await ctx.reply(t(`${command}-usage`)));
        const disable = command === "disable";
        await editOnce(ctx, (catalog) => {
          const match = findProduct(catalog, code);
          if (match === undefined) return { result: t("shop-unknown-code", { code }) };
          const vars = { code: match.product.code, product: match.product.name };
          if (match.product.disabled === disable) return { result: t(`${command}-already`, vars) };
          return {
            catalog: withProduct(catalog, match.product.code, (p) => ({ ...p, disabled: disable })),
            result: t(`${command}-done`, vars),
          };
        });
      });
    }
  },
});
