import type { Buyer, Catalog } from "../catalog/catalog.js";
import type { Shop } from "../shop/shop.js";
import type { OrderLedger } from "../orders/ledger.js";
import { API_CHAT_ID, type OrderRecord } from "../orders/order.js";
import type { OrderService } from "../orders/order-service.js";
import type { PartnerCallbacks } from "./callbacks-owed.js";
import type { Wallets } from "../orders/wallet.js";

/** A partner's order as their system sends it: who (already authenticated), their ref id, what, for whom. */
export interface PartnerOrderRequest {
  userId: number;
  /** The reseller's name as the shop knows it, for the books. */
  userName: string;
  buyer: Extract<Buyer, { role: "reseller" }>;
  partnerRef: string;
  itemCode: string;
  /** Taken exactly as sent. */
  destination: string;
  /** The most the partner will pay (`max_price`): a higher price refuses the order before anything is held. */
  maxPrice?: number;
  /**
   * Whether the partner still waits for the answer (their request not hung up): asked as the
   * outcome is recorded, so that an outcome they read in the answer owes them no callback.
   */
  answering?: () => boolean;
}

/** Why a partner's order was refused before anything was held (their ref id stays unused). */
export type PartnerRefusal =
  | "product-not-found"
  | "product-unavailable"
  | "destination-invalid"
  | "balance-insufficient"
  | "shop-paused"
  | "price-above-max";

/**
 * What a partner's order (or a status query) came to. `order` is the order as it stands: its
 * state says success, failed or unknown (still being sent counts as unknown).
 */
export type PartnerOutcome =
  | { kind: "order"; order: OrderRecord; partnerRef: string }
  /** The ref id was used before, by the order `refId` (whatever became of it). */
  | { kind: "used"; refId: string }
  | { kind: "refused"; why: PartnerRefusal }
  | { kind: "not-found" };

/** A product as the partner's product list shows it: at their price, available unless disabled or resting. */
export interface PartnerProduct {
  code: string;
  name: string;
  game: string;
  price: number;
  available: boolean;
  /** The game's player-id pattern and an example ("" when the game has none). */
  rule: string;
  example: string;
}

/**
 * The shop as a provider for its resellers' systems: an order by a partner's ref id is a draft
 * and a Confirm of the order service (the same rules, prices, pause and exactly-once claim as in
 * the chat), with the partner's ref id used in the claim's own atomic step, so that it orders at
 * most once, whatever the timing, the connections or the crashes.
 */
