import { emptyWallet, type Deposit, type Wallets } from "../orders/wallet.js";
import type { Figures } from "./memory-figures.js";
import type { Money } from "./memory-money.js";
import type { Store } from "./memory-store.js";

/** The wallets: saldo, deposits credited once, statements. */
export function memoryWallets(store: Store, figures: Figures, money: Money): Wallets {
  const { copy, liveDeposit, deposits, depositTimes, untold } = store;
  const { walletOf, statements, totals } = money;
  return {
    get: async (userId) => copy(walletOf.get(userId) ?? emptyWallet(userId)),
    statement: async (userId, last = 10) => copy((statements.get(userId) ?? []).slice(-last)),
    async statementPage(userId, page, pageSize) {
      const lines = statements.get(userId) ?? [];
      const end = lines.length - page * pageSize;
      const movements = end <= 0 ? [] : lines.slice(Math.max(0, end - pageSize), end).reverse();
      return { movements: copy(movements), total: lines.length };
    },
    all: async () => [...walletOf.values()].sort((a, b) => a.userId - b.userId).map(copy),
    async saveDeposit(deposit, ttlMs) {
      const kept = liveDeposit(deposit.id);
      if (kept !== undefined) return copy(kept);
      store.wrote();
      deposits.set(deposit.id, { deposit: copy(deposit), expiresAt: store.now() + ttlMs });
      return copy(deposit);
    },
    async getDeposit(id) {
      const d = liveDeposit(id);
      return d === undefined ? undefined : copy(d);
    },
    async confirmDeposit(id, by) {
      const d = liveDeposit(id);
      if (d === undefined) return { kind: "not-found" };
      if (d.state !== "draft") return { kind: "taken", deposit: copy(d) };
      const w = money.wallet(d.resellerId);
      if (w.saldo + d.amount < 0) return { kind: "short", deposit: copy(d), saldo: w.saldo };
      w.saldo += d.amount;
      totals.saldo += d.amount;
      figures.deposited(d.resellerId, d.amount, by.at);
      if (d.amount >= 0) w.deposits += d.amount;
      else w.corrections += d.amount;
      money.move(d.resellerId, by.at, d.amount >= 0 ? "deposit" : "correction", id, d.amount);
      d.state = "done";
      d.doneAt = by.at;
      d.doneBy = by.adminId;
      d.saldoAfter = w.saldo;
      deposits.get(id)!.expiresAt = undefined;
      depositTimes.set(id, Date.parse(by.at));
      untold.add(id);
      return { kind: "done", deposit: copy(d), wallet: copy(w) };
    },
    async cancelDeposit(id, at) {
      const d = liveDeposit(id);
      if (d === undefined) return { kind: "not-found" };
      if (d.state === "draft") {
        d.state = "cancelled";
        d.doneAt = at;
      }
      return { kind: d.state === "cancelled" ? "cancelled" : "taken", deposit: copy(d) };
    },
    async markDepositTold(id, at) {
      const d = liveDeposit(id);
      if (d !== undefined) d.toldAt = at;
      untold.delete(id);
    },
    async untoldDeposits() {
      return [...untold]
        .map((id) => liveDeposit(id))
        .filter((d): d is Deposit => d !== undefined && d.state === "done" && d.toldAt === undefined)
        .map(copy);
    },
    totals: async () => ({ ...totals }),
    async depositsBetween(fromMs, toMs) {
      return [...depositTimes]
        .filter(([, t]) => t >= fromMs && t <= toMs)
        .sort(([, a], [, b]) => a - b)
        .map(([id]) => liveDeposit(id))
        .filter((d): d is Deposit => d !== undefined)
        .map(copy);
    },
  };
}
