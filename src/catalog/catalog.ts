import { readFile } from "node:fs/promises";
import { z } from "zod";
import { MAIN_PROVIDER } from "../topup/types.js";
import { notJson } from "./json-error.js";

import { PROVIDER_NAME, routeProblems, type Route } from "./routes.js";

export { routesOf, type Route } from "./routes.js";

/**
 * A product the operator sells. `price` is the selling price in whole rupiah, when the operator
 * set one; `prices` the prices per reseller tier.
 */
export interface Product {
  code: string;
  name: string;
  price: number | undefined;
  prices: Readonly<Record<string, number>>;
  /** Hidden: not offered, cannot be ordered. */
  disabled: boolean;
  /** The providers to sell it through, in order, each under its own code; absent: every provider under `code`. */
  routes?: ReadonlyArray<Route>;
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

/**
 * One thing wrong with a catalogue: `path` for a program (`games[1].products[0].price`: the Mini
 * App finds the field by it), `where` for a person (`Mobile Legends › ML86`, `Free Fire › product
 * 3` when the product has no usable code, `game 2` when the game has no name, `line 4, column 7`
 * in a file that is not JSON, "" for the file as a whole), and `message`, which names the field:
 * `price must be a whole number of rupiah`.
 */
export interface CatalogIssue {
  path: string;
  where: string;
  message: string;
}

/** An issue as a person reads it: `Mobile Legends › ML86: price must be a whole number of rupiah`. */
export const issueText = (issue: Pick<CatalogIssue, "where" | "message">): string =>
  issue.where === "" ? issue.message : `${issue.where}: ${issue.message}`;

/** A parsed catalogue, or what is wrong with it: as lines naming the source (`errors`) and one by one (`issues`). */
export type CatalogResult = { ok: true; catalog: Catalog } | { ok: false; errors: string[]; issues: CatalogIssue[] };

const failed = (source: string, issues: CatalogIssue[]): CatalogResult => ({
  ok: false,
  errors: issues.map((i) => `${source}: ${issueText(i)}`),
  issues,
});

// Each message is said of the field, which the issue names first: "name" + "must not be empty".
const required = (i: { input: unknown }, otherwise: string) => (i.input === undefined ? "is required" : otherwise);

const text = (max: number) =>
  z
    .string({ error: (i) => required(i, "must be text") })
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);

const rupiah = z
  .number({ error: "must be a number of rupiah" })
  .int("must be a whole number of rupiah")
  .positive("must be more than 0")
  .max(1_000_000_000, "is implausibly large");

// Codes travel in callback data (64 bytes at most), so keep them short and free of spaces.
const CODE = /^[A-Za-z0-9._-]{1,32}$/;
const TIER_RULE = "must be 1 to 32 lowercase letters, digits, _ or -, starting with a letter";

const CODE_RULE = "must be 1 to 32 letters, digits, dots, dashes or underscores";
const codeSchema = z
  .string({ error: (i) => required(i, "must be text") })
  .trim()
  .regex(CODE, CODE_RULE);

const routeSchema = z.object(
  {
    provider: z
      .string({ error: (i) => required(i, "must be text") })
      .trim()
      .regex(PROVIDER_NAME, "must be a provider's name (1 to 20 lowercase letters a-z or digits) such as main"),
    code: codeSchema,
  },
  { error: 'must be an object such as { "provider": "main", "code": "ML86" }' },
);

const productSchema = z.object(
  {
    code: codeSchema,
    name: text(64),
    price: rupiah.optional(),
    prices: z
      .record(z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, TIER_RULE), rupiah, {
        error: (issue) =>
          issue.code === "invalid_key" ? TIER_RULE : 'must be an object of tier prices such as { "reseller": 19000 }',
      })
      .optional(),
    disabled: z.boolean({ error: "must be true or false" }).optional(),
    routes: z
      .array(routeSchema, { error: 'must be a list such as [{ "provider": "main", "code": "ML86" }]' })
      .min(1, "must list at least one route (or be left out: every provider, under the product's code)")
      .max(9, "must list at most 9 routes")
      .optional(),
  },
  { error: 'must be an object such as { "code": "ML86", "name": "86 Diamonds", "price": 20000 }' },
);

const destinationSchema = z.object(
  {
    pattern: z
      .string({ error: (i) => required(i, "must be text") })
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
  },
  { error: 'must be an object such as { "pattern": "^[0-9]{6,12}$", "example": "12345678" }' },
);

const gameSchema = z.object(
  {
    name: text(64),
    destination: destinationSchema.optional(),
    products: z
      .array(productSchema, { error: (i) => required(i, "must be a list") })
      .min(1, "must list at least one product"),
  },
  { error: 'must be an object such as { "name": "Mobile Legends", "products": [ ... ] }' },
);

const catalogSchema = z.object(
  {
    games: z.array(gameSchema, { error: (i) => required(i, "must be a list") }).min(1, "must list at least one game"),
  },
  { error: 'must be an object such as { "games": [ ... ] }' },
);

/** `["games", 1, "products", 0, "code"]` → `games[1].products[0].code` (what the Mini App finds a field by). */
function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out === "" ? "(top level)" : out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The games and their products as far as they can be read, whatever else is wrong with the file. */
const gamesIn = (json: unknown): unknown[] => (isObject(json) && Array.isArray(json.games) ? json.games : []);
const productsIn = (game: unknown): unknown[] => (isObject(game) && Array.isArray(game.products) ? game.products : []);

/** A product's code when it is one (the rule of the schema), else undefined. */
function usableCode(product: unknown): string | undefined {
  const code = isObject(product) && typeof product.code === "string" ? product.code.trim() : "";
  return CODE.test(code) ? code : undefined;
}

