import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { receiptPng, RECEIPT_WIDTH, type ReceiptPicture } from "../../src/pictures/receipt-picture.js";

const RECEIPT: ReceiptPicture = {
  shop: "Toko Berkah",
  title: "Top-up receipt",
  status: "SUCCESSFUL",
  time: "Nov 28, 2026, 14:05 GMT+7",
  rows: [
    { label: "Game", value: "Mobile Legends" },
    { label: "Product", value: "ML86 · 86 Diamonds" },
    { label: "Player ID", value: "12345678(1234)" },
    { label: "Player name", value: "Ayu#2722" },
  ],
  snLabel: "SN (serial number)",
  sn: "4101591234567890",
  refLabel: "Ref ID",
  refId: "TG1M8JB4T3VPATMZ0HRZH",
  thanks: "Thank you for your purchase!",
};

/** The share of pixels in a band of rows that are not the paper's white. */
function inked(png: PNG, fromY: number, toY: number): number {
  let dark = 0;
  for (let y = fromY; y < toY; y++)
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      if (png.data[i]! < 200 || png.data[i + 1]! < 200 || png.data[i + 2]! < 200) dark++;
    }
  return dark / ((toY - fromY) * png.width);
}

describe("the receipt as a picture", () => {
  it("when a receipt is drawn, then it is a PNG twice the phone's width, and the SN's box holds dark large letters", async () => {
    const png = PNG.sync.read(await receiptPng(RECEIPT));
    expect(png.width).toBe(RECEIPT_WIDTH * 2);
    expect(png.height).toBeGreaterThan(1000);
    expect(png.height).toBeLessThan(2000);
    // The band at the top is the shop's colour; the body has text; nothing is blank.
    expect(inked(png, 0, 150)).toBeGreaterThan(0.9);
    expect(inked(png, 200, png.height)).toBeGreaterThan(0.03);
    // Not the same picture whatever the SN: a different SN draws different pixels.
    const other = PNG.sync.read(await receiptPng({ ...RECEIPT, sn: "9999999999999999" }));
    expect(Buffer.compare(other.data, png.data)).not.toBe(0);
  });

  it("when the SN is 100 characters and the name long with letters beyond Latin, then it still draws, taller and as wide", async () => {
    const short = PNG.sync.read(await receiptPng(RECEIPT));
    const long = PNG.sync.read(
      await receiptPng({
        ...RECEIPT,
        sn: "SN-".padEnd(100, "ABCDEF0123456789"),
        rows: [...RECEIPT.rows.slice(0, 3), { label: "Player name", value: "Ğülşen Öztürk ".repeat(4) + "ツ😀" }],
      }),
    );
    expect(long.width).toBe(short.width);
    expect(long.height).toBeGreaterThan(short.height);
    // Below the shop's band, no ink at the right edge: the long values wrapped inside the picture.
    let edge = 0;
    for (let y = 250; y < long.height; y++) {
      const i = (y * long.width + long.width - 2) * 4;
      if (long.data[i]! < 100 && long.data[i + 1]! < 100) edge++;
    }
    expect(edge).toBe(0);
  });
});

describe("the receipt picture in the README", () => {
  it("when the screenshots are updated, then docs/img/receipt.png is the receipt as drawn now", async () => {
    const png = await receiptPng(RECEIPT);
    // Written only when asked (UPDATE_SCREENSHOTS=1), as the page's screenshots are.
    if (process.env.UPDATE_SCREENSHOTS === "1") {
      const { writeFileSync } = await import("node:fs");
      writeFileSync(new URL("../../docs/img/receipt.png", import.meta.url), png);
    }
    expect(PNG.sync.read(png).width).toBe(960);
  });
});
