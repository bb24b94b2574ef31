import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { priceFor, wantsZone, type Buyer } from "../../../catalog/catalog.js";
import type { ConfirmOutcome, DraftResult } from "../../../orders/order-service.js";
import type { OrderRecord } from "../../../orders/order.js";
import type { MiniAppEnv } from "../auth.js";
import type { MiniAppDeps } from "../deps.js";
import { invalid, jsonBody, notFound, paramsOf } from "../errors.js";
import { orderView, type OrderView } from "../views.js";

/** A product as the ordering page lists it: orderable, hidden by an admin, or resting (comes back by itself). */
export interface OrderableProduct {
  code: string;
  name: string;
  /** This viewer's price (null: the shop has none set; staff and admins order on its account anyway). */
  price: number | null;
  state: "ok" | "disabled" | "resting";
}

/** A game with its player-id rule as the page checks what is typed, and its products. */
export interface OrderableGame {
  name: string;
  /** The game's pattern (a JavaScript regular expression, unicode) and an example; absent: the default rule. */
  rule?: { pattern: string; example: string; zone: boolean };
  products: OrderableProduct[];
}

/** The summary the page shows with Confirm: the draft, the saldo before and after, the same order a moment ago. */
export interface OrderSummaryView {
  order: OrderView;
  /** A reseller's saldo now and after this order (the claim checks it again). */
  saldo?: { before: number; after: number };
  /** The same product for the same player id sent in the last ten minutes (only their own, for a reseller). */
  before?: { refId: string; at: string; minutesAgo: number; byYou: boolean; userName?: string };
}

/** How long a Confirm's answer waits for the provider before it says "processing" (the page then asks again). */
const CONFIRM_WAIT_MS = 25_000;

/** Drafts one user may ask for in a minute, in this process: a page, or a script, cannot flood the ledger. */
const DRAFTS_PER_MINUTE = 30;

/** The largest order request the page sends (a few short fields). */
const MAX_BODY_BYTES = 2048;

const draftBody = z.object({
  /** Made by the page for each summary it asks for: the same id sent again gets the same draft. */
  requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 letters, digits, _ or -"),
  code: z.string().trim().min(1, "choose a product").max(40),
  playerId: z.string().max(200, "at most 64 characters"),
});

const refIdParam = paramsOf(z.object({ refId: z.string().regex(/^[A-Za-z0-9]{1,64}$/) }));

/** A sliding minute per user, in this process. */
function draftAllowance(perMinute: number) {
  const asked = new Map<number, number[]>();
  return {
    /** Whether one more draft fits; when not, the seconds until one does. */
    take(userId: number, nowMs: number): { ok: true } | { ok: false; retryAfterS: number } {
      const recent = (asked.get(userId) ?? []).filter((at) => at > nowMs - 60_000);
      if (recent.length >= perMinute) {
        asked.set(userId, recent);
        return { ok: false, retryAfterS: Math.max(1, Math.ceil((recent[0]! + 60_000 - nowMs) / 1000)) };
      }
      recent.push(nowMs);
      asked.set(userId, recent);
      // Users who stopped asking are forgotten, so the map stays as small as the minute's askers.
      if (asked.size > 10_000)
        for (const [id, times] of asked) if (times.every((t) => t <= nowMs - 60_000)) asked.delete(id);
      return { ok: true };
    },
  };
}

/**
 * /reseller/order and /admin/order: ordering from the page, through the same order service as the
 * chat (the same prices, rules, pause, ledger, notices and exactly-once Confirm). The page asks for a
 * summary with a request id of its own (asked again, the same draft comes back), then confirms the
 * draft's ref id: however often that is sent, one order reaches the provider. Its outcome is also
 * told in the user's private chat, as a chat order's is.
 */
