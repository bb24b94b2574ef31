import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import satori from "satori";

/**
 * Pictures the bot sends (the customer's receipt, the evening recap): a tree of boxes laid out as
 * CSS flexbox by satori, which writes an SVG with every letter drawn as a path from the fonts
 * bundled here, then turned into a PNG by resvg. No system font, no browser: the same picture on
 * every machine and in Docker.
 */

/** A box of the picture: a tag (`div`, `span`, `img`), its style and what it holds. */
export interface Box {
  type: string;
  props: { style?: Style; children?: Child[] | Child; [attribute: string]: unknown };
}
export type Child = Box | string | false | null | undefined;
/** CSS properties as satori reads them (camelCase: `fontSize`, `backgroundColor`, …). */
export type Style = Record<string, string | number>;

/** A box with a style and what it holds (falsy children are left out). */
export function box(style: Style, ...children: Child[]): Box {
  return { type: "div", props: { style: { display: "flex", ...style }, children: children.filter(isShown) } };
}

/** A line of text in a style (text never wraps inside a `span` unless its box is narrower). */
export function text(style: Style, value: string): Box {
  return { type: "div", props: { style: { display: "flex", ...style }, children: value } };
}

function isShown(child: Child): child is Box | string {
  return child !== false && child !== null && child !== undefined && child !== "";
}

/** The font families a picture may name in `fontFamily`. */
export const SANS = "Inter";
export const MONO = "Roboto Mono";

interface FontFile {
  name: string;
  data: Buffer;
  weight: 400 | 700;
  style: "normal";
}

let fonts: FontFile[] | undefined;

/**
 * Inter (text) and Roboto Mono (serial numbers, ids) from @fontsource's packages, Latin and
 * Latin Extended, regular and bold; read once, on the first picture.
 */
function loadFonts(): FontFile[] {
  if (fonts !== undefined) return fonts;
  const require = createRequire(import.meta.url);
  const read = (pkg: string, file: string) => readFileSync(require.resolve(`${pkg}/files/${file}`));
  const loaded: FontFile[] = [];
  for (const [name, pkg, prefix] of [
    [SANS, "@fontsource/inter", "inter"],
    [MONO, "@fontsource/roboto-mono", "roboto-mono"],
  ] as const) {
    for (const weight of [400, 700] as const)
      for (const subset of ["latin", "latin-ext"])
        loaded.push({ name, weight, style: "normal", data: read(pkg, `${prefix}-${subset}-${weight}-normal.woff`) });
  }
  fonts = loaded;
  return loaded;
}

/**
 * Draws `root` at `width` × `height` CSS pixels into a PNG, `scale` times as many pixels each way
 * (2: sharp on a phone and after WhatsApp's recompression).
 */
export async function drawPng(root: Box, size: { width: number; height: number; scale?: number }): Promise<Buffer> {
  const svg = await satori(root, {
    width: size.width,
    height: size.height,
    fonts: loadFonts(),
  });
  const scale = size.scale ?? 2;
  return new Resvg(svg, { fitTo: { mode: "width", value: Math.round(size.width * scale) } }).render().asPng();
}
