import type { Catalog } from "../catalog/catalog.js";
import type { Logger } from "../logger.js";
import type { Shop } from "../shop/shop.js";
import type { Claims } from "../storage/claims.js";
import type { Origins } from "../storage/origins.js";
import type { RecentOrders } from "../storage/recent-orders.js";
import type { Supply } from "../providers/supply.js";
import { createDrafts, type CancelOutcome, type DraftRequest, type DraftResult, type OpenCatalog } from "./drafts.js";
import type { OrderEvents } from "./events.js";
import type { OrderLedger } from "./ledger.js";
import type { OrderRecord } from "./order.js";
import { createRecovery } from "./recovery.js";
import { createSettlement, type SettleOutcome, type SettleRequest } from "./settle.js";
import { createSubmission, type ConfirmOutcome, type ConfirmRequest } from "./submit.js";
import { createTelling } from "./telling.js";
import type { Wallets } from "./wallet.js";

export type { CancelOutcome, DraftRequest, DraftResult, OpenCatalog, PlacedBefore } from "./drafts.js";
export { PLACED_BEFORE_MS } from "./drafts.js";
export type { ConfirmOutcome, ConfirmRequest } from "./submit.js";
export type { SettleOutcome, SettleRequest } from "./settle.js";

export interface OrderServiceDeps {
  ledger: OrderLedger;
  /** The catalogue in use and the pause: what may be ordered now, and at what price. */
  shop: Pick<Shop, "state">;
  /** A reseller's saldo, for the summary. */
  wallets: Pick<Wallets, "get">;
  /** Which draft each update made, so that a second handling of it finds that one. */
  origins: Origins;
  /** The latest order per product and player id: the summary's "ordered before" (none when absent). */
  recent?: RecentOrders | undefined;
  /** The providers, each order's routes among them, and which of them rest. */
  supply: Supply;
  refIdPrefix: string;
  /** TOPUP_TIMEOUT_MS: main's call time; every other provider has its own (the supply's). */
  timeoutMs: number;
  lowBalanceThreshold?: number | undefined;
  logger: Logger;
  events: OrderEvents;
  /** Once per order, across processes: its user was told the bot stopped while it was being sent. */
  interruptedTold: Claims;
  now?: () => Date;
  draftTtlMs?: number;
  /** The first pause between attempts to record an outcome (submit.ts). */
  recordRetryMs?: number;
}

/**
 * The orders, with their rules, as every way into the bot sees them (the chat, the Mini App): what
 * may be ordered now and at what price, drafts, the submit-once Confirm, settlement, recovery, and
 * telling each outcome once. What changes orders lives here; what is read of them, in reports/.
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
  /** An order as the ledger has it now (a draft included). */
  get(refId: string): Promise<OrderRecord | undefined>;
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
  /**
   * Tells the users of orders a stopped run left in flight that their result is unknown (they will
   * not be sent again), once per order whichever process or path sees it first.
   */
  tellInterrupted(orders: readonly OrderRecord[]): Promise<void>;
  /**
   * Turns orders left `submitting` by a crash into `unknown` once their provider call must have
   * ended, and tells their users. Never resends. Returns the orders changed.
   */
  recoverInterrupted(): Promise<OrderRecord[]>;
  /** Orders sent to the provider whose outcome is not recorded (a previous run's, at start). */
  inFlight(): Promise<OrderRecord[]>;
  /**
   * The product codes (upper case) of `catalog` whose every route rests now: "temporarily
   * unavailable" wherever products are listed. A one-provider shop's is empty at once (nothing
   * read); when the resting state cannot be read, nothing is marked (a Confirm checks it anyway).
   */
  unavailable(catalog: Catalog): Promise<ReadonlySet<string>>;
}

export function createOrderService(deps: OrderServiceDeps): OrderService {
  const { ledger } = deps;
  const now = deps.now ?? (() => new Date());
  const shared = { ...deps, now };
  const telling = createTelling(shared);
  const drafts = createDrafts(shared);
  const recovery = createRecovery({ ...shared, telling, told: deps.interruptedTold });
  const submission = createSubmission({ ...shared, telling, recovery });
  const settlement = createSettlement({ ...shared, telling });
  return {
    openCatalog: () => drafts.openCatalog(),
    createDraft: (req) => drafts.create(req),
    get: (refId) => ledger.get(refId),
    openDraftOf: (chatId, userId) => ledger.openDraftOf(chatId, userId),
    cancel: (req) => drafts.cancel(req),
    cancelAllIn: (chatId) => drafts.cancelAllIn(chatId),
    confirm: (req) => submission.confirm(req),
    settle: (req) => settlement.settle(req),
    tellInterrupted: (orders) => recovery.tellInterrupted(orders),
    recoverInterrupted: () => recovery.recoverInterrupted(),
    inFlight: () => ledger.inFlight(),
    unavailable: (catalog) =>
      deps.supply.unavailable(catalog).catch((err: unknown) => {
        deps.logger.warn({ err }, "resting providers not read: no product is marked unavailable");
        return new Set<string>();
      }),
  };
}
