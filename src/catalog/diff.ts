import type { Catalog, Product } from "./catalog.js";
import type { Route } from "./routes.js";

/** One difference between two catalogues, per product code (codes are compared case-insensitively). */
export type CatalogChange =
  | { kind: "added"; code: string; name: string; game: string; price: number | undefined }
  | { kind: "removed"; code: string; name: string; game: string }
  /** `tier` undefined: the selling price; else that tier's price. `undefined` on a side: not set. */
  | { kind: "price"; code: string; tier: string | undefined; from: number | undefined; to: number | undefined }
  | { kind: "renamed"; code: string; from: string; to: string }
  | { kind: "disabled" | "enabled"; code: string }
  | { kind: "moved"; code: string; from: string; to: string }
  /** The product's routes changed; `undefined` on a side: no routes (every provider, under its code). */
  | { kind: "routes"; code: string; from: Route[] | undefined; to: Route[] | undefined }
  /** A game's player-id rule changed (or was added or removed). */
  | { kind: "player-id-rule"; game: string };

/** Routes compared as the file holds them: in order, provider and code. */
const routesKey = (p: Product) => JSON.stringify(p.routes?.map((r) => [r.provider, r.code]) ?? null);
const routesCopy = (p: Product): Route[] | undefined => p.routes?.map((r) => ({ provider: r.provider, code: r.code }));

interface Placed {
  product: Product;
  game: string;
}

function byCode(catalog: Catalog): Map<string, Placed> {
  const map = new Map<string, Placed>();
  for (const game of catalog.games)
    for (const product of game.products) map.set(product.code.toUpperCase(), { product, game: game.name });
  return map;
}

/**
 * What applying `next` over `current` changes, in the order of the new catalogue (additions and
 * changes), then removals: what an admin checks before Confirm.
 */
export function diffCatalogs(current: Catalog, next: Catalog): CatalogChange[] {
  const before = byCode(current);
  const after = byCode(next);
  const changes: CatalogChange[] = [];
  for (const [key, now] of after) {
    const { product } = now;
    const was = before.get(key);
    if (was === undefined) {
      changes.push({ kind: "added", code: product.code, name: product.name, game: now.game, price: product.price });
      continue;
    }
    const old = was.product;
    if (old.name !== product.name)
      changes.push({ kind: "renamed", code: product.code, from: old.name, to: product.name });
    if (was.game !== now.game) changes.push({ kind: "moved", code: product.code, from: was.game, to: now.game });
    if (old.price !== product.price)
      changes.push({ kind: "price", code: product.code, tier: undefined, from: old.price, to: product.price });
    const tiers = [...new Set([...Object.keys(old.prices), ...Object.keys(product.prices)])].sort();
    for (const tier of tiers) {
      if (old.prices[tier] !== product.prices[tier])
        changes.push({ kind: "price", code: product.code, tier, from: old.prices[tier], to: product.prices[tier] });
    }
    if (old.disabled !== product.disabled)
      changes.push({ kind: product.disabled ? "disabled" : "enabled", code: product.code });
    if (routesKey(old) !== routesKey(product))
      changes.push({ kind: "routes", code: product.code, from: routesCopy(old), to: routesCopy(product) });
  }
  for (const [key, was] of before) {
    if (!after.has(key))
      changes.push({ kind: "removed", code: was.product.code, name: was.product.name, game: was.game });
  }
  const rules = new Map(current.games.map((g) => [g.name, JSON.stringify(g.destination ?? null)]));
  for (const game of next.games) {
    const old = rules.get(game.name);
    if (old !== undefined && old !== JSON.stringify(game.destination ?? null))
      changes.push({ kind: "player-id-rule", game: game.name });
  }
  return changes;
}
