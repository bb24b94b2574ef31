import type { Logger } from "../logger.js";
import { normalisePlayerId } from "../catalog/catalog.js";
import type { Shop } from "../shop/shop.js";
import type { Origins } from "../storage/origins.js";
import type { TopupClient } from "../topup/types.js";
import { createDrafts, type CancelOutcome, type DraftRequest, type DraftResult, type OpenCatalog } from "./drafts.js";
import type { OrderEvents } from "./events.js";
import type { OrderLedger, OrderQuery } from "./ledger.js";
import type { BalanceSeen, OrderRecord, OrderState } from "./order.js";
import type { DayFigures } from "./report.js";
import { createRecovery } from "./recovery.js";
import { ownIdCandidates } from "./ref-id.js";
import { createSettlement, type SettleOutcome, type SettleRequest } from "./settle.js";
import { createSubmission, type ConfirmOutcome, type ConfirmRequest } from "./submit.js";
import { createTelling } from "./telling.js";
import type { Wallets } from "./wallet.js";

export type { CancelOutcome, DraftRequest, DraftResult, OpenCatalog } from "./drafts.js";
export type { ConfirmOutcome, ConfirmRequest } from "./submit.js";
export type { SettleOutcome, SettleRequest } from "./settle.js";

/** How far back a search by the start of a player id looks when no day is given. */
export const PLAYER_PREFIX_DAYS = 7;

export interface OrderServiceDeps {
  ledger: OrderLedger;
  /** The catalogue in use and the pause: what may be ordered now, and at what price. */
  shop: Pick<Shop, "state">;
  /** A reseller's saldo, for the summary. */
  wallets: Pick<Wallets, "get">;
  /** Which draft each update made, so that a second handling of it finds that one. */
  origins: Origins;
  topup: TopupClient;
  refIdPrefix: string;
  /** TOPUP_TIMEOUT_MS: after this (plus grace) a `submitting` order cannot still be in flight. */
  timeoutMs: number;
  lowBalanceThreshold?: number | undefined;
  logger: Logger;
  events: OrderEvents;
  now?: () => Date;
  draftTtlMs?: number;
  /** The first pause between attempts to record an outcome (submit.ts). */
  recordRetryMs?: number;
}

/**
 * The orders, with their rules, as every way into the bot sees them (the chat, the Mini App): what
 * may be ordered now and at what price, drafts, the submit-once Confirm, settlement, recovery,
 * telling each outcome once, and the questions asked of the ledger.
 */
export interface OrderService {
  /** Whether orders are open (not paused), and the catalogue in use to choose from. */
  openCatalog(): Promise<OpenCatalog>;
  /**
   * Fixes the ref_id and writes the draft, at this buyer's price, before Confirm is ever shown;
   * refused while orders are paused, for a product not for sale to the buyer, or a bad player id.
   * Once per update (`origin`): a second handling of it gets the same draft back, whatever became of it.
   */
  createDraft(req: DraftRequest): Promise<DraftResult>;
  get(refId: string): Promise<OrderRecord | undefined>;
  /** An order by its ref id as someone typed it: in any case, spaces around it dropped. */
  lookup(typed: string): Promise<OrderRecord | undefined>;
  /** Where each of these orders stands (a statement's lines need it); unknown ids are left out. */
  statesOf(refIds: readonly string[]): Promise<Map<string, OrderState>>;
  /** The draft a user is looking at in a chat, so that /cancel can retire it. */
  openDraftOf(chatId: number, userId: number): Promise<string | undefined>;
  cancel(req: { refId: string; userId: number; chatId: number }): Promise<CancelOutcome>;
  /** Cancels every member's open draft in a chat (the bot was removed from it); how many. */
  cancelAllIn(chatId: number): Promise<number>;
  /**
   * Submits the order to the provider at most once per ref_id, across taps, processes and
   * restarts, while orders are open; the user is told the outcome before this resolves.
   */
  confirm(req: ConfirmRequest): Promise<ConfirmOutcome>;
  /** Settles an `unknown` order once, after an admin checked with the provider; the user is told. */
  settle(req: SettleRequest): Promise<SettleOutcome>;
  /** Tells the users of orders a previous run left in flight that they are being looked after. */
  tellInterrupted(orders: readonly OrderRecord[]): Promise<void>;
  /**
   * Turns orders left `submitting` by a crash into `unknown` once their provider call must have
   * ended, and tells their users. Never resends. Returns the orders changed.
   */
  recoverInterrupted(): Promise<OrderRecord[]>;
  history(scope: number | "all", page: number, pageSize: number): Promise<{ orders: OrderRecord[]; total: number }>;
  /** Orders found by time, user, player id and state, newest first, a page at a time. */
  findOrders(query: OrderQuery): Promise<{ orders: OrderRecord[]; hasMore: boolean }>;
  /**
   * Orders for a player id as someone typed it: written the way a game's rule names it
   * (`11112222 3333` → `11112222(3333)`), over all time; when no order has that whole id, the
   * orders whose player id starts with it (of the day asked for, else of the last
   * PLAYER_PREFIX_DAYS). Newest first, a page at a time, with the other conditions of `query`.
   */
  findByPlayer(
    typed: string,
    query: Omit<OrderQuery, "playerId">,
  ): Promise<{ orders: OrderRecord[]; hasMore: boolean }>;
  submittedBetween(fromMs: number, toMs: number): Promise<OrderRecord[]>;
  inFlight(): Promise<OrderRecord[]>;
  pending(): Promise<OrderRecord[]>;
  lastBalance(): Promise<BalanceSeen | undefined>;
  /** The provider price last seen for each product (a new selling price below it loses money). */
  lastProviderPrices(): Promise<Map<string, number>>;
  /** A day's figures, kept as its orders finish (orders/report.ts: DayFigures). */
  dayFigures(day: string): Promise<DayFigures>;
  /** Several days' totals (for a chart). */
  daysFigures(days: readonly string[]): Promise<DayFigures[]>;
}

