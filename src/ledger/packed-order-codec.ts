import { isDeepStrictEqual } from "node:util";
import {
  escapeField,
  fillMessage,
  int36,
  messageTemplate,
  msKey,
  packTime,
  refTime,
  unescapeField,
  unInt36,
  unpackTime,
} from "./order-codec.js";
import type { OrderRecord, OrderResult, OrderState } from "../orders/order.js";
import { fieldScanner } from "./field-scan.js";
import { newLine, orderLine, type OrderLine } from "../orders/order-line.js";
import { packAttempt, packRefused, providerOfPacked, refusedByOfPacked, unpackAttempts } from "./attempt-codec.js";

/*
 * A compacted order is an element of the time index (t:DAY, one list per UTC day, oldest first):
 * the 9-digit submit time and the ref id (the element of a recent order is only that), then a tab
 * and the packed order. The packed order is tab-separated, in a fixed order; repeated texts (who
 * ordered, what, the provider's product detail and message) are numbers of a dictionary kept
 * beside (`Dictionary`), so a year of orders does not spell "Mobile Legends" 700,000 times.
 */

/** The texts a compacted order refers to by number. */
export interface OrderTexts {
  /** [userName, lang, role, tier] */
  who: string;
  /** [gameName, productCode, productName, price] */
  what: string;
  /** The provider's product detail (JSON), when the result has one. */
  detail?: string;
  /** The provider's message, when the result has one. */
  message?: string;
}

/** The letter of each state in a compacted order (the time index scan filters by it). */
export const STATE_LETTER: Record<OrderState, string> = {
  draft: "d",
  cancelled: "c",
  submitting: "p",
  success: "s",
  failed: "f",
  unknown: "u",
};
const LETTER_STATE = Object.fromEntries(Object.entries(STATE_LETTER).map(([s, l]) => [l, s])) as Record<
  string,
  OrderState
>;

/** The texts of an order that go to the dictionary. */
export function orderTexts(order: OrderRecord): OrderTexts {
  const texts: OrderTexts = {
    who: JSON.stringify([order.userName, order.lang, order.role ?? null, order.tier ?? null]),
    what: JSON.stringify([order.gameName, order.productCode, order.productName, order.price]),
  };
  if (order.result?.productDetail !== undefined) texts.detail = JSON.stringify(order.result.productDetail);
  if (order.result?.message !== undefined) texts.message = messageTemplate(order.result.message, order);
  return texts;
}

/** A time relative to the submit time (small): the difference in base 36, or the time itself after "!". */
function relTime(iso: string | undefined, base: number): string {
  if (iso === undefined) return "";
  const packed = packTime(iso);
  if (packed.startsWith("!")) return packed;
  const diff = parseInt(packed, 36) - base;
  return diff < 0 ? `-${(-diff).toString(36)}` : diff.toString(36);
}

function unRelTime(code: string, base: number): string | undefined {
  if (code === "") return undefined;
  if (code.startsWith("!")) return code.slice(1);
  const diff = code.startsWith("-") ? -parseInt(code.slice(1), 36) : parseInt(code, 36);
  return new Date(base + diff).toISOString();
}

/** The creation time in a ref id as an ISO string, when it has one. */
const madeAt = (refId: string) => {
  const ms = refTime(refId);
  return ms === undefined || ms > 8.64e15 ? undefined : new Date(ms).toISOString();
};

const num = (n: number | undefined) => (n === undefined ? "" : int36(n));
const opt = (s: string | undefined) => (s === undefined ? "" : escapeField(s));

/** The element header: submit time (9 base-36 digits) and ref id. */
export const elementHeader = (submittedMs: number, refId: string): string => `${msKey(submittedMs)}${refId}`;

/**
 * The compacted form of a submitted order, `ids` being the dictionary numbers of its texts
 * (orderTexts). Checked by reading it back: an order this format cannot hold exactly (a field it
 * does not know) is kept as JSON instead, so that compaction never changes an order.
 */
