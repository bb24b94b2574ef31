/**
 * A reseller's money with the shop, in whole rupiah. `saldo` is what they can spend now; `held`
 * is taken from it for orders whose result is not known yet. At every moment
 * saldo = deposits + corrections − spent − held.
 */
export interface Wallet {
  userId: number;
  saldo: number;
  held: number;
  deposits: number;
  corrections: number;
  spent: number;
}

export type MovementKind = "deposit" | "correction" | "hold" | "spend" | "release";

/**
 * One line of a reseller's statement, appended in the same atomic step as the change it records.
 * `amount` is what the movement did: + for a deposit or a release, − for a correction downwards or
 * a hold, and for a spend the amount that left the held money for good.
 */
export interface Movement {
  at: string;
  kind: MovementKind;
  /** The order's ref id, or the deposit's id. */
  ref: string;
  amount: number;
  /** The saldo and the held amount after the movement. */
  saldo: number;
  held: number;
}

/** A deposit (or, negative, a correction) an admin prepared; credited once when confirmed. */
export interface Deposit {
  id: string;
  resellerId: number;
  amount: number;
  note: string;
  /** The admin who prepared it, and the chat where its summary is. */
  adminId: number;
  chatId: number;
  createdAt: string;
  state: "draft" | "done" | "cancelled";
  doneAt?: string;
  doneBy?: number;
  /** The reseller's saldo right after it was credited. */
  saldoAfter?: number;
  /** When the reseller was told it was credited (a crash in between is told at the next start). */
  toldAt?: string;
}

export type DepositConfirmResult =
  | { kind: "done"; deposit: Deposit; wallet: Wallet }
  | { kind: "taken"; deposit: Deposit }
  /** A correction that would take the saldo below 0: nothing changed. */
  | { kind: "short"; deposit: Deposit; saldo: number }
  | { kind: "not-found" };

export const emptyWallet = (userId: number): Wallet => ({
  userId,
  saldo: 0,
  held: 0,
  deposits: 0,
  corrections: 0,
  spent: 0,
});

/**
 * The reseller side of the ledger. Deposits are their own atomic steps; holds, spends and releases
 * happen inside the order ledger's claim, outcome and settlement steps (one step each).
 */
export interface Wallets {
  get(userId: number): Promise<Wallet>;
  /** The newest `last` movements, oldest first. */
  statement(userId: number, last?: number): Promise<Movement[]>;
  /** One page of the statement, newest first, and how many movements it has in all. */
  statementPage(userId: number, page: number, pageSize: number): Promise<{ movements: Movement[]; total: number }>;
  /** Every reseller who ever had money with the shop. */
  all(): Promise<Wallet[]>;
  /**
   * Writes a prepared deposit (a draft, expiring after `ttlMs`). One of that id that exists
   * already (a second handling of the update that prepared it) is left as it is and returned.
   */
  saveDeposit(deposit: Deposit, ttlMs: number): Promise<Deposit>;
  getDeposit(id: string): Promise<Deposit | undefined>;
  /** Credits a deposit (or applies a correction) once, whoever taps Confirm and however often. */
  confirmDeposit(id: string, by: { adminId: number; at: string }): Promise<DepositConfirmResult>;
  cancelDeposit(
    id: string,
    at: string,
  ): Promise<{ kind: "cancelled" | "taken"; deposit: Deposit } | { kind: "not-found" }>;
  /** Deposits and corrections credited in [fromMs, toMs], oldest first. */
  depositsBetween(fromMs: number, toMs: number): Promise<Deposit[]>;
  /** The reseller has been told of this credited deposit. */
  markDepositTold(id: string, at: string): Promise<void>;
  /** Credited deposits whose reseller has not been told yet (the bot stopped in between). */
  untoldDeposits(): Promise<Deposit[]>;
  /** All resellers' saldo and held money together: what the shop owes them (kept on write). */
  totals(): Promise<{ saldo: number; held: number }>;
}
