import type { DraftFields, OrderRecord, OrderResult, OrderState, RefusedAttempt } from "../orders/order.js";
import { attemptRefId } from "../orders/ref-id.js";
import { CROCKFORD } from "../crockford.js";
import { fieldScanner } from "./field-scan.js";
import { newLine, type OrderLine } from "../orders/order-line.js";

/*
 * How an open or recent order is written down in the Redis ledger (redis.ts): a hash of
 * short fields; and the spellings every packed form shares (times, numbers, texts), used by the
 * compacted order (packed-order-codec.ts) and the statement lines (statement-codec.ts). Pure
 * functions: no Redis here.
 *
 * Sizes matter: Redis keeps a hash whose values are all at most 64 bytes (and that has at most 128
 * fields) as one packed listpack, a few bytes per field; one longer value turns the whole hash into
 * a hash table of ~60 bytes per field. So an open order is a hash of short fields, never JSON.
 */

// ---------------------------------------------------------------------------------------------
// Times

/**
 * A time as stored: the milliseconds in base 36 when the ISO string is exactly what
 * `toISOString()` gives for them (always, for times the bot makes), else the string itself after
 * "!" (nothing is ever rewritten into another spelling).
 */
export function packTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isFinite(ms) && ms >= 0 && new Date(ms).toISOString() === iso) return ms.toString(36);
  return `!${iso}`;
}

/** A time as packTime wrote it. */
export function unpackTime(code: string): string {
  return code.startsWith("!") ? code.slice(1) : new Date(parseInt(code, 36)).toISOString();
}

/** Milliseconds as 9 base-36 digits: fixed width, so that text order is time order (until the year 5188). */
export const msKey = (ms: number): string => Math.max(0, Math.floor(ms)).toString(36).padStart(9, "0");

/** The UTC day number of a time (days since 1970-01-01): the time index keeps one list per UTC day. */
export const utcDay = (ms: number): number => Math.floor(ms / 86_400_000);

/**
 * The creation time a ref id carries (ref-id.ts: the prefix, 9 base-32 digits of milliseconds, 10
 * random characters), or undefined for a ref id not made that way. Read from the end, so a prefix
 * of any length (REF_ID_PREFIX changes over time) does not matter.
 */
export function refTime(refId: string): number | undefined {
  if (refId.length < 19) return undefined;
  let ms = 0;
  for (const ch of refId.slice(-19, -10)) {
    const digit = CROCKFORD.indexOf(ch);
    if (digit < 0) return undefined;
    ms = ms * 32 + digit;
  }
  return ms;
}

// ---------------------------------------------------------------------------------------------
// Spellings shared by the packed forms

/** A text as a packed field writes it: a backslash, a tab and a newline escaped. */
export const escapeField = (text: string): string =>
  text.replace(/[\\\t\n]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : "\\n"));
/** A packed field's text as it was before escapeField. */
export const unescapeField = (text: string): string =>
  text.includes("\\") ? text.replace(/\\(.)/g, (_, c: string) => (c === "t" ? "\t" : c === "n" ? "\n" : c)) : text;

/** A whole number in base 36 ("-" for a negative one); any other number as "~" and its decimal text. */
export const int36 = (n: number): string => (Number.isSafeInteger(n) ? n.toString(36) : `~${n}`);
/** A number as int36 wrote it. */
export const unInt36 = (text: string): number => (text.startsWith("~") ? Number(text.slice(1)) : parseInt(text, 36));

/**
 * The order's own values a provider's message may spell out (topup-api.md: the message "contains
 * the player name and the serial number"), by the letter that stands for each in a template.
 */
function messageValues(order: OrderRecord): Array<[string, string]> {
  const r = order.result;
  const values: Array<[string, string | undefined]> = [
    ["s", r?.sn],
    ["d", r?.destinationName],
    ["t", r?.trxId],
    ["p", r?.productDetail?.name],
    ["n", order.productName],
    ["r", order.refId],
    ["y", order.playerId],
  ];
  return values.filter((v): v is [string, string] => v[1] !== undefined && v[1].length >= 3);
}

/**
 * A provider's message with the order's own values replaced by `{letter}` (a literal "{" written
 * "{{"): the same few templates for every order, so they go to the dictionary instead of one new
 * text per order. Read left to right, the longest value first at each place, so the template
 * reads back unambiguously: `fillMessage` gives back exactly the message.
 */
