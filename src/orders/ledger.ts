import type { Wallets } from "./wallet.js";
import type {
  Attempt,
  BalanceSeen,
  FinalState,
  OrderRecord,
  OrderResult,
  OrderState,
  RefusedAttempt,
} from "./order.js";
import type { OrderLine } from "./order-line.js";
import type { DayFigures } from "./day-figures.js";

/** What findOrders looks for (all given conditions together). */
export interface OrderQuery {
  fromMs?: number;
  toMs?: number;
  userId?: number;
  playerId?: string;
  /** Player ids that start with this (read through the time index: give a time range). */
  playerPrefix?: string;
  state?: OrderState;
  page: number;
  pageSize: number;
}

/** What a claim on an order found. Only `claimed` allows a call to the provider. */
export type ClaimResult =
  | { kind: "claimed"; order: OrderRecord }
  /** The partner's ref id was used already, by the order `refId`: nothing was held, nothing may be sent. */
  | { kind: "used"; refId: string }
  /** A reseller's saldo is less than the price: nothing was held, nothing may be sent. */
  | { kind: "short"; saldo: number }
  /** The product is not for sale any more (hidden or removed): still a draft, nothing held. */
  | { kind: "not-offered"; order: OrderRecord }
  /** Not a draft any more: cancelled, being sent, or finished. */
  | { kind: "taken"; order: OrderRecord }
  | { kind: "not-yours" }
  | { kind: "not-found" };

export type CancelResult =
  | { kind: "cancelled"; order: OrderRecord }
  | { kind: "taken"; order: OrderRecord }
  | { kind: "not-yours" }
  | { kind: "not-found" };

export type FinishResult =
  /**
   * `providerEmpty`: this failure is the provider saying the shop's deposit with it is empty, for
   * the first time since the last sale (the admins are alerted once per crossing, like lowBalance).
   */
  | { kind: "finished"; order: OrderRecord; lowBalance: boolean; providerEmpty?: boolean }
  /** The order was not waiting for a result (settled by an admin meanwhile): nothing changed. */
  | { kind: "stale"; order: OrderRecord }
  | { kind: "not-found" };

/** What the step to an order's next attempt found. Only `next` allows a call to that provider. */
export type AttemptResult =
  | { kind: "next"; order: OrderRecord }
  /** Not being sent any more, or already at another attempt: nothing changed, nothing may be sent. */
  | { kind: "stale"; order: OrderRecord }
  | { kind: "not-found" };

/** Why an attempt was refused (the provider's answer), as `RefusedAttempt` keeps it. */
export type Refusal = Pick<RefusedAttempt, "reason" | "errorCode" | "errorMsg">;

export type SettleResult =
  { kind: "settled"; order: OrderRecord } | { kind: "not-pending"; order: OrderRecord } | { kind: "not-found" };

export interface Outcome {
  state: FinalState;
  result: OrderResult;
  at: string;
}

/**
 * The order ledger. It speaks of orders, not of keys: every state change is one atomic step that
 * checks the state it starts from, so a double tap, a second process or a race between a result
 * and a recovery changes an order once. The Redis and memory implementations pass one contract
 * test suite (test/ledger/ledger.contract.ts).
 */
