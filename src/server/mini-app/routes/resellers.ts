import { Hono } from "hono";
import { z } from "zod";
import { tiersOf } from "../../../catalog/catalog.js";
import { MAX_DEPOSIT, MAX_DEPOSIT_NOTE } from "../../../orders/deposits.js";
import type { MiniAppEnv } from "../auth.js";
import type { MiniAppDeps } from "../deps.js";
import { invalid, jsonBody, notFound, paramsOf, queryOf } from "../errors.js";
import { depositView } from "../views.js";
import { USER_ID } from "./ids.js";

const STATEMENT_PAGE = 20;

const resellerId = paramsOf(z.object({ id: z.string().regex(USER_ID).transform(Number) }));

const depositBody = z.object({
  amount: z
    .number({ error: "must be a whole number of rupiah" })
    .int("must be a whole number of rupiah")
    .refine((n) => n !== 0 && Math.abs(n) <= MAX_DEPOSIT, `must be 1 to ${MAX_DEPOSIT} rupiah, either way`),
  note: z.string().trim().max(MAX_DEPOSIT_NOTE, `at most ${MAX_DEPOSIT_NOTE} characters`).default(""),
  /** The page's name for this request: sent again (a retry, a double tap), it prepares nothing more. */
  requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 letters, digits, _ or -"),
});

const tierBody = z.object({ tier: z.string({ error: "must be the name of a price tier" }).trim().toLowerCase() });

const statementQuery = z.object({
  page: z
    .string()
    .optional()
    .transform((p) => Number(p ?? "0"))
    .refine((p) => Number.isSafeInteger(p) && p >= 0, "must be 0 or more"),
});

/** The origin (storage/origins.ts) of a request of the page: the admin's, named by the page. */
const requestOrigin = (userId: number, requestId: string) => `r:${userId}:${requestId}`;

/**
 * /admin/resellers: the resellers with their saldo, one's statement a page at a time, a deposit
 * prepared for Confirm (the same rules as /deposit in the chat), a new price tier.
 */
export function resellersRoutes(deps: Pick<MiniAppDeps, "reports" | "deposits" | "access" | "shop">) {
  const { reports, deposits, access, shop } = deps;
  return new Hono<MiniAppEnv>()
    .get("/", async (c) => c.json(await reports.resellers.list(), 200))
    .get("/:id", resellerId, queryOf(statementQuery), async (c) => {
      const statement = await reports.resellers.statementPage(
        c.req.valid("param").id,
        c.req.valid("query").page,
        STATEMENT_PAGE,
      );
      if (statement === undefined) return notFound(c);
      return c.json(statement, 200);
    })
    .post("/:id/deposits", jsonBody(depositBody), resellerId, async (c) => {
      const sent = c.req.valid("json");
      const adminId = c.get("viewer").userId;
      // A summary to confirm, one per request id (the same request again gets the same deposit).
      const r = await deposits.prepare(
        { resellerId: c.req.valid("param").id, amount: sent.amount, note: sent.note, adminId, chatId: adminId },
        requestOrigin(adminId, sent.requestId),
      );
      switch (r.kind) {
        case "prepared":
          return c.json(depositView(r.deposit, r.saldoBefore), 200);
        case "bad-amount":
          return invalid(c, [{ path: "amount", message: `must be 1 to ${MAX_DEPOSIT} rupiah, either way` }]);
        case "bad-note":
          return invalid(c, [{ path: "note", message: `at most ${MAX_DEPOSIT_NOTE} characters` }]);
        case "not-reseller":
          return c.json({ error: "not-reseller" as const }, 404);
        case "below-zero":
          return c.json({ error: "short" as const, saldo: r.saldo }, 409);
      }
    })
    .post("/:id/tier", jsonBody(tierBody), resellerId, async (c) => {
      const tier = c.req.valid("json").tier;
      const tiers = tiersOf(await shop.catalog());
      const r = await access.setTier(c.req.valid("param").id, tier, tiers);
      if (r.kind === "unknown-tier") return invalid(c, [{ path: "tier", message: `one of ${[...tiers].join(", ")}` }]);
      if (r.kind === "not-reseller") return c.json({ error: "not-reseller" as const }, 404);
      return c.json({ old: r.old, tier }, 200);
    });
}
