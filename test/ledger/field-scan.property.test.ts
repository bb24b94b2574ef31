import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldScanner } from "../../src/ledger/field-scan.js";

describe("the field scanner", () => {
  it("when a text's part is scanned, then its fields are what splitting that part gives, or it says there are too many", () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.constantFrom("a", "\t", "\n", "bc", "\x01", "", "é", "🌸"), { maxLength: 60 })
          .map((p) => p.join("")),
        fc.nat(),
        fc.nat(),
        fc.constantFrom("\t", "\x01"),
        fc.integer({ min: 1, max: 24 }),
        (text, a, b, separator, max) => {
          const from = text.length === 0 ? 0 : a % (text.length + 1);
          const to = from + (text.length === 0 ? 0 : b % (text.length - from + 1));
          const expected = text.slice(from, to).split(separator);
          const scanner = fieldScanner(max);
          const whole = scanner.scan(text, from, to, separator);
          expect(whole).toBe(expected.length <= max);
          if (!whole) return;
          expect(scanner.count).toBe(expected.length);
          for (let i = 0; i < expected.length + 2; i++) {
            expect(scanner.field(i)).toBe(expected[i] ?? "");
            expect(scanner.at(i)).toBe(expected[i]);
            expect(scanner.blank(i)).toBe((expected[i] ?? "") === "");
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
