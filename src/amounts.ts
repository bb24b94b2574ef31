/**
 * Rupiah amounts as people type them, read the same way wherever one is typed: `/deposit` and
 * `/price` in the chat, the Mini App's deposit form and its price boxes. Pure (no Telegram, no
 * DOM, no Node), so the page bundles this very file and the chat and the page never disagree.
 *
 * Accepted: `50000`, `50.000`, `50,000`, `Rp50.000`, `Rp 50.000`, `Rp. 50.000`, `IDR 50000`,
 * `Rp 50.000,00`, `Rp 50.000,-`, `50rb`, `50 ribu`, `50k`, `1,5jt`, `1.5 juta`, `2,5rb`, and with
 * a sign where the caller allows one: `-5rb`, `− Rp 5.000` (the bot's own `signed` form).
 *
 * The rules, so that nothing is guessed:
 * - a dot or a comma followed by exactly three digits separates thousands (`Rp50.000`, `1,500`),
 *   one kind of separator per amount;
 * - a decimal part (one or two digits) is allowed only before a multiplier (`1,5jt`, `1.5 juta`);
 *   the one exception is zero cents after a whole amount of four digits or more (`Rp 50.000,00`);
 * - a multiplier word (`rb`, `ribu`, `k`: a thousand; `jt`, `juta`: a million, in any case)
 *   belongs to the amount, glued or after a space, never to what follows (a note, a tier).
 * Anything else made of digits and separators (`50.5`, `1,50`, `50.00.000`), a number of up to three
 * digits followed by another number (`50 000`) and an amount followed by a word that is almost a
 * multiplier (`50 ribuan`) could be read two ways and are refused as ambiguous; anything else at
 * all (`1e5`, `５０`, `50rbx`) as not an amount. Zero is refused too: no amount typed here is ever
 * nothing.
 */

/** Why a typed amount is refused. */
export type AmountRefusal =
  /** Nothing was typed. */
  | "empty"
  /** Not an amount of rupiah at all: letters, an exponent, digits of another script. */
  | "invalid"
  /** Digits and separators that could be read two ways: `50.5`, `1,50`, `50.00.000`, `50 000`. */
  | "ambiguous"
  /** Zero, however written (`0`, `-0`, `0rb`). */
  | "zero"
  /** A minus where the caller takes only amounts above zero. */
  | "negative"
  /** More than the caller's limit (or than a number can hold exactly). */
  | "too-large";

/**
 * An amount read from the start of a text: the whole rupiah, and how many characters it took
 * (what follows is empty or starts with a space: a note, a tier). A refusal says why, and what
 * was read as the amount (`typed`), to show back to the user.
 */
export type AmountRead =
  { ok: true; amount: number; consumed: number } | { ok: false; why: AmountRefusal; typed: string };

/** What the caller takes: a sign (a correction may be negative) and a largest amount (either way). */
export interface AmountRules {
  signed?: boolean;
  max?: number;
}

const MULTIPLIERS: Readonly<Record<string, number>> = {
  rb: 1_000,
  ribu: 1_000,
  k: 1_000,
  jt: 1_000_000,
  juta: 1_000_000,
};

/** `+`, `-`, and `−` (U+2212, the minus the bot itself writes in `− Rp 5.000`). */
const SIGNS = new Set(["+", "-", "\u2212"]);
const PREFIX = /^(?:rp\.?|idr)/i;
const DIGIT = /[0-9]/;
const LETTER = /[A-Za-z]/;
const SPACE = /\s/;

/** Thousands in groups of three after one kind of separator: `50.000`, `1,500,000`. */
const GROUPED = /^[0-9]{1,3}(?:(\.)[0-9]{3})+$|^[0-9]{1,3}(?:(,)[0-9]{3})+$/;
const PLAIN = /^[0-9]+$/;
/** A decimal part before a multiplier: `1,5`, `1.25` (three digits would be thousands). */
const DECIMAL = /^([0-9]+)[.,]([0-9]{1,2})$/;
/** Zero cents after a whole amount: `50.000,00`, `50,000.00`, `50000,00`. */
const ZERO_CENTS = /^(.+)([.,])00$/;

const isSpace = (c: string | undefined) => c !== undefined && SPACE.test(c);
const atEnd = (text: string, i: number) => i >= text.length || isSpace(text[i]);

function skipSpaces(text: string, i: number): number {
  while (isSpace(text[i])) i++;
  return i;
}

/** The end of the run of non-space characters that contains `i` (for showing what was typed). */
function wordEnd(text: string, i: number): number {
  while (i < text.length && !isSpace(text[i])) i++;
  return i;
}

type Whole = { ok: true; digits: string; fraction: string } | { ok: false; why: "ambiguous" };

/**
 * The digits and separators of an amount read by the rules above: its whole part and the
 * decimal digits (only ever non-empty before a multiplier), or why it cannot be read.
 */