export interface OrderLedger {
  /**
   * Writes a draft and makes it the open draft of its chat and user; both expire after `ttlMs`.
   * An order of that ref id that exists already (a second handling of the update that made it)
   * is left as it is and returned: never written over, whatever became of it.
   */
  saveDraft(order: OrderRecord, ttlMs: number): Promise<OrderRecord>;
  get(refId: string): Promise<OrderRecord | undefined>;
  /** The orders that exist, in the order asked for. */
  getMany(refIds: readonly string[]): Promise<OrderRecord[]>;
  /** The draft a user is looking at in a chat (so that /cancel can retire it). */
  openDraftOf(chatId: number, userId: number): Promise<string | undefined>;
  /** Every member's open draft in a chat (the bot was removed from it: they are cancelled). */
  openDraftsIn(chatId: number): Promise<Array<{ userId: number; refId: string }>>;
  /**
   * The submit-once step: a draft of this user becomes `submitting`, is kept for good, and enters
   * the time, user and in-flight indexes, all at once. Whoever claims first wins, forever. A
   * reseller's order holds its price from their saldo in this same step, or is not claimed.
   */
  claim(
    refId: string,
    by: {
      userId: number;
      at: string;
      summaryMessageId?: number;
      /** The product codes for sale now (upper case): a draft of any other is not claimed. */
      offered?: ReadonlySet<string>;
      /**
       * An order taken by the H2H API: the partner's own ref id, used in this same step and for
       * good (per user). A claim with a ref id used before is refused (`used`).
       */
      partnerRef?: string;
      /**
       * The order's first attempt (its ref id is the order's, it begins at `at`). Stored only when
       * it is not the implicit one (main, under the product's own code): a shop with one provider
       * writes its orders as before.
       */
      attempt?: { provider: string; code: string };
      /**
       * An order that nobody looks at before it is sent (the H2H API): its draft, written in this
       * same step when no order of its ref id exists yet. Refused, it leaves nothing behind.
       */
      draft?: OrderRecord;
      /**
       * Its partner is owed a callback from now on, due at this time (ms), until they are given the
       * outcome: noted in this same step, so that no order is sent without it.
       */
      oweAtMs?: number;
      /**
       * Noted, in this same step, as the latest order of its product and player id and as its
       * user's latest, for this long (storage/recent-orders.ts: "ordered before").
       */
      recentMs?: number;
    },
  ): Promise<ClaimResult>;
  /**
   * The step to an order's next provider, one atomic step: only while the order is `submitting`
   * and its current attempt's ref id is `from`, that attempt joins `refused` with its refusal and
   * `next` becomes the current attempt (the order stays in flight). Anything else is `stale` and
   * changes nothing: two processes that both saw the same refusal send the order on once.
   */
  nextAttempt(
    order: Pick<OrderRecord, "refId" | "userId">,
    step: { from: string; refusal: Refusal; next: Attempt },
  ): Promise<AttemptResult>;
  /** The shop's ref id of the order a partner's ref id made (undefined: the ref id is unused). */
  partnerOrder(userId: number, partnerRef: string): Promise<string | undefined>;
  /** The partner's own ref id of an order taken by the H2H API (undefined for any other order). */
  partnerRefOf(refId: string): Promise<string | undefined>;
  /** A draft of this user becomes `cancelled` (and stops being the open draft), unless it was claimed. */
  cancel(refId: string, by: { userId: number; chatId: number; at: string }): Promise<CancelResult>;
  /**
   * Records the provider's outcome of a `submitting` order (or of one that recovery had already
   * marked unknown and nobody settled yet), and with a successful sale the balance it reported.
   * `lowBalance` is true for the one sale that took the balance below `lowBalanceThreshold`
   * since it was last at or above it. `acceptLate`: the provider's own answer may still replace an
   * `unknown` that recovery wrote while the call was running; recovery itself never passes it.
   * `provider` (default main): whose answer it is, so whose last balance, low-balance and
   * deposit-empty alerts it moves; `providerEmpty`, when given, says whether a failure is that
   * provider's deposit being empty (instead of the ledger's own guess from the error).
   */
  finish(
    order: Pick<OrderRecord, "refId" | "userId">,
    outcome: Outcome,
    opts?: {
      balance?: BalanceSeen;
      lowBalanceThreshold?: number;
      acceptLate?: boolean;
      provider?: string;
      providerEmpty?: boolean;
      /**
       * Whoever asked reads the outcome in the answer being given (the H2H API): a known outcome
       * is recorded as told, and the callback owed for it is dropped, in this same step.
       */
      answered?: boolean;
    },
  ): Promise<FinishResult>;
  /**
   * An admin's verdict on an `unknown` order; once per order. A reseller's held price is spent
   * (success) or released (failed) in the same step; so it is by `finish`, for a known outcome.
   */
  settle(order: Pick<OrderRecord, "refId" | "userId">, outcome: Outcome & { adminId: number }): Promise<SettleResult>;
  /** The user has been told the outcome. */
  markNotified(refId: string, at: string): Promise<void>;
  /**
   * Submitted orders, newest first, one page, by any of: submitted in [fromMs, toMs], a user's, a
   * player id's, in a state. Read through the narrowest index; without a state (or with only one of
   * user and player) a page reads no more orders than it holds (and one to say there are more).
   */
  findOrders(query: OrderQuery): Promise<{ orders: OrderRecord[]; hasMore: boolean }>;
  /** Submitted orders of a user (or everyone's), newest first, one page. */
  history(scope: number | "all", page: number, pageSize: number): Promise<{ orders: OrderRecord[]; total: number }>;
  /** Orders submitted in [fromMs, toMs], oldest first. */
  submittedBetween(fromMs: number, toMs: number): Promise<OrderRecord[]>;
  /**
   * The same orders as the lines a list prints (orderLine), oldest first, each given to `each` as
   * it is read: no whole order is made and none is kept (a day's CSV reads thousands).
   */
  eachSubmittedLine(fromMs: number, toMs: number, each: (line: OrderLine) => void): Promise<void>;
  /** Orders sent to the provider whose outcome is not recorded. */
  inFlight(): Promise<OrderRecord[]>;
  /** Orders whose result is unknown, oldest first. */
  pending(): Promise<OrderRecord[]>;
  /** The balance main reported with the sale recorded last. */
  lastBalance(): Promise<BalanceSeen | undefined>;
  /** Each provider's balance, as it reported it with its sale recorded last (by provider name). */
  balances(): Promise<Map<string, BalanceSeen>>;
  /** The provider price last seen for each product (by code, as the catalogue writes it). */
  lastProviderPrices(): Promise<Map<string, number>>;
  /**
   * A day's figures (`YYYY-MM-DD` in the shop's time zone, the day orders were submitted), kept up
   * to date in the same atomic step that records or settles each outcome: no order is read.
   */
  dayFigures(day: string): Promise<DayFigures>;
  /** Several days' figures, their totals only (the breakdowns by product, user and reseller empty). */
  daysFigures(days: readonly string[]): Promise<DayFigures[]>;
  /**
   * Several days' figures with their breakdowns (by product, user, reseller and hour), in the order
   * asked for: a week's or a month's detail read at once (one round trip to Redis), not a day at a time.
   */
  daysDetail(days: readonly string[]): Promise<DayFigures[]>;
}