export function createPartnerOrders(deps: {
  orders: Pick<OrderService, "createDraft" | "confirm" | "unavailable">;
  ledger: Pick<OrderLedger, "partnerOrder" | "partnerRefOf" | "get">;
  wallets: Pick<Wallets, "get">;
  shop: Pick<Shop, "state">;
  /**
   * The callbacks owed to partners. One is noted by the claim of every order, due once its answer
   * could no longer be on its way (`answerWithinMs` later): if the process dies before the partner
   * got the answer, the callback still brings the outcome. The answer given drops it (in the
   * outcome's own step when the partner is still there, else with `answered`).
   */
  callbacks: Pick<PartnerCallbacks, "done">;
  /** How long after the order is sent its answer may still be given (the provider's timeout, and a margin). */
  answerWithinMs: number;
  now: () => Date;
}) {
  const { orders, ledger, callbacks } = deps;

  async function order(req: PartnerOrderRequest): Promise<PartnerOutcome> {
    /** A refusal, unless the ref id was used before: a used ref id stays used whatever is sent with it. */
    const refuse = async (why: PartnerRefusal): Promise<PartnerOutcome> => {
      const made = await ledger.partnerOrder(req.userId, req.partnerRef);
      return made === undefined ? { kind: "refused", why } : { kind: "used", refId: made };
    };
    // Checked and priced here, written by the claim: nothing is stored for an order that is refused.
    const draft = await orders.createDraft({
      chatId: API_CHAT_ID,
      userId: req.userId,
      userName: req.userName,
      lang: "id",
      buyer: req.buyer,
      productCode: req.itemCode,
      playerId: req.destination,
      api: true,
    });
    if (draft.kind === "paused") return refuse("shop-paused");
    if (draft.kind === "bad-player-id") return refuse("destination-invalid");
    if (draft.kind === "not-offered")
      return refuse(draft.product === undefined ? "product-not-found" : "product-unavailable");
    if (req.maxPrice !== undefined && (draft.draft.price ?? 0) > req.maxPrice) return refuse("price-above-max");
    // One step claims it: the ref id checked unused and used, the price held, the callback owed
    // noted (due once its answer could no longer be on its way: a process that dies before the
    // answer still leaves the callback to bring the outcome).
    const confirmed = await orders.confirm({
      refId: draft.draft.refId,
      userId: req.userId,
      partnerRef: req.partnerRef,
      draft: draft.draft,
      oweAtMs: deps.now().getTime() + deps.answerWithinMs,
      ...(req.answering === undefined ? {} : { answering: req.answering }),
    });
    switch (confirmed.kind) {
      case "submitted":
      case "already":
      case "in-progress":
        return { kind: "order", order: confirmed.order, partnerRef: req.partnerRef };
      case "used":
        return confirmed;
      // The claim's step found the ref id unused before it refused these.
      case "short":
        return { kind: "refused", why: "balance-insufficient" };
      case "not-offered":
        return { kind: "refused", why: "product-unavailable" };
      // Refused before the claim's step.
      case "paused":
        return refuse("shop-paused");
      case "unavailable":
        return refuse("product-unavailable");
      case "cancelled":
      case "not-yours":
      case "not-found":
        // Not this request's own draft: it cannot happen to a fresh ref id, and nothing was held.
        return refuse("product-unavailable");
    }
  }

  return {
    order,

    /**
     * The partner was given the order's outcome in the answer to their request: the callback noted
     * before it was sent is not owed.
     */
    answered: (refId: string) => callbacks.done(refId),

    /** The order a partner's ref id made, as it stands now. */
    async status(userId: number, partnerRef: string): Promise<PartnerOutcome> {
      const refId = await ledger.partnerOrder(userId, partnerRef);
      const found = refId === undefined ? undefined : await ledger.get(refId);
      return found === undefined ? { kind: "not-found" } : { kind: "order", order: found, partnerRef };
    },

    /** The partner's ref id of an order of theirs (for a callback), undefined for any other order. */
    partnerRefOf: (refId: string) => ledger.partnerRefOf(refId),

    /** What the partner may spend, and what is held for orders whose outcome is not known yet. */
    async balance(userId: number): Promise<{ balance: number; held: number }> {
      const w = await deps.wallets.get(userId);
      return { balance: w.saldo, held: w.held };
    },

    /**
     * The products offered to the partner's tier, at their price (a disabled one, or one whose every
     * route rests now, as not available).
     */
    async products(buyer: PartnerOrderRequest["buyer"]): Promise<PartnerProduct[]> {
      const { catalog, pause } = await deps.shop.state();
      const list = productsFor(catalog, buyer, await orders.unavailable(catalog));
      // While the shop is paused nothing can be ordered: every product says so.
      return pause === undefined ? list : list.map((p) => ({ ...p, available: false }));
    },
  };
}

export type PartnerOrders = ReturnType<typeof createPartnerOrders>;

/**
 * Every product with a price for the tier, in the catalogue's order; available unless disabled or
 * in `resting` (upper-case codes of products whose every route rests: temporarily unavailable).
 */
export function productsFor(
  catalog: Catalog,
  buyer: PartnerOrderRequest["buyer"],
  resting: ReadonlySet<string> = new Set(),
): PartnerProduct[] {
  const list: PartnerProduct[] = [];
  for (const game of catalog.games) {
    for (const p of game.products) {
      const price = p.prices[buyer.tier] ?? p.price;
      if (price === undefined) continue;
      list.push({
        code: p.code,
        name: p.name,
        game: game.name,
        price,
        available: !p.disabled && !resting.has(p.code.toUpperCase()),
        rule: game.destination?.pattern ?? "",
        example: game.destination?.example ?? "",
      });
    }
  }
  return list;
}
