import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { encodePng } from "../../src/pictures/png.js";

describe("the PNG encoder", () => {
  it("when pixels are encoded, then a PNG decoder reads back exactly those pixels", async () => {
    const [width, height] = [37, 23];
    const pixels = Buffer.alloc(width * height * 4);
    for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919) % 256;
    const png = PNG.sync.read(await encodePng(pixels, width, height));
    expect([png.width, png.height]).toEqual([width, height]);
    expect(Buffer.compare(Buffer.from(png.data), pixels)).toBe(0);
  });

  it("when the pixels do not fill the size given, then it refuses", async () => {
    await expect(encodePng(Buffer.alloc(10), 3, 3)).rejects.toThrow(/10 bytes for 3 × 3/);
  });
});
