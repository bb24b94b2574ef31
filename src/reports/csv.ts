import { wallOffsetMs } from "../calendar.js";
import { costFrom, MAIN_PROVIDER, paidFromSaldo } from "../orders/order.js";
import type { OrderLedger } from "../orders/ledger.js";
import type { OrderLine } from "../orders/order-line.js";

/**
 * The orders of a day (or a month) as a spreadsheet reads them: one row per submitted order, the
 * buyer's role and tier, what they paid, what the provider charged and where that price comes from,
 * and which provider fulfilled (or holds) it and which refused it before. The provider columns are
 * always there, so a spreadsheet's columns stay put whether the shop has one provider or more; the
 * partner's ref_id of an H2H order comes last.
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
  "provider",
  "refused_by",
  "partner_ref_id",
] as const;

/** A cell with one of these is quoted (one object: a literal in the function would be a new one per cell). */
const NEEDS_QUOTES = /[",\n\r]/;

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
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Excel, LibreOffice and Google Sheets read a cell of digits (and of signs, dots, commas, slashes,
 * colons, `E`, `%`) as a number or a date: a 16-digit SN becomes 4.10159E+15, leading zeros go,
 * `1-2` becomes a date. Such an id is written as a formula giving the text itself, `="…"`, which
 * each of them shows as the text, every character kept.
 */
const READ_AS_NUMBER = /^[\d\s.,:/+\-eE%]*\d[\d\s.,:/+\-eE%]*$/;

/**
 * An id or an SN: as `cell`, and when a spreadsheet would read it as a number or a date, as a
 * formula that gives the text (only characters of that set are ever put in it: no quote, nothing
 * a formula could run).
 */
export function idCell(value: string | number | undefined | null): string {
  if (value === undefined || value === null) return "";
  const text = String(value);
  return READ_AS_NUMBER.test(text) ? `"=""${text}"""` : cell(text);
}

/**
 * The first bytes of every CSV the bot writes: the UTF-8 byte order mark, by which Excel knows the
 * file is UTF-8 (without it, names with é or emoji are mangled).
 */
export const CSV_BOM = "\uFEFF";

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
    // At most 3 bytes of UTF-8 per UTF-16 unit, and room for a line break after it.
    if (length + text.length * 3 + 2 > bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(bytes.length * 2, length + text.length * 3 + 2));
      bytes.copy(bigger, 0, 0, length);
      bytes = bigger;
    }
    length += bytes.write(text, length, "utf8");
  };
  if (opts.header) write(`${CSV_BOM}${CSV_HEADER.join(",")}\r\n`);
  return {
    /** Adds an order's row (none for a draft or a cancelled order). */
    add(o: OrderLine): void {
      const row = rowOf(o);
      if (row === undefined) return;
      write(row);
      // The line break as bytes: appended to the row, it would be a second string to flatten.
      bytes[length++] = 13;
      bytes[length++] = 10;
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
 * hour goes through Intl instant by instant), and kept for the next file. The wall clock's date
 * and hour are spelled once per hour too: a day's CSV formats thousands of times, in time order.
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
  /** The wall clock's hour last spelled (hours since 1970) and its "YYYY-MM-DD HH:". */
  let spelledHour = Number.NaN;
  let spelled = "";
  return (ms) => {
    const hour = Math.floor(ms / 3_600_000);
    let offset = hours.get(hour);
    if (!hours.has(hour)) {
      const start = wallOffsetMs(timeZone, hour * 3_600_000);
      offset = start === wallOffsetMs(timeZone, hour * 3_600_000 + 3_599_999) ? start : undefined;
      hours.set(hour, offset);
    }
    if (offset === undefined) return exact(ms);
    const wall = Math.floor(ms / 1000) * 1000 + offset;
    const wallHour = Math.floor(wall / 3_600_000);
    if (wallHour !== spelledHour) {
      const d = new Date(wallHour * 3_600_000);
      const year = d.getUTCFullYear();
      if (year < 1000 || year > 9999) return exact(ms);
      spelled = `${year}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:`;
      spelledHour = wallHour;
    }
    const second = Math.floor((wall - wallHour * 3_600_000) / 1000);
    return `${spelled}${two(Math.floor(second / 60))}:${two(second % 60)}`;
  };
}

