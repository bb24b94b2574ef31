import type { OrderLedger, Outcome } from "../../src/orders/ledger.js";
import type { OrderRecord } from "../../src/orders/order.js";
import type { Deposit, Wallet, Wallets } from "../../src/orders/wallet.js";

/*
 * History written through the ledger's own steps, with past times, as the bot itself would have
 * written it: an order's draft, claim, outcome, the notice to its user and an admin's settlement;
 * a deposit's draft, its confirmation and the notice to the reseller. Nothing goes to the provider.
 * Every step's answer is checked: a step the ledger refuses is the caller's mistake, thrown at once.
 * The Mini App's browser tests write four weeks with it (test/web/scene.ts), the bench a year.
 */

/** How long a draft waits for its claim (the claim keeps the order for good). */
const DRAFT_TTL_MS = 60_000;

/** One past order, from its draft to what its user was last told. */
export interface PastOrder {
  /** The draft as the dialogue wrote it (state "draft"). */
  draft: OrderRecord;
  /** When Confirm was tapped: the order's time in the indexes and the day's figures. */
  submittedAt: string;
  /** The summary Confirm was tapped on. */
  summaryMessageId?: number;
  /** The codes for sale then, as the Confirm passes them. */
  offered?: ReadonlySet<string>;
  /** What the provider answered, and when. */
  outcome: Outcome;
  /** The provider balance a successful sale reported. */
  balance?: number;
  /** When the user was told the outcome (unset: never told). */
  toldAt?: string;
  /** An admin's verdict on an unknown outcome, and when its user was told. */
  settlement?: Outcome & { adminId: number; toldAt?: string };
  /** The provider (and its code) the order was sent to (unset: main, under the product's code). */
  attempt?: { provider: string; code: string };
}

/** Writes one past order; the order as the ledger keeps it at the end. */
export async function writePastOrder(
  orders: OrderLedger,
  past: PastOrder,
  draftTtlMs = DRAFT_TTL_MS,
): Promise<OrderRecord> {
  const { draft, outcome, settlement } = past;
  await orders.saveDraft(draft, draftTtlMs);
  const claim = await orders.claim(draft.refId, {
    userId: draft.userId,
    at: past.submittedAt,
    ...(past.summaryMessageId === undefined ? {} : { summaryMessageId: past.summaryMessageId }),
    ...(past.offered === undefined ? {} : { offered: past.offered }),
    ...(past.attempt === undefined ? {} : { attempt: past.attempt }),
  });
  if (claim.kind !== "claimed") throw new Error(`past order ${draft.refId} not claimed: ${claim.kind}`);
  const provider = past.attempt?.provider;
  const balance =
    past.balance === undefined
      ? {}
      : {
          balance: {
            balance: past.balance,
            at: outcome.at,
            refId: draft.refId,
            ...(provider === undefined ? {} : { provider }),
          },
        };
  const finished = await orders.finish(draft, outcome, {
    ...balance,
    ...(provider === undefined ? {} : { provider }),
  });
  if (finished.kind !== "finished") throw new Error(`past order ${draft.refId} not finished: ${finished.kind}`);
  let order = finished.order;
  if (past.toldAt !== undefined) await orders.markNotified(draft.refId, past.toldAt);
  if (settlement !== undefined) {
    const settled = await orders.settle(draft, settlement);
    if (settled.kind !== "settled") throw new Error(`past order ${draft.refId} not settled: ${settled.kind}`);
    order = settled.order;
    if (settlement.toldAt !== undefined) await orders.markNotified(draft.refId, settlement.toldAt);
  }
  return order;
}

/** One past deposit (or, negative, correction), as an admin prepared it. */
export type PastDeposit = Omit<Deposit, "state" | "doneAt" | "doneBy" | "saldoAfter" | "toldAt">;

/**
 * Credits a past deposit, confirmed by the admin who prepared it at `at`, and records the reseller
 * told at `toldAt` (unset: never told). The reseller's wallet after it.
 */
export async function writePastDeposit(
  wallets: Wallets,
  deposit: PastDeposit,
  confirmed: { at: string; toldAt?: string },
  draftTtlMs = DRAFT_TTL_MS,
): Promise<Wallet> {
  await wallets.saveDeposit({ ...deposit, state: "draft" }, draftTtlMs);
  const done = await wallets.confirmDeposit(deposit.id, { adminId: deposit.adminId, at: confirmed.at });
  if (done.kind !== "done") throw new Error(`past deposit ${deposit.id} not credited: ${done.kind}`);
  if (confirmed.toldAt !== undefined) await wallets.markDepositTold(deposit.id, confirmed.toldAt);
  return done.wallet;
}

/**
 * A reseller's saldo as an admin's deposit made it at `atMs` (id `DEP<resellerId>`, no note): how
 * the H2H tests give a partner something to spend.
 */
export function fundReseller(
  wallets: Wallets,
  resellerId: number,
  amount: number,
  adminId: number,
  atMs: number,
): Promise<Wallet> {
  const at = new Date(atMs).toISOString();
  const deposit = { id: `DEP${resellerId}`, resellerId, amount, note: "", adminId, chatId: adminId, createdAt: at };
  return writePastDeposit(wallets, deposit, { at });
}
