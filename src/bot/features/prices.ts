import { readAmount } from "../../amounts.js";
import { findProduct, tiersOf, type Catalog, type Product } from "../../catalog/catalog.js";
import type { Lang } from "../../orders/order.js";
import { newRefId } from "../../orders/ref-id.js";
import { priceWarnings } from "../../shop/price-check.js";
import type { CatalogEdit } from "../../shop/shop.js";
import type { PriceChange } from "../../shop/uploads.js";
import { adminOnly } from "../admin.js";
import { Callback } from "../callback-data.js";
import type { FeatureContext } from "../context.js";
import { defineFeature } from "../feature.js";
import { formatRupiah } from "../format.js";
import type { Translate } from "../i18n.js";
import { originOf, showOnce } from "../origin.js";
import { summaryButtons, summaryKeyboard, type TapAnswer } from "../summary-buttons.js";

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
  | { ok: true; code: string; amount: number; tier: string | undefined; newTier: boolean }
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
  // `/price CODE AMOUNT TIER new`: a tier nobody has is made only when asked for in so many words.
  const newTier = rest.length === 2 && NEW_WORDS.has(rest[1]!.toLowerCase());
  if (rest.length > (newTier ? 2 : 1)) return { ok: false, why: "usage" };
  const tier = rest[0]?.toLowerCase();
  if (tier !== undefined && !TIER.test(tier)) return { ok: false, why: "tier" };
  return { ok: true, code: m[1]!, amount: read.amount, tier, newTier };
}

/** The word after a tier that asks for it to be made: English or Indonesian. */
const NEW_WORDS = new Set(["new", "baru"]);

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

/** The catalogue with one price set: the selling price, or one tier's. */
const withPrice = (catalog: Catalog, code: string, tier: string | undefined, amount: number) =>
  withProduct(catalog, code, (q) =>
    tier === undefined ? { ...q, price: amount } : { ...q, prices: { ...q.prices, [tier]: amount } },
  );

/**
 * The tiers that would pay more than a walk-in customer if `amount` became the product's selling
 * price: those whose own price is above it. (A tier's own price is the admin's to set as they mean.)
 */
function tierTrapsOf(
  p: Product,
  tier: string | undefined,
  amount: number,
): Array<{ tier: string; tierPrice: number; retail: number }> {
  if (tier !== undefined) return [];
  return Object.entries(p.prices)
    .filter(([, price]) => price > amount)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, price]) => ({ tier: name, tierPrice: price, retail: amount }));
}

/** A price change that waits for Confirm: what it is, why it needs a look, and what was there before. */
function priceChangeText(t: Translate, lang: Lang, change: PriceChange, product: string): string {
  const rp = (n: number) => formatRupiah(n, lang);
  const lines = [
    t(change.tier === undefined ? "price-confirm-title" : "price-confirm-title-tier", {
      code: change.code,
      product,
      tier: change.tier ?? "",
      from: change.from === undefined ? t("price-not-set") : rp(change.from),
      to: rp(change.amount),
    }),
  ];
  for (const w of priceWarnings(change.amount, change.from, change.providerPrice)) {
    lines.push(
      w.kind === "below-cost"
        ? t("price-warning-below-cost", { provider: rp(w.providerPrice), loss: rp(w.loss) })
        : t("price-warning-far", { from: rp(w.from), percent: w.percent }),
    );
  }
  for (const trap of change.tierTraps ?? [])
    lines.push(
      t("price-warning-tier-above-retail", {
        tier: trap.tier,
        tierPrice: rp(trap.tierPrice),
        retail: rp(trap.retail),
      }),
    );
  if (change.newTier === true) lines.push(t("price-confirm-new-tier", { tier: change.tier ?? "" }));
  lines.push(t("price-confirm-hint"));
  return lines.join("\n");
}

/** The price a change is about (the selling price, or its tier's) in `catalog`; "gone": no such product. */
function priceOf(catalog: Catalog, change: PriceChange): number | undefined | "gone" {
  const match = findProduct(catalog, change.code);
  if (match === undefined) return "gone";
  return change.tier === undefined ? match.product.price : match.product.prices[change.tier];
}

/** A price Confirm that found the price moved since its warning (or the product gone): what it is now. */
function staleAnswer(
  ctx: { tr: Translate; lang: Lang },
  change: PriceChange,
  now: number | undefined | "gone",
): TapAnswer {
  const t = ctx.tr;
  if (now === "gone")
    return { alert: t("shop-unknown-code", { code: change.code }), summary: t("price-change-was-stale") };
  const rp = (n: number | undefined) => (n === undefined ? t("price-not-set") : formatRupiah(n, ctx.lang));
  const vars = {
    code: change.code,
    tier: change.tier ?? "",
    now: rp(now),
    from: rp(change.from),
    to: rp(change.amount),
  };
  const key = change.tier === undefined ? "price-change-moved" : "price-change-moved-tier";
  return { alert: t(key, vars), summary: t(key, vars) };
}

/**
 * /price, /disable, /enable for admins: one product changed in the catalogue in use, at once for
 * every process and every new summary (summaries already shown keep their price). A price below
 * the provider's last price, or more than half away from the one it replaces, first shows why with
 * Confirm; a tier nobody has is refused with the tiers there are (made only when asked: `new`).
 */
