import { randomInt } from "node:crypto";
import { checkPlayerId, findOffered, findProduct, type Catalog } from "../catalog/catalog.js";
import { newRefId } from "../orders/ref-id.js";
import type { Shop } from "../shop/shop.js";
import type { Storage } from "../storage/storage.js";
import type { PartnerCallbacks } from "./callbacks-owed.js";
import type { PartnerOrderRequest, PartnerRefusal } from "./partner-orders.js";

/** The head of every test order's ref id, trx_id and SN: no real order has it. */
export const TEST_PREFIX = "TEST";
/** What a test key's `/v1/balance` answers: it never moves. */
export const TEST_BALANCE = { balance: 1_000_000, held: 0 } as const;
/** How long a `PEND…` test order stays pending. */
export const TEST_PENDING_MS = 5_000;
/** How long a test order (and its used ref id) is kept: long enough to test with, then gone. */
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;

/** A test order as kept. Its state is read from the clock: see {@link testStateAt}. */
export interface TestOrder {
  /** `TEST…`, the shop's id of it (never one of the ledger's). */
  refId: string;
  userId: number;
  partnerRef: string;
  gameName: string;
  productCode: string;
  productName: string;
  /** The partner's price, as a real order would cost them. */
  price: number;
  destination: string;
  /** When it was made (ms). */
  at: number;
  /** How it ends, and from when (ms): `at` for an answer final at once. */
  ends: "success" | "failed";
  finalAt: number;
  /** `TEST…`, for a success. */
  sn: string;
}

export type TestState = "success" | "failed" | "pending";

/** Where a test order is at `nowMs`. */
export const testStateAt = (order: TestOrder, nowMs: number): TestState =>
  nowMs < order.finalAt ? "pending" : order.ends;

/** A test order as its request is answered, in the same words as a real order's where it is refused. */
export type TestOutcome =
  | { kind: "order"; order: TestOrder; state: TestState }
  /** This test key's ref id was used before. */
  | { kind: "used" }
  | { kind: "refused"; why: PartnerRefusal }
  /** Its price is above the request's `max_price`. */
  | { kind: "above-max" };

export interface TestOrderRequest extends Omit<PartnerOrderRequest, "userName"> {
  /** The most the partner would pay, when they said so. */
  maxPrice?: number;
}

/**
 * Test keys' orders: the same checks of product, tier and destination as a real order, then an
 * outcome chosen by the destination (`FAIL…` fails, `PEND…` is pending and succeeds
 * TEST_PENDING_MS later, any other succeeds) without a provider, a saldo, the ledger or a report.
 * Their ref ids are a space of their own, each used once per partner; kept in Redis (`h2h:t:o:REF`,
 * `h2h:t:r:USER:PARTNER_REF`) for KEEP_MS, or in memory. A pending one owes its partner a callback,
 * due when it ends. `bodyOf`: the status answer's body of a test order (the server's answers).
 */
export function createTestOrders(deps: {
  storage: Storage;
  shop: Pick<Shop, "state">;
  callbacks: Pick<PartnerCallbacks, "owe">;
  bodyOf: (order: TestOrder, state: TestState) => object;
  now: () => Date;
}) {
  const kept = deps.storage.kind === "redis" ? redisTests(deps.storage) : memoryTests(deps.storage);

  async function order(req: TestOrderRequest): Promise<TestOutcome> {
    if ((await kept.refOf(req.userId, req.partnerRef)) !== undefined) return { kind: "used" };
    const { catalog } = await deps.shop.state();
    const checked = check(catalog, req);
    if (checked.kind !== "ok") return checked;
    const now = deps.now();
    const at = now.getTime();
    const ends = req.destination.startsWith("FAIL") ? "failed" : "success";
    const pending = req.destination.startsWith("PEND");
    const made: TestOrder = {
      refId: newRefId(TEST_PREFIX, now),
      userId: req.userId,
      partnerRef: req.partnerRef,
      ...checked.product,
      destination: req.destination,
      at,
      ends,
      finalAt: pending ? at + TEST_PENDING_MS : at,
      sn: ends === "success" ? `${TEST_PREFIX}${randomDigits(16)}` : "",
    };
    if (!(await kept.claim(made))) return { kind: "used" };
    if (pending) await deps.callbacks.owe(made.refId, made.finalAt);
    return { kind: "order", order: made, state: testStateAt(made, at) };
  }

  return {
    order,

    /** The test order a test key's ref id made, as it stands now. */
    async status(
      userId: number,
      partnerRef: string,
    ): Promise<{ kind: "order"; order: TestOrder; state: TestState } | { kind: "not-found" }> {
      const refId = await kept.refOf(userId, partnerRef);
      const found = refId === undefined ? undefined : await kept.get(refId);
      if (found === undefined) return { kind: "not-found" };
      return { kind: "order", order: found, state: testStateAt(found, deps.now().getTime()) };
    },

    /**
     * The callback of a test order (`TEST…`): whom it is for and the status answer's body, once it
     * is final; undefined while it is pending, and for no such order.
     */
    async callbackOf(testRefId: string): Promise<{ userId: number; body: object } | undefined> {
      if (!testRefId.startsWith(TEST_PREFIX)) return undefined;
      const found = await kept.get(testRefId);
      if (found === undefined) return undefined;
      const state = testStateAt(found, deps.now().getTime());
      return state === "pending" ? undefined : { userId: found.userId, body: deps.bodyOf(found, state) };
    },
  };
}

