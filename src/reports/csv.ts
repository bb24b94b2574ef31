import { wallOffsetMs } from "../calendar.js";
import { costFrom, paidFromSaldo } from "../orders/order.js";
import type { OrderLine } from "../orders/order-line.js";

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
export function cell(value: string | number | undefined | null): string {
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

/**
 * A CSV file written as its orders are read: each row goes into the file's bytes at once (UTF-8,
 * CRLF), so that thousands of rows are never kept as strings until the end.
 */
export function csvFile(timeZone: string, opts: { header: boolean }) {
  const rowOf = csvRowOf(timeZone);
  let bytes: Buffer<ArrayBuffer> = Buffer.allocUnsafe(64 * 1024);
  let length = 0;
  let rows = 0;
  const write = (text: string) => {
    // At most 3 bytes of UTF-8 per UTF-16 unit.
    if (length + text.length * 3 > bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(bytes.length * 2, length + text.length * 3));
      bytes.copy(bigger, 0, 0, length);
      bytes = bigger;
    }
    length += bytes.write(text, length, "utf8");
  };
  if (opts.header) write(`${CSV_HEADER.join(",")}\r\n`);
  return {
    /** Adds an order's row (none for a draft or a cancelled order). */
    add(o: OrderLine): void {
      const row = rowOf(o);
      if (row === undefined) return;
      write(`${row}\r\n`);
      rows += 1;
    },
    /** How many rows were added. */
    get rows() {
      return rows;
    },
    /** The file so far. */
    bytes: (): Buffer<ArrayBuffer> => bytes.subarray(0, length),
  };
}

/** A time zone's offset by the hour since 1970 (undefined: it changes within that hour), as wallClock found it. */
const hourOffsets = new Map<string, Map<number, number | undefined>>();
/** Hours kept per time zone: about a year of days asked for, each read once from Intl. */
const KEPT_HOURS = 10_000;

/**
 * `YYYY-MM-DD HH:MM:SS` of instants in a time zone, as Intl's sv-SE format writes them: the zone's
 * offset asked once per hour (it changes on the hour everywhere: checked at both ends, else the
 * hour goes through Intl instant by instant), and kept for the next file. A day's CSV formats
 * thousands of times.
 */
export function wallClock(timeZone: string): (ms: number) => string {
  let format: Intl.DateTimeFormat | undefined;
  const exact = (ms: number) =>
    (format ??= new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "medium" })).format(
      new Date(ms),
    );
  let hours = hourOffsets.get(timeZone);
  if (hours === undefined || hours.size > KEPT_HOURS)
    hourOffsets.set(timeZone, (hours = new Map<number, number | undefined>()));
  const two = (n: number) => (n < 10 ? `0${n}` : String(n));
  return (ms) => {
    const hour = Math.floor(ms / 3_600_000);
    let offset = hours.get(hour);
    if (!hours.has(hour)) {
      const start = wallOffsetMs(timeZone, hour * 3_600_000);
      offset = start === wallOffsetMs(timeZone, hour * 3_600_000 + 3_599_999) ? start : undefined;
      hours.set(hour, offset);
    }
    if (offset === undefined) return exact(ms);
    const d = new Date(Math.floor(ms / 1000) * 1000 + offset);
    const year = d.getUTCFullYear();
    if (year < 1000 || year > 9999) return exact(ms);
    return `${year}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  };
}

/**
 * Where a success's provider price comes from: the provider's answer, the admin who settled it, or
 * the last price seen for the product before it was sent; empty when nobody knows it.
 */
function providerPriceFrom(o: OrderLine): string | undefined {
  if (o.state !== "success") return undefined;
  if (o.priceRp !== undefined) return "provider";
  return costFrom(o.priceRp, o.providerPrice) === undefined ? undefined : o.providerPriceFrom;
}

/**
 * The CSV row of a submitted order (no line break), in the shop's time zone; undefined for a draft
 * or a cancelled one. Made once per file: it keeps the zone's offsets it has looked up.
 */
function csvRowOf(timeZone: string): (o: OrderLine) => string | undefined {
  const clock = wallClock(timeZone);
  return (o) => {
    if (o.state === "draft" || o.state === "cancelled") return undefined;
    const success = o.state === "success";
    return (
      `${clock(o.submittedMs)},${cell(o.refId)},${o.state},${o.userId},${cell(o.userName)},` +
      `${cell(o.productCode)},${cell(o.productName)},${cell(o.playerId)},${cell(o.destinationName)},` +
      `${cell(o.role ?? "staff")},${cell(o.tier)},${cell(o.price)},` +
      // What the buyer paid from their saldo: a reseller's successful order (a held or released
      // price was not paid).
      `${cell(paidFromSaldo(o) && success ? o.price : undefined)},` +
      `${cell(success ? costFrom(o.priceRp, o.providerPrice) : o.priceRp)},` +
      `${cell(o.sn)},${cell(o.trxId)},${cell(o.lastBalance)},${cell(o.errorCode)},${cell(o.errorMsg)},` +
      cell(providerPriceFrom(o))
    );
  };
}
