import type { MoneyLine } from "../reports/figures.js";
import type { Translate } from "./i18n.js";

/** A provider's line of a report: its orders (whatever their outcome), what its sales cost, the margin. */
export function providerLine(
  t: Translate,
  l: MoneyLine,
  rp: (n: number) => string,
  loss: (text: string, margin: number) => string,
): string {
  return loss(
    t(l.unpriced === 0 ? "report-provider-line" : "report-provider-line-unpriced", {
      name: l.name,
      count: l.count,
      selling: rp(l.selling - l.unpriced),
      provider: rp(l.provider),
      margin: rp(l.margin),
      unpriced: rp(l.unpriced),
    }),
    l.margin,
  );
}
