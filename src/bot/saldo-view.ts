import type { Person } from "../access/people.js";
import type { Lang, OrderState } from "../orders/order.js";
import { heldRefs, statementLines, type StatementLine } from "../orders/statement.js";
import type { Wallets } from "../orders/wallet.js";
import { formatRupiah, formatTime } from "./format.js";
import type { Translate } from "./i18n.js";
import { nameBefore } from "./people.js";

/** Signed rupiah: "+ Rp 50,000", "− Rp 5,000". */
export const signed = (amount: number, lang: Lang) =>
  `${amount < 0 ? "−" : "+"} ${formatRupiah(Math.abs(amount), lang)}`;

function statementLine(t: Translate, line: StatementLine, lang: Lang, timeZone: string): string {
  return t("saldo-movement", {
    time: formatTime(line.at, lang, timeZone),
    kind: t(`statement-${line.kind}`),
    amount: signed(line.amount, lang),
    ref: line.ref,
    saldo: formatRupiah(line.saldo, lang),
  });
}

/**
 * A reseller's saldo, held amount and last movements: their own (`own`), or as an admin sees it
 * (with their name). An order is one line (statement.ts): spent once it succeeded, held while its
 * result is unknown, and a failed order's money coming back is a refund.
 */
export async function saldoView(
  deps: {
    wallets: Pick<Wallets, "get" | "statement">;
    statesOf: (refIds: readonly string[]) => Promise<Map<string, OrderState>>;
  },
  opts: { t: Translate; lang: Lang; timeZone: string; userId: number; own: boolean; person?: Person | undefined },
): Promise<string> {
  const { t, lang } = opts;
  const [wallet, movements] = await Promise.all([
    deps.wallets.get(opts.userId),
    deps.wallets.statement(opts.userId, 10),
  ]);
  const head = t(opts.own ? "saldo-own" : "saldo-of", {
    userId: String(opts.userId),
    name: nameBefore(opts.person),
    saldo: formatRupiah(wallet.saldo, lang),
    held: formatRupiah(wallet.held, lang),
  });
  if (movements.length === 0) return `${head}\n\n${t("saldo-no-movements")}`;
  const states = await deps.statesOf(heldRefs(movements));
  const lines = statementLines(movements, (ref) => states.get(ref)).map((l) =>
    statementLine(t, l, lang, opts.timeZone),
  );
  return `${head}\n\n${t("saldo-movements-title")}\n${lines.join("\n")}`;
}