export function messageTemplate(message: string, order: OrderRecord): string {
  const values = messageValues(order).sort((a, b) => b[1].length - a[1].length);
  // The message's own text goes over in runs (sliced, not a character at a time).
  const parts: string[] = [];
  let run = 0;
  let i = 0;
  next: while (i < message.length) {
    for (const [letter, value] of values) {
      if (message.charCodeAt(i) === value.charCodeAt(0) && message.startsWith(value, i)) {
        parts.push(message.slice(run, i), `{${letter}}`);
        i += value.length;
        run = i;
        continue next;
      }
    }
    if (message.charCodeAt(i) === 123 /* { */) {
      parts.push(message.slice(run, i + 1), "{");
      run = i + 1;
    }
    i += 1;
  }
  parts.push(message.slice(run));
  return parts.join("");
}

/** A provider's message from its template (messageTemplate) and the order it was made of. */
export function fillMessage(template: string, order: OrderRecord): string {
  if (!template.includes("{")) return template;
  let values: Map<string, string> | undefined;
  return template.replace(/\{\{|\{(\w)\}/g, (match, letter?: string) => {
    if (letter === undefined) return "{";
    values ??= new Map(messageValues(order));
    return values.get(letter) ?? match;
  });
}

// ---------------------------------------------------------------------------------------------
// An order in Redis while it is open or recent: one hash of short fields

/*
 * Field names of the order hash (layout version 4): c chatId, u userId, n userName, l lang,
 * g gameName, k productCode, pn productName, p price (absent: null), y playerId, a createdAt,
 * o role, t tier, q requestMessageId, s state, h the held price, sa/sk submitted at (ISO, 9 digits),
 * dy the submit day, hr the hour of that day it was sent (00-23), m summary message, fa finished,
 * na notified, st/sb settled at/by, ws saldo after, lc the provider price last seen for the
 * product when it was sent (while it is unknown). Lua reads some of them by name
 * (redis-orders.ts). Every field of the provider's result starts with "r" and no other field
 * does, so a later answer can replace a result whole.
 */

/** The result's fields, each under a name of its own; productDetail's under "rp" + its own. */
const RESULT_STRINGS = {
  trxId: "rt",
  destinationName: "rn",
  sn: "rs",
  message: "rm",
  errorCode: "rc",
  errorMsg: "re",
  reason: "rr",
  detail: "rd",
} as const;
const DETAIL_FIELDS = { name: "rpn", code: "rpc", price: "rpp", rate: "rpr", priceRp: "rpi", status: "rps" } as const;

/** The hash fields of a draft (everything fixed when it is written). */
export function draftFields(order: DraftFields): Record<string, string> {
  const h: Record<string, string> = {
    c: String(order.chatId),
    u: String(order.userId),
    n: order.userName,
    l: order.lang,
    g: order.gameName,
    k: order.productCode,
    pn: order.productName,
    y: order.playerId,
    a: order.createdAt,
  };
  if (order.price !== null) h.p = String(order.price);
  if (order.role !== undefined) h.o = order.role;
  if (order.tier !== undefined) h.t = order.tier;
  if (order.requestMessageId !== undefined) h.q = String(order.requestMessageId);
  return h;
}

/** A result as the order it belongs to, for its message's template (which reads only the result's values). */
const resultOnly = (result: OrderResult): OrderRecord =>
  ({ refId: "", productName: "", playerId: "", result }) as unknown as OrderRecord;

/** The longest value a field of the order hash gets (Redis packs the hash while all are ≤ 64 bytes). */
const PIECE_BYTES = 60;

/** A text in pieces of at most PIECE_BYTES bytes of UTF-8, never splitting a character. */
export function pieces(text: string): string[] {
  // Most values are short: one piece, without walking the text.
  if (text.length * 3 <= PIECE_BYTES || Buffer.byteLength(text) <= PIECE_BYTES) return [text];
  const out: string[] = [];
  let piece = "";
  let bytes = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch);
    if (bytes + size > PIECE_BYTES) {
      out.push(piece);
      piece = "";
      bytes = 0;
    }
    piece += ch;
    bytes += size;
  }
  out.push(piece);
  return out;
}

