import type { CatalogChange } from "../catalog/diff.js";

/** How far from the price it replaces a new price may be before it needs a second look. */
export const FAR_FROM_CURRENT = 0.5;

/**
 * Why a new selling price needs a second look before it applies: below what the provider charged
 * last time (every sale loses `loss`), or more than half away from the price it replaces (a typo:
 * `2150` for `21500`).
 */
export type PriceWarning =
  { kind: "below-cost"; providerPrice: number; loss: number } | { kind: "far"; from: number; percent: number };

/** The warnings a new price earns: none when it is above the provider's last price and near the old one. */
export function priceWarnings(
  amount: number,
  current: number | undefined,
  providerPrice: number | undefined,
): PriceWarning[] {
  const warnings: PriceWarning[] = [];
  if (providerPrice !== undefined && amount < providerPrice)
    warnings.push({ kind: "below-cost", providerPrice, loss: providerPrice - amount });
  if (current !== undefined && current > 0 && Math.abs(amount - current) > FAR_FROM_CURRENT * current)
    warnings.push({ kind: "far", from: current, percent: Math.round((Math.abs(amount - current) / current) * 100) });
  return warnings;
}

/** A warning for one price change of a catalogue diff: the selling price (no `tier`) or a tier's. */
export type ChangeWarning = PriceWarning & { code: string; tier?: string };

/**
 * The warnings of a whole catalogue edit, price change by price change (the selling price and each
 * tier's), with the provider's last price per code: what the Mini App shows beside each change
 * before Confirm, by the same rule as /price.
 */
export function changeWarnings(
  changes: readonly CatalogChange[],
  providerPrices: ReadonlyMap<string, number>,
): ChangeWarning[] {
  return changes.flatMap((c) =>
    c.kind !== "price" || c.to === undefined
      ? []
      : priceWarnings(c.to, c.from, providerPrices.get(c.code)).map((w) => ({
          ...w,
          code: c.code,
          ...(c.tier === undefined ? {} : { tier: c.tier }),
        })),
  );
}
