import { readFile } from "node:fs/promises";
import { z } from "zod";

/**
 * A product the operator sells. `price` is the selling price in whole rupiah, when the operator
 * set one; `prices` the prices per reseller tier (contract section 7).
 */
export interface Product {
  code: string;
  name: string;
  price: number | undefined;
  prices: Readonly<Record<string, number>>;
  /** Hidden: not offered, cannot be ordered (contract section 8). */
  disabled: boolean;
}

/** Who is buying: staff and admins order on the shop's account, resellers pay their tier's price. */
export type Buyer = { role: "admin" | "staff" } | { role: "reseller"; tier: string };

/** The tier every new reseller is in. */
export const DEFAULT_TIER = "reseller";

/**
 * What this buyer pays for the product, in rupiah: a reseller their tier's price, else the
 * product's price, and `undefined` when neither is set (the product is not for sale to them);
 * staff the shop's selling price (`null` when the catalogue has none: they order on the shop's
 * account anyway).
 */
export function priceFor(product: Product, buyer: Buyer): number | null | undefined {
  if (product.disabled) return undefined;
  if (buyer.role === "reseller") return product.prices[buyer.tier] ?? product.price;
  return product.price ?? null;
}

/** Whether this buyer may order the product (a reseller only at a price). */
export function offeredTo(product: Product, buyer: Buyer): boolean {
  return priceFor(product, buyer) !== undefined;
}

const forSale = new WeakMap<Catalog, ReadonlySet<string>>();

/** The codes (upper case) of the products for sale: not hidden. Computed once per catalogue. */
export function codesForSale(catalog: Catalog): ReadonlySet<string> {
  let codes = forSale.get(catalog);
  if (codes === undefined) {
    codes = new Set(
      catalog.games.flatMap((g) => g.products.filter((p) => !p.disabled).map((p) => p.code.toUpperCase())),
    );
    forSale.set(catalog, codes);
  }
  return codes;
}

/** Every tier named in the catalogue's prices, plus the default one. */
export function tiersOf(catalog: Catalog): Set<string> {
  const tiers = new Set([DEFAULT_TIER]);
  for (const game of catalog.games)
    for (const p of game.products) for (const tier of Object.keys(p.prices)) tiers.add(tier);
  return tiers;
}

export interface Game {
  name: string;
  /** Player-id rule; `undefined` means the default rule (1 to 64 visible characters, no spaces). */
  destination: { pattern: string; example: string } | undefined;
  products: Product[];
}

export interface Catalog {
  games: Game[];
}

/** One thing wrong with a catalogue: where (`games[1].products[0].price`) and what. */
export interface CatalogIssue {
  path: string;
  message: string;
}

/** A parsed catalogue, or what is wrong with it: as lines naming the source (`errors`) and by path (`issues`). */
export type CatalogResult = { ok: true; catalog: Catalog } | { ok: false; errors: string[]; issues: CatalogIssue[] };

const failed = (source: string, issues: CatalogIssue[]): CatalogResult => ({
  ok: false,
  errors: issues.map((i) => (i.path === "" ? `${source}: ${i.message}` : `${source}: ${i.path}: ${i.message}`)),
  issues,
});

const text = (max: number) =>
  z
    .string({ error: (i) => (i.input === undefined ? "required" : "must be text") })
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);

const rupiah = z
  .number({ error: "must be a number of rupiah" })
  .int("must be a whole number of rupiah")
  .positive("must be more than 0")
  .max(1_000_000_000, "is implausibly large");

