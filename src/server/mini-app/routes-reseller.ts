import { Hono, type Context } from "hono";
import { offeredTo, priceFor } from "../../catalog/catalog.js";
import type { OrderPage, PriceList, Statement, WalletView } from "./api-types.js";
import type { MiniAppEnv } from "./auth.js";
import type { MiniAppDeps } from "./deps.js";
import { resellerRow } from "../../reports/resellers.js";
import { orderView } from "./views.js";

const PAGE_SIZE = 20;

/** The page number of `?page=`: 0 and up (anything else is the first page). */
const pageOf = (raw: string | undefined) => {
  const page = Number(raw ?? "0");
  return Number.isSafeInteger(page) && page >= 0 && page <= 10_000 ? page : 0;
};

/**
 * A reseller's own pages: saldo and held, statement, orders, price list. Nothing here takes an id:
 * a reseller can only ever reach their own data (another's is an admin call, 403 for them).
 */
export function resellerRoutes(deps: MiniAppDeps): Hono<MiniAppEnv> {
  const { wallets, reports, shop } = deps;
  const app = new Hono<MiniAppEnv>();
  const me = (c: Context<MiniAppEnv>) => c.get("viewer").userId;
  const tierOf = (c: Context<MiniAppEnv>) => {
    const buyer = c.get("viewer").buyer;
    return buyer?.role === "reseller" ? buyer.tier : "";
  };

  app.get("/wallet", async (c) => {
    const w = await wallets.get(me(c));
    const answer: WalletView = { saldo: w.saldo, held: w.held, tier: tierOf(c) };
    return c.json(answer);
  });

  app.get("/statement", async (c) => {
    const page = pageOf(c.req.query("page"));
    // Their own statement, as an admin sees it (a reseller who lost the right still sees their money).
    const statement = await reports.resellers.statementPage(me(c), page, PAGE_SIZE);
    const answer: Statement = statement ?? {
      reseller: resellerRow(me(c), undefined, undefined),
      movements: [],
      page,
      total: 0,
      pageSize: PAGE_SIZE,
    };
    return c.json({ ...answer, reseller: { ...answer.reseller, tier: tierOf(c), source: "env" } } satisfies Statement);
  });

  app.get("/orders", async (c) => {
    const page = pageOf(c.req.query("page"));
    const found = await reports.orders.search({ userId: me(c), page, pageSize: PAGE_SIZE });
    const answer: OrderPage = { orders: found.orders.map((o) => orderView(o, false)), page, hasMore: found.hasMore };
    return c.json(answer);
  });

  app.get("/prices", async (c) => {
    const buyer = { role: "reseller" as const, tier: tierOf(c) };
    const catalog = await shop.catalog();
    const answer: PriceList = {
      tier: buyer.tier,
      games: catalog.games
        .map((g) => ({
          name: g.name,
          products: g.products
            .filter((p) => offeredTo(p, buyer))
            .map((p) => ({ code: p.code, name: p.name, price: priceFor(p, buyer) ?? 0 })),
        }))
        .filter((g) => g.products.length > 0),
    };
    return c.json(answer);
  });

  return app;
}
