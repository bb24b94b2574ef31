import type { OrderRecord } from "./order.js";
import type { Deposit } from "./wallet.js";

export type FinishedHow = "confirmed" | "recovered" | "settled";

/**
 * How an outcome is put: a reminder ("already"), an admin's or the provider's settlement
 * ("settled"), or one the user has already read ("told": the bot said the result is unknown when it
 * saw the restart, so only the summary is brought up to date).
 */
export type OutcomeHeading = "already" | "settled" | "told";

/**
 * What the order service reports as it goes. The service decides what happened and when a user is
 * due to hear of it (an outcome is told once: see telling.ts); whoever listens (the bot's notifier)
 * only says it, in the user's language, where they will read it. Nothing here knows Telegram.
 */
export interface OrderEvents {
  /** An order was claimed and its provider call starts now (the listener may show it is processing). */
  claimed(order: OrderRecord): void;
  /** Tells the user the outcome; resolves once it went out, throws when it could not. */
  tellOutcome(order: OrderRecord, heading?: OutcomeHeading): Promise<void>;
  /**
   * An order reached a final state: the admins hear of it, of a low balance, and of the shop's own
   * deposit with the provider running empty (each once per crossing). Must not throw.
   */
  finished(
    order: OrderRecord,
    how: FinishedHow,
    facts: { lowBalance: boolean; providerEmpty?: boolean },
  ): Promise<void>;
  /**
   * After a restart: the order was being sent when the bot stopped, so its result is unknown (the
   * ledger still has it in flight until its call must be over). Must not throw.
   */
  interrupted(order: OrderRecord): Promise<void>;
}

/**
 * Whether a message reached its reader: told; not-started (they never opened a chat with the bot,
 * so it may not write to them); blocked (they blocked it); or failed for now (try again later).
 */
export type Delivery = "told" | "not-started" | "blocked" | "failed";

/** What the deposits service reports. */
export interface DepositEvents {
  /** Tells the reseller a deposit or correction was credited. */
  credited(deposit: Deposit, saldo: number): Promise<Delivery>;
  /**
   * The admin who credited a deposit learns that its reseller could not be told, and why (they
   * must open the bot first; they will get it when they do). Must not throw.
   */
  undelivered(deposit: Deposit, why: "not-started" | "blocked"): Promise<void>;
}
