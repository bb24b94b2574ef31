import { Hono, type Context } from "hono";
import type { Access } from "../../access/access.js";
import type { AuthPartner, PartnerStore } from "../../access/partners.js";
import type { People } from "../../access/people.js";
import type { Logger } from "../../logger.js";
import { outcomeKnown, type OrderRecord } from "../../orders/order.js";
import type { PartnerOrderRequest, PartnerOrders } from "../../partners/partner-orders.js";
import { readReconcileQuery, RECONCILE_PATHS, type Reconcile } from "../../partners/reconcile.js";
import { errorBody, orderBody, refusalBody, usedBody, type ErrorBody, type ErrorCode } from "./answers.js";
import { openApiDocument } from "./openapi.js";
import { MAX_PRICE_MSG, maxPriceOf } from "./params.js";
import { getConnInfo } from "@hono/node-server/conninfo";
import { clientAddress } from "./client-address.js";
import type { RateLimit } from "./rate-limit.js";
import type { WrongKeys } from "./wrong-keys.js";
import type { TestOrders } from "../../partners/test-orders.js";
import { markTestAnswers, testAnswers } from "./test-answers.js";

export interface H2hDeps {
  partners: Pick<PartnerStore, "authenticate">;
  access: Pick<Access, "buyerOf">;
  people: Pick<People, "get">;
  partnerOrders: PartnerOrders;
  /** The orders of test keys: they order nothing (test-answers.ts answers them). */
  testOrders: TestOrders;
  rateLimit: RateLimit;
  /** Wrong keys per client address: past the limit, that address's wrong keys are held back. */
  wrongKeys: Pick<WrongKeys, "count">;
  /** H2H_TRUSTED_PROXIES: peers whose X-Forwarded-For names the client. */
  trustedProxies: ReadonlySet<string>;
  /** A partner's orders and saldo movements of a day, for their books. */
  reconcile: Pick<Reconcile, "transactions" | "mutations">;
  /** An order whose outcome its partner may not have read (they hung up): the callback tells it. */
  owe: (refId: string) => Promise<void>;
  /** Work a stop waits for: an order in flight finishes and is recorded before the store closes. */
  track: <T>(work: Promise<T>) => Promise<T>;
  /** REF_ID_PREFIX: the head of the shop's transaction ids. */
  refIdPrefix: string;
  now: () => Date;
  logger: Logger;
}

/** Every operation's path under /v1 (each a GET only). */
const PATHS: readonly string[] = [
  "/transaction/partner",
  "/transaction/status",
  "/balance",
  "/products",
  ...RECONCILE_PATHS,
  "/openapi.json",
];

/** Another method than GET (HEAD included) on an operation's path (with `Allow: GET`). */
const NOT_ALLOWED = errorBody("request/method-not-allowed", "use GET");

/** A path under /v1 that is no operation (a trailing slash makes another path). */
const NOT_FOUND = errorBody("request/not-found", "no such operation");

/**
 * A failure inside the shop before a ref id was used (nothing was held: the request may be sent
 * again as it was); after it was used, the order's own answer (pending) is given instead.
 */
const SERVER_ERROR = errorBody(
  "server/error",
  "the shop could not answer; send the request again with the same ref_id (it orders at most once)",
);

/** A partner's ref id: 1 to 64 of A–Z a–z 0–9 _ . - (case counts). */
const REF_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_PARAM = 64;

type Checked<T> = { ok: true; value: T } | Refused;

/** A refusal; a 429 says when to try again (seconds, 1 by default). */
type Refused = { ok: false; body: ErrorBody; status: 200 | 429; retryAfterS?: number };

const fail = (code: ErrorCode, msg: string, status: 200 | 429 = 200): Refused => ({
  ok: false,
  body: errorBody(code, msg),
  status,
});

/**
 * The query's parameters, each given exactly once and not empty; the first that is missing,
 * empty or repeated is named. Nothing here is logged: the query holds the secret key.
 */
function single<N extends string>(url: URL, names: readonly N[], code: ErrorCode): Checked<Record<N, string>> {
  const out = {} as Record<N, string>;
  for (const name of names) {
    const all = url.searchParams.getAll(name);
    if (all.length === 0) return fail(code, `${name} is missing`);
    if (all.length > 1) return fail(code, `${name} is given more than once`);
    if (all[0]!.trim() === "") return fail(code, `${name} is empty`);
    out[name] = all[0]!;
  }
  return { ok: true, value: out };
}

/**
 * The H2H API: the shop's resellers' systems order by HTTP, in the shape of the provider interface
 * the shop itself buys from, paid from their saldo at their tier's price, once per ref id. Every
 * request names its partner by `mitra_id` and `secret_key` (a wrong one, a key turned off, or a
 * partner who is no longer a reseller: `auth/invalid-credentials`), then counts against the
 * partner's allowance per second (429 `request/rate-limited`). Answers are HTTP 200 with a
 * status-0 body for every refusal, as the provider's are.
 */
