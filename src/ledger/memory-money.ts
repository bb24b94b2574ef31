import { paidFromSaldo, type OrderRecord } from "../orders/order.js";
import { emptyWallet, type Movement, type MovementKind, type Wallet } from "../orders/wallet.js";

/** The resellers' money: wallets, statements, what the shop owes, and the holds of their orders. */
export function memoryMoney() {
  const walletOf = new Map<number, Wallet>();
  const statements = new Map<number, Movement[]>();
  const totals = { saldo: 0, held: 0 };
  const wallet = (userId: number): Wallet => {
    let w = walletOf.get(userId);
    if (w === undefined) walletOf.set(userId, (w = emptyWallet(userId)));
    return w;
  };
  const move = (userId: number, at: string, kind: MovementKind, ref: string, amount: number) => {
    const w = wallet(userId);
    const lines = statements.get(userId) ?? [];
    statements.set(userId, lines);
    lines.push({ at, kind, ref, amount, saldo: w.saldo, held: w.held });
  };
  return {
    walletOf,
    statements,
    totals,
    wallet,
    move,
    /** A reseller's order holds its price from the saldo (the caller checked it is there). */
    hold(o: OrderRecord, at: string) {
      const w = wallet(o.userId);
      w.saldo -= o.price!;
      w.held += o.price!;
      totals.saldo -= o.price!;
      totals.held += o.price!;
      move(o.userId, at, "hold", o.refId, -o.price!);
      o.saldoAfter = w.saldo;
    },
    /** The held price of a reseller's order, once its fate is known (see SETTLE_HOLD in redis-orders.ts). */
    settleHold(o: OrderRecord, state: OrderRecord["state"], at: string) {
      if (!paidFromSaldo(o) || state === "unknown") return;
      const hold = o.price!;
      const w = wallet(o.userId);
      w.held -= hold;
      totals.held -= hold;
      if (state !== "success") totals.saldo += hold;
      if (state === "success") {
        w.spent += hold;
        move(o.userId, at, "spend", o.refId, hold);
      } else {
        w.saldo += hold;
        move(o.userId, at, "release", o.refId, hold);
      }
      o.saldoAfter = w.saldo;
    },
  };
}

export type Money = ReturnType<typeof memoryMoney>;
