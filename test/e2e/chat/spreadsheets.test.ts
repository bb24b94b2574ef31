import ExcelJS from "exceljs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, button, STAFF, staffWorld, type World } from "../world.js";

/** The first sheet of a workbook the bot sent, as header names and rows of cells. */
async function sheetOf(bytes: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
  return { sheet, at: (row: number, name: string) => sheet.getRow(row).getCell(header.indexOf(name) + 1) };
}

describe("exports that open right in a spreadsheet", () => {
  let world: World;
  beforeEach(async () => {
    world = await staffWorld({ initialBalance: 1_000_000 });
  });
  afterEach(() => world.cleanup());

  it("when an admin exports the month, then the CSV starts with a BOM, its SN stays text, and its Excel button sends a workbook of typed cells", async () => {
    await world.run();
    const result = await world.order(STAFF, "ML86", "12345678(1234)");
    const sn = /SN: <code>([^<]+)<\/code>/.exec(result.text)![1]!;

    world.fake.sendText(ADMIN, "/export");
    const csv = await world.fake.waitForMessage(ADMIN.id, (m) => m.document?.filename.endsWith(".csv") === true);
    expect(csv.document!.bytes!.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(csv.document!.content).toContain(`"=""${sn}"""`);

    world.fake.tapButton(ADMIN, csv, button(csv, /^ex:/));
    const xlsx = await world.fake.waitForMessage(ADMIN.id, (m) => m.document?.filename.endsWith(".xlsx") === true);
    const { sheet, at } = await sheetOf(xlsx.document!.bytes!);
    expect(sheet.rowCount).toBe(2);
    expect(at(2, "sn").value).toBe(sn);
    expect(at(2, "player_id").value).toBe("12345678(1234)");
    expect(typeof at(2, "price").value).toBe("number");
    expect(at(2, "submitted_at").value).toBeInstanceOf(Date);

    // `/export xlsx` sends the workbook at once.
    world.fake.sendText(ADMIN, "/export xlsx");
    await world.fake.waitFor(
      () => world.fake.messagesTo(ADMIN.id).filter((m) => m.document?.filename.endsWith(".xlsx") === true).length === 2,
    );
  });

  it("when an admin taps Excel under a day's report, then the day's orders come as a workbook", async () => {
    await world.run();
    await world.order(STAFF, "FF70", "123456789");
    world.fake.sendText(ADMIN, "/report");
    const report = await world.fake.waitForMessage(ADMIN.id, (m) =>
      JSON.stringify(m.reply_markup ?? {}).includes("rx:"),
    );
    world.fake.tapButton(ADMIN, report, button(report, /^rx:/));
    const xlsx = await world.fake.waitForMessage(ADMIN.id, (m) => m.document?.filename.endsWith(".xlsx") === true);
    const { sheet, at } = await sheetOf(xlsx.document!.bytes!);
    expect(sheet.rowCount).toBe(2);
    expect(at(2, "player_id").value).toBe("123456789");
    expect(at(2, "product_code").value).toBe("FF70");
  });
});