const productSchema = z.object({
  // Codes travel in callback data (64 bytes at most), so keep them short and free of spaces.
  code: z
    .string({ error: (i) => (i.input === undefined ? "required" : "must be text") })
    .trim()
    .regex(/^[A-Za-z0-9._-]{1,32}$/, "must be 1 to 32 letters, digits, dots, dashes or underscores"),
  name: text(64),
  price: rupiah.optional(),
  prices: z
    .record(
      z
        .string()
        .regex(
          /^[a-z][a-z0-9_-]{0,31}$/,
          "a tier name is 1 to 32 lowercase letters, digits, _ or -, starting with a letter",
        ),
      rupiah,
      {
        error: (issue) =>
          issue.code === "invalid_key"
            ? "a tier name is 1 to 32 lowercase letters, digits, _ or -, starting with a letter"
            : 'must be an object of tier prices such as { "reseller": 19000 }',
      },
    )
    .optional(),
  disabled: z.boolean({ error: "must be true or false" }).optional(),
});

const destinationSchema = z.object({
  pattern: z
    .string({ error: (i) => (i.input === undefined ? "required" : "must be text") })
    .min(1, "must not be empty")
    .refine((p) => {
      try {
        new RegExp(p, "u");
        return true;
      } catch {
        return false;
      }
    }, "is not a valid regular expression"),
  example: text(64),
});

const gameSchema = z.object({
  name: text(64),
  destination: destinationSchema.optional(),
  products: z
    .array(productSchema, { error: (i) => (i.input === undefined ? "required" : "must be a list") })
    .min(1, "must list at least one product"),
});

const catalogSchema = z.object(
  {
    games: z
      .array(gameSchema, { error: (i) => (i.input === undefined ? "required" : "must be a list") })
      .min(1, "must list at least one game"),
  },
  { error: 'must be an object such as { "games": [ ... ] }' },
);

/** `["games", 1, "products", 0, "code"]` → `games[1].products[0].code` */
function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out === "" ? "(top level)" : out;
}

/** Parses catalogue JSON that is already read; `source` names the file in every message. */
export function parseCatalog(json: unknown, source: string): CatalogResult {
  const parsed = catalogSchema.safeParse(json);
  if (!parsed.success) {
    return failed(
      source,
      parsed.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
    );
  }
  const issues: CatalogIssue[] = [];
  const seen = new Map<string, string>();
  parsed.data.games.forEach((game, g) =>
    game.products.forEach((product, p) => {
      const here = `games[${g}].products[${p}].code`;
      const key = product.code.toUpperCase();
      const first = seen.get(key);
      if (first !== undefined) {
        issues.push({
          path: here,
          message: `duplicate code "${product.code}" (codes are case-insensitive; first at ${first})`,
        });
      } else {
        seen.set(key, here);
      }
    }),
  );
  if (issues.length > 0) return failed(source, issues);
  return {
    ok: true,
    catalog: {
      games: parsed.data.games.map((game) => ({
        name: game.name,
        destination: game.destination,
        products: game.products.map((p) => ({
          code: p.code,
          name: p.name,
          price: p.price,
          prices: p.prices ?? {},
          disabled: p.disabled === true,
        })),
      })),
    },
  };
}

/**
 * The catalogue as `catalog.json` holds it (what /catalog sends and parseCatalog reads back):
 * optional fields only where set, so a round trip changes nothing.
 */
export function toCatalogJson(catalog: Catalog): unknown {
  return {
    games: catalog.games.map((game) => ({
      name: game.name,
      ...(game.destination === undefined ? {} : { destination: game.destination }),
      products: game.products.map((p) => ({
        code: p.code,
        name: p.name,
        ...(p.price === undefined ? {} : { price: p.price }),
        ...(Object.keys(p.prices).length === 0 ? {} : { prices: p.prices }),
        ...(p.disabled ? { disabled: true } : {}),
      })),
    })),
  };
}

/** Parses JSON text of a catalogue (a file or a document); `source` names it in every message. */
export function parseCatalogText(raw: string, source: string): CatalogResult {
  let json: unknown;
  try {
    json = JSON.parse(raw.replace(/^\uFEFF/, ""));
  } catch (err) {
    return failed(source, [{ path: "", message: `not valid JSON (${(err as Error).message})` }]);
  }
  return parseCatalog(json, source);
}

