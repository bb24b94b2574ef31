import type { OrderState } from "./order.js";
import type { Movement } from "./wallet.js";

/**
 * A line of a reseller's statement as people read it. The ledger keeps every movement as it
 * happened (a hold when an order is confirmed, then its spend or its release); read one by one
 * they look like the money left twice ("held − Rp 19,800", later "spent Rp 19,800"). So an order
 * is one line, where its money left the saldo: `spent` once the order succeeded, `held` while its
 * result is unknown (or it is still at the provider); a failed order's money coming back is a
 * `refund` line of its own, when it came back. Deposits and corrections are as they are.
 * `amount` carries its sign (what the line did to the saldo), `saldo` the saldo right after it:
 * read down the lines, every saldo is the one before plus the amount.
 */
export interface StatementLine {
  at: string;
  kind: "deposit" | "correction" | "spent" | "held" | "refund";
  ref: string;
  amount: number;
  saldo: number;
}

/**
 * The readable lines of some movements, in the order given (newest first or oldest first).
 * `stateOf` says where each order whose hold is among them stands (its spend or release may be on
 * another page); an order nobody knows any more counts as spent unless a release says otherwise.
 */
export function statementLines(
  movements: readonly Movement[],
  stateOf: (ref: string) => OrderState | undefined,
): StatementLine[] {
  const released = new Set(movements.filter((m) => m.kind === "release").map((m) => m.ref));
  const lines: StatementLine[] = [];
  for (const m of movements) {
    switch (m.kind) {
      case "deposit":
      case "correction":
        lines.push({ at: m.at, kind: m.kind, ref: m.ref, amount: m.amount, saldo: m.saldo });
        break;
      case "hold": {
        const state = stateOf(m.ref);
        const open = state === "unknown" || state === "submitting";
        const kind = open && !released.has(m.ref) ? "held" : "spent";
        lines.push({ at: m.at, kind, ref: m.ref, amount: m.amount, saldo: m.saldo });
        break;
      }
      case "release":
        lines.push({ at: m.at, kind: "refund", ref: m.ref, amount: m.amount, saldo: m.saldo });
        break;
      case "spend":
        // The hold's line says it already: the money left the saldo when it was held.
        break;
    }
  }
  return lines;
}

/** The orders whose state the lines of these movements need: those held among them. */
export const heldRefs = (movements: readonly Movement[]): string[] => [
  ...new Set(movements.filter((m) => m.kind === "hold").map((m) => m.ref)),
];
