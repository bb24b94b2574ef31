import { checkPlayerId, findOffered, findProduct, type Buyer, type Catalog } from "../catalog/catalog.js";
import type { Logger } from "../logger.js";
import type { Pause, Shop } from "../shop/shop.js";
import type { Origins } from "../storage/origins.js";
import type { RecentOrders } from "../storage/recent-orders.js";
import type { OrderLedger } from "./ledger.js";
import { paidFromSaldo, type Lang, type OrderRecord } from "./order.js";
import { newRefId } from "./ref-id.js";
import type { Wallets } from "./wallet.js";

/** What a chat knows when it asks for a draft: who, where, what and for whom. The price is the service's. */
export interface DraftRequest {
  chatId: number;
  userId: number;
  userName: string;
  lang: Lang;
  buyer: Buyer;
  productCode: string;
  playerId: string;
  /** In a group: the member's message the order came from; its result replies to it. */
  requestMessageId?: number;
  /**
   * A partner's system asks (the H2H API): the player id is taken exactly as sent, never
   * rewritten into the game's form (one that would need it is refused), and the chat id is
   * API_CHAT_ID. Nobody is shown the draft: it is not saved here but by the claim, in its own
   * step (ConfirmRequest.draft), so an order is one write whatever the outcome.
   */
  api?: true;
  /**
   * The update that asks for it (bot/origin.ts): every handling of that update gets the one draft
   * it made, with the same ref_id.
   */
  origin?: string;
}

/** What asking for a draft came to. Plain JSON: a dialogue keeps it in its state. */
export type DraftResult =
  /**
   * `saldo`: a reseller's saldo now, for the summary (the claim checks it again). `shownAs`: the
   * message that showed this draft's summary, when an earlier handling of the same update sent it.
   */
  | { kind: "draft"; draft: OrderRecord; saldo?: number; shownAs?: number; before?: PlacedBefore }
  | { kind: "paused"; pause: Pause }
  /** Not for sale to this buyer now (hidden, removed, or no price for their tier). */
  | { kind: "not-offered"; code: string; product?: string }
  | { kind: "bad-player-id"; playerId: string };

/**
 * The same product for the same player id was ordered a moment ago (a second top-up may be wanted,
 * or the customer is being served twice): the summary says when, and by whom, and its Confirm says
 * "order again". Nothing is refused.
 */
export interface PlacedBefore {
  refId: string;
  /** When it was sent to the provider (ISO). */
  at: string;
  /** Whole minutes between then and the draft (0: under a minute). */
  minutesAgo: number;
  userId: number;
  userName: string;
}

/** How far back an order of the same product for the same player id is pointed out. */
export const PLACED_BEFORE_MS = 10 * 60 * 1000;

/** Orders that may have topped the player up (a failed or cancelled one did not). */
const PLACED_STATES = new Set(["submitting", "success", "unknown"]);

/** Whether orders are open, and the catalogue to choose from. */
export type OpenCatalog = { kind: "open"; catalog: Catalog } | { kind: "paused"; pause: Pause };

export type CancelOutcome =
  | { kind: "cancelled"; order: OrderRecord }
  | { kind: "too-late"; order: OrderRecord }
  | { kind: "not-yours" }
  | { kind: "not-found" };

const DAY = 24 * 60 * 60 * 1000;

/**
 * Drafts: the rules of what may be ordered (orders open, the product for sale to this buyer, the
 * player id of the game's shape, the buyer's price), the ref_id fixed before Confirm is shown, and
 * the cancellation of a draft.
 */
