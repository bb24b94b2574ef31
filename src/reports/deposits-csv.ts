import type { People } from "../access/people.js";
import { dayRange, monthDays } from "../calendar.js";
import type { Wallets } from "../orders/wallet.js";
import { cell, CSV_BOM, idCell, wallClock } from "./csv.js";

export const DEPOSITS_CSV_HEADER = [
  "credited_at",
  "deposit_id",
  "kind",
  "reseller_id",
  "reseller_name",
  "amount",
  "note",
  "request_id",
  "approved_by",
  "approved_by_name",
] as const;

/** A deposit request's id as the bot writes it. */
const REQUEST_ID = /\bDR[0-9A-Z]{19}\b/;

export type DepositsCsv =
  | { kind: "bad-month" }
  | { kind: "empty"; month: string }
  | { kind: "file"; month: string; count: number; filename: string; content: Buffer };

/**
 * A month's deposits and corrections (credited that month in the shop's time zone) as CSV, oldest
 * first: who was credited how much, the note, the deposit request it answers (its id is the
 * deposit's, or the note of one credited by hand) and the admin who approved it.
 */
export async function depositsMonthCsv(
  deps: { wallets: Pick<Wallets, "depositsBetween">; people: Pick<People, "get">; timeZone: string },
  month: string,
): Promise<DepositsCsv> {
  const days = monthDays(month);
  if (days === undefined) return { kind: "bad-month" };
  const first = dayRange(days[0]!, deps.timeZone)!;
  const last = dayRange(days[days.length - 1]!, deps.timeZone)!;
  const deposits = await deps.wallets.depositsBetween(first.fromMs, last.toMs);
  if (deposits.length === 0) return { kind: "empty", month };
  const names = await deps.people.get([...new Set(deposits.flatMap((d) => [d.resellerId, d.doneBy ?? d.adminId]))]);
  const clock = wallClock(deps.timeZone);
  const rows = deposits.map((d) => {
    const by = d.doneBy ?? d.adminId;
    const request = d.id.startsWith("DR") ? d.id : (REQUEST_ID.exec(d.note)?.[0] ?? "");
    return [
      clock(Date.parse(d.doneAt ?? d.createdAt)),
      idCell(d.id),
      d.amount >= 0 ? "deposit" : "correction",
      d.resellerId,
      cell(names.get(d.resellerId)?.name),
      d.amount,
      cell(d.note),
      request,
      by,
      cell(names.get(by)?.name),
    ].join(",");
  });
  const text = CSV_BOM + [DEPOSITS_CSV_HEADER.join(","), ...rows].join("\r\n") + "\r\n";
  return { kind: "file", month, count: deposits.length, filename: `deposits-${month}.csv`, content: Buffer.from(text) };
}
