import ExcelJS from "exceljs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAccess } from "../../src/access/access.js";
import { createPeople } from "../../src/access/people.js";
import { createUserList } from "../../src/access/user-list.js";
import { createDepositRequestStore } from "../../src/deposits/request-store.js";
import { createLedger } from "../../src/ledger/create-ledger.js";
import { createReports, type Reports } from "../../src/reports/reports.js";
import { writePastOrder } from "../helpers/ledger-history.js";
import { redisStorage } from "../helpers/redis.js";
import { draft, TEST_CATALOG } from "../orders/fixtures.js";

const TZ = "Asia/Jakarta";
const NOW = new Date("2026-03-12T08:00:00Z");
const SN = "4101591234567890";

/** The rows of a CSV as a spreadsheet splits them (quotes read, `="…"` kept as written). */
function rowsOf(csv: string): string[][] {
  const rows: string[][] = [];
  for (const line of csv.split("\r\n").filter((l) => l !== "")) {
    const cells: string[] = [];
    let i = 0;
    while (i <= line.length) {
      if (line[i] === '"') {
        let value = "";
        i++;
        for (;;) {
          const q = line.indexOf('"', i);
          if (line[q + 1] === '"') {
            value += line.slice(i, q + 1);
            i = q + 2;
          } else {
            value += line.slice(i, q);
            i = q + 2;
            break;
          }
        }
        cells.push(value);
      } else {
        const comma = line.indexOf(",", i);
        const end = comma === -1 ? line.length : comma;
        cells.push(line.slice(i, end));
        i = end + 1;
      }
    }
    rows.push(cells);
  }
  return rows;
}

describe("the orders' spreadsheets: CSV with a BOM and ids as text, and .xlsx with typed cells", () => {
  let cleanup: () => Promise<void>;
  let reports: Reports;

  beforeEach(async () => {
    let storage;
    ({ storage, cleanup } = await redisStorage("spreadsheets"));
    const ledger = createLedger(storage, { timeZone: TZ });
    reports = createReports({
      ledger: ledger.orders,
      partnerUsers: async () => [],
      wallets: ledger.wallets,
      requests: createDepositRequestStore(storage),
      access: createAccess({
        users: createUserList(storage),
        adminIds: [1],
        allowedUserIds: [],
        resellerIds: [],
        now: () => NOW,
      }),
      people: createPeople(storage),
      shop: { state: async () => ({ catalog: TEST_CATALOG }) as never, catalog: async () => TEST_CATALOG },
      timeZone: TZ,
      refIdPrefix: "TG",
      now: () => NOW,
    });
    const at = "2026-03-12T07:30:15Z";
    await writePastOrder(ledger.orders, {
      draft: draft({ playerId: "0012345678", userName: '=HYPERLINK("http://x")', price: 19800, createdAt: at }),
      submittedAt: at,
      outcome: {
        state: "success",
        at,
        result: { sn: SN, trxId: "9988776655443322", destinationName: "Ayu", lastBalance: 1_234_567 },
      },
    });
  });
  afterEach(() => cleanup());

  it("when a day's CSV is made, then it starts with a BOM and a 16-digit SN, a trx id and a player id with a leading zero stay text", async () => {
    const csv = (await reports.dayCsv("2026-03-12"))!;
    expect(csv.csv.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const [header, row] = rowsOf(csv.csv.toString("utf8").slice(1));
    const at = (name: string) => row![header!.indexOf(name)];
    expect(at("sn")).toBe(`="${SN}"`);
    expect(at("trx_id")).toBe('="9988776655443322"');
    expect(at("player_id")).toBe('="0012345678"');
    // Rupiah stay numbers; a name that would be a formula is neutralised.
    expect(at("price")).toBe("19800");
    expect(at("last_balance")).toBe("1234567");
    expect(at("user_name")).toBe(`'=HYPERLINK("http://x")`);
    expect(at("submitted_at")).toBe("2026-03-12 14:30:15");
  });

  it("when a day's .xlsx is made, then the SN is a text cell, rupiah are numbers and the time is a date in the shop's zone", async () => {
    const made = (await reports.dayXlsx("2026-03-12"))!;
    expect(made.count).toBe(1);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(made.xlsx as unknown as ArrayBuffer);
    const sheet = book.getWorksheet("orders")!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    const cell = (name: string) => sheet.getRow(2).getCell(header.indexOf(name) + 1);
    expect(cell("sn").value).toBe(SN);
    expect(cell("sn").type).toBe(ExcelJS.ValueType.String);
    expect(cell("player_id").value).toBe("0012345678");
    expect(cell("ref_id").type).toBe(ExcelJS.ValueType.String);
    expect(cell("price").value).toBe(19800);
    expect(cell("price").numFmt).toBe("#,##0");
    expect(cell("last_balance").value).toBe(1_234_567);
    expect(cell("submitted_at").value).toEqual(new Date("2026-03-12T14:30:15Z"));
    expect(cell("user_name").type).toBe(ExcelJS.ValueType.String);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
  });

  it("when a month is exported as .xlsx, then it is one workbook of that month's orders", async () => {
    const file = await reports.monthXlsx("2026-03");
    if (file.kind !== "file") throw new Error(file.kind);
    expect(file.filename).toBe("orders-2026-03.xlsx");
    const parts: Buffer[] = [];
    for await (const part of file.content()) parts.push(Buffer.from(part));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.concat(parts) as unknown as ArrayBuffer);
    expect(book.getWorksheet("orders")!.rowCount).toBe(2);
  });
});
