import { MAIN_PROVIDER, type Attempt, type OrderRecord, type RefusedAttempt } from "../orders/order.js";
import type { Refusal } from "../orders/ledger.js";
import {
  escapeField,
  implicitRef,
  LETTER_REASON,
  packTime,
  pieces,
  REASON_LETTER,
  unescapeField,
  unpackTime,
} from "./order-codec.js";

/*
 * An order's attempts at several providers as the Redis ledger writes them: what a claim and the
 * step to the next attempt write into its hash (order-codec.ts: readAttempts reads it back), and
 * the two fields of its packed (compacted) form.
 */

/** The reason's letter, as NEXT_ATTEMPT writes it. */
export const reasonLetter = (reason: RefusedAttempt["reason"]): string => REASON_LETTER[reason];

/**
 * Whether a claim's first attempt is worth storing: not when it is main under the product's own
 * code (compared in upper case, as the catalogue finds codes).
 */
export const storesAttempt = (productCode: string, attempt: { provider: string; code: string }): boolean =>
  attempt.provider !== MAIN_PROVIDER || attempt.code.toUpperCase() !== productCode.toUpperCase();

/**
 * A refusal's error code and message as NEXT_ATTEMPT's name, value… list: names "e" and "m" (with
 * "#1", "#2"… for the further pieces of a long one), which the script makes xeN and xmN.
 */
export function refusalTexts(refusal: Refusal): string[] {
  const out: string[] = [];
  const add = (letter: string, text: string | undefined) => {
    if (text === undefined) return;
    pieces(text).forEach((piece, i) => out.push(i === 0 ? letter : `${letter}#${i}`, piece));
  };
  add("e", refusal.errorCode);
  add("m", refusal.errorMsg);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The packed (compacted) order's two fields

/**
 * The current attempt of a compacted order: "" when it has none, only the provider's name when
 * the rest is implicit (the product's code, the ref id of its place, the submit time), else a JSON
 * list [provider, code, ref, at] with "" for each implicit one. Escaped for a packed field.
 */
export function packAttempt(order: OrderRecord): string {
  const a = order.attempt;
  if (a === undefined) return "";
  const parts = implicitParts(order, a, (order.refused?.length ?? 0) + 1);
  return parts.slice(1).every((p) => p === "") ? a.provider : escapeField(JSON.stringify(parts));
}

/** The refused attempts of a compacted order: "" when none, else a JSON list of [provider, code, ref, at, reason letter, errorCode?, errorMsg?]. */
export function packRefused(order: OrderRecord): string {
  const refused = order.refused;
  if (refused === undefined || refused.length === 0) return "";
  const list = refused.map((r, i) => {
    const parts: Array<string | null> = [...implicitParts(order, r, i + 1), REASON_LETTER[r.reason]];
    if (r.errorCode !== undefined || r.errorMsg !== undefined) parts.push(r.errorCode ?? null);
    if (r.errorMsg !== undefined) parts.push(r.errorMsg);
    return parts;
  });
  return escapeField(JSON.stringify(list));
}

/** [provider, code, ref, at] of attempt n of an order, "" for each implicit one (at packed). */
function implicitParts(order: OrderRecord, a: Attempt, n: number): string[] {
  return [
    a.provider,
    a.code === order.productCode ? "" : a.code,
    a.refId === implicitRef(order.refId, n) ? "" : a.refId,
    a.at === order.submittedAt ? "" : packTime(a.at),
  ];
}

/** An attempt from implicitParts. */
function fromParts(order: OrderRecord, parts: readonly unknown[], n: number): Attempt {
  const [provider, code, ref, at] = parts as [string, string, string, string];
  return {
    provider,
    code: code === "" ? order.productCode : code,
    refId: ref === "" ? implicitRef(order.refId, n) : ref,
    at: at === "" ? (order.submittedAt ?? order.createdAt) : unpackTime(at),
  };
}

/** The attempts of a compacted order (packAttempt's and packRefused's fields), put into `order`. */
export function unpackAttempts(order: OrderRecord, attempt: string, refused: string): void {
  if (refused !== "") {
    const list = JSON.parse(unescapeField(refused)) as Array<Array<string | null>>;
    order.refused = list.map((parts, i) => {
      const one: RefusedAttempt = { ...fromParts(order, parts, i + 1), reason: LETTER_REASON[parts[4]!]! };
      if (parts[5] !== undefined && parts[5] !== null) one.errorCode = parts[5];
      if (parts[6] !== undefined && parts[6] !== null) one.errorMsg = parts[6];
      return one;
    });
  }
  if (attempt === "") return;
  const n = (order.refused?.length ?? 0) + 1;
  order.attempt = attempt.startsWith("[")
    ? fromParts(order, JSON.parse(unescapeField(attempt)) as string[], n)
    : fromParts(order, [attempt, "", "", ""], n);
}

/** The provider of a compacted order's current attempt (packAttempt's field); undefined: none stored. */
export function providerOfPacked(attempt: string): string | undefined {
  if (attempt === "") return undefined;
  return attempt.startsWith("[") ? (JSON.parse(unescapeField(attempt)) as string[])[0] : attempt;
}

/** The providers that refused a compacted order before, comma-separated (packRefused's field); undefined: none. */
export function refusedByOfPacked(refused: string): string | undefined {
  if (refused === "") return undefined;
  return (JSON.parse(unescapeField(refused)) as string[][]).map((parts) => parts[0]).join(",");
}
