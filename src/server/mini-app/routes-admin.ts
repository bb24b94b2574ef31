import { dayRange } from "../../calendar.js";
import { zValidator } from "@hono/zod-validator";
import { Hono, type Context } from "hono";
import { z } from "zod";
import { parseCatalog, tiersOf } from "../../catalog/catalog.js";
import { diffCatalogs } from "../../catalog/diff.js";
import { MAX_DEPOSIT, MAX_DEPOSIT_NOTE } from "../../orders/deposits.js";
import type { Deposit } from "../../orders/wallet.js";
import { MAX_PROVIDER_PRICE, MAX_REASON } from "../../orders/settle.js";
import { changeWarnings } from "../../shop/price-check.js";
import type { CatalogSource } from "../../shop/shop.js";
import type { ApiError, DepositView, OrderPage, Resellers, Statement, Today } from "./api-types.js";
import type { CatalogCheck } from "./api-types.js";
import type { MiniAppEnv } from "./auth.js";
import type { MiniAppDeps } from "./deps.js";
import { catalogView, orderView } from "./views.js";

const PAGE_SIZE = 20;
const STATEMENT_PAGE = 20;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const USER_ID = /^[1-9][0-9]{0,15}$/;
const REF_ID = /^[A-Za-z0-9]{1,56}$/;

/** A bad request, field by field: 422 with each bad path once, and the first thing wrong there. */
const invalid = (c: Context, issues: Array<{ path: string; message: string }>) => {
  const seen = new Set<string>();
  const once = issues.filter((i) => !seen.has(i.path) && seen.add(i.path));
  return c.json({ error: "invalid", issues: once } satisfies ApiError, 422);
};

/** zod's issues as the page shows them: `amount: must be a whole number`. */
const zodIssues = (error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> }) =>
  error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));

/** A JSON body checked with a zod schema; anything else is a 422 naming each bad field. */
const body = <T extends z.ZodType>(schema: T) =>
  zValidator("json", schema, (result, c) => (result.success ? undefined : invalid(c, zodIssues(result.error))));

const settleBody = z.discriminatedUnion(
  "outcome",
  [
    z.object({
      outcome: z.literal("success"),
      sn: z
        .string()
        .trim()
        .regex(/^[^\s]{1,64}$/u, "an SN is 1 to 64 characters without spaces"),
      /** What the provider charged, when the admin knows it: the margin counts it. */
      cost: z
        .number({ error: "must be a whole number of rupiah" })
        .int("must be a whole number of rupiah")
        .min(0, "must be 0 or more")
        .max(MAX_PROVIDER_PRICE, `at most ${MAX_PROVIDER_PRICE} rupiah`)
        .optional(),
    }),
    z.object({
      outcome: z.literal("failed"),
      reason: z.string().trim().min(1, "say why it failed").max(MAX_REASON, `at most ${MAX_REASON} characters`),
    }),
  ],
  { error: 'must be { "outcome": "success", "sn": … } or { "outcome": "failed", "reason": … }' },
);

const depositBody = z.object({
  amount: z
    .number({ error: "must be a whole number of rupiah" })
    .int("must be a whole number of rupiah")
    .refine((n) => n !== 0 && Math.abs(n) <= MAX_DEPOSIT, `must be 1 to ${MAX_DEPOSIT} rupiah, either way`),
  note: z.string().trim().max(MAX_DEPOSIT_NOTE, `at most ${MAX_DEPOSIT_NOTE} characters`).default(""),
  /** The page's name for this request: sent again (a retry, a double tap), it prepares nothing more. */
  requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 letters, digits, _ or -"),
});

/** The origin (storage/origins.ts) of a request of the page: the admin's, named by the page. */
const requestOrigin = (userId: number, requestId: string) => `r:${userId}:${requestId}`;

const catalogBody = z.object({
  base: z.number().int().min(0),
  catalog: z.unknown(),
});
const applyBody = catalogBody.extend({
  /** The page's name for this Confirm: a repeated request applies it once ("already"). */
  requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 letters, digits, _ or -"),
});

const depositView = (d: Deposit, saldoBefore: number): DepositView => ({
  id: d.id,
  resellerId: d.resellerId,
  amount: d.amount,
  note: d.note,
  state: d.state,
  saldoBefore,
  saldoAfter: d.saldoAfter ?? saldoBefore + d.amount,
});

/**
 * The admin pages' calls: Today, Catalogue, Pending, Resellers, Orders. Every change goes through
 * the same services as the chat command that does it (the same ledger steps, notices and
 * exactly-once rules): the chat and the page always agree.
 */
