import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Text becomes an amount in one place, src/amounts.ts, in the chat and on the page alike. Dropping
 * the characters that are not digits reads the bank's `100.137,00` as 10,013,700 and `Rp 50.000,00`
 * as 5,000,000; this keeps that way of reading from coming back anywhere under src/.
 */
const SRC = fileURLToPath(new URL("../src", import.meta.url));

/** Ways of keeping only the digits of a text: `.replace(/[^0-9]/g, "")`, `.replace(/\D/g, "")`, `.match(/\d+/g).join("")`. */
const DIGITS_ONLY = [
  /\.replace(?:All)?\(\s*\/\[\^(?:0-9|\\d)\]/,
  /\.replace(?:All)?\(\s*\/\\D/,
  /\.match\(\s*\/(?:\\d|\[0-9\])\+?\/g\s*\)[^;\n]*\.join\(/,
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(?:ts|tsx|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Each line of `text` that keeps only digits, as `file:line: code`. */
function strippers(file: string, text: string): string[] {
  return text
    .split("\n")
    .flatMap((line, i) =>
      DIGITS_ONLY.some((pattern) => pattern.test(line)) ? [`${relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [],
    );
}

describe("one amount reader", () => {
  it("when any file under src/ reads an amount, then it does not do so by dropping what is not a digit", () => {
    // The check finds each way it looks for, and leaves a separator's removal alone.
    for (const line of [
      'Number(amount.replace(/[^0-9]/g, ""))',
      'Number(how.value.replaceAll(/[^\\d]/g, ""))',
      'Number(x.replace(/\\D+/g, ""))',
      'Number(text.match(/\\d+/g)?.join(""))',
    ])
      expect(strippers(join(SRC, "x.ts"), line)).toHaveLength(1);
    expect(strippers(join(SRC, "x.ts"), 'number.replace(/[.,]/g, "")')).toEqual([]);

    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((file) => strippers(file, readFileSync(file, "utf8")))).toEqual([]);
  });
});
