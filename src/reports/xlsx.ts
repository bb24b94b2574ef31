import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import { wallOffsetMs } from "../calendar.js";
import { costFrom, MAIN_PROVIDER, paidFromSaldo } from "../orders/order.js";
import type { OrderLine } from "../orders/order-line.js";
import { CSV_HEADER, providerPriceFrom } from "./csv.js";

/** The rupiah columns: numbers, shown `12,345`. */
const MONEY = new Set<string>(["price", "price_paid", "provider_price", "last_balance"]);

/** Column widths (characters) a phone's and a desk's spreadsheet open with; the others are 14. */
const WIDTHS: Partial<Record<(typeof CSV_HEADER)[number], number>> = {
  submitted_at: 19,
  ref_id: 24,
  user_name: 18,
  product_name: 22,
  player_id: 18,
  player_name: 18,
  sn: 26,
  trx_id: 18,
  error_msg: 30,
  partner_ref_id: 22,
};

/**
 * The orders of a day or a month as an Excel workbook (exceljs, streamed): the CSV's columns, one
 * sheet, its header frozen with filters; times as real dates in the shop's time zone (Excel has no
 * zones: the wall clock is written), rupiah as numbers, and every id and SN as text, so that no
 * 16-digit SN is rounded and no leading zero lost. Strings are never formulas in a workbook: a
 * player's name that starts with `=` stays text.
 *
 * `add` takes the orders as they are read; `end` finishes the file. The bytes come out of `file`
 * as they are written, so a month of orders is never kept whole.
 */
export function ordersXlsx(timeZone: string) {
  const file = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: file, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet("orders", { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = CSV_HEADER.map((key) => ({
    header: key,
    key,
    width: WIDTHS[key] ?? (MONEY.has(key) ? 13 : 14),
    ...(key === "submitted_at"
      ? { style: { numFmt: "yyyy-mm-dd hh:mm:ss" } }
      : MONEY.has(key)
        ? { style: { numFmt: "#,##0" } }
        : {}),
  }));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: CSV_HEADER.length } };
  sheet.getRow(1).font = { bold: true };
  let rows = 0;
  return {
    file: file as AsyncIterable<Buffer>,
    /** Adds an order's row (none for a draft or a cancelled order). */
    add(o: OrderLine): void {
      if (o.state === "draft" || o.state === "cancelled") return;
      const success = o.state === "success";
      const wall = new Date(o.submittedMs + wallOffsetMs(timeZone, o.submittedMs));
      sheet
        .addRow([
          wall,
          o.refId,
          o.state,
          String(o.userId),
          o.userName,
          o.productCode,
          o.productName,
          o.playerId,
          o.destinationName,
          o.role ?? "staff",
          o.tier,
          o.price ?? undefined,
          paidFromSaldo(o) && success ? (o.price ?? undefined) : undefined,
          success ? costFrom(o.priceRp, o.providerPrice) : costFrom(o.priceRp, undefined),
          o.sn,
          o.trxId,
          o.lastBalance,
          o.errorCode,
          o.errorMsg,
          providerPriceFrom(o),
          o.provider ?? MAIN_PROVIDER,
          o.refusedBy?.replaceAll(",", " "),
          o.partnerRef,
        ])
        .commit();
      rows += 1;
    },
    get rows() {
      return rows;
    },
    /** Writes the end of the workbook; `file` ends after it. */
    end: () => book.commit(),
  };
}

/** All of an async file's bytes (a day's workbook is small: a few hundred kB at most). */
export async function bytesOf(file: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk);
  return Buffer.concat(chunks);
}
