import { normalisePlayerId } from "../catalog/catalog.js";
import type { OrderLedger, OrderQuery } from "../orders/ledger.js";
import { currentAttempt, type OrderRecord } from "../orders/order.js";
import { attemptBase, ownIdCandidates } from "../orders/ref-id.js";
import type { Shop } from "../shop/shop.js";

/** How far back a search by the start of a player id looks when no day is given. */
export const PLAYER_PREFIX_DAYS = 7;
const DAY_MS = 86_400_000;
/** What a ref id (or a deposit id) can look like when typed: letters and digits. */
const TYPED_REF = /^[A-Za-z0-9]{1,56}$/;
const OWN_REF = TYPED_REF;
/** A partner's ref_id as the H2H API takes it. */
const PARTNER_REF = /^[A-Za-z0-9_.-]{1,64}$/;

export interface OrderPage {
  orders: OrderRecord[];
  hasMore: boolean;
}

/** A search of the orders: what was typed (a ref id or a player id) and the other conditions. */
export interface OrderSearch extends Omit<OrderQuery, "playerId" | "playerPrefix"> {
  text?: string;
}

export interface OrderReportsDeps {
  ledger: Pick<OrderLedger, "get" | "findOrders" | "history" | "pending" | "partnerOrder" | "partnerRefOf">;
  /** The resellers who ever had an H2H key: their ref_ids name orders too. */
  partnerUsers: () => Promise<number[]>;
  shop: Pick<Shop, "state">;
  refIdPrefix: string;
  now: () => Date;
}

/** The ref ids an order was sent under, one per attempt (the first is the order's own). */
export const attemptRefIds = (order: OrderRecord): string[] => [
  ...(order.refused ?? []).map((a) => a.refId),
  currentAttempt(order).refId,
];

export function createOrderReports(deps: OrderReportsDeps) {
  const { ledger } = deps;

  /**
   * An order by its ref id as someone typed it: in any case, spaces around it dropped; or by the
   * ref id of one of its attempts at a provider (`…R2`, what that provider quotes), when the order
   * has that attempt.
   */
  async function lookup(typed: string): Promise<OrderRecord | undefined> {
    const candidates = ownIdCandidates(typed, deps.refIdPrefix);
    for (const refId of candidates) {
      const order = await ledger.get(refId);
      if (order !== undefined) return order;
    }
    for (const ref of candidates) {
      for (const base of attemptBase(ref).slice(1)) {
        const order = await ledger.get(base);
        if (order !== undefined && attemptRefIds(order).includes(ref)) return order;
      }
    }
    return undefined;
  }

  /**
   * Orders for a player id as someone typed it: written the way a game's rule names it
   * (`11112222 3333` → `11112222(3333)`), over all time; when no order has that whole id, the
   * orders whose player id starts with it (of the time asked for, else of the last
   * PLAYER_PREFIX_DAYS). Newest first, a page at a time, with the other conditions of `query`.
   */
  async function byPlayer(typed: string, query: Omit<OrderQuery, "playerId">): Promise<OrderPage> {
    const { catalog } = await deps.shop.state();
    const forms = [...new Set([typed.trim(), ...catalog.games.map((g) => normalisePlayerId(g, typed))])];
    // A whole player id, as typed or as its game writes it: every order of it, through its index.
    for (const playerId of forms) {
      const any = await ledger.findOrders({ ...query, playerId, page: 0, pageSize: 1 });
      if (any.orders.length > 0) return ledger.findOrders({ ...query, playerId });
    }
    // The start of an id (`11112222` for `11112222(3333)`): read through the time index.
    const fromMs = query.fromMs ?? deps.now().getTime() - PLAYER_PREFIX_DAYS * DAY_MS;
    const start = forms.find((f) => f !== forms[0]) ?? forms[0]!;
    return ledger.findOrders({ ...query, fromMs, playerPrefix: start });
  }

  /**
   * Every order an id names: the shop's own (by its ref id or an attempt's, see lookup), and each
   * H2H order a partner gave that `ref_id` (exactly as typed: partners' ids are case-sensitive).
   * Several when two partners used the same ref_id, or one equals a shop's ref id.
   */
  async function named(typed: string): Promise<OrderRecord[]> {
    const id = typed.trim();
    const found = new Map<string, OrderRecord>();
    const own = OWN_REF.test(id) ? await lookup(id) : undefined;
    if (own !== undefined) found.set(own.refId, own);
    if (PARTNER_REF.test(id)) {
      const refIds = await Promise.all((await deps.partnerUsers()).map((userId) => ledger.partnerOrder(userId, id)));
      for (const refId of refIds) {
        if (refId === undefined || found.has(refId)) continue;
        const order = await ledger.get(refId);
        if (order !== undefined) found.set(refId, order);
      }
    }
    return [...found.values()];
  }

  return {
    get: (refId: string) => ledger.get(refId),
    lookup,
    named,
    /** The partner's ref_id of an H2H order (undefined for any other), shown beside the shop's. */
    partnerRefOf: (refId: string) => ledger.partnerRefOf(refId),
    /**
     * Orders found by what was typed (a ref id in any case is that one order, once it was sent;
     * anything else a player id, see byPlayer) and the other conditions, newest first.
     */
    async search(query: OrderSearch): Promise<OrderPage> {
      const { text, ...rest } = query;
      const typed = text?.trim() ?? "";
      if (typed === "") return ledger.findOrders(rest);
      const exact = TYPED_REF.test(typed) ? await lookup(typed) : undefined;
      if (exact?.submittedAt !== undefined) return { orders: query.page === 0 ? [exact] : [], hasMore: false };
      return byPlayer(typed, rest);
    },
    /** Orders whose result is unknown, oldest first: what waits to be settled. */
    pending: () => ledger.pending(),
    /** Submitted orders of a user (or everyone's), newest first, one page, and how many in all. */
    history: (scope: number | "all", page: number, pageSize: number) => ledger.history(scope, page, pageSize),
  };
}

export type OrderReports = ReturnType<typeof createOrderReports>;
