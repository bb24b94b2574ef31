import { pipeline } from "node:stream";
import type { PassThrough } from "node:stream";
import { createGzip } from "node:zlib";
import type { OrderLedger } from "../orders/ledger.js";
import { dayRange, monthDays } from "../calendar.js";
import { CSV_BOM, CSV_HEADER, csvFile, eachLineWithPartnerRef } from "./csv.js";
import { ordersXlsx } from "./xlsx.js";

/** A month with more orders than this goes out gzipped (a CSV row is about 200 bytes: ~1 MB and up). */
export const GZIP_OVER = 5_000;
/**
 * The most orders one export sends: gzipped, about 40 bytes a row, within the 50 MB Telegram takes
 * from a bot (a month beyond it would need 30,000 orders a day; the day CSVs of /report still work).
 */
const MAX_EXPORT_ORDERS = 1_000_000;

export type MonthExport =
  | { kind: "bad-month" }
  | { kind: "empty"; month: string }
  | { kind: "too-many"; month: string; count: number }
  | {
      kind: "file";
      month: string;
      count: number;
      gzip: boolean;
      filename: string;
      /** The file, made afresh at each call (a retried upload reads it again), a day at a time. */
      content: () => AsyncIterable<Uint8Array>;
    };

type ExportDeps = {
  orders: Pick<OrderLedger, "eachSubmittedLine" | "daysFigures" | "partnerRefOf">;
  timeZone: string;
};

/**
 * A month's days and how many orders they hold (from the day figures: nothing read), or why no
 * file of at most `max` orders can be made of it.
 */
async function monthToExport(
  deps: ExportDeps,
  month: string,
  max: number,
): Promise<{ days: string[]; count: number } | Exclude<MonthExport, { kind: "file" }>> {
  const days = monthDays(month);
  if (days === undefined) return { kind: "bad-month" };
  const count = (await deps.orders.daysFigures(days)).reduce((sum, f) => sum + f.total, 0);
  if (count === 0) return { kind: "empty", month };
  if (count > max) return { kind: "too-many", month, count };
  return { days, count };
}

/**
 * A month's orders (submitted that month in the shop's time zone) as the CSV of /report's days,
 * one after the other: counted from the day figures first (nothing read), then written a day at a
 * time as the upload reads it, so a month of 100,000 orders never sits in memory whole.
 */
export async function exportMonth(deps: ExportDeps, month: string): Promise<MonthExport> {
  const found = await monthToExport(deps, month, MAX_EXPORT_ORDERS);
  if ("kind" in found) return found;
  const { days, count } = found;
  const gzip = count > GZIP_OVER;
  async function* csv(): AsyncIterable<Buffer> {
    yield Buffer.from(`${CSV_BOM}${CSV_HEADER.join(",")}\r\n`, "utf8");
    for (const day of days) {
      const range = dayRange(day, deps.timeZone)!;
      const file = csvFile(deps.timeZone, { header: false });
      await eachLineWithPartnerRef(deps.orders, range.fromMs, range.toMs, (line) => file.add(line));
      if (file.rows > 0) yield file.bytes();
    }
  }
  return {
    kind: "file",
    month,
    count,
    gzip,
    filename: `orders-${month}.csv${gzip ? ".gz" : ""}`,
    content: () => (gzip ? gzipped(csv()) : csv()),
  };
}

/**
 * The most orders one .xlsx export holds: a workbook is written row by row but costs far more CPU
 * than a CSV row; a month beyond it is sent as CSV (which any spreadsheet opens too).
 */
export const MAX_XLSX_ORDERS = 200_000;

/**
 * A month's orders as an Excel workbook (the same columns as the CSV, typed: dates, rupiah as
 * numbers, ids and SNs as text), written a day at a time as the upload reads it.
 */
export async function exportMonthXlsx(deps: ExportDeps, month: string): Promise<MonthExport> {
  const found = await monthToExport(deps, month, MAX_XLSX_ORDERS);
  if ("kind" in found) return found;
  const { days, count } = found;
  const content = () => {
    const book = ordersXlsx(deps.timeZone);
    // Written while the upload reads the file; a failed read ends the file with that error.
    void (async () => {
      for (const day of days) {
        const range = dayRange(day, deps.timeZone)!;
        await eachLineWithPartnerRef(deps.orders, range.fromMs, range.toMs, (line) => book.add(line));
      }
      await book.end();
    })().catch((err: unknown) => (book.file as unknown as PassThrough).destroy(err as Error));
    return book.file;
  };
  return { kind: "file", month, count, gzip: false, filename: `orders-${month}.xlsx`, content };
}

/**
 * The file gzipped as it is read. A read that fails (Redis gone in the middle of a month) fails
 * the gzip stream too, so the upload ends with that error (`.pipe` would leave it unhandled on the
 * source: a crash of the process).
 */
function gzipped(source: AsyncIterable<Buffer>): AsyncIterable<Uint8Array> {
  const gz = createGzip();
  // The error reaches whoever reads gz; nothing more to do with it here.
  pipeline(source, gz, () => undefined);
  return gz;
}
