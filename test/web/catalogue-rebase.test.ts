import { describe, expect, it } from "vitest";
import type { CatalogFile } from "../../src/server/mini-app/views.js";
import { rebaseEdit } from "../../src/web/catalogue/rebase.js";

const base: CatalogFile = {
  games: [
    {
      name: "Mobile Legends",
      products: [
        { code: "ML86", name: "86 Diamonds", price: 20000, prices: { reseller: 19800 } },
        { code: "ML172", name: "172 Diamonds", price: 39000 },
      ],
    },
    { name: "Free Fire", products: [{ code: "FF70", name: "70 Diamonds", price: 10000 }] },
  ],
};

/** The catalogue with one product changed. */
const edit = (catalog: CatalogFile, code: string, change: (p: any) => any): CatalogFile => ({
  games: catalog.games.map((g) => ({ ...g, products: g.products.map((p) => (p.code === code ? change(p) : p)) })),
});

describe("a stale edit in the Catalogue page, moved onto the catalogue as it is now", () => {
  it("when somebody changed another product meanwhile, then their change stays and only the admin's fields are taken", () => {
    const draft = edit(base, "ML172", (p) => ({ ...p, price: 40000 }));
    const current = edit(base, "ML86", (p) => ({ ...p, price: 21000 }));
    const rebased = rebaseEdit(base, draft, current);
    expect(rebased.conflicts).toEqual([]);
    expect(rebased.catalog).toEqual(
      edit(
        edit(base, "ML86", (p) => ({ ...p, price: 21000 })),
        "ML172",
        (p) => ({ ...p, price: 40000 }),
      ),
    );
  });

  it("when both changed different fields of one product, then both changes are kept, without a conflict", () => {
    const draft = edit(base, "ML86", (p) => ({ ...p, prices: { reseller: 19500 }, disabled: true }));
    const current = edit(base, "ML86", (p) => ({ ...p, price: 21000, name: "86 Diamonds (promo)" }));
    const rebased = rebaseEdit(base, draft, current);
    expect(rebased.conflicts).toEqual([]);
    expect(rebased.catalog.games[0]!.products[0]).toEqual({
      code: "ML86",
      name: "86 Diamonds (promo)",
      price: 21000,
      prices: { reseller: 19500 },
      disabled: true,
    });
  });

  it("when both changed the same price to different amounts, then the admin's is kept and the field is a conflict", () => {
    const draft = edit(base, "ML86", (p) => ({ ...p, price: 22000, name: "86 💎" }));
    const current = edit(base, "ML86", (p) => ({ ...p, price: 21000, name: "86 💎" }));
    const rebased = rebaseEdit(base, draft, current);
    expect(rebased.conflicts).toEqual([
      { kind: "both", code: "ML86", field: { kind: "price" }, mine: 22000, theirs: 21000 },
    ]);
    expect(rebased.catalog.games[0]!.products[0]).toMatchObject({ price: 22000, name: "86 💎" });
  });

  it("when the admin set a tier price somebody removed meanwhile, or edited a product removed meanwhile, then each is named", () => {
    const draft = edit(
      edit(base, "ML86", (p) => ({ ...p, prices: { reseller: 19000 } })),
      "FF70",
      (p) => ({ ...p, price: 11000 }),
    );
    const current = {
      games: [edit(base, "ML86", ({ prices: _gone, ...p }) => p).games[0]!, { name: "Free Fire", products: [] }],
    };
    const rebased = rebaseEdit(base, draft, current);
    expect(rebased.conflicts).toEqual([
      { kind: "both", code: "ML86", field: { kind: "price", tier: "reseller" }, mine: 19000, theirs: undefined },
      { kind: "gone", code: "FF70" },
    ]);
    expect(rebased.catalog.games[0]!.products[0]!.prices).toEqual({ reseller: 19000 });
    expect(rebased.catalog.games[1]!.products).toEqual([]);
  });

  it("when the admin typed a price the page cannot read yet, then it is kept as typed, to be refused at its field", () => {
    const draft = edit(base, "ML172", (p) => ({ ...p, price: "39.5" }));
    const rebased = rebaseEdit(base, draft, base);
    expect(rebased.catalog.games[0]!.products[1]!.price).toBe("39.5");
  });

  it("when the admin set a product's routes and somebody changed its price meanwhile, then both are kept; routes both changed are a conflict, the admin's kept", () => {
    const mine = [
      { provider: "backup", code: "MLBB86" },
      { provider: "main", code: "ML86" },
    ];
    const draft = edit(base, "ML86", (p) => ({ ...p, routes: mine }));
    const current = edit(base, "ML86", (p) => ({ ...p, price: 21000 }));
    const rebased = rebaseEdit(base, draft, current);
    expect(rebased.conflicts).toEqual([]);
    expect(rebased.catalog).toEqual(edit(current, "ML86", (p) => ({ ...p, routes: mine })));

    const theirs = edit(base, "ML86", (p) => ({ ...p, routes: [{ provider: "main", code: "ML86" }] }));
    const both = rebaseEdit(base, draft, theirs);
    expect(both.conflicts).toMatchObject([{ kind: "both", code: "ML86", field: { kind: "routes" } }]);
    expect(both.catalog).toEqual(edit(theirs, "ML86", (p) => ({ ...p, routes: mine })));

    // Routes removed by the admin (back to every provider) come off the newer catalogue too.
    const cleared = rebaseEdit(
      theirs,
      base,
      edit(theirs, "ML86", (p) => ({ ...p, price: 21000 })),
    );
    expect(cleared.catalog.games[0]!.products[0]).toEqual({ ...base.games[0]!.products[0], price: 21000 });
  });
});
