import { escapeField, int36, packTime, refTime, unescapeField, unInt36, unpackTime } from "./order-codec.js";
import type { Movement, MovementKind } from "../orders/wallet.js";

/*
 * A reseller's statement as the Redis ledger writes it down: one short tab-separated line per
 * movement (movementLine), and its older part packed into chunks that spell a movement by what
 * differs from what the one before predicts (packMovements). Pure functions, like order-codec.ts.
 */

const KIND_LETTER: Record<MovementKind, string> = {
  deposit: "d",
  correction: "c",
  hold: "h",
  spend: "s",
  release: "r",
};
const LETTER_KIND = Object.fromEntries(Object.entries(KIND_LETTER).map(([k, l]) => [l, k])) as Record<
  string,
  MovementKind
>;

/**
 * A movement's time in its statement line: "+" and the milliseconds since its ref id (the order's or
 * the deposit's) was made, in base 36, when the ref id tells (a few characters: the Confirm comes
 * seconds after the summary), else packTime's.
 */
export function packMovementTime(at: string, ref: string): string {
  const packed = packTime(at);
  const made = refTime(ref);
  if (packed.startsWith("!") || made === undefined) return packed;
  const diff = parseInt(packed, 36) - made;
  return diff >= 0 && diff < 36 ** 6 ? `+${diff.toString(36)}` : packed;
}

function unpackMovementTime(code: string, ref: string): string {
  if (!code.startsWith("+")) return unpackTime(code);
  return new Date(refTime(ref)! + parseInt(code.slice(1), 36)).toISOString();
}

/**
 * A statement line as the ledger's scripts append it: time (packMovementTime), kind letter, ref,
 * amount, saldo and held after, tab-separated. Lines of layout 2 are JSON; both are read.
 */
export function movementLine(m: Movement): string {
  return [
    packMovementTime(m.at, m.ref),
    KIND_LETTER[m.kind],
    m.ref,
    int36(m.amount),
    int36(m.saldo),
    int36(m.held),
  ].join("\t");
}

export function movementFromLine(line: string): Movement {
  if (line.startsWith("{")) return JSON.parse(line) as Movement;
  const [at, kind, ref, amount, saldo, held] = line.split("\t") as [string, string, string, string, string, string];
  return {
    at: unpackMovementTime(at, ref),
    kind: LETTER_KIND[kind]!,
    ref,
    amount: unInt36(amount),
    saldo: unInt36(saldo),
    held: unInt36(held),
  };
}

/** What a movement does to the saldo and to the held amount (the statement's own arithmetic). */
function effect(m: Pick<Movement, "kind" | "amount">): { saldo: number; held: number } {
  switch (m.kind) {
    case "deposit":
    case "correction":
      return { saldo: m.amount, held: 0 };
    case "hold":
      return { saldo: m.amount, held: -m.amount };
    case "spend":
      return { saldo: 0, held: -m.amount };
    case "release":
      return { saldo: m.amount, held: -m.amount };
  }
}

/**
 * Movements packed together (a chunk of a compacted statement), oldest first. Each line says only
 * what the one before does not: the time as a difference, a ref id seen in the last 64 lines as
 * "^distance", the amount of a spend or release as "" when it is its hold's, and saldo and held
 * as their difference from what the movement itself predicts ("" when they agree, which is always
 * unless two movements crossed). Exact: every field comes back as it was.
 */
export function packMovements(movements: readonly Movement[]): string {
  const lines: string[] = [];
  let prevAt: number | undefined;
  let prev: Movement | undefined;
  const recent: Movement[] = [];
  for (const m of movements) {
    const packed = packTime(m.at);
    let at: string;
    if (packed.startsWith("!")) at = packed;
    else {
      const ms = parseInt(packed, 36);
      at = prevAt === undefined ? packed : ms >= prevAt ? (ms - prevAt).toString(36) : `-${(prevAt - ms).toString(36)}`;
      prevAt = ms;
    }
    const back = recent.length - 1 - recent.map((r) => r.ref).lastIndexOf(m.ref);
    const seen = back < recent.length ? recent[recent.length - 1 - back] : undefined;
    const literal = escapeField(m.ref);
    const ref = seen === undefined ? (literal.startsWith("^") ? `\\${literal}` : literal) : `^${back.toString(36)}`;
    const amount =
      seen !== undefined &&
      seen.kind === "hold" &&
      (m.kind === "spend" || m.kind === "release") &&
      Object.is(m.amount, -seen.amount)
        ? ""
        : int36(m.amount);
    const e = effect(m);
    // The difference from what the movement predicts, or "=" and the value where arithmetic would not be exact.
    const off = (value: number, predicted: number | undefined) => {
      if (predicted === undefined) return int36(value);
      const diff = value - predicted;
      if (!Number.isSafeInteger(value) || !Number.isSafeInteger(predicted) || !Number.isSafeInteger(diff))
        return `=${int36(value)}`;
      return diff === 0 ? "" : int36(diff);
    };
    const saldo = off(m.saldo, prev === undefined ? undefined : prev.saldo + e.saldo);
    const held = off(m.held, prev === undefined ? undefined : prev.held + e.held);
    lines.push([at, KIND_LETTER[m.kind], ref, amount, saldo, held].join("\t").replace(/\t+$/, ""));
    prev = m;
    recent.push(m);
    if (recent.length > 64) recent.shift();
  }
  return lines.join("\n");
}

export function unpackMovements(text: string): Movement[] {
  if (text === "") return [];
  const out: Movement[] = [];
  let prevAt: number | undefined;
  for (const line of text.split("\n")) {
    const [atCode, kindLetter, refCode, amountCode, saldoCode, heldCode] = line.split("\t");
    let at: string;
    if (atCode!.startsWith("!")) at = atCode!.slice(1);
    else {
      const diff = atCode!.startsWith("-") ? -parseInt(atCode!.slice(1), 36) : parseInt(atCode!, 36);
      const ms = prevAt === undefined ? diff : prevAt + diff;
      prevAt = ms;
      at = new Date(ms).toISOString();
    }
    const kind = LETTER_KIND[kindLetter!]!;
    const recent = out.slice(-64);
    const seen = refCode!.startsWith("^") ? recent[recent.length - 1 - parseInt(refCode!.slice(1), 36)] : undefined;
    const ref = seen === undefined ? unescapeField(refCode!) : seen.ref;
    const amount = (amountCode ?? "") === "" && seen !== undefined ? -seen.amount : unInt36(amountCode!);
    const prev = out.at(-1);
    const e = effect({ kind, amount });
    const read = (code: string | undefined, predicted: number | undefined) =>
      predicted === undefined
        ? unInt36(code!)
        : code?.startsWith("=") === true
          ? unInt36(code.slice(1))
          : predicted + unInt36(code || "0");
    const saldo = read(saldoCode, prev === undefined ? undefined : prev.saldo + e.saldo);
    const held = read(heldCode, prev === undefined ? undefined : prev.held + e.held);
    out.push({ at, kind, ref, amount, saldo, held });
  }
  return out;
}