function packOrder(order: OrderRecord, ids: { who: string; what: string; detail?: string; message?: string }) {
  const submittedMs = Date.parse(order.submittedAt ?? "");
  const header = elementHeader(submittedMs, order.refId);
  const base = submittedMs;
  const r = order.result;
  let rest = "";
  if (r !== undefined) {
    const {
      trxId: _t,
      destinationName: _d,
      sn: _s,
      lastBalance: _b,
      message: _m,
      productDetail: _p,
      ...others
    } = r as OrderResult & Record<string, unknown>;
    rest = Object.keys(others).length === 0 ? "" : JSON.stringify(others);
  }
  const fields = [
    "1",
    STATE_LETTER[order.state],
    int36(order.userId),
    order.chatId === order.userId ? "" : int36(order.chatId),
    ids.who,
    ids.what,
    escapeField(order.playerId),
    // "": made when its ref id was (always, for the bot's own drafts).
    order.createdAt === madeAt(order.refId) ? "" : relTime(order.createdAt, base),
    // The header has the submit time; only one spelled otherwise is written again here.
    packTime(order.submittedAt ?? "").startsWith("!") ? packTime(order.submittedAt ?? "") : "",
    relTime(order.finishedAt, base),
    relTime(order.notifiedAt, base),
    relTime(order.settledAt, base),
    num(order.settledBy),
    num(order.summaryMessageId),
    num(order.requestMessageId),
    num(order.saldoAfter),
    // "-": no result at all (a trx id that is "-" itself is written "\\-").
    r === undefined ? "-" : r.trxId === "-" ? "\\-" : opt(r.trxId),
    opt(r?.destinationName),
    opt(r?.sn),
    num(r?.lastBalance),
    ids.message ?? "",
    ids.detail ?? "",
    escapeField(rest),
    // Several providers: the current attempt and the refused ones ("" for an order of main alone).
    packAttempt(order),
    packRefused(order),
  ];
  while (fields.length > 17 && fields.at(-1) === "") fields.pop();
  const element = `${header}\t${fields.join("\t")}`;
  return element;
}

/** The dictionary numbers a packed element refers to. */
export function textIdsOf(element: string): string[] {
  const body = element.split("\t");
  if (body[1] !== "1") return [];
  return [body[5], body[6], body[21], body[22]].filter((id): id is string => id !== undefined && id !== "");
}

/**
 * The dictionary's texts as JSON values, parsed once: a day of orders shares a few dozen of them.
 * Bounded, so a long run keeps no more than the texts in use.
 */
const parsed = new Map<string, unknown>();
function parsedText(text: string): unknown {
  let value = parsed.get(text);
  if (value === undefined) {
    if (parsed.size >= 10_000) parsed.clear();
    value = JSON.parse(text) as unknown;
    parsed.set(text, value);
  }
  return value;
}

/** A parsed text of the dictionary as a new object (a caller may change what it is given): flat ones copied, others parsed. */
function freshCopy(id: string, text: (id: string) => string): unknown {
  const value = parsedText(text(id));
  if (typeof value !== "object" || value === null) return value;
  if (Object.values(value).every((v) => typeof v !== "object" || v === null)) return { ...value };
  return JSON.parse(text(id)) as unknown;
}

/**
 * An order from its element in the time index: undefined when the element is only a header (the
 * order is open or recent: its hash holds it). `text` gives a dictionary number's text.
 */
export function unpackOrder(element: string, text: (id: string) => string): OrderRecord | undefined {
  const tab = element.indexOf("\t");
  if (tab < 0) return undefined;
  const refId = element.slice(9, tab);
  const f = element.slice(tab + 1).split("\t");
  if (f[0] === "J") return JSON.parse(unescapeField(f.slice(1).join("\t"))) as OrderRecord;
  const submittedAt = f[8] === "" ? new Date(parseInt(element.slice(0, 9), 36)).toISOString() : unpackTime(f[8]!);
  const base = Date.parse(submittedAt);
  const [userName, lang, role, tier] = parsedText(text(f[4]!)) as [
    string,
    OrderRecord["lang"],
    OrderRecord["role"] | null,
    string | null,
  ];
  const [gameName, productCode, productName, price] = parsedText(text(f[5]!)) as [
    string,
    string,
    string,
    number | null,
  ];
  const order: OrderRecord = {
    refId,
    chatId: unInt36(f[3] === "" ? f[2]! : f[3]!),
    userId: unInt36(f[2]!),
    userName,
    lang,
    gameName,
    productCode,
    productName,
    price,
    playerId: unescapeField(f[6]!),
    createdAt: f[7] === "" ? madeAt(refId)! : unRelTime(f[7]!, base)!,
    state: LETTER_STATE[f[1]!]!,
    submittedAt,
  };
  if (role !== null) order.role = role!;
  if (tier !== null) order.tier = tier;
  const finishedAt = unRelTime(f[9] ?? "", base);
  if (finishedAt !== undefined) order.finishedAt = finishedAt;
  const notifiedAt = unRelTime(f[10] ?? "", base);
  if (notifiedAt !== undefined) order.notifiedAt = notifiedAt;
  const settledAt = unRelTime(f[11] ?? "", base);
  if (settledAt !== undefined) order.settledAt = settledAt;
  if ((f[12] ?? "") !== "") order.settledBy = unInt36(f[12]!);
  if ((f[13] ?? "") !== "") order.summaryMessageId = unInt36(f[13]!);
  if ((f[14] ?? "") !== "") order.requestMessageId = unInt36(f[14]!);
  if ((f[15] ?? "") !== "") order.saldoAfter = unInt36(f[15]!);
  if (f[16] !== "-") {
    const result: OrderResult & Record<string, unknown> =
      (f[22] ?? "") === "" ? {} : (JSON.parse(unescapeField(f[22]!)) as Record<string, unknown>);
    if ((f[16] ?? "") !== "") result.trxId = unescapeField(f[16]!);
    if ((f[17] ?? "") !== "") result.destinationName = unescapeField(f[17]!);
    if ((f[18] ?? "") !== "") result.sn = unescapeField(f[18]!);
    if ((f[19] ?? "") !== "") result.lastBalance = unInt36(f[19]!);
    if ((f[21] ?? "") !== "") result.productDetail = freshCopy(f[21]!, text) as OrderResult["productDetail"];
    order.result = result;
    // Last: the message's template is filled from the order's other values.
    if ((f[20] ?? "") !== "") result.message = fillMessage(text(f[20]!), order);
  }
  // An order compacted before there were several providers has neither: it was at main.
  if ((f[23] ?? "") !== "" || (f[24] ?? "") !== "") unpackAttempts(order, f[23] ?? "", f[24] ?? "");
  return order;
}

