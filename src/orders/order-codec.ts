import { isDeepStrictEqual } from "node:util";
import type { DraftFields, OrderRecord, OrderResult, OrderState } from "./order.js";
import type { Movement, MovementKind } from "./wallet.js";

/*
 * How an order and a statement line are written down in the Redis ledger (ledger-redis.ts), and
 * the compact form of a finished order once it is compacted (both ledgers). Pure functions: no
 * Redis here, so every shape is tested by round trips (test/orders/order-codec.test.ts).
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
function packTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isFinite(ms) && ms >= 0 && new Date(ms).toISOString() === iso) return ms.toString(36);
  return `!${iso}`;
}

function unpackTime(code: string): string {
  return code.startsWith("!") ? code.slice(1) : new Date(parseInt(code, 36)).toISOString();
}

/** Milliseconds as 9 base-36 digits: fixed width, so that text order is time order (until the year 5188). */
export const msKey = (ms: number): string => Math.max(0, Math.floor(ms)).toString(36).padStart(9, "0");

/** The UTC day number of a time (days since 1970-01-01): the time index keeps one list per UTC day. */
export const utcDay = (ms: number): number => Math.floor(ms / 86_400_000);

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * The creation time a ref id carries (ref-id.ts: the prefix, 9 base-32 digits of milliseconds, 10
 * random characters), or undefined for a ref id not made that way. Read from the end, so a prefix
 * of any length (REF_ID_PREFIX changes over time) does not matter.
 */
function refTime(refId: string): number | undefined {
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
// An order in Redis while it is open or recent: one hash of short fields

/*
 * Field names of the order hash (layout version 3): c chatId, u userId, n userName, l lang,
 * g gameName, k productCode, pn productName, p price (absent: null), y playerId, a createdAt,
 * o role, t tier, q requestMessageId, s state, h the held price, sa/sk submitted at (ISO, 9 digits),
 * dy the submit day, m summary message, fa finished, na notified, st/sb settled at/by, ws saldo
 * after, lc the provider price last seen for the product when it was sent (while it is unknown).
 * Lua reads some of them by name (ledger-redis.ts). Every field of the provider's result
 * starts with "r" and no other field does, so a later answer can replace a result whole.
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
function pieces(text: string): string[] {
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

function resultOf(h: Readonly<Record<string, string>>): OrderResult | undefined {
  let result: Record<string, unknown> | undefined;
  let detail: Record<string, unknown> | undefined;
  let template: string | undefined;
  // A long value's pieces, back together (resultFields).
  const whole = new Map<string, string>();
  const more: Array<[string, number, string]> = [];
  for (const [field, value] of Object.entries(h)) {
    if (!field.startsWith("r")) continue;
    const m = /^(.+)#(\d+)$/.exec(field);
    if (m === null) whole.set(field, value);
    else more.push([m[1]!, Number(m[2]), value]);
  }
  more.sort((a, b) => a[1] - b[1]);
  for (const [field, , value] of more) whole.set(field, (whole.get(field) ?? "") + value);
  for (const [field, value] of whole) {
    if (!field.startsWith("r")) continue;
    result ??= {};
    if (field.startsWith("rp")) {
      detail ??= {};
      const name = Object.entries(DETAIL_FIELDS).find(([, f]) => f === field)?.[0];
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
      const name = Object.entries(RESULT_STRINGS).find(([, f]) => f === field)?.[0];
      if (name !== undefined) result[name] = value;
    }
  }
  if (detail !== undefined && result !== undefined) result.productDetail = detail;
  if (template !== undefined && result !== undefined) result.message = fillMessage(template, resultOnly(result));
  return result;
}

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
  return order;
}

// ---------------------------------------------------------------------------------------------
// A compacted order: one line in its day's list

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

const escape = (text: string) => text.replace(/[\\\t\n]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : "\\n"));
/** A text as a compacted order's field writes it (a backslash, a tab and a newline escaped). */
export const escapeField = escape;
const unescape = (text: string) =>
  text.includes("\\") ? text.replace(/\\(.)/g, (_, c: string) => (c === "t" ? "\t" : c === "n" ? "\n" : c)) : text;

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
  let template = "";
  let i = 0;
  next: while (i < message.length) {
    for (const [letter, value] of values) {
      if (message.startsWith(value, i)) {
        template += `{${letter}}`;
        i += value.length;
        continue next;
      }
    }
    template += message[i] === "{" ? "{{" : message[i];
    i += 1;
  }
  return template;
}

export function fillMessage(template: string, order: OrderRecord): string {
  if (!template.includes("{")) return template;
  let values: Map<string, string> | undefined;
  return template.replace(/\{\{|\{(\w)\}/g, (match, letter?: string) => {
    if (letter === undefined) return "{";
    values ??= new Map(messageValues(order));
    return values.get(letter) ?? match;
  });
}

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

/** A whole number in base 36 ("-" for a negative one); any other number as "~" and its decimal text. */
export const int36 = (n: number): string => (Number.isSafeInteger(n) ? n.toString(36) : `~${n}`);
const unInt36 = (text: string): number => (text.startsWith("~") ? Number(text.slice(1)) : parseInt(text, 36));

const num = (n: number | undefined) => (n === undefined ? "" : int36(n));
const opt = (s: string | undefined) => (s === undefined ? "" : escape(s));

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
    escape(order.playerId),
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
    escape(rest),
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
  if (f[0] === "J") return JSON.parse(unescape(f.slice(1).join("\t"))) as OrderRecord;
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
    playerId: unescape(f[6]!),
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
      (f[22] ?? "") === "" ? {} : (JSON.parse(unescape(f[22]!)) as Record<string, unknown>);
    if ((f[16] ?? "") !== "") result.trxId = unescape(f[16]!);
    if ((f[17] ?? "") !== "") result.destinationName = unescape(f[17]!);
    if ((f[18] ?? "") !== "") result.sn = unescape(f[18]!);
    if ((f[19] ?? "") !== "") result.lastBalance = unInt36(f[19]!);
    if ((f[21] ?? "") !== "") result.productDetail = freshCopy(f[21]!, text) as OrderResult["productDetail"];
    order.result = result;
    // Last: the message's template is filled from the order's other values.
    if ((f[20] ?? "") !== "") result.message = fillMessage(text(f[20]!), order);
  }
  return order;
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
  return `${elementHeader(Date.parse(order.submittedAt ?? ""), order.refId)}\tJ\t${escape(JSON.stringify(order))}`;
}

// ---------------------------------------------------------------------------------------------
// Statement lines

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
    const literal = escape(m.ref);
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
    const ref = seen === undefined ? unescape(refCode!) : seen.ref;
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