export function orderingRoutes(deps: Pick<MiniAppDeps, "orders" | "shop" | "wallets" | "languageOf" | "logger">) {
  const { orders } = deps;
  const allowance = draftAllowance(DRAFTS_PER_MINUTE);
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json({ error: "too-large" as const }, 413),
  });
  const buyerOf = (c: Context<MiniAppEnv>): Buyer => c.get("viewer").buyer!;
  const forAdmin = (c: Context<MiniAppEnv>) => buyerOf(c).role !== "reseller";
  /** The viewer's own order: another's is not found (a reseller never learns it exists). */
  const own = (c: Context<MiniAppEnv>, o: OrderRecord | undefined) =>
    o !== undefined && o.userId === c.get("viewer").userId ? o : undefined;

  const summaryOf = (c: Context<MiniAppEnv>, made: Extract<DraftResult, { kind: "draft" }>): OrderSummaryView => {
    const { draft, saldo, before } = made;
    const me = c.get("viewer").userId;
    return {
      order: orderView(draft, forAdmin(c)),
      ...(saldo === undefined || draft.price === null ? {} : { saldo: { before: saldo, after: saldo - draft.price } }),
      ...(before === undefined
        ? {}
        : {
            before: {
              refId: before.refId,
              at: before.at,
              minutesAgo: before.minutesAgo,
              byYou: before.userId === me,
              ...(before.userId === me || !forAdmin(c) ? {} : { userName: before.userName }),
            },
          }),
    };
  };

  /** What a Confirm came to, as the page shows it. */
  const answerConfirm = (c: Context<MiniAppEnv>, r: ConfirmOutcome) => {
    switch (r.kind) {
      case "submitted":
      case "already":
      case "in-progress":
      case "cancelled":
        return c.json({ order: orderView(r.order, forAdmin(c)) }, 200);
      case "paused":
        return c.json({ error: "paused" as const, reason: r.pause.reason ?? null }, 409);
      case "short":
        return c.json({ error: "short" as const, saldo: r.saldo, price: r.order.price }, 409);
      case "not-offered":
        return c.json({ error: "not-offered" as const }, 409);
      case "unavailable":
        return c.json({ error: "unavailable" as const }, 409);
      case "used":
      case "not-yours":
      case "not-found":
        return notFound(c);
    }
  };

  return new Hono<MiniAppEnv>()
    .get("/catalog", async (c) => {
      const buyer = buyerOf(c);
      const state = await deps.shop.state();
      const resting = await orders.unavailable(state.catalog);
      const games: OrderableGame[] = state.catalog.games
        .map((g) => ({
          name: g.name,
          ...(g.destination === undefined ? {} : { rule: { ...g.destination, zone: wantsZone(g) } }),
          products: g.products.flatMap((p): OrderableProduct[] => {
            // A disabled product is listed as such; one with no price for this reseller's tier is not theirs to see.
            const price = priceFor({ ...p, disabled: false }, buyer);
            if (price === undefined) return [];
            const stateOf = p.disabled ? "disabled" : resting.has(p.code.toUpperCase()) ? "resting" : "ok";
            return [{ code: p.code, name: p.name, price, state: stateOf }];
          }),
        }))
        .filter((g) => g.products.length > 0);
      const saldo = buyer.role === "reseller" ? (await deps.wallets.get(c.get("viewer").userId)).saldo : undefined;
      return c.json(
        {
          paused: state.pause === undefined ? null : { reason: state.pause.reason ?? null },
          games,
          ...(saldo === undefined ? {} : { saldo }),
        },
        200,
      );
    })
    .post("/draft", limit, jsonBody(draftBody), async (c) => {
      const viewer = c.get("viewer");
      const sent = c.req.valid("json");
      const allowed = allowance.take(viewer.userId, Date.now());
      if (!allowed.ok)
        return c.json({ error: "too-soon" as const }, 429, { "retry-after": String(allowed.retryAfterS) });
      const lang = await deps.languageOf(viewer.userId, viewer.languageCode);
      const made = await orders.createDraft({
        // The page's orders belong to the user's private chat: the outcome is told there too.
        chatId: viewer.userId,
        userId: viewer.userId,
        userName: viewer.firstName,
        lang,
        buyer: buyerOf(c),
        productCode: sent.code,
        playerId: sent.playerId,
        origin: `app-order:${viewer.userId}:${sent.requestId}`,
      });
      switch (made.kind) {
        case "draft":
          if (made.draft.userId !== viewer.userId) return notFound(c);
          return c.json(summaryOf(c, made), 200);
        case "paused":
          return c.json({ error: "paused" as const, reason: made.pause.reason ?? null }, 409);
        case "not-offered":
          return c.json({ error: "not-offered" as const }, 409);
        case "bad-player-id":
          return invalid(c, [{ path: "playerId", message: "not a valid player id for this game" }]);
      }
    })
    .post("/:refId/confirm", refIdParam, async (c) => {
      const viewer = c.get("viewer");
      const { refId } = c.req.valid("param");
      const confirming = orders.confirm({ refId, userId: viewer.userId });
      // The call goes on whatever becomes of this request (a closed page, a proxy's timeout): the
      // answer waits a while for its outcome, then says it is processing; the page asks again.
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        confirming,
        new Promise<"waiting">((resolve) => {
          timer = setTimeout(() => resolve("waiting"), CONFIRM_WAIT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      if (waited !== "waiting") return answerConfirm(c, waited);
      confirming.catch((err: unknown) => deps.logger.error({ err, refId }, "order from the page failed"));
      const now = own(c, await orders.get(refId));
      return now === undefined ? notFound(c) : c.json({ order: orderView(now, forAdmin(c)) }, 200);
    })
    .post("/:refId/cancel", refIdParam, async (c) => {
      const viewer = c.get("viewer");
      const { refId } = c.req.valid("param");
      const r = await orders.cancel({ refId, userId: viewer.userId, chatId: viewer.userId });
      if (r.kind === "not-found" || r.kind === "not-yours") return notFound(c);
      return c.json({ order: orderView(r.order, forAdmin(c)) }, 200);
    })
    .get("/:refId", refIdParam, async (c) => {
      const found = own(c, await orders.get(c.req.valid("param").refId));
      return found === undefined ? notFound(c) : c.json({ order: orderView(found, forAdmin(c)) }, 200);
    });
}

/**
 * /admin/receipt/:refId (any order) and /reseller/receipt/:refId (their own): the receipt picture
 * of a successful order, as the chat's Receipt button sends it, in the viewer's language. Another's
 * order, or none: 404; an order that did not succeed has no receipt: 409.
 */
export function receiptRoutes(deps: Pick<MiniAppDeps, "orders" | "languageOf" | "receiptPng">, anyOrder: boolean) {
  return new Hono<MiniAppEnv>().get("/:refId", refIdParam, async (c) => {
    const viewer = c.get("viewer");
    const order = await deps.orders.get(c.req.valid("param").refId);
    if (order === undefined || (!anyOrder && order.userId !== viewer.userId) || order.state === "draft")
      return notFound(c);
    if (order.state !== "success") return c.json({ error: "not-success" as const }, 409);
    const png = await deps.receiptPng(order, await deps.languageOf(viewer.userId, viewer.languageCode));
    return c.body(new Uint8Array(png), 200, {
      "content-type": "image/png",
      "cache-control": "private, max-age=300",
      "content-disposition": `inline; filename="receipt-${order.refId}.png"`,
    });
  });
}