export function adminRoutes(deps: MiniAppDeps): Hono<MiniAppEnv> {
  const { orders, reports, shop, deposits, access } = deps;
  const app = new Hono<MiniAppEnv>();
  const adminId = (c: Context<MiniAppEnv>) => c.get("viewer").userId;

  app.get("/today", async (c) => c.json((await reports.today()) satisfies Today));

  app.get("/catalog", async (c) => c.json(catalogView(await shop.state())));

  /** The catalogue sent, checked by the file's rules; the version it was edited against, still in use. */
  async function checked(c: Context<MiniAppEnv>, sent: { base: number; catalog: unknown }) {
    const parsed = parseCatalog(sent.catalog, "catalog");
    if (!parsed.ok) return { response: invalid(c, parsed.issues) };
    const state = await shop.state();
    const current = catalogView(state);
    if (current.version !== sent.base) {
      return { response: c.json({ error: "stale", current } satisfies ApiError, 409) };
    }
    return { catalog: parsed.catalog, state };
  }

  app.post("/catalog/check", body(catalogBody), async (c) => {
    const r = await checked(c, c.req.valid("json"));
    if (r.response !== undefined) return r.response;
    const changes = diffCatalogs(r.state.catalog, r.catalog);
    // A price below the provider's last one, or far from the old one, is shown with why before Confirm.
    const answer: CatalogCheck = { changes, warnings: changeWarnings(changes, await reports.providerPrices()) };
    return c.json(answer);
  });

  app.post("/catalog/apply", body(applyBody), async (c) => {
    const sent = c.req.valid("json");
    const parsed = parseCatalog(sent.catalog, "catalog");
    if (!parsed.ok) return invalid(c, parsed.issues);
    const base: CatalogSource =
      sent.base === 0 ? { kind: "file" } : { kind: "chat", version: sent.base, by: 0, at: "" };
    // The same compare-and-set write as a catalogue document confirmed in the chat: applied once
    // (the request id is its tag), refused when somebody changed the catalogue meanwhile.
    const outcome = await shop.replace(adminId(c), base, parsed.catalog, `WA${sent.requestId}`);
    const view = catalogView(await shop.state());
    if (outcome === "stale") return c.json({ error: "stale", current: view } satisfies ApiError, 409);
    if (outcome === "applied")
      deps.logger.info({ by: adminId(c), version: view.version }, "catalogue replaced in the mini app");
    return c.json({ outcome, view });
  });

  app.get("/pending", async (c) => c.json({ orders: (await reports.orders.pending()).map((o) => orderView(o, true)) }));

  app.post("/pending/:refId/settle", body(settleBody), async (c) => {
    const typed = c.req.param("refId");
    if (!REF_ID.test(typed)) return c.json({ error: "not-found" } satisfies ApiError, 404);
    const refId = (await reports.orders.lookup(typed))?.refId ?? typed;
    const sent = c.req.valid("json");
    const r = await orders.settle({
      refId,
      adminId: adminId(c),
      outcome:
        sent.outcome === "success"
          ? { state: "success", sn: sent.sn, ...(sent.cost === undefined ? {} : { cost: sent.cost }) }
          : { state: "failed", reason: sent.reason },
    });
    switch (r.kind) {
      case "settled":
        return c.json({ order: orderView(r.order, true) });
      case "not-pending":
        return c.json({ error: "not-pending", order: orderView(r.order, true) }, 409);
      case "not-found":
        return c.json({ error: "not-found" } satisfies ApiError, 404);
      case "bad-sn":
        return invalid(c, [{ path: "sn", message: "an SN is 1 to 64 characters without spaces" }]);
      case "bad-cost":
        return invalid(c, [{ path: "cost", message: `0 to ${MAX_PROVIDER_PRICE} rupiah` }]);
      case "bad-reason":
        return invalid(c, [{ path: "reason", message: `1 to ${MAX_REASON} characters` }]);
    }
  });

  app.get("/resellers", async (c) => c.json((await reports.resellers.list()) satisfies Resellers));

  app.get("/resellers/:id", async (c) => {
    const id = c.req.param("id");
    const page = Number(c.req.query("page") ?? "0");
    if (!USER_ID.test(id)) return c.json({ error: "not-found" } satisfies ApiError, 404);
    if (!Number.isSafeInteger(page) || page < 0) return invalid(c, [{ path: "page", message: "must be 0 or more" }]);
    const statement = await reports.resellers.statementPage(Number(id), page, STATEMENT_PAGE);
    if (statement === undefined) return c.json({ error: "not-found" } satisfies ApiError, 404);
    return c.json(statement satisfies Statement);
  });

  app.post("/resellers/:id/deposits", body(depositBody), async (c) => {
    const id = c.req.param("id");
    if (!USER_ID.test(id)) return c.json({ error: "not-found" } satisfies ApiError, 404);
    const sent = c.req.valid("json");
    // The same rules as /deposit in the chat (the deposits service's): a summary to confirm, one
    // per request id (the same request again gets the same deposit).
    const r = await deposits.prepare(
      { resellerId: Number(id), amount: sent.amount, note: sent.note, adminId: adminId(c), chatId: adminId(c) },
      requestOrigin(adminId(c), sent.requestId),
    );
    switch (r.kind) {
      case "prepared":
        return c.json(depositView(r.deposit, r.saldoBefore));
      case "bad-amount":
        return invalid(c, [{ path: "amount", message: `must be 1 to ${MAX_DEPOSIT} rupiah, either way` }]);
      case "bad-note":
        return invalid(c, [{ path: "note", message: `at most ${MAX_DEPOSIT_NOTE} characters` }]);
      case "not-reseller":
        return c.json({ error: "not-reseller" } satisfies ApiError, 404);
      case "below-zero":
        return c.json({ error: "short", saldo: r.saldo }, 409);
    }
  });

  app.post("/deposits/:id/confirm", async (c) => {
    const id = c.req.param("id");
    if (!REF_ID.test(id)) return c.json({ error: "not-found" } satisfies ApiError, 404);
    // Credited once however often this is called (the ledger's step); the reseller is told in the chat.
    const r = await deposits.confirm(id, adminId(c));
    switch (r.kind) {
      case "done":
        return c.json({ deposit: depositView(r.deposit, r.wallet.saldo - r.deposit.amount), saldo: r.wallet.saldo });
      case "taken": {
        const before = (r.deposit.saldoAfter ?? 0) - r.deposit.amount;
        return c.json({ error: "taken", deposit: depositView(r.deposit, before) }, 409);
      }
      case "short":
        return c.json({ error: "short", saldo: r.saldo }, 409);
      case "not-found":
        return c.json({ error: "not-found" } satisfies ApiError, 404);
    }
  });

  app.post("/deposits/:id/cancel", async (c) => {
    const id = c.req.param("id");
    if (!REF_ID.test(id)) return c.json({ error: "not-found" } satisfies ApiError, 404);
    const r = await deposits.cancel(id);
    if (r.kind === "not-found") return c.json({ error: "not-found" } satisfies ApiError, 404);
    if (r.kind === "taken") return c.json({ error: "taken", deposit: depositView(r.deposit, 0) }, 409);
    return c.json({ deposit: depositView(r.deposit, 0) });
  });

  app.post(
    "/resellers/:id/tier",
    body(z.object({ tier: z.string({ error: "must be the name of a price tier" }).trim().toLowerCase() })),
    async (c) => {
      const id = c.req.param("id");
      if (!USER_ID.test(id)) return c.json({ error: "not-found" } satisfies ApiError, 404);
      const tiers = tiersOf(await shop.catalog());
      const r = await access.setTier(Number(id), c.req.valid("json").tier, tiers);
      if (r.kind === "unknown-tier") return invalid(c, [{ path: "tier", message: `one of ${[...tiers].join(", ")}` }]);
      if (r.kind === "not-reseller") return c.json({ error: "not-reseller" } satisfies ApiError, 404);
      return c.json({ old: r.old, tier: c.req.valid("json").tier });
    },
  );

  const ordersQuery = z.object({
    q: z.string().trim().max(64).optional(),
    day: z
      .string()
      .regex(DAY, "must be a day such as 2026-03-10")
      .refine((d) => dayRange(d, deps.timeZone) !== undefined, "no such day")
      .optional(),
    user: z.string().regex(USER_ID, "must be a Telegram user id").optional(),
    state: z.enum(["submitting", "success", "failed", "unknown"]).optional(),
    page: z.coerce
      .number({ error: "must be a page number, 0 or more" })
      .int("must be a page number, 0 or more")
      .min(0, "must be a page number, 0 or more")
      .max(10_000, "must be at most 10000")
      .default(0),
  });

  app.get(
    "/orders",
    zValidator("query", ordersQuery, (result, c) => (result.success ? undefined : invalid(c, zodIssues(result.error)))),
    async (c) => {
      const q = c.req.valid("query");
      const range = q.day === undefined ? undefined : dayRange(q.day, deps.timeZone);
      // A ref id is that one order; anything else typed is a player id, as the chat reads one.
      const found = await reports.orders.search({
        ...(q.q === undefined ? {} : { text: q.q }),
        ...(range === undefined ? {} : { fromMs: range.fromMs, toMs: range.toMs }),
        ...(q.user === undefined ? {} : { userId: Number(q.user) }),
        ...(q.state === undefined ? {} : { state: q.state }),
        page: q.page,
        pageSize: PAGE_SIZE,
      });
      const page: OrderPage = {
        orders: found.orders.map((o) => orderView(o, true)),
        page: q.page,
        hasMore: found.hasMore,
      };
      return c.json(page);
    },
  );

  app.get("/orders.csv", async (c) => {
    const day = c.req.query("day") ?? "";
    const file = DAY.test(day) ? await reports.dayCsv(day) : undefined;
    if (file === undefined) return invalid(c, [{ path: "day", message: "must be a day such as 2026-03-10" }]);
    return c.body(file.csv, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="orders-${day}.csv"`,
    });
  });

  return app;
}
