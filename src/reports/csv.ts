import { wallOffsetMs } from "../calendar.js";
import { costOf, paidFromSaldo, type OrderRecord } from "../orders/order.js";

/**
 * The orders of a day (or a month) as a spreadsheet reads them: one row per submitted order, the
 * buyer's role and tier, what they paid, what the provider charged and where that price comes from.
 */

export const CSV_HEADER = [
  "submitted_at",
  "ref_id",
  "state",
  "user_id",
  "user_name",
  "product_code",
  "product_name",
  "player_id",
  "player_name",
  "buyer_role",
  "buyer_tier",
  "price",
  "price_paid",
  "provider_price",
  "sn",
  "trx_id",
  "last_balance",
  "error_code",
  "error_msg",
  "provider_price_from",
] as const;

/** One cell: quoted when needed, and never read as a formula by a spreadsheet. */
function cell(value: string | number | undefined | null): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "number") return String(value);
  let text = value;
  const first = text.charCodeAt(0);
  // = + @ tab CR, or "-" before anything but a digit: a spreadsheet would take it for a formula.
  const second = text.charCodeAt(1);
  if (
    first === 61 ||
    first === 43 ||
    first === 64 ||
    first === 9 ||
    first === 13 ||
    (first === 45 && text.length > 1 && !(second >= 48 && second <= 57))
  )
    text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The day's orders as CSV (UTF-8, a header row, times in the shop's time zone). */
export function reportCsv(orders: OrderRecord[], timeZone: string): string {
  return [CSV_HEADER.join(","), ...csvRows(orders, timeZone)].join("\r\n") + "\r\n";
}

/**
 * `YYYY-MM-DD HH:MM:SS` of instants in a time zone, as Intl's sv-SE format writes them: the zone's
 * offset asked once per hour (it changes on the hour everywhere: checked at both ends, else the
 * hour goes through Intl instant by instant). A day's CSV formats thousands of times.
 */
function wallClock(timeZone: string): (ms: number) => string {
  const exact = new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "medium" });
  const hours = new Map<number, number | undefined>();
  const two = (n: number) => (n < 10 ? `0${n}` : String(n));
  return (ms) => {
    const hour = Math.floor(ms / 3_600_000);
    let offset = hours.get(hour);
    if (!hours.has(hour)) {
      const start = wallOffsetMs(timeZone, hour * 3_600_000);
      offset = start === wallOffsetMs(timeZone, hour * 3_600_000 + 3_599_999) ? start : undefined;
      hours.set(hour, offset);
    }
    if (offset === undefined) return exact.format(new Date(ms));
    const d = new Date(Math.floor(ms / 1000) * 1000 + offset);
    const year = d.getUTCFullYear();
    if (year < 1000 || year > 9999) return exact.format(new Date(ms));
    return `${year}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  };
}

/**
 * Where a success's provider price comes from: the provider's answer, the admin who settled it, or
 * the last price seen for the product before it was sent; empty when nobody knows it.
 */
function providerPriceFrom(o: OrderRecord): string | undefined {
  if (o.state !== "success") return undefined;
  if (o.result?.productDetail?.priceRp !== undefined) return "provider";
  return costOf(o.result) === undefined ? undefined : o.result?.providerPriceFrom;
}

/** The CSV rows of submitted orders (no header), in the order given. */
export function csvRows(orders: readonly OrderRecord[], timeZone: string): string[] {
  const clock = wallClock(timeZone);
  return orders
    .filter((o) => o.state !== "draft" && o.state !== "cancelled")
    .map((o) =>
      [
        clock(Date.parse(o.submittedAt ?? o.createdAt)),
        o.refId,
        o.state,
        o.userId,
        o.userName,
        o.productCode,
        o.productName,
        o.playerId,
        o.result?.destinationName,
        o.role ?? "staff",
        o.tier,
        o.price,
        // What the buyer paid from their saldo: a reseller's successful order (a held or released
        // price was not paid).
        paidFromSaldo(o) && o.state === "success" ? o.price : undefined,
        o.state === "success" ? costOf(o.result) : o.result?.productDetail?.priceRp,
        o.result?.sn,
        o.result?.trxId,
        o.result?.lastBalance,
        o.result?.errorCode,
        o.result?.errorMsg,
        providerPriceFrom(o),
      ]
        .map(cell)
        .join(","),
    );
}
