import { Hono, type Context } from "hono";
import { z } from "zod";
import { offeredTo, priceFor } from "../../../catalog/catalog.js";
import { resellerRow } from "../../../reports/resellers.js";
import type { MiniAppEnv } from "../auth.js";
import type { MiniAppDeps } from "../deps.js";
import { queryOf } from "../errors.js";
import { orderView, withPartnerRefs } from "../views.js";

const PAGE_SIZE = 20;

/** `?page=`: 0 and up (anything else is the first page, never an error). */
const pageQuery = queryOf(
  z.object({
    page: z
      .string()
      .optional()
      .transform((raw) => {
        const page = Number(raw ?? "0");
        return Number.isSafeInteger(page) && page >= 0 && page <= 10_000 ? page : 0;
      }),
  }),
);

/**
 * /reseller: a reseller's own account (saldo and held, statement, orders, price list). Nothing here
 * takes an id: a reseller can only ever reach their own data (another's is an admin call, 403 for them).
 */
export function ownAccountRoutes(deps: Pick<MiniAppDeps, "wallets" | "reports" | "shop" | "orders">) {
  const { wallets, reports, shop, orders } = deps;
  const me = (c: Context<MiniAppEnv>) => c.get("viewer").userId;
  const tierOf = (c: Context<MiniAppEnv>) => {
    const buyer = c.get("viewer").buyer;
    return buyer?.role === "reseller" ? buyer.tier : "";
  };

  return new Hono<MiniAppEnv>()
    .get("/wallet", async (c) => {
      const w = await wallets.get(me(c));
      return c.json({ saldo: w.saldo, held: w.held, tier: tierOf(c) }, 200);
    })
    .get("/statement", pageQuery, async (c) => {
      const { page } = c.req.valid("query");
      // Their own statement, as an admin sees it (a reseller who lost the right still sees their money).
      const statement = (await reports.resellers.statementPage(me(c), page, PAGE_SIZE)) ?? {
        reseller: resellerRow(me(c), undefined, undefined),
        movements: [],
        page,
        total: 0,
        pageSize: PAGE_SIZE,
      };
      return c.json(
        { ...statement, reseller: { ...statement.reseller, tier: tierOf(c), source: "env" as const } },
        200,
      );
    })
    .get("/orders", pageQuery, async (c) => {
      const { page } = c.req.valid("query");
      const found = await reports.orders.search({ userId: me(c), page, pageSize: PAGE_SIZE });
      const views = await withPartnerRefs(
        found.orders.map((o) => orderView(o, false)),
        deps.reports.orders.partnerRefOf,
      );
      return c.json({ orders: views, page, hasMore: found.hasMore }, 200);
    })
    .get("/prices", async (c) => {
      const buyer = { role: "reseller" as const, tier: tierOf(c) };
      const catalog = await shop.catalog();
      // A product whose every route rests is listed, marked temporarily unavailable (it comes back by itself).
      const resting = await orders.unavailable(catalog);
      return c.json(
        {
          tier: buyer.tier,
          games: catalog.games
            .map((g) => ({
              name: g.name,
              products: g.products
                .filter((p) => offeredTo(p, buyer))
                .map((p) => ({
                  code: p.code,
                  name: p.name,
                  price: priceFor(p, buyer) ?? 0,
                  ...(resting.has(p.code.toUpperCase()) ? { resting: true as const } : {}),
                })),
            }))
            .filter((g) => g.products.length > 0),
        },
        200,
      );
    });
}