/** What one compaction pass may compact, and when to stop early (the lease was lost, the bot stops). */
export interface CompactOptions {
  /** Finished orders submitted before this, and statement movements before this, are compacted. */
  before: Date;
  now: Date;
  shouldStop?: () => boolean;
}

export interface CompactResult {
  orders: number;
  /** Statement movements packed together. */
  movements: number;
}

/** What an upgrade changed (undefined from upgrade(): nothing was due). */
export interface UpgradeResult {
  /** The layout the data had, and the one it has now. */
  from: number;
  to: number;
  /** Orders and deposits of a layout before day figures that were put into them. */
  tallied: { orders: number; deposits: number };
  /** Orders and drafts rewritten into this layout. */
  orders: number;
  /** Days whose figures by the hour orders were sent were counted from their orders. */
  hours: number;
}

/** The orders and the resellers' wallets: one store, because money moves in the orders' own steps. */
export interface Ledger {
  orders: OrderLedger;
  wallets: Wallets;
  /**
   * Called at start. Brings data of an older layout up to this one, in place, once (a crash in the middle resumes:
   * every record is changed once, by an atomic step). What was changed, or undefined when nothing
   * was due. `onProgress` hears after each batch how many orders are done (what it throws stops
   * the upgrade there, as a crash would).
   */
  upgrade(opts?: { onProgress?: (done: number) => void }): Promise<UpgradeResult | undefined>;
  /**
   * Compacts finished orders (success or failed) submitted before `before`: they leave the form an
   * open order needs for a packed one that costs a fraction of the memory, and stay answered by
   * get, history, findOrders and submittedBetween exactly as before. Orders still open or whose
   * result is unknown are never compacted. A statement's movements before `before` are packed too,
   * all but its newest 20. Every order and movement moves in an atomic step: an interrupted pass
   * loses and doubles nothing, and the next one goes on.
   */
  compact(opts: CompactOptions): Promise<CompactResult>;
}