export function h2hRoutes(deps: H2hDeps) {
  const { partnerOrders, logger } = deps;
  const tests = testAnswers({ testOrders: deps.testOrders, partnerOrders });

  /** The request's client address: the peer, or what a trusted proxy says it is. */
  function addressOf(c: Context): string {
    let peer: string | undefined;
    try {
      peer = getConnInfo(c).remote.address;
    } catch {
      // Not a Node connection (a request made in process): no peer to name.
    }
    return clientAddress(peer, c.req.header("x-forwarded-for"), deps.trustedProxies);
  }

  /**
   * The partner a request's credentials name, within their allowance. A wrong key (missing,
   * unknown, wrong, access off, no longer a reseller) is counted against the client's address;
   * past the limit that address's wrong keys get 429 for a while. A right key is never held back
   * by anyone's wrong ones.
   */
  async function partnerOf(
    url: URL,
    c: Context,
    named = false,
  ): Promise<Checked<{ partner: AuthPartner; buyer: PartnerOrderRequest["buyer"]; name?: string }>> {
    const creds = single(url, ["mitra_id", "secret_key"], "auth/invalid-credentials");
    const partner = creds.ok
      ? await deps.partners.authenticate(creds.value.mitra_id, creds.value.secret_key)
      : undefined;
    // The partner's role, their allowance and (for an order) their name, read at once: one round trip.
    const now = deps.now().getTime();
    const [buyer, allowed, name] =
      partner === undefined
        ? [undefined, false, undefined]
        : await Promise.all([
            deps.access.buyerOf(partner.userId),
            deps.rateLimit.take(partner.userId, now),
            named ? deps.people.get([partner.userId]).then((p) => p.get(partner.userId)?.name) : undefined,
          ]);
    if (partner === undefined || buyer?.role !== "reseller") {
      const mitra = url.searchParams.get("mitra_id") ?? "";
      const heldMs = await deps.wrongKeys.count(addressOf(c), mitra, now);
      if (heldMs > 0)
        return {
          ...fail("request/rate-limited", "too many wrong keys from your address; wait before trying again", 429),
          retryAfterS: Math.max(1, Math.ceil(heldMs / 1000)),
        };
      return creds.ok
        ? fail("auth/invalid-credentials", "mitra_id or secret_key is wrong, or API access is off")
        : creds;
    }
    if (!allowed)
      return fail("request/rate-limited", "too many requests; nothing was ordered, send it again shortly", 429);
    return { ok: true, value: { partner, buyer, ...(name === undefined ? {} : { name }) } };
  }

  /** A refusal; a 429 says when to come back (the allowance is per second). */
  const answer = (c: Context, checked: { body: ErrorBody; status: 200 | 429; retryAfterS?: number }) =>
    checked.status === 429
      ? c.json(checked.body, 429, { "Retry-After": String(checked.retryAfterS ?? 1) })
      : c.json(checked.body, checked.status);

  /** An order as its partner reads it, with the saldo to show: after it for a fresh answer, now for a status query. */
  const shown = (c: Context, order: OrderRecord, partnerRef: string, balance: number) =>
    c.json(orderBody(order, partnerRef, balance, deps.refIdPrefix), 200);

  /** A page of a day's orders or saldo movements (`date`, `page`), for the partner's books. */
  async function reconciled(c: Context, list: "transactions" | "mutations") {
    const url = new URL(c.req.url);
    const who = await partnerOf(url, c);
    if (!who.ok) return answer(c, who);
    const q = readReconcileQuery(url.searchParams);
    if (!q.ok) return answer(c, fail("request/invalid-parameter", q.why));
    return c.json({ status: 1 as const, data: await deps.reconcile[list](who.value.partner, q.date, q.page) }, 200);
  }

  // Paths match exactly: the server around it reads `/x/` as `/x`, so a trailing slash is told
  // apart here (404, and nothing ordered). Hono answers HEAD with the GET route; every operation
  // is a GET only, so HEAD is refused on each alike, as other methods are.
  const app = new Hono({ strict: true }).use(markTestAnswers);
  for (const path of PATHS)
    app.use(path, async (c, next) => {
      // The URL as sent: Hono's own path has lost a trailing slash by now.
      if (new URL(c.req.url).pathname.endsWith("/")) return c.json(NOT_FOUND, 404);
      return c.req.method === "GET" ? next() : c.json(NOT_ALLOWED, 405, { Allow: "GET" });
    });
  app
    .get("/transaction/partner", async (c) => {
      const url = new URL(c.req.url);
      const who = await partnerOf(url, c, true);
      if (!who.ok) return answer(c, who);
      const params = single(url, ["ref_id", "item_code", "destination"], "request/invalid-parameter");
      if (!params.ok) return answer(c, params);
      const { ref_id: ref, item_code: code, destination } = params.value;
      if (!REF_ID.test(ref))
        return answer(c, fail("request/invalid-parameter", "ref_id must be 1 to 64 of A-Z a-z 0-9 _ . -"));
      if (destination.length > MAX_PARAM)
        return answer(c, fail("request/invalid-parameter", "destination is longer than 64 characters"));
      const maxPrice = maxPriceOf(url);
      if (!maxPrice.ok) return answer(c, fail("request/invalid-parameter", MAX_PRICE_MSG));
      if (code.length > MAX_PARAM) return c.json(refusalBody("product-not-found"), 200);
      const { partner, buyer } = who.value;
      if (partner.testKey)
        return tests.order(c, { userId: partner.userId, buyer, partnerRef: ref, itemCode: code, destination }, url);
      const name = who.value.name ?? `reseller ${partner.userId}`;
      const r = await deps
        .track(
          partnerOrders.order({
            userId: partner.userId,
            userName: name,
            buyer,
            partnerRef: ref,
            itemCode: code,
            destination,
            ...(maxPrice.value === undefined ? {} : { maxPrice: maxPrice.value }),
            answering: () => !c.req.raw.signal.aborted,
          }),
        )
        .catch(async (err: unknown) => {
          // Once the ref id is used (its price held), an error answers pending: the order stands,
          // and a partner who read status 0 might order it again under a new ref id.
          logger.error({ err, partner: partner.mitraId }, "H2H order failed inside the shop");
          return partnerOrders.status(partner.userId, ref);
        })
        .catch((): { kind: "not-found" } => ({ kind: "not-found" }));
      if (r.kind === "used") return c.json(usedBody(), 200);
      if (r.kind === "refused") return c.json(refusalBody(r.why), 200);
      // Nothing was held under this ref id, or the shop cannot tell: sent again under the same
      // ref id, it orders at most once.
      if (r.kind === "not-found") return c.json(SERVER_ERROR, 500);
      const order = r.order;
      logger.debug({ refId: order.refId, partner: partner.mitraId, state: order.state }, "H2H order answered");
      const saldo =
        order.saldoAfter ??
        (await partnerOrders
          .balance(partner.userId)
          .then((b) => b.balance)
          .catch(() => undefined));
      // The ref id is used: whatever fails now, the answer is the order's, pending at worst (with
      // its callback still owed), never status 0.
      const final = outcomeKnown(order.state) && saldo !== undefined;
      // The partner hung up before the answer: the callback tells them the outcome now. Given a
      // final answer, they are owed none (dropped as the outcome was recorded, when they were still
      // there then); given a pending one, the callback comes with the outcome, also for an outcome
      // known but answered pending (its saldo could not be read): the one dropped with it is owed again.
      if (final ? c.req.raw.signal.aborted : outcomeKnown(order.state))
        await deps
          .owe(order.refId)
          .catch((err: unknown) => logger.error({ err, refId: order.refId }, "callback not noted"));
      else if (final && order.notifiedAt === undefined)
        await partnerOrders
          .answered(order.refId)
          .catch((err: unknown) => logger.error({ err, refId: order.refId }, "callback not dropped"));
      return shown(c, final ? order : { ...order, state: "unknown" }, ref, saldo ?? 0);
    })
    .get("/transaction/status", async (c) => {
      const url = new URL(c.req.url);
      const who = await partnerOf(url, c);
      if (!who.ok) return answer(c, who);
      const params = single(url, ["ref_id"], "request/invalid-parameter");
      if (!params.ok) return answer(c, params);
      const ref = params.value.ref_id;
      if (!REF_ID.test(ref))
        return answer(c, fail("request/invalid-parameter", "ref_id must be 1 to 64 of A-Z a-z 0-9 _ . -"));
      const userId = who.value.partner.userId;
      if (who.value.partner.testKey) return tests.status(c, userId, ref);
      const r = await partnerOrders.status(userId, ref);
      if (r.kind !== "order")
        return c.json(errorBody("transaction/not-found", "no order was made with this ref_id"), 200);
      return shown(c, r.order, ref, (await partnerOrders.balance(userId)).balance);
    })
    .get("/balance", async (c) => {
      const who = await partnerOf(new URL(c.req.url), c);
      if (!who.ok) return answer(c, who);
      if (who.value.partner.testKey) return tests.balance(c);
      return c.json({ status: 1 as const, data: await partnerOrders.balance(who.value.partner.userId) }, 200);
    })
    .get("/products", async (c) => {
      const who = await partnerOf(new URL(c.req.url), c);
      if (!who.ok) return answer(c, who);
      if (who.value.partner.testKey) return tests.products(c, who.value.buyer);
      return c.json({ status: 1 as const, data: await partnerOrders.products(who.value.buyer) }, 200);
    })
    .get("/transactions", (c) => reconciled(c, "transactions"))
    .get("/mutations", (c) => reconciled(c, "mutations"));

  // The API's own description, for partners' tools: no key.
  app.get("/openapi.json", (c) => c.json(openApiDocument, 200));
  for (const path of PATHS) app.all(path, (c) => c.json(NOT_ALLOWED, 405, { Allow: "GET" }));
  app.all("*", (c) => c.json(NOT_FOUND, 404));
  app.onError((err, c) => {
    // The path only: the query holds the secret key.
    logger.error({ err, path: c.req.path }, "H2H request failed");
    return c.json(SERVER_ERROR, 500);
  });
  return app;
}