export const pricesFeature = defineFeature({
  name: "prices",
  needs: ["shop", "origins", "reports", "priceChanges", "clock"],
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
      const { code, amount, tier, newTier } = parsed;
      const { shop, reports, origins, priceChanges, clock } = ctx.services;
      const catalog = await shop.catalog();
      const match = findProduct(catalog, code);
      if (match === undefined) return void (await ctx.reply(t("shop-unknown-code", { code })));
      const tiers = tiersOf(catalog);
      if (tier !== undefined && !tiers.has(tier) && !newTier) {
        const list = [...tiers].sort().join(", ");
        return void (await ctx.reply(t("price-unknown-tier", { tier, tiers: list, code: match.product.code })));
      }
      const p = match.product;
      const current = tier === undefined ? p.price : p.prices[tier];
      const providerPrice = (await reports.providerPrices()).get(p.code);
      const tierTraps = current === amount ? [] : tierTrapsOf(p, tier, amount);
      if (current !== amount && (priceWarnings(amount, current, providerPrice).length > 0 || tierTraps.length > 0)) {
        // A second look first: the change waits for Confirm, one per update however often it is handled.
        const origin = originOf(ctx);
        const fresh = newRefId("PC", clock());
        const fixed = origin === undefined ? { value: fresh, first: true } : await origins.fix(origin, fresh);
        const change = await priceChanges.save({
          id: fixed.value,
          adminId: ctx.from!.id,
          code: p.code,
          ...(tier === undefined ? {} : { tier }),
          ...(newTier && tier !== undefined && !tiers.has(tier) ? { newTier: true } : {}),
          amount,
          ...(current === undefined ? {} : { from: current }),
          ...(providerPrice === undefined ? {} : { providerPrice }),
          ...(tierTraps.length === 0 ? {} : { tierTraps }),
          state: "draft",
          createdAt: clock().toISOString(),
        });
        const buttons = { confirm: Callback.priceConfirm, cancel: Callback.priceCancel };
        await showOnce(ctx, { origin, shownAs: fixed.shownAs }, async () => {
          const text = priceChangeText(t, ctx.lang, change, p.name);
          const other = change.state === "draft" ? { reply_markup: summaryKeyboard(t, buttons, change.id) } : {};
          return (await ctx.reply(text, other)).message_id;
        });
        return;
      }
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
        return { catalog: withPrice(catalog, p.code, tier, amount), result: t(`${key}-changed`, vars) };
      });
    });

    summaryButtons(composer, {
      confirm: Callback.priceConfirm,
      cancel: Callback.priceCancel,
      guard: adminOnly,
      async onConfirm(ctx, id) {
        const t = ctx.tr;
        const { shop, priceChanges } = ctx.services;
        const change = await priceChanges.get(id);
        if (change === undefined) return { alert: t("callback-expired"), dropButtons: true };
        if (change.state === "stale") return staleAnswer(ctx, change, priceOf(await shop.catalog(), change));
        if (change.state !== "draft") return { alert: t(`price-change-was-${change.state}`) };
        // Applied once however often it is tapped (the catalogue write carries the change's id), and
        // only over the price the warning showed: the check and the write are one compare-and-set
        // (shop.edit runs this again on a newer catalogue if another edit lands in between).
        const outcome = await shop.edit(
          ctx.from.id,
          (
            catalog,
          ): CatalogEdit<{ kind: "applied" } | { kind: "moved"; now: number | undefined } | { kind: "gone" }> => {
            const match = findProduct(catalog, change.code);
            if (match === undefined) return { result: { kind: "gone" } };
            const p = match.product;
            const now = change.tier === undefined ? p.price : p.prices[change.tier];
            // A second tap racing the first finds its own price there: that is this change, applied.
            if (now === change.amount) return { result: { kind: "applied" } };
            if (now !== change.from) return { result: { kind: "moved", now } };
            return {
              catalog: withPrice(catalog, p.code, change.tier, change.amount),
              result: { kind: "applied" },
            };
          },
          change.id,
        );
        if (outcome.kind !== "applied") {
          await priceChanges.finish(id, "stale");
          return staleAnswer(ctx, change, outcome.kind === "gone" ? "gone" : outcome.now);
        }
        await priceChanges.finish(id, "applied");
        const vars = {
          code: change.code,
          product: "",
          tier: change.tier ?? "",
          from: change.from === undefined ? t("price-not-set") : formatRupiah(change.from, ctx.lang),
          to: formatRupiah(change.amount, ctx.lang),
        };
        return {
          toast: t("price-change-applied"),
          summary: t(change.tier === undefined ? "price-applied" : "price-tier-applied", vars),
        };
      },
      async onCancel(ctx, id) {
        const t = ctx.tr;
        const change = await ctx.services.priceChanges.get(id);
        if (change === undefined) return { alert: t("callback-expired"), dropButtons: true };
        if (change.state !== "draft") return { alert: t(`price-change-was-${change.state}`) };
        await ctx.services.priceChanges.finish(id, "cancelled");
        return { toast: t("price-change-was-cancelled"), summary: t("price-change-was-cancelled") };
      },
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