export function createDrafts(deps: {
  ledger: OrderLedger;
  shop: Pick<Shop, "state">;
  wallets: Pick<Wallets, "get">;
  /** Which draft each update made (storage/origins.ts). */
  origins: Origins;
  /** The latest order per product and player id, for "ordered before"; absent: never said. */
  recent?: RecentOrders | undefined;
  refIdPrefix: string;
  logger: Logger;
  now: () => Date;
  draftTtlMs?: number;
}) {
  const { ledger, logger, now } = deps;
  const ttlMs = deps.draftTtlMs ?? DAY;

  async function cancel(req: { refId: string; userId: number; chatId: number }): Promise<CancelOutcome> {
    const r = await ledger.cancel(req.refId, { userId: req.userId, chatId: req.chatId, at: now().toISOString() });
    if (r.kind === "taken") return { kind: "too-late", order: r.order };
    if (r.kind === "cancelled") logger.info({ refId: req.refId, state: "cancelled" }, "order state changed");
    return r;
  }

  /**
   * The latest order of the draft's product for its player id sent in the last ten minutes: any
   * user's for the shop's own people, only their own for a reseller (they never learn of another's).
   * A failed read only loses the note, never the draft.
   */
  async function placedBefore(draft: OrderRecord): Promise<PlacedBefore | undefined> {
    if (deps.recent === undefined) return undefined;
    const at = now().getTime();
    try {
      // One read: the latest order noted for the product and player (of this reseller only).
      const noted = await deps.recent.latest(
        draft.productCode,
        draft.playerId,
        draft.role === "reseller" ? draft.userId : undefined,
      );
      const sentMs = noted === undefined ? Number.NaN : Date.parse(noted.at);
      if (noted === undefined || noted.refId === draft.refId || !(sentMs >= at - PLACED_BEFORE_MS)) return undefined;
      // Only an order that may have topped the player up (one that failed did not).
      const order = await ledger.get(noted.refId);
      if (order === undefined || !PLACED_STATES.has(order.state)) return undefined;
      return {
        refId: noted.refId,
        at: noted.at,
        minutesAgo: Math.max(0, Math.floor((at - sentMs) / 60_000)),
        userId: noted.userId,
        userName: noted.userName,
      };
    } catch (err) {
      logger.warn({ err, refId: draft.refId }, "the same player's last order not read: the summary has no note");
      return undefined;
    }
  }

  /**
   * The draft, with the reseller's saldo now when they pay from it, and the same order sent a
   * moment ago if there is one (for the summary).
   */
  async function withSaldo(draft: OrderRecord, shown: { shownAs?: number }): Promise<DraftResult> {
    const [saldo, before] = await Promise.all([
      paidFromSaldo(draft) ? deps.wallets.get(draft.userId).then((w) => w.saldo) : undefined,
      draft.state === "draft" ? placedBefore(draft) : undefined,
    ]);
    return {
      kind: "draft",
      draft,
      ...(saldo === undefined ? {} : { saldo }),
      ...(before === undefined ? {} : { before }),
      ...shown,
    };
  }

  return {
    async openCatalog(): Promise<OpenCatalog> {
      const state = await deps.shop.state();
      return state.pause === undefined
        ? { kind: "open", catalog: state.catalog }
        : { kind: "paused", pause: state.pause };
    },

    async create(req: DraftRequest): Promise<DraftResult> {
      const createdAt = now();
      // The ref_id is fixed by the update first: a second handling of it finds the first one's.
      const fixed =
        req.origin === undefined
          ? { value: newRefId(deps.refIdPrefix, createdAt), first: true }
          : await deps.origins.fix(req.origin, newRefId(deps.refIdPrefix, createdAt));
      const shown = fixed.shownAs === undefined ? {} : { shownAs: fixed.shownAs };
      if (!fixed.first) {
        const made = await ledger.get(fixed.value);
        if (made !== undefined) return withSaldo(made, shown);
      }
      const state = await deps.shop.state();
      if (state.pause !== undefined) return { kind: "paused", pause: state.pause };
      const match = findOffered(state.catalog, req.productCode, req.buyer);
      if (match === undefined) {
        const known = findProduct(state.catalog, req.productCode)?.product;
        return { kind: "not-offered", code: known?.code ?? req.productCode, ...(known && { product: known.name }) };
      }
      const checked = checkPlayerId(match.game, req.playerId);
      if (!checked.ok || (req.api !== undefined && checked.playerId !== req.playerId))
        return { kind: "bad-player-id", playerId: req.playerId };
      const { buyer } = req;
      const order: OrderRecord = {
        refId: fixed.value,
        chatId: req.chatId,
        userId: req.userId,
        userName: req.userName,
        lang: req.lang,
        gameName: match.game.name,
        productCode: match.product.code,
        productName: match.product.name,
        price: match.price,
        playerId: checked.playerId,
        createdAt: createdAt.toISOString(),
        role: buyer.role,
        ...(buyer.role === "reseller" ? { tier: buyer.tier } : {}),
        ...(req.requestMessageId === undefined ? {} : { requestMessageId: req.requestMessageId }),
        state: "draft",
      };
      // A partner's system is shown no summary: the claim writes the draft, and reads the saldo.
      if (req.api === true) return { kind: "draft", draft: order };
      // Written only if no handling of the same update wrote it meanwhile (then that one is kept).
      const saved = await ledger.saveDraft(order, ttlMs);
      if (saved.createdAt === order.createdAt)
        logger.info({ refId: order.refId, state: "draft", product: order.productCode }, "order state changed");
      return withSaldo(saved, shown);
    },

    /** Cancel wins only over a draft nobody confirmed: the ledger decides between the two taps. */
    cancel,

    /** The bot was removed from a group: every member's draft there is cancelled (nobody can confirm it now). */
    async cancelAllIn(chatId: number): Promise<number> {
      let cancelled = 0;
      for (const open of await ledger.openDraftsIn(chatId)) {
        const r = await cancel({ refId: open.refId, userId: open.userId, chatId });
        if (r.kind === "cancelled") cancelled += 1;
      }
      return cancelled;
    },
  };
}
