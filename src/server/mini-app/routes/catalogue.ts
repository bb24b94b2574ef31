import { Hono } from "hono";
import { z } from "zod";
import { parseCatalog } from "../../../catalog/catalog.js";
import { MAIN_PROVIDER } from "../../../topup/types.js";
import { diffCatalogs } from "../../../catalog/diff.js";
import { changeWarnings } from "../../../shop/price-check.js";
import type { CatalogSource } from "../../../shop/shop.js";
import type { MiniAppEnv } from "../auth.js";
import type { MiniAppDeps } from "../deps.js";
import { invalid, jsonBody } from "../errors.js";
import { catalogView } from "../views.js";

const catalogBody = z.object({
  base: z.number().int().min(0),
  catalog: z.unknown(),
});
const applyBody = catalogBody.extend({
  /** The page's name for this Confirm: a repeated request applies it once ("already"). */
  requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 letters, digits, _ or -"),
});

/**
 * /admin/catalog: the catalogue in use, a new one checked (its changes and the prices to look at
 * twice) and applied, with the same compare-and-set write as a catalogue document confirmed in the chat.
 */
export function catalogueRoutes(deps: Pick<MiniAppDeps, "shop" | "reports" | "logger" | "providerNames" | "orders">) {
  const { shop, reports, orders } = deps;
  const providers = deps.providerNames ?? [MAIN_PROVIDER];

  /** The catalogue in use, and the view of it when it is not the version `base` the page edited. */
  async function inUse(base: number) {
    const state = await shop.state();
    const current = catalogView(state, providers);
    return { state, stale: current.version === base ? undefined : current };
  }

  return new Hono<MiniAppEnv>()
    .get("/", async (c) => {
      const state = await shop.state();
      return c.json(catalogView(state, providers, await orders.unavailable(state.catalog)), 200);
    })
    .post("/check", jsonBody(catalogBody), async (c) => {
      const sent = c.req.valid("json");
      const parsed = parseCatalog(sent.catalog, "catalog", providers);
      if (!parsed.ok) return invalid(c, parsed.issues);
      const { state, stale: current } = await inUse(sent.base);
      if (current !== undefined) return c.json({ error: "stale" as const, current }, 409);
      const changes = diffCatalogs(state.catalog, parsed.catalog);
      // A price below the provider's last one, or far from the old one, is shown with why before Confirm.
      return c.json({ changes, warnings: changeWarnings(changes, await reports.providerPrices()) }, 200);
    })
    .post("/apply", jsonBody(applyBody), async (c) => {
      const sent = c.req.valid("json");
      const by = c.get("viewer").userId;
      const parsed = parseCatalog(sent.catalog, "catalog", providers);
      if (!parsed.ok) return invalid(c, parsed.issues);
      const base: CatalogSource =
        sent.base === 0 ? { kind: "file" } : { kind: "chat", version: sent.base, by: 0, at: "" };
      // Applied once (the request id is its tag), refused when somebody changed the catalogue meanwhile.
      const outcome = await shop.replace(by, base, parsed.catalog, `WA${sent.requestId}`);
      const view = catalogView(await shop.state(), providers);
      if (outcome === "stale") return c.json({ error: "stale" as const, current: view }, 409);
      if (outcome === "applied") deps.logger.info({ by, version: view.version }, "catalogue replaced in the mini app");
      return c.json({ outcome, view }, 200);
    });
}
