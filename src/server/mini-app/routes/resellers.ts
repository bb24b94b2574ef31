import { Hono } from "hono";
import { z } from "zod";
import { MAX_CALLBACK_URL } from "../../../access/partners.js";
import { tiersOf } from "../../../catalog/catalog.js";
import { MAX_DEPOSIT, MAX_DEPOSIT_NOTE } from "../../../deposits/admin-deposits.js";
import type { MiniAppEnv } from "../auth.js";
import type { MiniAppDeps } from "../deps.js";
import { invalid, jsonBody, notFound, paramsOf, queryOf } from "../errors.js";
import { apiAccessView, deliveryView, depositView } from "../views.js";
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

/** The page's name for a request: sent again (a retry, a double tap), it makes nothing more. */
const requestIdBody = z.object({
  requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 letters, digits, _ or -"),
});

/** A callback URL, or null to remove it (read as the chat's `/apikey ID callback` reads it). */
const callbackBody = z.object({ url: z.string({ error: "must be a URL, or null" }).max(10_000).nullable() });

const CALLBACK_RULE = `must be an http:// or https:// address of at most ${MAX_CALLBACK_URL} characters`;

/** A partner's callback, named by the shop's ref id of its order (a test order's `TEST…` id too). */
const deliveryParams = paramsOf(
  z.object({ id: z.string().regex(USER_ID).transform(Number), ref: z.string().regex(/^[A-Za-z0-9_.-]{1,80}$/) }),
);

const CALLBACK_PRIVATE = "leads into a private network (loopback, private, link-local or unspecified address)";
const CALLBACK_UNRESOLVED = "its host name resolves to no address";

type ApiAccessDeps = Pick<
  MiniAppDeps,
  "apiKeys" | "partners" | "people" | "sendApiKey" | "languageOf" | "logger" | "deliveries" | "sendCallbackAgain"
>;

/**
 * /admin/resellers/:id/api/…: a reseller's access to the shop's API (H2H), as `/apikey` in the chat
 * changes it. A new key goes to the admin's own private chat through the bot; no answer holds it.
 */
function apiAccessRoutes(deps: ApiAccessDeps) {
  const { apiKeys, partners, people, logger } = deps;
  return new Hono<MiniAppEnv>()
    .post("/:id/api/on", jsonBody(requestIdBody), resellerId, async (c) => {
      const userId = c.req.valid("param").id;
      const viewer = c.get("viewer");
      // One key per request of the page: the same request again shows what the first one made.
      const made = await apiKeys.issue(userId, requestOrigin(viewer.userId, c.req.valid("json").requestId));
      if (made.kind === "not-reseller") return c.json({ error: "not-reseller" as const }, 404);
      if (made.kind === "issued") {
        const [named, lang] = await Promise.all([
          people.get([userId]),
          deps.languageOf(viewer.userId, viewer.languageCode),
        ]);
        try {
          await deps.sendApiKey(viewer.userId, lang, made.key, { userId, person: named.get(userId) });
        } catch (err) {
          logger.warn({ err, adminId: viewer.userId, userId }, "mini app: a new API key was not sent");
          return c.json({ error: "not-sent" as const }, 502);
        }
      }
      return c.json({ api: apiAccessView(await partners.get(userId)), repeated: made.kind === "repeated" }, 200);
    })
    .post("/:id/api/off", resellerId, async (c) => {
      const userId = c.req.valid("param").id;
      if (!(await apiKeys.turnOff(userId))) return notFound(c);
      return c.json({ api: apiAccessView(await partners.get(userId)) }, 200);
    })
    .put("/:id/api/callback", jsonBody(callbackBody), resellerId, async (c) => {
      const userId = c.req.valid("param").id;
      const r = await apiKeys.setCallback(userId, c.req.valid("json").url);
      if (r.kind === "bad-url") return invalid(c, [{ path: "url", message: CALLBACK_RULE }]);
      if (r.kind === "private" || r.kind === "unresolved") {
        const message = r.kind === "private" ? CALLBACK_PRIVATE : CALLBACK_UNRESOLVED;
        return c.json({ error: "invalid" as const, issues: [{ path: "url", message }], why: r.kind }, 422);
      }
      if (r.kind === "no-key") return notFound(c);
      return c.json({ api: apiAccessView(await partners.get(userId)) }, 200);
    })
    .get("/:id/api/deliveries", resellerId, async (c) => {
      const deliveries = await deps.deliveries.last(c.req.valid("param").id);
      return c.json({ deliveries: deliveries.map(deliveryView) }, 200);
    })
    .post("/:id/api/deliveries/:ref/again", deliveryParams, async (c) => {
      const { id, ref } = c.req.valid("param");
      // Only an order whose callback this partner was sent: the page's button names one of those.
      if (!(await deps.deliveries.last(id)).some((d) => d.shopRefId === ref)) return notFound(c);
      await deps.sendCallbackAgain(ref);
      logger.info({ adminId: c.get("viewer").userId, userId: id, refId: ref }, "mini app: a callback is sent again");
      return c.json({ owed: ref }, 200);
    });
}

/**
 * /admin/resellers: the resellers with their saldo and API access, one's statement a page at a
 * time, a deposit prepared for Confirm (the same rules as /deposit in the chat), a new price tier,
 * their API access turned on (a new key) or off, their callback URL, the last callbacks they were
 * sent and one of them sent again.
 */
export function resellersRoutes(
  deps: Pick<MiniAppDeps, "reports" | "deposits" | "shop" | "access" | "h2hEnabled"> & ApiAccessDeps,
) {
  const { reports, deposits, access, shop, partners, h2hEnabled } = deps;
  return new Hono<MiniAppEnv>()
    .get("/", async (c) => {
      const [list, keys] = await Promise.all([reports.resellers.list(), partners.list()]);
      const byUser = new Map(keys.map((p) => [p.userId, p]));
      const resellers = list.resellers.map((r) => ({ ...r, api: apiAccessView(byUser.get(r.userId)) }));
      return c.json({ ...list, resellers, apiEnabled: h2hEnabled }, 200);
    })
    .get("/:id", resellerId, queryOf(statementQuery), async (c) => {
      const userId = c.req.valid("param").id;
      const [statement, partner] = await Promise.all([
        reports.resellers.statementPage(userId, c.req.valid("query").page, STATEMENT_PAGE),
        partners.get(userId),
      ]);
      if (statement === undefined) return notFound(c);
      return c.json({ ...statement, api: apiAccessView(partner), apiEnabled: h2hEnabled }, 200);
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
    })
    .route("/", apiAccessRoutes(deps));
}
