import { describe, expect, it } from "vitest";
import { parseCatalog, parseCatalogText, routesOf, toCatalogJson } from "../../src/catalog/catalog.js";
import { diffCatalogs } from "../../src/catalog/diff.js";

const withRoutes = (routes: unknown, more: object = {}) => ({
  games: [
    {
      name: "Mobile Legends",
      products: [
        { code: "ML86", name: "86 Diamonds", price: 20000, routes, ...more },
        { code: "ML172", name: "172 Diamonds", price: 39000 },
      ],
    },
  ],
});

const both = ["main", "backup"];

describe("a product's routes", () => {
  it("when a product lists its routes, then they are kept in order, and the file form gives them back", () => {
    const json = withRoutes([
      { provider: "backup", code: "MLBB86" },
      { provider: "main", code: " ML86 " },
    ]);
    const parsed = parseCatalog(json, "shop.json", both);
    if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
    const [ml86, ml172] = parsed.catalog.games[0]!.products;
    expect(ml86!.routes).toEqual([
      { provider: "backup", code: "MLBB86" },
      { provider: "main", code: "ML86" },
    ]);
    expect(ml172).not.toHaveProperty("routes");
    expect(parseCatalog(toCatalogJson(parsed.catalog), "again.json", both)).toEqual(parsed);
    expect(JSON.stringify(toCatalogJson(parsed.catalog))).toContain(
      '"routes":[{"provider":"backup","code":"MLBB86"},{"provider":"main","code":"ML86"}]',
    );
  });

  it("when a route names a provider that is not configured, then the catalogue is refused, naming the route by its path", () => {
    const result = parseCatalog(withRoutes([{ provider: "backup", code: "MLBB86" }]), "shop.json");
    expect(result).toEqual({
      ok: false,
      errors: ['shop.json: Mobile Legends › ML86: route 1 provider "backup" is not configured (configured: main)'],
      issues: [
        {
          path: "games[0].products[0].routes[0].provider",
          where: "Mobile Legends › ML86",
          message: 'route 1 provider "backup" is not configured (configured: main)',
        },
      ],
    });
    const text = parseCatalogText(JSON.stringify(withRoutes([{ provider: "spare", code: "X" }])), "up.json", both);
    expect(!text.ok && text.errors).toEqual([
      'up.json: Mobile Legends › ML86: route 1 provider "spare" is not configured (configured: main, backup)',
    ]);
  });

  it("when routes are badly written, then each problem is named at its route", () => {
    const errors = (routes: unknown) => {
      const r = parseCatalog(withRoutes(routes), "shop.json", both);
      if (r.ok) throw new Error("expected a refusal");
      return r.issues.map((i) => `${i.path}: ${i.message}`);
    };
    expect(errors([])).toEqual([
      "games[0].products[0].routes: routes must list at least one route (or be left out: every provider, under the product's code)",
    ]);
    const ten = Array.from({ length: 10 }, (_, i) => `p${i}`);
    const tooMany = parseCatalog(withRoutes(ten.map((provider) => ({ provider, code: "A" }))), "shop.json", ten);
    expect(!tooMany.ok && tooMany.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      "games[0].products[0].routes: routes must list at most 9 routes",
    ]);
    expect(
      errors([
        { provider: "Main", code: "ML86" },
        { provider: "backup", code: "has space" },
        { provider: "main" },
        "main",
      ]),
    ).toEqual([
      "games[0].products[0].routes[0].provider: route 1 provider must be a provider's name (1 to 20 lowercase letters a-z or digits) such as main",
      "games[0].products[0].routes[1].code: route 2 code must be 1 to 32 letters, digits, dots, dashes or underscores",
      "games[0].products[0].routes[2].code: route 3 code is required",
      'games[0].products[0].routes[3]: route 4 must be an object such as { "provider": "main", "code": "ML86" }',
    ]);
    expect(
      errors([
        { provider: "main", code: "ML86" },
        { provider: "main", code: "ML86B" },
      ]),
    ).toEqual([
      "games[0].products[0].routes[1].provider: route 2 provider main is already an earlier route (each provider once)",
    ]);
  });

  it("when an order is routed, then a product without routes goes to every provider under its code, one with routes to its routes", () => {
    expect(routesOf({ code: "ML86" }, both)).toEqual([
      { provider: "main", code: "ML86" },
      { provider: "backup", code: "ML86" },
    ]);
    const routes = [
      { provider: "backup", code: "MLBB86" },
      { provider: "gone", code: "G86" },
    ];
    expect(routesOf({ code: "ML86", routes }, both)).toEqual([{ provider: "backup", code: "MLBB86" }]);
  });

  it("when a stored catalogue routes through a provider since removed, then it is still read", () => {
    const json = withRoutes([{ provider: "gone", code: "G86" }]);
    expect(parseCatalog(json, "stored", "any").ok).toBe(true);
  });

  it("when routes change, then the diff says so, with both sides", () => {
    const parse = (routes: unknown) => {
      const r = parseCatalog(routes === undefined ? withRoutes(undefined) : withRoutes(routes), "c.json", both);
      if (!r.ok) throw new Error(r.errors.join("\n"));
      return r.catalog;
    };
    const none = parse(undefined);
    const two = parse([
      { provider: "main", code: "ML86" },
      { provider: "backup", code: "MLBB86" },
    ]);
    const swapped = parse([
      { provider: "backup", code: "MLBB86" },
      { provider: "main", code: "ML86" },
    ]);
    expect(diffCatalogs(none, two)).toEqual([
      {
        kind: "routes",
        code: "ML86",
        from: undefined,
        to: [
          { provider: "main", code: "ML86" },
          { provider: "backup", code: "MLBB86" },
        ],
      },
    ]);
    expect(diffCatalogs(two, swapped)).toEqual([
      {
        kind: "routes",
        code: "ML86",
        from: two.games[0]!.products[0]!.routes,
        to: swapped.games[0]!.products[0]!.routes,
      },
    ]);
    expect(
      diffCatalogs(
        two,
        parse([
          { provider: "main", code: "ML86" },
          { provider: "backup", code: "MLBB86" },
        ]),
      ),
    ).toEqual([]);
  });
});
