import { describe, expect, it } from "vitest";
import { parseAmount, readAmount } from "../src/amounts.js";

describe("amounts as people type them", () => {
  it("when an amount is typed the way people write rupiah, then it is read as those whole rupiah", () => {
    const accepted: Array<[string, number]> = [
      ["50000", 50_000],
      ["50.000", 50_000],
      ["50,000", 50_000],
      ["50rb", 50_000],
      ["50RB", 50_000],
      ["50 ribu", 50_000],
      ["50 Ribu", 50_000],
      ["50k", 50_000],
      ["50 K", 50_000],
      ["Rp50.000", 50_000],
      ["Rp 50.000", 50_000],
      ["rp50000", 50_000],
      ["Rp. 50.000", 50_000],
      ["IDR 50.000", 50_000],
      ["IDR50000", 50_000],
      ["Rp 50.000,00", 50_000],
      ["Rp 50,000.00", 50_000],
      ["Rp 50.000,-", 50_000],
      ["1,5jt", 1_500_000],
      ["1.5 juta", 1_500_000],
      ["1,25jt", 1_250_000],
      ["2jt", 2_000_000],
      ["2,5rb", 2_500],
      ["1.500.000", 1_500_000],
      ["1,500", 1_500],
      ["22.000", 22_000],
      ["  Rp22.000  ", 22_000],
      ["+50rb", 50_000],
      ["+ Rp 50,000", 50_000],
    ];
    for (const [typed, amount] of accepted) expect(parseAmount(typed), typed).toEqual({ ok: true, amount });
  });

  it("when a correction is typed with a minus, then it is negative where a sign is allowed and refused where not", () => {
    for (const [typed, amount] of [
      ["-5rb", -5_000],
      ["-5.000", -5_000],
      ["- Rp 5.000", -5_000],
      ["Rp -5,000", -5_000],
      ["− Rp 5.000", -5_000],
    ] as const) {
      expect(parseAmount(typed, { signed: true }), typed).toEqual({ ok: true, amount });
      expect(parseAmount(typed), typed).toMatchObject({ ok: false, why: "negative" });
    }
  });

  it("when an amount could be read two ways, then it is refused as ambiguous, never guessed", () => {
    for (const typed of [
      "50.5",
      "1,50",
      "1,5",
      "50,00",
      "50.00.000",
      "1.000,5",
      "1,000.000",
      "1.000.00",
      "50.",
      "50 000",
      "1 500rb",
      "50 ribuan",
      "2 jutaan",
      "1,2345jt",
    ])
      expect(parseAmount(typed), typed).toMatchObject({ ok: false, why: "ambiguous" });
  });

  it("when what is typed is not an amount at all, then it is refused, with what was read shown back", () => {
    for (const typed of [
      "1e5",
      "abc",
      "Rp",
      "５０rb",
      "5٠",
      "50rbx",
      "50m",
      "0x10",
      "50%",
      "Rp50.000an",
      "--5",
      "50rb.",
    ])
      expect(parseAmount(typed), typed).toEqual({ ok: false, why: "invalid", typed });
    expect(parseAmount("")).toEqual({ ok: false, why: "empty", typed: "" });
    expect(parseAmount("   ")).toEqual({ ok: false, why: "empty", typed: "" });
  });

  it("when zero, negative zero or more than the limit is typed, then it is refused with its own reason", () => {
    for (const typed of ["0", "-0", "0rb", "Rp 0,-", "000"])
      expect(parseAmount(typed, { signed: true }), typed).toMatchObject({ ok: false, why: "zero" });
    expect(parseAmount("1,5jt", { max: 1_000_000 })).toMatchObject({ ok: false, why: "too-large" });
    expect(parseAmount("-2jt", { signed: true, max: 1_000_000 })).toMatchObject({ ok: false, why: "too-large" });
    expect(parseAmount("1jt", { max: 1_000_000 })).toEqual({ ok: true, amount: 1_000_000 });
    expect(parseAmount("99999999999999999999")).toMatchObject({ ok: false, why: "too-large" });
    // Sixteen digits through a multiplier are as many as sixteen typed: the bot could not write
    // such an amount back in a form it reads (found by the property test, seed -34499846).
    expect(parseAmount("4000000000juta")).toMatchObject({ ok: false, why: "too-large" });
    expect(parseAmount("999999999999999")).toEqual({ ok: true, amount: 999_999_999_999_999 });
    expect(parseAmount("999999999rb")).toEqual({ ok: true, amount: 999_999_999_000 });
  });

  it("when an amount starts a longer text, then the multiplier word belongs to the amount and the rest is left", () => {
    const rest = (text: string) => {
      const read = readAmount(text, { signed: true });
      return read.ok ? { amount: read.amount, rest: text.slice(read.consumed).trim() } : read;
    };
    expect(rest("50 ribu transfer BCA")).toEqual({ amount: 50_000, rest: "transfer BCA" });
    expect(rest("50rb transfer BCA")).toEqual({ amount: 50_000, rest: "transfer BCA" });
    expect(rest("1.5 juta cash")).toEqual({ amount: 1_500_000, rest: "cash" });
    expect(rest("-5rb koreksi")).toEqual({ amount: -5_000, rest: "koreksi" });
    expect(rest("Rp 22.000 gold")).toEqual({ amount: 22_000, rest: "gold" });
    expect(rest("50000 kas")).toEqual({ amount: 50_000, rest: "kas" });
    expect(rest("50.5 transfer")).toEqual({ ok: false, why: "ambiguous", typed: "50.5" });
    expect(rest("50 000 transfer")).toEqual({ ok: false, why: "ambiguous", typed: "50 000" });
  });
});
