import type { Lang } from "../orders/order.js";
import type { Movement, Wallets } from "../orders/wallet.js";
import { formatRupiah, formatTime } from "./format.js";
import type { Translate } from "./i18n.js";

/** Signed rupiah: "+ Rp 50,000", "− Rp 5,000". */
export const signed = (amount: number, lang: Lang) =>
  `${amount < 0 ? "−" : "+"} ${formatRupiah(Math.abs(amount), lang)}`;

function movementLine(t: Translate, m: Movement, lang: Lang, timeZone: string): string {
  return t("saldo-movement", {
    time: formatTime(m.at, lang, timeZone),
    kind: t(`movement-${m.kind}`),
    amount: m.kind === "spend" ? formatRupiah(m.amount, lang) : signed(m.amount, lang),
    ref: m.ref,
    saldo: formatRupiah(m.saldo, lang),
  });
}

/** A reseller's saldo, held amount and last 10 movements: their own (`own`), or as an admin sees it. */
export async function saldoView(
  wallets: Pick<Wallets, "get" | "statement">,
  opts: { t: Translate; lang: Lang; timeZone: string; userId: number; own: boolean },
): Promise<string> {
  const { t, lang } = opts;
  const [wallet, lines] = await Promise.all([wallets.get(opts.userId), wallets.statement(opts.userId, 10)]);
  const head = t(opts.own ? "saldo-own" : "saldo-of", {
    userId: String(opts.userId),
    saldo: formatRupiah(wallet.saldo, lang),
    held: formatRupiah(wallet.held, lang),
  });
  if (lines.length === 0) return `${head}\n\n${t("saldo-no-movements")}`;
  const movements = lines.map((m) => movementLine(t, m, lang, opts.timeZone));
  return `${head}\n\n${t("saldo-movements-title")}\n${movements.join("\n")}`;
}
