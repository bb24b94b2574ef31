import { dayIn, dayPlus, dayRange, monthBefore } from "../../src/calendar.js";
import { describe, expect, it } from "vitest";
import type { OrderRecord } from "../../src/orders/order.js";
import { orderLine } from "../../src/orders/order-line.js";
import { sumOrders } from "../helpers/day-sums.js";
import { CSV_HEADER, csvFile } from "../../src/reports/csv.js";

const order = (over: Partial<OrderRecord>): OrderRecord => ({
  refId: "TG1",
  chatId: 1,
  userId: 1,
  userName: "Sari",
  lang: "en",
  gameName: "ML",
  productCode: "ML86",
  productName: "86 Diamonds",
  price: 20000,
  playerId: "1",
  state: "success",
  createdAt: "2026-11-23T03:00:00.000Z",
  submittedAt: "2026-11-23T03:00:01.000Z",
  result: {
    productDetail: { name: "86", code: "ML86", price: 19500, rate: 1, priceRp: 19500, status: "SUKSES" },
    sn: "1",
  },
  ...over,
});

describe("reports", () => {
  it("when a day is asked for in Jakarta, then it runs from 17:00 UTC the day before", () => {
    const range = dayRange("2026-11-23", "Asia/Jakarta")!;
    expect(new Date(range.fromMs).toISOString()).toBe("2026-11-22T17:00:00.000Z");
    expect(new Date(range.toMs).toISOString()).toBe("2026-11-23T16:59:59.999Z");
    expect(dayIn("Asia/Jakarta", new Date("2026-11-23T17:30:00Z"))).toBe("2026-11-24");
  });

  it("when the day before or after is asked for, then it crosses months, years and 29 February as a calendar does", () => {
    expect(dayPlus("2026-03-01", -1)).toBe("2026-02-28");
    expect(dayPlus("2028-02-28", 1)).toBe("2028-02-29");
    expect(dayPlus("2026-12-31", 1)).toBe("2027-01-01");
    expect(dayPlus("2027-01-01", -1)).toBe("2026-12-31");
    expect(monthBefore("2026-03")).toBe("2026-02");
    expect(monthBefore("2026-01")).toBe("2025-12");
  });

  it("when the date does not exist or is not a date, then there is no range", () => {
    expect(dayRange("2026-02-30", "Asia/Jakarta")).toBeUndefined();
    expect(dayRange("23-11-2026", "Asia/Jakarta")).toBeUndefined();
  });

  it("when a day crosses a daylight-saving change, then it is 23 hours long", () => {
    const range = dayRange("2026-03-29", "Europe/Berlin")!;
    expect(range.toMs - range.fromMs + 1).toBe(23 * 3600 * 1000);
  });

  it("when orders end differently, then only successes count as money and every outcome is counted", () => {
    const report = sumOrders([
      order({ refId: "A" }),
      order({
        refId: "B",
        userId: 2,
        userName: "Budi",
        productCode: "FF70",
        productName: "70",
        price: 10000,
        result: { productDetail: { name: "70", code: "FF70", price: 9500, rate: 1, priceRp: 9500, status: "SUKSES" } },
      }),
      order({ refId: "C", state: "failed", result: { errorCode: "x" } }),
      order({ refId: "D", state: "unknown", result: { reason: "timeout" } }),
      order({ refId: "E", state: "submitting" }),
      order({ refId: "F", state: "cancelled" }),
    ]);
    expect(report.total).toBe(5);
    expect(report.byState).toEqual({ success: 2, failed: 1, unknown: 1, submitting: 1 });
    expect([report.selling, report.provider]).toEqual([30000, 29000]);
    expect(report.byProduct.map((l) => [l.name, l.count, l.selling, l.provider])).toEqual([
      ["ML86 · 86 Diamonds", 1, 20000, 19500],
      ["FF70 · 70", 1, 10000, 9500],
    ]);
    expect(report.byUser.map((l) => l.name)).toEqual(["Sari (1)", "Budi (2)"]);
  });

  it("when a user changed their name during the day, then the report names them as they are called now", () => {
    const report = sumOrders([
      order({ refId: "A", userName: "Sari", submittedAt: "2026-11-23T03:00:01.000Z" }),
      order({ refId: "B", userName: "Sari Dewi", submittedAt: "2026-11-23T05:00:01.000Z" }),
    ]);
    expect(report.byUser.map((l) => [l.name, l.count])).toEqual([["Sari Dewi (1)", 2]]);
  });

  it("when the CSV is built, then it has the header, one row per order, quoting, and no spreadsheet formulas", () => {
    const file = csvFile("Asia/Jakarta", { header: true });
    for (const o of [
      order({ userName: 'Sari "the boss", Jr.', playerId: "=HYPERLINK(1)" }),
      order({ refId: "G", state: "cancelled" }),
    ])
      file.add(orderLine(o));
    const csv = file.bytes().toString("utf8");
    const rows = csv.trimEnd().split("\r\n");
    // The byte order mark first: Excel then reads the file as UTF-8.
    expect(rows[0]).toBe(`\uFEFF${CSV_HEADER.join(",")}`);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('"Sari ""the boss"", Jr."');
    expect(rows[1]).toContain("'=HYPERLINK(1)");
    expect(rows[1]!.startsWith("2026-11-23 10:00:01,TG1,success,1,")).toBe(true);
  });
});
