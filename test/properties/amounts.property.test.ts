import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAmount, readAmount, type AmountRefusal } from "../../src/amounts.js";
import { formatRupiah } from "../../src/bot/format.js";
import { signed } from "../../src/bot/saldo-view.js";

const REFUSALS = new Set<AmountRefusal>(["empty", "invalid", "ambiguous", "zero", "negative", "too-large"]);
const MAX = 1_000_000_000;

/** Thousands grouped with `sep`: 1500000 → `1.500.000`. */
const grouped = (n: number, sep: string) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, sep);

/** Strings made of what amounts are made of, in any order: digits, separators, spaces, Rp, multipliers, signs. */
const amountish = fc
  .array(
    fc.constantFrom(
      ..."0123456789".split(""),
      ".",
      ",",
      " ",
      "\u00a0",
      "Rp",
      "rp.",
      "IDR",
      "rb",
      "ribu",
      "k",
      "K",
      "jt",
      "juta",
      "an",
      "-",
      "+",
      "\u2212",
      ",-",
      "00",
      "000",
      "e",
      "５",
      "٠",
      "transfer BCA",
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(""));

/**
 * A whole amount and one way of typing it that must be read back as that amount: plain digits,
 * dots or commas as thousands, an Rp or IDR prefix, zero cents, `rb`/`ribu`/`k` when it is whole
 * thousands (with one decimal when whole hundreds), `jt`/`juta` when whole millions (with one or
 * two decimals when whole hundred or ten thousands), and the bot's own formatRupiah.
 */
const typedAmount: fc.Arbitrary<{ amount: number; typed: string }> = fc
  .oneof(
    fc.integer({ min: 1, max: MAX }),
    fc.integer({ min: 1, max: 10_000 }).map((n) => n * 1_000),
    fc.integer({ min: 1, max: 1_000 }).map((n) => n * 100_000),
  )
  .chain((amount) => {
    const sep = fc.constantFrom(".", ",");
    const space = fc.constantFrom("", " ");
    const forms: Array<fc.Arbitrary<string>> = [
      fc.constant(String(amount)),
      fc.constantFrom("en" as const, "id" as const).map((lang) => formatRupiah(amount, lang)),
      fc
        .tuple(fc.constantFrom("Rp", "Rp ", "rp", "RP", "Rp.", "Rp. ", "IDR", "IDR "), sep)
        .map(([prefix, s]) => `${prefix}${grouped(amount, s)}`),
    ];
    if (amount >= 1_000) {
      forms.push(sep.map((s) => grouped(amount, s)));
      forms.push(sep.map((s) => `Rp ${grouped(amount, s)}${s === "." ? ",00" : ".00"}`));
      forms.push(sep.map((s) => `Rp ${grouped(amount, s)},-`));
    }
    const word = (words: string[]) => fc.constantFrom(...words.flatMap((w) => [w, w.toUpperCase()]));
    const thousands = ["rb", "ribu", "k"];
    const millions = ["jt", "juta"];
    if (amount % 1_000 === 0) forms.push(fc.tuple(space, word(thousands)).map(([s, w]) => `${amount / 1_000}${s}${w}`));
    if (amount % 100 === 0 && amount % 1_000 !== 0)
      forms.push(
        fc
          .tuple(sep, space, word(thousands))
          .map(([d, s, w]) => `${Math.floor(amount / 1_000)}${d}${(amount % 1_000) / 100}${s}${w}`),
      );
    if (amount % 1_000_000 === 0)
      forms.push(fc.tuple(space, word(millions)).map(([s, w]) => `${amount / 1_000_000}${s}${w}`));
    if (amount % 100_000 === 0 && amount % 1_000_000 !== 0)
      forms.push(
        fc
          .tuple(sep, space, word(millions))
          .map(([d, s, w]) => `${Math.floor(amount / 1_000_000)}${d}${(amount % 1_000_000) / 100_000}${s}${w}`),
      );
    if (amount % 10_000 === 0 && amount % 100_000 !== 0)
      forms.push(
        fc
          .tuple(sep, space, word(millions))
          .map(
            ([d, s, w]) =>
              `${Math.floor(amount / 1_000_000)}${d}${String((amount % 1_000_000) / 10_000).padStart(2, "0")}${s}${w}`,
          ),
      );
    return fc.oneof(...forms).map((typed) => ({ amount, typed }));
  });

describe("amounts: whatever is typed, an amount or a reason", () => {
  it("when anything at all is typed, then it is whole rupiah in range, or a refusal, never an exception", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), amountish), fc.boolean(), (text, withSign) => {
        const read = readAmount(text, { signed: withSign, max: MAX });
        if (read.ok) {
          expect(Number.isSafeInteger(read.amount)).toBe(true);
          expect(read.amount).not.toBe(0);
          expect(Math.abs(read.amount)).toBeLessThanOrEqual(MAX);
          if (!withSign) expect(read.amount).toBeGreaterThan(0);
          // What follows the amount (a note, a tier) is a word of its own.
          expect(read.consumed).toBeGreaterThan(0);
          expect(text.slice(read.consumed)).toMatch(/^(?:\s[\s\S]*)?$/);
        } else {
          expect(REFUSALS.has(read.why)).toBe(true);
          expect(text).toContain(read.typed);
        }
        const whole = parseAmount(text, { signed: withSign, max: MAX });
        if (whole.ok) expect(read).toMatchObject({ ok: true, amount: whole.amount });
      }),
      { numRuns: 5000 },
    );
  });

  it("when an accepted amount is shown back the way the bot shows it, then typing that reads the same amount", () => {
    fc.assert(
      fc.property(amountish, fc.constantFrom("en" as const, "id" as const), (text, lang) => {
        const read = parseAmount(text, { signed: true });
        if (!read.ok) return;
        expect(parseAmount(formatRupiah(read.amount, lang), { signed: true })).toEqual(read);
        expect(parseAmount(signed(read.amount, lang), { signed: true })).toEqual(read);
      }),
      { numRuns: 5000 },
    );
  });

  it("when an amount is typed in any of the accepted ways, then it is read back as exactly that amount", () => {
    fc.assert(
      fc.property(typedAmount, fc.boolean(), ({ amount, typed }, minus) => {
        expect(parseAmount(typed, { max: MAX })).toEqual({ ok: true, amount });
        // A correction: the same with a minus in front.
        if (minus) expect(parseAmount(`-${typed}`, { signed: true })).toEqual({ ok: true, amount: -amount });
        // Followed by a note: the note is left whole.
        const read = readAmount(`${typed} transfer BCA`);
        expect(read).toMatchObject({ ok: true, amount });
        if (read.ok) expect(`${typed} transfer BCA`.slice(read.consumed)).toBe(" transfer BCA");
      }),
      { numRuns: 5000 },
    );
  });
});
