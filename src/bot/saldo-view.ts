import type { Person } from "../access/people.js";
import type { Lang } from "../orders/order.js";
import type { StatementLine } from "../orders/statement.js";
import type { RecentStatement } from "../reports/resellers.js";
import { formatRupiah, formatTime } from "./format.js";
import type { Translate } from "./i18n.js";
import { nameBefore } from "./people.js";

/** How many of the newest statement lines /saldo shows. */
export const SALDO_LINES = 10;

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
 * A reseller's saldo, held amount and last movements (reports: one line per order, spent once it
 * succeeded, held while its result is unknown, a refund when a failed order's money came back):
 * their own (`own`), or as an admin sees it (with their name).
 */
export function saldoText(
  statement: RecentStatement,
  opts: { t: Translate; lang: Lang; timeZone: string; own: boolean },
): string {
  const { t, lang } = opts;
  const { reseller, lines } = statement;
  const head = t(opts.own ? "saldo-own" : "saldo-of", {
    userId: String(reseller.userId),
    name: nameBefore(personOf(reseller)),
    saldo: formatRupiah(reseller.saldo, lang),
    held: formatRupiah(reseller.held, lang),
  });
  if (lines.length === 0) return `${head}\n\n${t("saldo-no-movements")}`;
  const text = lines.map((l) => statementLine(t, l, lang, opts.timeZone));
  return `${head}\n\n${t("saldo-movements-title")}\n${text.join("\n")}`;
}

/** The name a reseller goes by, as the reports name them. */
export const personOf = (row: { name?: string; username?: string }): Person | undefined =>
  row.name === undefined && row.username === undefined
    ? undefined
    : { name: row.name ?? "", ...(row.username === undefined ? {} : { username: row.username }) };