/**
 * Where something is, as a person finds it in the file: the game by its name (`game 2` when it has
 * none that can be shown), the product by its code (`product 3` when it has none).
 */
function placeOf(json: unknown, g: number, p?: number): string {
  const game = gamesIn(json)[g];
  const name = isObject(game) && typeof game.name === "string" ? game.name.trim() : "";
  const gamePlace = name.length >= 1 && name.length <= 64 ? name : `game ${g + 1}`;
  if (p === undefined) return gamePlace;
  return `${gamePlace} › ${usableCode(productsIn(game)[p]) ?? `product ${p + 1}`}`;
}

/** What a path inside a game (`name`) or a product (`prices`, `gold`) is called in a message. */
function fieldName(rest: readonly PropertyKey[], badKey: boolean): string {
  const [first, second] = rest.map(String);
  if (first === undefined) return "";
  if (first === "prices" && second !== undefined) return badKey ? `tier name "${second}"` : `price for tier ${second}`;
  if (first === "destination" && second !== undefined) return `destination ${second}`;
  if (first === "routes" && second !== undefined)
    return `route ${Number(second) + 1}${rest[2] === undefined ? "" : ` ${String(rest[2])}`}`;
  return rest.map(String).join(".");
}

/** A zod issue as a person reads it: the game and product by name, then the field and what is wrong with it. */
function issueOf(
  json: unknown,
  issue: { path: readonly PropertyKey[]; message: string; code?: string },
): CatalogIssue & { order: [number, number] } {
  const [top, g, products, p, ...rest] = issue.path;
  const path = formatPath(issue.path);
  const say = (where: string, field: string) => ({
    path,
    where,
    message: field === "" ? issue.message : `${field} ${issue.message}`,
  });
  if (top !== "games") return { ...say("", "the catalogue"), order: [-1, -1] };
  if (typeof g !== "number") return { ...say("", '"games"'), order: [-1, -1] };
  if (products === "products" && typeof p === "number")
    return { ...say(placeOf(json, g, p), fieldName(rest, issue.code === "invalid_key")), order: [g, p] };
  const gameRest = issue.path.slice(2);
  return { ...say(placeOf(json, g), fieldName(gameRest, false)), order: [g, -1] };
}

/**
 * Products that share a code (codes are case-insensitive), among those whose code can be read,
 * whatever else is wrong with the file: every problem is told at once.
 */
function duplicateCodes(json: unknown): Array<CatalogIssue & { order: [number, number] }> {
  const issues: Array<CatalogIssue & { order: [number, number] }> = [];
  const seen = new Map<string, string>();
  gamesIn(json).forEach((game, g) =>
    productsIn(game).forEach((product, p) => {
      const code = usableCode(product);
      if (code === undefined) return;
      const first = seen.get(code.toUpperCase());
      if (first === undefined) {
        seen.set(code.toUpperCase(), `${placeOf(json, g)} › product ${p + 1}`);
        return;
      }
      issues.push({
        path: `games[${g}].products[${p}].code`,
        where: placeOf(json, g, p),
        message: `code is already used by ${first} (codes are case-insensitive)`,
        order: [g, p],
      });
    }),
  );
  return issues;
}

/** Routes through one provider twice or through one that is not configured (see routeProblems). */
function routeIssues(
  json: unknown,
  providers: readonly string[] | "any",
): Array<CatalogIssue & { order: [number, number] }> {
  return gamesIn(json).flatMap((game, g) =>
    productsIn(game).flatMap((product, p) =>
      routeProblems(isObject(product) ? product.routes : undefined, providers).map(({ index, message }) => ({
        path: `games[${g}].products[${p}].routes[${index}].provider`,
        where: placeOf(json, g, p),
        message,
        order: [g, p] as [number, number],
      })),
    ),
  );
}

/**
 * Parses catalogue JSON that is already read; `source` names the file in every line of `errors`.
 * Every problem comes back at once, in the order of the file: the schema's and duplicate codes.
 */
export function parseCatalog(
  json: unknown,
  source: string,
  providers: readonly string[] | "any" = [MAIN_PROVIDER],
): CatalogResult {
  const parsed = catalogSchema.safeParse(json);
  const found = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => issueOf(json, i))),
    ...duplicateCodes(json),
    ...routeIssues(json, providers),
  ];
  if (!parsed.success || found.length > 0) {
    const inOrder = found.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]);
    return failed(
      source,
      inOrder.map(({ path, where, message }) => ({ path, where, message })),
    );
  }
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
          ...(p.routes === undefined ? {} : { routes: p.routes.map((r) => ({ provider: r.provider, code: r.code })) }),
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
        ...(p.routes === undefined ? {} : { routes: p.routes.map((r) => ({ provider: r.provider, code: r.code })) }),
      })),
    })),
  };
}

/** Parses JSON text of a catalogue (a file or a document); `source` names it in every message. */
export function parseCatalogText(
  raw: string,
  source: string,
  providers: readonly string[] | "any" = [MAIN_PROVIDER],
): CatalogResult {
  const text = raw.replace(/^\uFEFF/, "");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return failed(source, [{ path: "", ...notJson(text, err) }]);
  }
  return parseCatalog(json, source, providers);
}

/** Reads and parses the catalogue file; every problem, including a missing file, comes back as text. */
export async function loadCatalog(
  file: string,
  providers: readonly string[] = [MAIN_PROVIDER],
): Promise<CatalogResult> {
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
    return failed(file, [{ path: "", where: "", message: why }]);
  }
  return parseCatalogText(raw, file, providers);
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

/** Finds a product by code, case-insensitively: `ml86` is ML86. */
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