/**
 * The hash fields of a provider result, as a flat field, value, field, value… list. The message is
 * kept as its template (messageTemplate: the provider spells out the SN and the player's name in
 * it), and a value longer than 60 bytes goes in pieces (`rd`, `rd#1`, `rd#2`…), so that one long
 * error text does not turn the order's hash from a packed listpack into a hash table.
 */
export function resultFields(result: OrderResult): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(result) as Array<[string, unknown]>) {
    if (value === undefined) continue;
    const short = (RESULT_STRINGS as Record<string, string>)[key];
    if (key === "message" && typeof value === "string") out.push("rM", messageTemplate(value, resultOnly(result)));
    else if (short !== undefined && typeof value === "string") out.push(short, value);
    else if (key === "lastBalance" && typeof value === "number") out.push("rb", String(value));
    else if (
      key === "productDetail" &&
      typeof value === "object" &&
      value !== null &&
      Object.values(value).some((v) => v !== undefined)
    ) {
      for (const [dk, dv] of Object.entries(value as Record<string, unknown>)) {
        if (dv === undefined) continue;
        const ds = (DETAIL_FIELDS as Record<string, string>)[dk];
        const text = dk === "name" || dk === "code" || dk === "status";
        if (ds !== undefined && text && typeof dv === "string") out.push(ds, dv);
        else if (ds !== undefined && !text && typeof dv === "number") out.push(ds, String(dv));
        else out.push(`rp~${dk}`, JSON.stringify(dv));
      }
    } else out.push(`r~${key}`, JSON.stringify(value));
  }
  // An empty result is still a result: one field says so.
  if (out.length === 0) out.push("r0", "");
  const split: string[] = [];
  for (let i = 0; i < out.length; i += 2) {
    const parts = pieces(out[i + 1]!);
    parts.forEach((part, n) => split.push(n === 0 ? out[i]! : `${out[i]!}#${n}`, part));
  }
  return split;
}

/** The result's and productDetail's names by their field in the hash: a decode looks each up once. */
const RESULT_NAME_OF = new Map<string, string>(Object.entries(RESULT_STRINGS).map(([name, field]) => [field, name]));
const DETAIL_NAME_OF = new Map<string, string>(Object.entries(DETAIL_FIELDS).map(([name, field]) => [field, name]));

function resultOf(h: Readonly<Record<string, string>>): OrderResult | undefined {
  let result: Record<string, unknown> | undefined;
  let detail: Record<string, unknown> | undefined;
  let template: string | undefined;
  // A long value's pieces, back together (resultFields).
  const whole = new Map<string, string>();
  const more: Array<[string, number, string]> = [];
  for (const field in h) {
    if (field.charCodeAt(0) !== 114 /* r */) continue;
    const value = h[field]!;
    const m = field.includes("#") ? /^(.+)#(\d+)$/.exec(field) : null;
    if (m === null) whole.set(field, value);
    else more.push([m[1]!, Number(m[2]), value]);
  }
  if (whole.size === 0 && more.length === 0) return undefined;
  more.sort((a, b) => a[1] - b[1]);
  for (const [field, , value] of more) whole.set(field, (whole.get(field) ?? "") + value);
  for (const [field, value] of whole) {
    if (!field.startsWith("r")) continue;
    result ??= {};
    if (field.startsWith("rp")) {
      detail ??= {};
      const name = DETAIL_NAME_OF.get(field);
      if (name !== undefined)
        detail[name] = name === "name" || name === "code" || name === "status" ? value : Number(value);
      else if (field.startsWith("rp~")) detail[field.slice(3)] = JSON.parse(value);
      continue;
    }
    if (field === "r0") continue;
    if (field === "rM") template = value;
    else if (field === "rb") result.lastBalance = Number(value);
    else if (field.startsWith("r~")) result[field.slice(2)] = JSON.parse(value);
    else {
      const name = RESULT_NAME_OF.get(field);
      if (name !== undefined) result[name] = value;
    }
  }
  if (detail !== undefined && result !== undefined) result.productDetail = detail;
  if (template !== undefined && result !== undefined) result.message = fillMessage(template, resultOnly(result));
  return result;
}

// ---------------------------------------------------------------------------------------------
// An order's attempts in its hash