/** Reads and parses the catalogue file; every problem, including a missing file, comes back as text. */
export async function loadCatalog(file: string): Promise<CatalogResult> {
  let raw: string;
  try {
    raw = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "file not found"
        : code === "EACCES"
          ? "permission denied"
          : `cannot be read (${code ?? "error"})`;
    return failed(file, [{ path: "", message: why }]);
  }
  return parseCatalogText(raw, file);
}

export interface ProductMatch {
  game: Game;
  gameIndex: number;
  product: Product;
}

/** A product this buyer may order, and the price they pay (see {@link priceFor}). */
export interface OfferedMatch extends ProductMatch {
  price: number | null;
}

/** Finds a product by code for this buyer: undefined when there is none or it is not for sale to them. */
export function findOffered(catalog: Catalog, code: string, buyer: Buyer): OfferedMatch | undefined {
  const match = findProduct(catalog, code);
  const price = match === undefined ? undefined : priceFor(match.product, buyer);
  return match === undefined || price === undefined ? undefined : { ...match, price };
}

/** Finds a product by code, case-insensitively, as the contract promises. */
export function findProduct(catalog: Catalog, code: string): ProductMatch | undefined {
  const wanted = code.trim().toUpperCase();
  for (const [gameIndex, game] of catalog.games.entries()) {
    const product = game.products.find((p) => p.code.toUpperCase() === wanted);
    if (product !== undefined) return { game, gameIndex, product };
  }
  return undefined;
}

const DEFAULT_PLAYER_ID = /^[^\s\p{C}]{1,64}$/u;

/** An example of the shape `ID(ZONE)`: the game names a zone in brackets after the id. */
const ZONE_EXAMPLE = /^[^\s()]+\([^\s()]+\)$/u;
/**
 * An id and a zone as people type them when the game wants `ID(ZONE)`: `ID ZONE`, `ID (ZONE)`,
 * `ID( ZONE )`, `ID/ZONE`.
 */
const ZONE_TYPED = /^([^\s()/]+)\s*(?:\(\s*([^\s()/]+)\s*\)|(?:\s+|\s*\/\s*)([^\s()/]+))$/u;

/** Whether the game's own rule names a zone in brackets (its example is `12345678(1234)`-shaped). */
export const wantsZone = (game: Pick<Game, "destination">): boolean =>
  game.destination !== undefined && ZONE_EXAMPLE.test(game.destination.example);

/**
 * The player id in the game's own form, only where its rule names that form: spaces around it
 * dropped, and, for a game whose example puts the zone in brackets, `12345678 1234`,
 * `12345678 (1234)` or `12345678/1234` written `12345678(1234)`. Nothing else is rewritten:
 * digits are never joined, spaces inside an id never squeezed out.
 */
export function normalisePlayerId(game: Pick<Game, "destination">, input: string): string {
  const trimmed = input.trim();
  if (!wantsZone(game)) return trimmed;
  const m = ZONE_TYPED.exec(trimmed);
  return m === null ? trimmed : `${m[1]}(${m[2] ?? m[3]})`;
}

/**
 * Checks a player id against the game's rule, as typed (see normalisePlayerId for the one form
 * that is written the game's way): an id that does not fit is refused, never rewritten to fit. A
 * top-up to the wrong account cannot be undone. The operator's pattern is anchored here so that an
 * unanchored pattern cannot accept an id with extra characters around it.
 */
export function checkPlayerId(game: Game, input: string): { ok: true; playerId: string } | { ok: false } {
  const playerId = normalisePlayerId(game, input);
  if (playerId.length === 0 || playerId.length > 64) return { ok: false };
  const rule =
    game.destination === undefined ? DEFAULT_PLAYER_ID : new RegExp(`^(?:${game.destination.pattern})$`, "u");
  return rule.test(playerId) && DEFAULT_PLAYER_ID.test(playerId) ? { ok: true, playerId } : { ok: false };
}