function readNumber(number: string, multiplied: boolean, centsDash: boolean): Whole {
  const whole = (digits: string): Whole => ({ ok: true, digits, fraction: "" });
  if (PLAIN.test(number)) return whole(number);
  if (GROUPED.test(number)) return whole(number.replace(/[.,]/g, ""));
  if (multiplied) {
    const decimal = DECIMAL.exec(number);
    if (decimal !== null) return { ok: true, digits: decimal[1]!, fraction: decimal[2]! };
    return { ok: false, why: "ambiguous" };
  }
  if (centsDash) return { ok: false, why: "ambiguous" };
  const cents = ZERO_CENTS.exec(number);
  if (cents !== null) {
    const before = cents[1]!;
    const group = GROUPED.exec(before);
    // Never with the separator that groups its thousands (`50.000.00`).
    const fits = PLAIN.test(before) || (group !== null && (group[1] ?? group[2]) !== cents[2]);
    const digits = before.replace(/[.,]/g, "").replace(/^0+/, "");
    // `50,00` may be a mistyped `50,000`: zero cents only after a whole amount of 1,000 or more.
    if (fits && digits.length >= 4) return whole(digits);
  }
  return { ok: false, why: "ambiguous" };
}

/**
 * Reads an amount at the start of `text` (spaces before it are skipped): the whole rupiah and how
 * many characters it took, or why it is refused. Never throws.
 */
export function readAmount(text: string, rules: AmountRules = {}): AmountRead {
  const max = rules.max ?? Number.MAX_SAFE_INTEGER;
  let i = skipSpaces(text, 0);
  const start = i;
  const refuse = (why: AmountRefusal, end = wordEnd(text, i)): AmountRead => ({
    ok: false,
    why,
    typed: text.slice(start, Math.max(end, start)).trim(),
  });
  if (i >= text.length) return refuse("empty");

  let sign: string | undefined;
  if (SIGNS.has(text[i]!)) {
    sign = text[i];
    i = skipSpaces(text, i + 1);
  }
  const prefix = PREFIX.exec(text.slice(i));
  if (prefix !== null) {
    i = skipSpaces(text, i + prefix[0].length);
    // `Rp -5.000`, the way formatRupiah writes a negative amount.
    if (sign === undefined && SIGNS.has(text[i] ?? "")) {
      sign = text[i];
      i = skipSpaces(text, i + 1);
    }
  }
  if (!DIGIT.test(text[i] ?? "")) return refuse("invalid");

  const numberStart = i;
  while (i < text.length && /[0-9.,]/.test(text[i]!)) i++;
  let number = text.slice(numberStart, i);
  // `Rp 50.000,-`: the Indonesian way of saying "no cents".
  let centsDash = false;
  if (/[.,]$/.test(number) && text[i] === "-") {
    number = number.slice(0, -1);
    centsDash = true;
    i++;
  }

  // A multiplier glued to the number (`50rb`) or after spaces (`50 ribu`), as a whole word.
  let multiplier = 1;
  let end = i;
  if (!centsDash && LETTER.test(text[i] ?? "")) {
    let j = i;
    while (LETTER.test(text[j] ?? "")) j++;
    const factor = MULTIPLIERS[text.slice(i, j).toLowerCase()];
    if (factor === undefined || !atEnd(text, j)) return refuse("invalid");
    multiplier = factor;
    end = j;
  } else if (!atEnd(text, i)) {
    return refuse("invalid");
  } else if (!centsDash) {
    const next = skipSpaces(text, i);
    let j = next;
    while (LETTER.test(text[j] ?? "")) j++;
    const factor = j > next && atEnd(text, j) ? MULTIPLIERS[text.slice(next, j).toLowerCase()] : undefined;
    if (factor !== undefined) {
      multiplier = factor;
      end = j;
    } else if (/^(?:rb|ribu|jt|juta)/i.test(text.slice(next, j))) {
      // `50 ribuan` ("some fifty thousand"), `2 jutaan`: a multiplier that is not quite one.
      return refuse("ambiguous", wordEnd(text, next));
    } else if (/^[0-9]{1,3}$/.test(number) && DIGIT.test(text[next] ?? "")) {
      // `50 000`, `1 500rb`: thousands grouped by a space, or an amount and a number after it? Not guessed.
      return refuse("ambiguous", wordEnd(text, next));
    }
  }

  const read = readNumber(number, multiplier !== 1, centsDash);
  if (!read.ok) return refuse(read.why, end);
  const digits = read.digits.replace(/^0+(?=[0-9])/, "");
  // More digits than a number holds exactly is more than any limit.
  if (digits.length > 15) return refuse("too-large", end);
  const fraction = read.fraction === "" ? 0 : (Number(read.fraction) * multiplier) / 10 ** read.fraction.length;
  const size = Number(digits) * multiplier + fraction;
  if (size === 0) return refuse("zero", end);
  const negative = sign === "-" || sign === "\u2212";
  if (negative && rules.signed !== true) return refuse("negative", end);
  // At most 15 digits however it was written (`4000000000juta` as much as its digits): an amount
  // read is always one that reads the same when the bot writes it back.
  if (!Number.isSafeInteger(size) || size >= 1e15 || size > max) return refuse("too-large", end);
  return { ok: true, amount: negative ? -size : size, consumed: end };
}

/** The amount a whole text is (a form's box), or why not: nothing may follow it. Never throws. */
export function parseAmount(
  text: string,
  rules: AmountRules = {},
): { ok: true; amount: number } | { ok: false; why: AmountRefusal; typed: string } {
  const read = readAmount(text, rules);
  if (!read.ok) return read;
  if (text.slice(read.consumed).trim() !== "") return { ok: false, why: "invalid", typed: text.trim() };
  return { ok: true, amount: read.amount };
}