/**
 * Where a success's provider price comes from: the provider's answer, the admin who settled it, or
 * the last price seen for the product before it was sent; empty when nobody knows it.
 */
export function providerPriceFrom(o: OrderLine): string | undefined {
  if (o.state !== "success") return undefined;
  if (o.priceRp !== undefined) return "provider";
  return costFrom(o.priceRp, o.providerPrice) === undefined ? undefined : o.providerPriceFrom;
}

/**
 * The CSV row of a submitted order (no line break), in the shop's time zone; undefined for a draft
 * or a cancelled one. Made once per file: it keeps the zone's offsets it has looked up. The cells
 * are joined from one array reused row after row: the row is then one flat string, written into
 * the file's bytes as it is, instead of a chain of twenty joined pieces to flatten first.
 */
function csvRowOf(timeZone: string): (o: OrderLine) => string | undefined {
  const clock = wallClock(timeZone);
  const cells: string[] = new Array<string>(CSV_HEADER.length).fill("");
  return (o) => {
    if (o.state === "draft" || o.state === "cancelled") return undefined;
    const success = o.state === "success";
    cells[0] = clock(o.submittedMs);
    cells[1] = idCell(o.refId);
    cells[2] = o.state;
    // A Telegram user id (at most 10 digits today) is a whole number every spreadsheet shows exactly.
    cells[3] = String(o.userId);
    cells[4] = cell(o.userName);
    cells[5] = cell(o.productCode);
    cells[6] = cell(o.productName);
    cells[7] = idCell(o.playerId);
    cells[8] = cell(o.destinationName);
    cells[9] = cell(o.role ?? "staff");
    cells[10] = cell(o.tier);
    cells[11] = cell(o.price);
    // What the buyer paid from their saldo: a reseller's successful order (a held or released
    // price was not paid).
    cells[12] = cell(paidFromSaldo(o) && success ? o.price : undefined);
    // In whole rupiah, as the page and the chat show it.
    cells[13] = cell(success ? costFrom(o.priceRp, o.providerPrice) : costFrom(o.priceRp, undefined));
    cells[14] = idCell(o.sn);
    cells[15] = idCell(o.trxId);
    cells[16] = cell(o.lastBalance);
    cells[17] = cell(o.errorCode);
    cells[18] = cell(o.errorMsg);
    cells[19] = cell(providerPriceFrom(o));
    // An order that names no provider went to main (a one-provider shop's orders never do).
    cells[20] = cell(o.provider ?? MAIN_PROVIDER);
    // The providers that refused it before, oldest first, by spaces: a cell a filter reads unquoted.
    cells[21] = cell(o.refusedBy === undefined ? undefined : o.refusedBy.replaceAll(",", " "));
    // An H2H order: the partner's own ref_id, what their books name it by.
    cells[22] = idCell(o.partnerRef);
    return cells.join(",");
  };
}

/** How many partner ref_ids are read at once while a file is written. */
const PARTNER_REF_BATCH = 200;

/**
 * Every submitted line of a time range, each H2H order's with its partner's ref_id (a reseller's
 * lines are looked up, a batch at a time, since a line does not say which came by the API), to `each`.
 */
export async function eachLineWithPartnerRef(
  ledger: Pick<OrderLedger, "eachSubmittedLine" | "partnerRefOf">,
  fromMs: number,
  toMs: number,
  each: (line: OrderLine) => void,
): Promise<void> {
  let batch: OrderLine[] = [];
  const flush = async () => {
    const refs = await Promise.all(
      batch.map(async (l) => (l.role === "reseller" ? ledger.partnerRefOf(l.refId) : undefined)),
    );
    batch.forEach((line, i) => {
      const ref = refs[i];
      if (ref !== undefined) line.partnerRef = ref;
      each(line);
    });
    batch = [];
  };
  const lines: OrderLine[] = [];
  await ledger.eachSubmittedLine(fromMs, toMs, (line) => lines.push(line));
  for (const line of lines) {
    batch.push(line);
    if (batch.length >= PARTNER_REF_BATCH) await flush();
  }
  await flush();
}
