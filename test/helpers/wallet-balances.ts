import type { Wallet } from "../../src/orders/wallet.js";

/** The books balance: what an auditor checks for every reseller (the ledger tests and the chaos run). */
export function walletBalances(w: Wallet): boolean {
  return w.saldo === w.deposits + w.corrections - w.spent - w.held && w.saldo >= 0 && w.held >= 0;
}
