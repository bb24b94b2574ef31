import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { OrderLedger } from "../../src/orders/ledger.js";
import { exportMonth, GZIP_OVER } from "../../src/reports/export.js";
import type { DayFigures } from "../../src/orders/day-figures.js";

/** A month big enough to go out gzipped, whose orders are read as `read` says, day by day. */
function bigMonth(read: (day: number) => Promise<never[]>) {
  let day = 0;
  const orders: Pick<OrderLedger, "eachSubmittedLine" | "daysFigures" | "partnerRefOf"> = {
    partnerRefOf: async () => undefined,
    daysFigures: async (days) => days.map(() => ({ total: Math.ceil((GZIP_OVER + 1) / days.length) }) as DayFigures),
    eachSubmittedLine: async (_from, _to, each) => {
      for (const line of await read(++day)) each(line);
    },
  };
  return exportMonth({ orders, timeZone: "Asia/Jakarta" }, "2026-03");
}

async function readAll(content: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of content) parts.push(part);
  return Buffer.concat(parts);
}

describe("exportMonth", () => {
  it("when a large month is sent, then it is a gzipped CSV that starts with the header", async () => {
    const file = await bigMonth(async () => []);
    if (file.kind !== "file") throw new Error(`expected a file, got ${file.kind}`);
    expect(file.gzip).toBe(true);
    expect(file.filename).toBe("orders-2026-03.csv.gz");
    expect(gunzipSync(await readAll(file.content())).toString("utf8")).toMatch(/^[^\r\n]*ref/i);
  });

  it("when reading the orders fails in the middle of a gzipped month, then the upload fails with that error and the process goes on", async () => {
    const file = await bigMonth(async (day) => {
      if (day === 3) throw new Error("Redis is gone");
      return [];
    });
    if (file.kind !== "file") throw new Error(`expected a file, got ${file.kind}`);
    await expect(readAll(file.content())).rejects.toThrow("Redis is gone");
  });
});