/** The fields of the compacted order being read (a packed order has at most 25). */
const packedFields = fieldScanner(26);

/**
 * The line of a compacted order (orderLine of unpackOrder's order), read from its element without
 * making the whole order: the fields a list prints, the dictionary's texts parsed once for all.
 */
export function lineOfElement(element: string, text: (id: string) => string): OrderLine | undefined {
  const tab = element.indexOf("\t");
  if (tab < 0) return undefined;
  const { field, blank } = packedFields;
  if (!packedFields.scan(element, tab + 1, element.length, "\t") || field(0) !== "1") {
    const order = unpackOrder(element, text);
    return order === undefined ? undefined : orderLine(order);
  }
  const [userName, , role, tier] = parsedText(text(field(4))) as [
    string,
    unknown,
    OrderRecord["role"] | null,
    string | null,
  ];
  const [, productCode, productName, price] = parsedText(text(field(5))) as [unknown, string, string, number | null];
  const line = newLine(
    element.slice(9, tab),
    LETTER_STATE[field(1)]!,
    blank(8) ? parseInt(element.slice(0, 9), 36) : Date.parse(unpackTime(field(8))),
    unInt36(field(2)),
    userName,
    productCode,
    productName,
    unescapeField(field(6)),
    price,
  );
  if (role !== null) line.role = role!;
  if (tier !== null) line.tier = tier;
  if (!blank(23)) line.provider = providerOfPacked(field(23));
  if (!blank(24)) line.refusedBy = refusedByOfPacked(field(24));
  if (field(16) === "-") return line;
  // The result's other fields first, as unpackOrder reads them: the named ones below win.
  if (!blank(22)) {
    const rest = JSON.parse(unescapeField(field(22))) as Partial<Record<keyof OrderLine, unknown>>;
    for (const key of ["errorCode", "errorMsg", "providerPrice", "providerPriceFrom"] as const)
      if (rest[key] !== undefined) (line as unknown as Record<string, unknown>)[key] = rest[key];
  }
  if (!blank(16)) line.trxId = unescapeField(field(16));
  if (!blank(17)) line.destinationName = unescapeField(field(17));
  if (!blank(18)) line.sn = unescapeField(field(18));
  if (!blank(19)) line.lastBalance = unInt36(field(19));
  if (!blank(21)) {
    const detail = parsedText(text(field(21))) as { priceRp?: number } | null;
    if (typeof detail === "object" && detail !== null && detail.priceRp !== undefined) line.priceRp = detail.priceRp;
  }
  return line;
}

/** The order as plain JSON would keep it (no undefined fields): what a round trip must give back. */
const plain = (order: OrderRecord): unknown => JSON.parse(JSON.stringify(order));

/**
 * The element of a compacted order, checked: packed as above when it reads back exactly, else
 * the order as JSON (never seen in practice; a result with a field of another type would need it).
 */
export function compactElement(order: OrderRecord, ids: Parameters<typeof packOrder>[1], texts: OrderTexts): string {
  const element = packOrder(order, ids);
  const byId = new Map<string, string>([
    [ids.who, texts.who],
    [ids.what, texts.what],
  ]);
  if (ids.detail !== undefined && texts.detail !== undefined) byId.set(ids.detail, texts.detail);
  if (ids.message !== undefined && texts.message !== undefined) byId.set(ids.message, texts.message);
  try {
    const back = unpackOrder(element, (id) => byId.get(id)!);
    if (back !== undefined && isDeepStrictEqual(plain(back), plain(order))) return element;
  } catch {
    // not readable back: kept as JSON below
  }
  return `${elementHeader(Date.parse(order.submittedAt ?? ""), order.refId)}\tJ\t${escapeField(JSON.stringify(order))}`;
}