/*
 * An order's attempts at several providers, as the Redis ledger writes them. Only an order that
 * went to a provider other than main, or under another code than its product's, has any: a shop
 * with one provider writes its orders exactly as before, and an order without them is at main
 * (currentAttempt). Every field name starts with "x" (never "r": those are the result's, dropped
 * whole when a new result is written), and every value stays short (the hash stays a listpack).
 *
 * The current attempt: xp provider, xc code (absent: the product's), xr ref id (absent: the
 * order's), xs start (packTime; absent: the submit time). Refused attempt n (1, 2, …, oldest
 * first): xfN = provider, code, ref id, start and the reason's letter, separated by tabs, each
 * escaped (escapeField) and each "" when it is the implicit one (the product's code, the ref id
 * attempt n has by attemptRefId, the submit time); xeN the error code and xmN the error message, a
 * long one in pieces (xmN#1, xmN#2…) like a result's.
 */

/** The letters of a refusal's reason. */
export const REASON_LETTER = { "provider-error": "e", "not-sent": "n" } as const;
export const LETTER_REASON: Readonly<Record<string, RefusedAttempt["reason"]>> = { e: "provider-error", n: "not-sent" };

/** The ref id attempt n (1, 2, …) of an order has unless it says otherwise. */
export const implicitRef = (refId: string, n: number): string => (n === 1 ? refId : attemptRefId(refId, n));

/** The value of a field kept in pieces (field, field#1, field#2…), whole; undefined when there is none. */
function whole(h: Readonly<Record<string, string>>, field: string): string | undefined {
  let text = h[field];
  if (text === undefined) return undefined;
  for (let i = 1; h[`${field}#${i}`] !== undefined; i++) text += h[`${field}#${i}`]!;
  return text;
}

/**
 * The attempts an order's hash holds, put into `order` (its refId, productCode and submittedAt
 * read already); nothing when it holds none.
 */
export function readAttempts(order: OrderRecord, h: Readonly<Record<string, string>>): void {
  if (h.xp === undefined) return;
  const submitted = order.submittedAt ?? order.createdAt;
  const refused: RefusedAttempt[] = [];
  for (let n = 1; h[`xf${n}`] !== undefined; n++) {
    const [provider = "", code = "", ref = "", at = "", letter = ""] = h[`xf${n}`]!.split("\t").map(unescapeField);
    const one: RefusedAttempt = {
      provider,
      code: code === "" ? order.productCode : code,
      refId: ref === "" ? implicitRef(order.refId, n) : ref,
      at: at === "" ? submitted : unpackTime(at),
      reason: LETTER_REASON[letter] ?? "provider-error",
    };
    const errorCode = whole(h, `xe${n}`);
    if (errorCode !== undefined) one.errorCode = errorCode;
    const errorMsg = whole(h, `xm${n}`);
    if (errorMsg !== undefined) one.errorMsg = errorMsg;
    refused.push(one);
  }
  order.attempt = {
    provider: h.xp,
    code: h.xc ?? order.productCode,
    refId: h.xr ?? order.refId,
    at: h.xs === undefined ? submitted : unpackTime(h.xs),
  };
  if (refused.length > 0) order.refused = refused;
}

// ---------------------------------------------------------------------------------------------
// An order from its hash

/**
 * An order from its hash (as HGETALL gives it), or undefined when there is none. Reads layout 3
 * (short fields) and layout 2 (the draft and the result as JSON in `d` and `r`), which the upgrade
 * rewrites but a reader never has to fear.
 */
export function orderFromHash(refId: string, h: Readonly<Record<string, string>>): OrderRecord | undefined {
  if (h.s === undefined) return undefined;
  let order: OrderRecord;
  if (h.d !== undefined) {
    order = { ...(JSON.parse(h.d) as DraftFields), state: h.s as OrderState };
    if (h.r !== undefined) order.result = JSON.parse(h.r) as OrderResult;
  } else {
    if (h.u === undefined) return undefined;
    order = {
      refId,
      chatId: Number(h.c),
      userId: Number(h.u),
      userName: h.n ?? "",
      lang: (h.l ?? "id") as OrderRecord["lang"],
      gameName: h.g ?? "",
      productCode: h.k ?? "",
      productName: h.pn ?? "",
      price: h.p === undefined ? null : Number(h.p),
      playerId: h.y ?? "",
      createdAt: h.a ?? "",
      state: h.s as OrderState,
    };
    if (h.o !== undefined) order.role = h.o as NonNullable<OrderRecord["role"]>;
    if (h.t !== undefined) order.tier = h.t;
    if (h.q !== undefined) order.requestMessageId = Number(h.q);
    const result = resultOf(h);
    if (result !== undefined) order.result = result;
  }
  if (h.sa !== undefined) order.submittedAt = h.sa;
  if (h.fa !== undefined) order.finishedAt = h.fa;
  if (h.na !== undefined) order.notifiedAt = h.na;
  if (h.m !== undefined) order.summaryMessageId = Number(h.m);
  if (h.sb !== undefined) order.settledBy = Number(h.sb);
  if (h.st !== undefined) order.settledAt = h.st;
  if (h.ws !== undefined) order.saldoAfter = Number(h.ws);
  if (h.lc !== undefined) order.lastProviderPrice = Number(h.lc);
  readAttempts(order, h);
  return order;
}

