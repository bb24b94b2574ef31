import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkPlayerId,
  findOffered,
  findProduct,
  loadCatalog,
  parseCatalog,
  parseCatalogText,
  priceFor,
  tiersOf,
  toCatalogJson,
} from "../../src/catalog/catalog.js";

const ml = {
  name: "Mobile Legends",
  destination: { pattern: "^[0-9]{6,12}\\([0-9]{4,5}\\)$", example: "12345678(1234)" },
  products: [{ code: "ML86", name: "86 Diamonds", price: 20000 }],
};

function errorsOf(json: unknown): string[] {
  const result = parseCatalog(json, "shop.json");
  if (result.ok) throw new Error("expected the catalogue to be refused");
  return result.errors;
}

describe("catalogue", () => {
  it("when the shipped catalog.json is loaded, then it is valid and has products", async () => {
    const result = await loadCatalog("catalog.json");
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.catalog.games.flatMap((g) => g.products).length).toBeGreaterThan(3);
  });

  it("when a product has no code, then the message names the file, the game and the product's place", () => {
    expect(errorsOf({ games: [ml, { name: "Free Fire", products: [{ name: "70 Diamonds" }] }] })).toEqual([
      "shop.json: Free Fire › product 1: code is required",
    ]);
  });

  it("when a price is not whole rupiah, then the message names the game and the product by its code, and the field's path is kept for the page", () => {
    const result = parseCatalog(
      { games: [{ ...ml, products: [...ml.products, { code: "ML172", name: "172 Diamonds", price: 39000.5 }] }] },
      "shop.json",
    );
    expect(result).toEqual({
      ok: false,
      errors: ["shop.json: Mobile Legends › ML172: price must be a whole number of rupiah"],
      issues: [
        {
          path: "games[0].products[1].price",
          where: "Mobile Legends › ML172",
          message: "price must be a whole number of rupiah",
        },
      ],
    });
  });

  it("when several entries are bad, then each one is named", () => {
    expect(
      errorsOf({
        games: [
          { name: "", products: [] },
          {
            name: "B",
            destination: { pattern: "([0-9]", example: "1" },
            products: [{ code: "has space", name: "x", price: 1.5 }],
          },
        ],
      }),
    ).toEqual([
      "shop.json: game 1: name must not be empty",
      "shop.json: game 1: products must list at least one product",
      "shop.json: B: destination pattern is not a valid regular expression",
      "shop.json: B › product 1: code must be 1 to 32 letters, digits, dots, dashes or underscores",
      "shop.json: B › product 1: price must be a whole number of rupiah",
    ]);
  });

  it("when two products share a code in different case, then it is an error naming both places", () => {
    expect(errorsOf({ games: [ml, { name: "Other", products: [{ code: "ml86", name: "Same code" }] }] })).toEqual([
      "shop.json: Other › ml86: code is already used by Mobile Legends › product 1 (codes are case-insensitive)",
    ]);
  });

  it("when a file has bad entries and a duplicate code, then all of them come at once, in the order of the file", () => {
    expect(
      errorsOf({
        games: [
          { ...ml, products: [...ml.products, { code: "ML172", name: "", price: 39000 }] },
          { products: [{ code: "ml86", name: "Same code", price: "20000" }, 5] },
        ],
      }),
    ).toEqual([
      "shop.json: Mobile Legends › ML172: name must not be empty",
      "shop.json: game 2: name is required",
      "shop.json: game 2 › ml86: price must be a number of rupiah",
      "shop.json: game 2 › ml86: code is already used by Mobile Legends › product 1 (codes are case-insensitive)",
      'shop.json: game 2 › product 2: must be an object such as { "code": "ML86", "name": "86 Diamonds", "price": 20000 }',
    ]);
  });

  it("when the file is not an object with games, then it says so", () => {
    expect(errorsOf([])).toEqual(['shop.json: the catalogue must be an object such as { "games": [ ... ] }']);
    expect(errorsOf({})).toEqual(['shop.json: "games" is required']);
  });

  it("when the file is missing or not JSON, then the file is named, and where it stops being JSON", async () => {
    const dir = await mkdtemp(join(tmpdir(), "catalog-"));
    const broken = join(dir, "broken.json");
    await writeFile(broken, "{ games: ");
    expect(await loadCatalog(join(dir, "missing.json"))).toEqual({
      ok: false,
      errors: [`${join(dir, "missing.json")}: file not found`],
      issues: [{ path: "", where: "", message: "file not found" }],
    });
    expect(await loadCatalog(broken)).toEqual({
      ok: false,
      errors: [`${broken}: line 1, column 3: not valid JSON (expected property name or '}')`],
      issues: [{ path: "", where: "line 1, column 3", message: "not valid JSON (expected property name or '}')" }],
    });
  });

  it("when a file is not JSON, then the line and column are named, whether or not JSON.parse says where", () => {
    const place = (text: string) => {
      const result = parseCatalogText(text, "shop.json");
      return result.ok ? "parsed" : result.errors[0];
    };
    // A comma before a closing bracket and a price written as a word: JSON.parse does not say where.
    expect(place('{\n  "games": [\n    { "name": "ML", "products": [1, 2,] }\n  ]\n}')).toBe(
      "shop.json: line 3, column 39: not valid JSON (unexpected token ']')",
    );
    expect(place('{\r\n  "games": [{ "name": "ML",\r\n "price": dua }]}')).toBe(
      "shop.json: line 3, column 11: not valid JSON (unexpected token 'd')",
    );
    expect(place('\uFEFF{"games": [\n')).toBe(
      "shop.json: line 2, column 1: not valid JSON (unexpected end of JSON input)",
    );
    expect(place('{"games": []} }')).toBe(
      "shop.json: line 1, column 15: not valid JSON (unexpected non-whitespace character after JSON)",
    );
    expect(place('{"games": [{"name": "ML", "products": [{"code": "A", "name": "a\\q"}]}]}')).toMatch(
      /^shop\.json: line 1, column 6\d: not valid JSON \(bad escaped character\)$/,
    );
  });

  it("when a product is disabled, then nobody is offered it, a bad flag names its path, and the file form keeps it", async () => {
    const parsed = parseCatalog(
      { games: [{ ...ml, products: [{ code: "ML86", name: "86 Diamonds", price: 20000, disabled: true }] }] },
      "c.json",
    );
    if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
    expect(priceFor(parsed.catalog.games[0]!.products[0]!, { role: "staff" })).toBeUndefined();
    expect(findOffered(parsed.catalog, "ml86", { role: "reseller", tier: "reseller" })).toBeUndefined();
    expect(findProduct(parsed.catalog, "ml86")?.product.disabled).toBe(true);
    expect(parseCatalog(toCatalogJson(parsed.catalog), "again.json")).toEqual(parsed);
    const bad = parseCatalog(
      { games: [{ ...ml, products: [{ code: "ML86", name: "x", disabled: "yes" }] }] },
      "c.json",
    );
    expect(bad).toEqual({
      ok: false,
      errors: ["c.json: Mobile Legends › ML86: disabled must be true or false"],
      issues: [
        {
          path: "games[0].products[0].disabled",
          where: "Mobile Legends › ML86",
          message: "disabled must be true or false",
        },
      ],
    });
    const shipped = await loadCatalog("catalog.json");
    if (!shipped.ok) throw new Error(shipped.errors.join("\n"));
    expect(parseCatalog(toCatalogJson(shipped.catalog), "again.json")).toEqual(shipped);
  });

  it("when a code is typed in another case, then the product is found", () => {
    const result = parseCatalog({ games: [ml] }, "shop.json");
    if (!result.ok) throw new Error("valid catalogue refused");
    expect(findProduct(result.catalog, " ml86 ")?.product.name).toBe("86 Diamonds");
    expect(findProduct(result.catalog, "ML999")).toBeUndefined();
  });

  it("when a player id is checked, then the game's pattern decides and the default rule applies without one", () => {
    const result = parseCatalog({ games: [ml, { name: "Any", products: [{ code: "A1", name: "a" }] }] }, "shop.json");
    if (!result.ok) throw new Error("valid catalogue refused");
    const [mlGame, anyGame] = result.catalog.games;
    expect(checkPlayerId(mlGame!, " 12345678(1234) ")).toEqual({ ok: true, playerId: "12345678(1234)" });
    expect(checkPlayerId(mlGame!, "12345678")).toEqual({ ok: false });
    expect(checkPlayerId(mlGame!, "x12345678(1234)")).toEqual({ ok: false });
    expect(checkPlayerId(anyGame!, "player_42")).toEqual({ ok: true, playerId: "player_42" });
    expect(checkPlayerId(anyGame!, "two words")).toEqual({ ok: false });
    expect(checkPlayerId(anyGame!, "x".repeat(65))).toEqual({ ok: false });
  });

  it("when products have tier prices, then each buyer pays theirs and a product without a price is not sold to resellers", () => {
    const result = parseCatalog(
      {
        games: [
          {
            name: "ML",
            products: [
              { code: "ML86", name: "86", price: 20000, prices: { reseller: 19800, gold: 19700 } },
              { code: "VIP", name: "gold only", prices: { gold: 140000 } },
              { code: "OWN", name: "no price" },
            ],
          },
        ],
      },
      "shop.json",
    );
    if (!result.ok) throw new Error(result.errors.join("\n"));
    const c = result.catalog;
    const [ml86, vip, own] = c.games[0]!.products as [never, never, never];
    const reseller = { role: "reseller" as const, tier: "reseller" };
    const gold = { role: "reseller" as const, tier: "gold" };
    const silver = { role: "reseller" as const, tier: "silver" };
    expect([
      priceFor(ml86, reseller),
      priceFor(ml86, gold),
      priceFor(ml86, silver),
      priceFor(ml86, { role: "staff" }),
    ]).toEqual([19800, 19700, 20000, 20000]);
    expect([priceFor(vip, reseller), priceFor(vip, gold), priceFor(vip, { role: "admin" })]).toEqual([
      undefined,
      140000,
      null,
    ]);
    expect([priceFor(own, reseller), priceFor(own, { role: "staff" })]).toEqual([undefined, null]);
    expect(findOffered(c, "vip", reseller)).toBeUndefined();
    expect(findOffered(c, "vip", gold)?.price).toBe(140000);
    expect([...tiersOf(c)].sort()).toEqual(["gold", "reseller"]);
  });

  it("when tier prices are malformed, then each is named by its product and tier", () => {
    const errors = errorsOf({
      games: [
        {
          name: "ML",
          products: [
            { code: "A", name: "a", prices: { Gold: 100 } },
            { code: "B", name: "b", prices: { gold: -5 } },
            { code: "C", name: "c", prices: [100] },
          ],
        },
      ],
    });
    expect(errors).toEqual([
      'shop.json: ML › A: tier name "Gold" must be 1 to 32 lowercase letters, digits, _ or -, starting with a letter',
      "shop.json: ML › B: price for tier gold must be more than 0",
      'shop.json: ML › C: prices must be an object of tier prices such as { "reseller": 19000 }',
    ]);
  });
});