export function createOrderService(deps: OrderServiceDeps): OrderService {
  const { ledger } = deps;
  const now = deps.now ?? (() => new Date());
  const shared = { ...deps, now };
  const telling = createTelling(shared);
  const drafts = createDrafts(shared);
  const recovery = createRecovery({ ...shared, telling });
  const submission = createSubmission({ ...shared, telling, recovery });
  const settlement = createSettlement({ ...shared, telling });
  return {
    openCatalog: () => drafts.openCatalog(),
    createDraft: (req) => drafts.create(req),
    get: (refId) => ledger.get(refId),
    async statesOf(refIds) {
      return new Map((await ledger.getMany(refIds)).map((o) => [o.refId, o.state]));
    },
    async lookup(typed) {
      for (const refId of ownIdCandidates(typed, deps.refIdPrefix)) {
        const order = await ledger.get(refId);
        if (order !== undefined) return order;
      }
      return undefined;
    },
    openDraftOf: (chatId, userId) => ledger.openDraftOf(chatId, userId),
    cancel: (req) => drafts.cancel(req),
    cancelAllIn: (chatId) => drafts.cancelAllIn(chatId),
    confirm: (req) => submission.confirm(req),
    settle: (req) => settlement.settle(req),
    tellInterrupted: (orders) => recovery.tellInterrupted(orders),
    recoverInterrupted: () => recovery.recoverInterrupted(),
    history: (scope, page, pageSize) => ledger.history(scope, page, pageSize),
    findOrders: (query) => ledger.findOrders(query),
    async findByPlayer(typed, query) {
      const { catalog } = await deps.shop.state();
      const forms = [...new Set([typed.trim(), ...catalog.games.map((g) => normalisePlayerId(g, typed))])];
      // A whole player id, as typed or as its game writes it: every order of it, through its index.
      for (const playerId of forms) {
        const any = await ledger.findOrders({ ...query, playerId, page: 0, pageSize: 1 });
        if (any.orders.length > 0) return ledger.findOrders({ ...query, playerId });
      }
      // The start of an id (`11112222` for `11112222(3333)`): read through the time index, the day
      // asked for or the last PLAYER_PREFIX_DAYS.
      const fromMs = query.fromMs ?? now().getTime() - PLAYER_PREFIX_DAYS * 86_400_000;
      const start = forms.find((f) => f !== forms[0]) ?? forms[0]!;
      return ledger.findOrders({ ...query, fromMs, playerPrefix: start });
    },
    submittedBetween: (fromMs, toMs) => ledger.submittedBetween(fromMs, toMs),
    inFlight: () => ledger.inFlight(),
    pending: () => ledger.pending(),
    lastBalance: () => ledger.lastBalance(),
    lastProviderPrices: () => ledger.lastProviderPrices(),
    dayFigures: (day) => ledger.dayFigures(day),
    daysFigures: (days) => ledger.daysFigures(days),
  };
}
