import type { Logger } from "../logger.js";
import type { TopupClient } from "../topup/types.js";
import type { OrderLedger } from "./ledger.js";
import type { BalanceSeen, DraftFields, OrderRecord } from "./order.js";
import { createDrafts, type CancelOutcome } from "./drafts.js";
import { createRecovery } from "./recovery.js";
import { createSettlement, type SettleRequest, type SettleOutcome } from "./settle.js";
import { createSubmission, type ConfirmOutcome, type ConfirmRequest } from "./submit.js";

export type { ConfirmOutcome, ConfirmRequest } from "./submit.js";
export type { SettleOutcome, SettleRequest } from "./settle.js";
export type { CancelOutcome } from "./drafts.js";

/** What the bot knows of an order before Confirm; the service adds ref_id and time. */
export type DraftInput = Omit<DraftFields, "refId" | "createdAt">;

export type FinishedHow = "confirmed" | "recovered" | "settled";

/** Who hears about an order that reached a final state. Must not throw. */
export interface OrderEvents {
  finished(order: OrderRecord, how: FinishedHow, facts: { lowBalance: boolean }): void | Promise<void>;
}

export interface OrderServiceDeps {
  ledger: OrderLedger;
  topup: TopupClient;
  refIdPrefix: string;
  /** TOPUP_TIMEOUT_MS: after this (plus grace) a `submitting` order cannot still be in flight. */
  timeoutMs: number;
  lowBalanceThreshold?: number | undefined;
  logger: Logger;
  events: OrderEvents;
  now?: () => Date;
  draftTtlMs?: number;
}

/** The orders as the bot sees them: drafts, the submit-once Confirm, settlement, recovery, queries. */
export interface OrderService {
  /** Fixes the ref_id and writes the draft: this happens before Confirm is ever shown. */
  createDraft(input: DraftInput): Promise<OrderRecord>;
  get(refId: string): Promise<OrderRecord | undefined>;
  /** The draft a user is looking at in a chat, so that /cancel can retire it. */
  openDraftOf(chatId: number, userId: number): Promise<string | undefined>;
  cancel(req: { refId: string; userId: number; chatId: number }): Promise<CancelOutcome>;
  /** Submits the order to the provider at most once per ref_id, across taps, processes and restarts. */
  confirm(req: ConfirmRequest): Promise<ConfirmOutcome>;
  /** Settles an `unknown` order once, after an admin checked with the provider. */
  settle(req: SettleRequest): Promise<SettleOutcome>;
  /** Records that the user has been told the outcome (so a later tap does not repeat it). */
  markNotified(order: OrderRecord): Promise<void>;
  /**
   * Turns orders left `submitting` by a crash into `unknown` once their provider call must have
   * ended. Never resends. Returns the orders changed.
   */
  recoverInterrupted(): Promise<OrderRecord[]>;
  history(scope: number | "all", page: number, pageSize: number): Promise<{ orders: OrderRecord[]; total: number }>;
  submittedBetween(fromMs: number, toMs: number): Promise<OrderRecord[]>;
  inFlight(): Promise<OrderRecord[]>;
  pending(): Promise<OrderRecord[]>;
  lastBalance(): Promise<BalanceSeen | undefined>;
}

export function createOrderService(deps: OrderServiceDeps): OrderService {
  const { ledger } = deps;
  const now = deps.now ?? (() => new Date());
  const shared = { ...deps, now };
  const drafts = createDrafts(shared);
  const recovery = createRecovery(shared);
  const submission = createSubmission({ ...shared, recovery });
  const settlement = createSettlement(shared);
  return {
    createDraft: (input) => drafts.create(input),
    get: (refId) => ledger.get(refId),
    openDraftOf: (chatId, userId) => ledger.openDraftOf(chatId, userId),
    cancel: (req) => drafts.cancel(req),
    confirm: (req) => submission.confirm(req),
    settle: (req) => settlement.settle(req),
    async markNotified(order) {
      await ledger.markNotified(order.refId, now().toISOString());
    },
    recoverInterrupted: () => recovery.recoverInterrupted(),
    history: (scope, page, pageSize) => ledger.history(scope, page, pageSize),
    submittedBetween: (fromMs, toMs) => ledger.submittedBetween(fromMs, toMs),
    inFlight: () => ledger.inFlight(),
    pending: () => ledger.pending(),
    lastBalance: () => ledger.lastBalance(),
  };
}