export type TestOrders = ReturnType<typeof createTestOrders>;

type Checked = { kind: "ok"; product: Pick<TestOrder, "gameName" | "productCode" | "productName" | "price"> };

/**
 * A real order's checks: the product for sale to the partner's tier, the destination taken as
 * sent and of the game's shape (after the `FAIL`/`PEND` that chooses the outcome, or as a whole),
 * the partner's `max_price`, and the price within the test balance.
 */
function check(catalog: Catalog, req: TestOrderRequest): Checked | Exclude<TestOutcome, { kind: "order" | "used" }> {
  const match = findOffered(catalog, req.itemCode, req.buyer);
  if (match === undefined || match.price === null)
    return {
      kind: "refused",
      why: findProduct(catalog, req.itemCode) === undefined ? "product-not-found" : "product-unavailable",
    };
  const fits = (id: string) => {
    const r = checkPlayerId(match.game, id);
    return r.ok && r.playerId === id;
  };
  const rest = req.destination.replace(/^(FAIL|PEND)/, "");
  if (!fits(req.destination) && (rest === req.destination || !fits(rest)))
    return { kind: "refused", why: "destination-invalid" };
  if (req.maxPrice !== undefined && match.price > req.maxPrice) return { kind: "above-max" };
  if (match.price > TEST_BALANCE.balance) return { kind: "refused", why: "balance-insufficient" };
  return {
    kind: "ok",
    product: {
      gameName: match.game.name,
      productCode: match.product.code,
      productName: match.product.name,
      price: match.price,
    },
  };
}

const randomDigits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join("");

interface TestRecords {
  refOf(userId: number, partnerRef: string): Promise<string | undefined>;
  get(refId: string): Promise<TestOrder | undefined>;
  /** Keeps the order, and uses its ref id; false (nothing kept) when the ref id was used meanwhile. */
  claim(order: TestOrder): Promise<boolean>;
}

function redisTests(storage: Extract<Storage, { kind: "redis" }>): TestRecords {
  const { redis, prefix } = storage;
  const refKey = (userId: number, partnerRef: string) => `${prefix}h2h:t:r:${userId}:${partnerRef}`;
  const orderKey = (refId: string) => `${prefix}h2h:t:o:${refId}`;
  return {
    async refOf(userId, partnerRef) {
      return (await redis.get(refKey(userId, partnerRef))) ?? undefined;
    },
    async get(refId) {
      const json = await redis.get(orderKey(refId));
      return json === null ? undefined : (JSON.parse(json) as TestOrder);
    },
    async claim(order) {
      // The order first: a status query that finds the ref id finds its order too.
      await redis.set(orderKey(order.refId), JSON.stringify(order), { PX: KEEP_MS });
      const used = await redis.set(refKey(order.userId, order.partnerRef), order.refId, { NX: true, PX: KEEP_MS });
      if (used !== null) return true;
      await redis.del(orderKey(order.refId));
      return false;
    },
  };
}

/** The memory store's test orders belong to the store (as a Redis key belongs to the database). */
const memoryStores = new WeakMap<Storage, TestRecords>();

function memoryTests(storage: Storage): TestRecords {
  const existing = memoryStores.get(storage);
  if (existing !== undefined) return existing;
  const refs = new Map<string, string>();
  const orders = new Map<string, TestOrder>();
  const created: TestRecords = {
    refOf: async (userId, partnerRef) => refs.get(`${userId}:${partnerRef}`),
    get: async (refId) => orders.get(refId),
    async claim(order) {
      const key = `${order.userId}:${order.partnerRef}`;
      if (refs.has(key)) return false;
      refs.set(key, order.refId);
      orders.set(order.refId, order);
      return true;
    },
  };
  memoryStores.set(storage, created);
  return created;
}
