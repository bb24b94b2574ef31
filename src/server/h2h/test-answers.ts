import type { Context, MiddlewareHandler } from "hono";
import type { OrderRecord } from "../../orders/order.js";
import type { PartnerOrderRequest, PartnerOrders } from "../../partners/partner-orders.js";
import {
  TEST_BALANCE,
  TEST_PREFIX,
  type TestOrder,
  type TestOrders,
  type TestState,
} from "../../partners/test-orders.js";
import { API_CHAT_ID } from "../../orders/order.js";
import { errorBody, orderBody, refusalBody, usedBody, type ErrorBody } from "./answers.js";
import { MAX_PRICE_MSG, maxPriceOf } from "./params.js";

/** A test answer: the real one's shape, with `test: true` at its top level. */
type Test<T> = T & { test: true };
const tested = <T extends object>(body: T): Test<T> => ({ ...body, test: true });

/**
 * A test order as the shop's own order record, so that its answers are built by the same code as
 * a real order's: its trx_id and SN start with TEST, its saldo is the test balance.
 */
function recordOf(order: TestOrder, state: TestState): OrderRecord {
  const at = new Date(order.at).toISOString();
  return {
    refId: order.refId,
    chatId: API_CHAT_ID,
    userId: order.userId,
    userName: "",
    lang: "id",
    gameName: order.gameName,
    productCode: order.productCode,
    productName: order.productName,
    price: order.price,
    playerId: order.destination,
    createdAt: at,
    submittedAt: at,
    role: "reseller",
    state: state === "pending" ? "unknown" : state,
    ...(state === "success" ? { result: { sn: order.sn, destinationName: "Test Player" } } : {}),
  };
}

/**
 * The status answer of a test order (success, failed or pending), as its request, a status query
 * and its callback give it: in the shape of a real order's, with `test: true`.
 */
export function testStatusBody(order: TestOrder, state: TestState): object {
  return tested(orderBody(recordOf(order, state), order.partnerRef, TEST_BALANCE.balance, TEST_PREFIX));
}

/**
 * The H2H API's answers to a test key: its orders never reach the provider, the saldo, the
 * ledger or a report (partners/test-orders.ts), its balance is a fixed one, and every answer
 * carries `test: true`. Its requests passed the same credentials and parameter checks first.
 */
export function testAnswers(deps: { testOrders: TestOrders; partnerOrders: Pick<PartnerOrders, "products"> }) {
  const error = (c: Context, body: ErrorBody) => c.json(tested(body), 200);
  return {
    async order(c: Context, req: Omit<PartnerOrderRequest, "userName">, url: URL) {
      const maxPrice = maxPriceOf(url);
      if (!maxPrice.ok) return error(c, errorBody("request/invalid-parameter", MAX_PRICE_MSG));
      const r = await deps.testOrders.order({
        ...req,
        ...(maxPrice.value === undefined ? {} : { maxPrice: maxPrice.value }),
      });
      if (r.kind === "used") return error(c, usedBody());
      if (r.kind === "refused") return error(c, refusalBody(r.why));
      if (r.kind === "above-max") return error(c, refusalBody("price-above-max"));
      return c.json(testStatusBody(r.order, r.state), 200);
    },

    async status(c: Context, userId: number, partnerRef: string) {
      const r = await deps.testOrders.status(userId, partnerRef);
      if (r.kind === "not-found")
        return error(c, errorBody("transaction/not-found", "no order was made with this ref_id"));
      return c.json(testStatusBody(r.order, r.state), 200);
    },

    balance: (c: Context) => c.json(tested({ status: 1 as const, data: { ...TEST_BALANCE } }), 200),

    async products(c: Context, buyer: PartnerOrderRequest["buyer"]) {
      return c.json(tested({ status: 1 as const, data: await deps.partnerOrders.products(buyer) }), 200);
    },
  };
}

/** A test key's mitra_id: `T` and ten letters or digits. */
const TEST_MITRA_ID = /^T[0-9A-Z]{10}$/;

/**
 * Every answer to a request that names a test key's mitra_id says `test: true` at its top level,
 * whichever check gave it (a parameter refused, the rate, a path unknown), so that a partner's
 * system can never take a test answer for a real one.
 */
export const markTestAnswers: MiddlewareHandler = async (c, next) => {
  await next();
  const mitra = c.req.queries("mitra_id") ?? [];
  if (mitra.length !== 1 || !TEST_MITRA_ID.test(mitra[0]!)) return;
  if (c.res.headers.get("content-type")?.startsWith("application/json") !== true) return;
  const body: unknown = await c.res.clone().json();
  if (typeof body !== "object" || body === null || Array.isArray(body) || "test" in body) return;
  const headers = new Headers(c.res.headers);
  headers.delete("content-length");
  c.res = new Response(JSON.stringify({ ...body, test: true }), { status: c.res.status, headers });
};