/** A kept line's value: byte 2 is a field the hash did not have; a b c d after byte 3 are bytes 1, 2, 3 and a line break. */
const KEPT_ESCAPED: Readonly<Record<string, string>> = { a: "\x01", b: "\x02", c: "\x03", d: "\n" };
function keptValue(text: string): string | undefined {
  if (text === "\x02") return undefined;
  if (!text.includes("\x03")) return text;
  let out = "";
  let from = 0;
  for (let at = text.indexOf("\x03"); at >= 0; at = text.indexOf("\x03", from)) {
    out += text.slice(from, at) + (KEPT_ESCAPED[text[at + 1] ?? ""] ?? "");
    from = at + 2;
  }
  return out + text.slice(from);
}

/** The values of the kept line being read (a line has at most 21). */
const keptValues = fieldScanner(22);

/** Value i of the kept line last scanned; undefined past its end or when it is missing (byte 2). */
function keptAt(i: number): string | undefined {
  const raw = keptValues.at(i);
  return raw === undefined ? undefined : keptValue(raw);
}

const KEPT_STATES: Readonly<Record<string, OrderState>> = { s: "success", f: "failed", u: "unknown" };
const KEPT_ROLES: Readonly<Record<string, NonNullable<OrderLine["role"]>>> = { s: "staff", r: "reseller", a: "admin" };

/**
 * The line an order's hash keeps once it has an outcome (redis-line-lua.ts: LUA_LINE), read as
 * orderLine(orderFromHash(hash)) reads the whole hash: its state's letter, its submit time (empty:
 * `indexMs`, the time of its element in the time index), its role's letter, then the raw values of
 * the fields u, n, k, pn, y, p, rt, rn, rs, rb, rpi, t, rc, re, r~providerPrice and
 * r~providerPriceFrom, then the provider (xp) and the providers that refused it (comma-separated)
 * (those missing at the end left out; a line kept before there were several providers ends earlier).
 */
export function lineOfKept(refId: string, kept: string, indexMs: number): OrderLine {
  const v = keptValues;
  const whole = v.scan(kept, 0, kept.length, "\x01");
  const state = KEPT_STATES[v.field(0)];
  const role = v.field(2) === "\x02" ? undefined : KEPT_ROLES[v.field(2)];
  if (!whole || state === undefined || v.count < 4 || v.count > 21 || (role === undefined && v.field(2) !== "\x02"))
    throw new Error(`order ${refId}: its kept line is of an unknown form`);
  const at = keptAt;
  const submitted = at(1);
  const price = at(8);
  const line = newLine(
    refId,
    state,
    submitted === "" ? indexMs : Date.parse(submitted ?? ""),
    Number(at(3)),
    at(4) ?? "",
    at(5) ?? "",
    at(6) ?? "",
    at(7) ?? "",
    price === undefined ? null : Number(price),
  );
  // A line has every field (undefined until set): a value that is missing leaves it so.
  line.role = role;
  line.trxId = at(9);
  line.destinationName = at(10);
  line.sn = at(11);
  const balance = at(12);
  if (balance !== undefined) line.lastBalance = Number(balance);
  const priceRp = at(13);
  if (priceRp !== undefined) line.priceRp = Number(priceRp);
  line.tier = at(14);
  line.errorCode = at(15);
  line.errorMsg = at(16);
  const providerPrice = at(17);
  if (providerPrice !== undefined) line.providerPrice = JSON.parse(providerPrice) as number;
  const from = at(18);
  if (from !== undefined) line.providerPriceFrom = JSON.parse(from) as OrderLine["providerPriceFrom"];
  line.provider = at(19);
  line.refusedBy = at(20);
  return line;
}
