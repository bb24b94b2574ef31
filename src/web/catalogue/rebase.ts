import type { CatalogFile, CatalogProduct } from "../../server/mini-app/views.js";

/** A field of a product that the Catalogue page edits: its name, its price, a tier's price, hidden or not, its routes. */
export type ProductField =
  { kind: "name" } | { kind: "price"; tier?: string } | { kind: "disabled" } | { kind: "routes" };

/**
 * A field both the admin and somebody else changed, to different values, while the admin was
 * editing: the admin's value is kept, and shown to them to check. `gone`: the product was
 * removed meanwhile, so the admin's changes to it cannot be kept.
 */
export type Conflict =
  | { kind: "both"; code: string; field: Exclude<ProductField, { kind: "disabled" }>; mine: unknown; theirs: unknown }
  | { kind: "gone"; code: string };

/** The admin's edit moved onto the catalogue as it is now, and where it met somebody else's. */
export interface Rebased {
  catalog: CatalogFile;
  conflicts: Conflict[];
}

function valueOf(p: CatalogProduct, field: ProductField): unknown {
  switch (field.kind) {
    case "name":
      return p.name;
    case "disabled":
      return p.disabled === true;
    case "price":
      return field.tier === undefined ? p.price : p.prices?.[field.tier];
    case "routes":
      // The whole list is one value (order, providers and codes together), compared as text.
      return p.routes === undefined ? undefined : JSON.stringify(p.routes);
  }
}

/** The product with one field set, in the file's form: a price or flag that is not set is left out. */
function withValue(p: CatalogProduct, field: ProductField, value: unknown): CatalogProduct {
  switch (field.kind) {
    case "name":
      return { ...p, name: value as string };
    case "disabled": {
      const { disabled: _old, ...rest } = p;
      return value === true ? { ...rest, disabled: true } : rest;
    }
    case "routes": {
      const { routes: _old, ...rest } = p;
      return value === undefined ? rest : { ...rest, routes: JSON.parse(value as string) as CatalogProduct["routes"] };
    }
    case "price": {
      if (field.tier === undefined) {
        const { price: _old, ...rest } = p;
        return value === undefined ? rest : { ...rest, price: value as number };
      }
      const prices = { ...(p.prices ?? {}) };
      if (value === undefined) delete prices[field.tier];
      else prices[field.tier] = value as number;
      const { prices: _old, ...rest } = p;
      return Object.keys(prices).length === 0 ? rest : { ...rest, prices };
    }
  }
}

/** The fields a product has on either side: name, price, hidden, and each tier priced on one side or the other. */
function fieldsOf(a: CatalogProduct, b: CatalogProduct): ProductField[] {
  const tiers = [...new Set([...Object.keys(a.prices ?? {}), ...Object.keys(b.prices ?? {})])].sort();
  return [
    { kind: "name" },
    { kind: "price" },
    ...tiers.map((tier): ProductField => ({ kind: "price", tier })),
    { kind: "disabled" },
    { kind: "routes" },
  ];
}

const byCode = (catalog: CatalogFile) =>
  new Map(catalog.games.flatMap((g) => g.products.map((p) => [p.code.toUpperCase(), p] as const)));

/**
 * The admin's edit, made against `base`, moved onto `current` (the catalogue somebody changed
 * meanwhile): only the fields the admin changed are taken from the draft, so another person's
 * change to any other field stays as it is now. Where both changed the same field to different
 * values, the admin's value is kept and the field is listed as a conflict, to be checked before
 * Confirm. Products are matched by code (case-insensitively), as the catalogue's rules do.
 */
export function rebaseEdit(base: CatalogFile, draft: CatalogFile, current: CatalogFile): Rebased {
  const before = byCode(base);
  const edits = new Map<string, { code: string; was: CatalogProduct; changed: Array<[ProductField, unknown]> }>();
  for (const game of draft.games) {
    for (const mine of game.products) {
      const was = before.get(mine.code.toUpperCase());
      if (was === undefined) continue;
      const changed = fieldsOf(was, mine)
        .filter((f) => valueOf(was, f) !== valueOf(mine, f))
        .map((f): [ProductField, unknown] => [f, valueOf(mine, f)]);
      if (changed.length > 0) edits.set(mine.code.toUpperCase(), { code: mine.code, was, changed });
    }
  }
  const conflicts: Conflict[] = [];
  const found = new Set<string>();
  const games = current.games.map((game) => ({
    ...game,
    products: game.products.map((now) => {
      const edit = edits.get(now.code.toUpperCase());
      if (edit === undefined) return now;
      found.add(now.code.toUpperCase());
      let out = now;
      for (const [field, mine] of edit.changed) {
        const theirs = valueOf(now, field);
        if (theirs === mine) continue;
        // Two switches flipped from the same side agree: only names and prices can meet.
        if (field.kind !== "disabled" && theirs !== valueOf(edit.was, field))
          conflicts.push({ kind: "both", code: now.code, field, mine, theirs });
        out = withValue(out, field, mine);
      }
      return out;
    }),
  }));
  for (const [key, edit] of edits) if (!found.has(key)) conflicts.push({ kind: "gone", code: edit.code });
  return { catalog: { ...current, games }, conflicts };
}
