import type { Composer, Context, Filter } from "grammy";
import type { Lang } from "../orders/order.js";

/**
 * Every callback_data the bot sends, typed, encoded and parsed in this one place: a short prefix,
 * a colon and the data. Telegram allows 64 bytes; a prefix and an id stay well below that.
 * Confirm and Cancel carry the order's ref_id, so an old or doubled button can only ever act on
 * its own order. Anything that is not exactly one of ours (forged, truncated, from an old
 * version) decodes to `undefined`.
 */
export interface CallbackKind<T> {
  readonly prefix: string;
  encode(data: T): string;
  decode(raw: string): T | undefined;
}

function kind<T>(
  prefix: string,
  encode: (data: T) => string,
  decode: (rest: string) => T | undefined,
): CallbackKind<T> {
  const head = `${prefix}:`;
  return {
    prefix,
    encode: (data) => head + encode(data),
    decode: (raw) => (raw.length <= 64 && raw.startsWith(head) ? decode(raw.slice(head.length)) : undefined),
  };
}

const REF_ID = /^[A-Za-z0-9._-]{1,56}$/;
const CODE = /^[A-Za-z0-9._-]{1,32}$/;
const refId = (rest: string) => (REF_ID.test(rest) ? rest : undefined);

/** A day, week or month, named by one of its days (`YYYY-MM-DD`): `d:2026-03-12`. */
function periodKind(prefix: string) {
  return kind<{ kind: "day" | "week" | "month"; day: string }>(
    prefix,
    (d) => `${d.kind[0]}:${d.day}`,
    (rest) => {
      const m = /^([dwm]):([0-9]{4}-[0-9]{2}-[0-9]{2})$/.exec(rest);
      if (m === null) return undefined;
      return { kind: m[1] === "d" ? "day" : m[1] === "w" ? "week" : "month", day: m[2]! };
    },
  );
}

export const Callback = {
  /** The products of one game (its index in the catalogue). */
  game: kind<number>("g", String, (rest) => (/^(?:0|[1-9][0-9]{0,2})$/.test(rest) ? Number(rest) : undefined)),
  /** Back to the list of games. */
  games: kind<null>(
    "gs",
    () => "",
    (rest) => (rest === "" ? null : undefined),
  ),
  product: kind<string>(
    "p",
    (code) => code,
    (rest) => (CODE.test(rest) ? rest : undefined),
  ),
  confirm: kind<string>("c", (ref) => ref, refId),
  cancel: kind<string>("x", (ref) => ref, refId),
  /** Receipt of a successful order for the end customer, bound to its ref_id. */
  receipt: kind<string>("rc", (ref) => ref, refId),
  history: kind<{ scope: "me" | "all"; page: number }>(
    "h",
    (d) => `${d.scope === "all" ? "a" : "m"}:${d.page}`,
    (rest) => {
      const m = /^([ma]):(0|[1-9][0-9]{0,4})$/.exec(rest);
      return m === null ? undefined : { scope: m[1] === "a" ? "all" : "me", page: Number(m[2]) };
    },
  ),
  reportCsv: kind<string>(
    "r",
    (day) => day,
    (rest) => (/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(rest) ? rest : undefined),
  ),
  /** The day's orders as an Excel workbook, beside the CSV button under a /report. */
  reportXlsx: kind<string>(
    "rx",
    (day) => day,
    (rest) => (/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(rest) ? rest : undefined),
  ),
  /** ◀ ▶ under a /report: the day (`YYYY-MM-DD`) to show in its place. */
  reportDay: kind<string>(
    "rd",
    (day) => day,
    (rest) => (/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(rest) ? rest : undefined),
  ),
  /** /top of the day, week or month that a day (`YYYY-MM-DD`) is in. */
  top: periodKind("tp"),
  /** /hours of the day, week or month that a day (`YYYY-MM-DD`) is in. */
  hours: periodKind("hr"),
  /** A month's export (`YYYY-MM`), offered under /export's answer. */
  exportMonth: kind<string>(
    "em",
    (month) => month,
    (rest) => (/^[0-9]{4}-[0-9]{2}$/.test(rest) ? rest : undefined),
  ),
  /** A month's orders (`YYYY-MM`) as an Excel workbook, offered under /export's CSV. */
  exportXlsx: kind<string>(
    "ex",
    (month) => month,
    (rest) => (/^[0-9]{4}-[0-9]{2}$/.test(rest) ? rest : undefined),
  ),
  settle: kind<{ outcome: "success" | "failed"; refId: string }>(
    "s",
    (d) => `${d.outcome === "success" ? "ok" : "no"}:${d.refId}`,
    (rest) => {
      const m = /^(ok|no):(.+)$/.exec(rest);
      const ref = m === null ? undefined : refId(m[2]!);
      return ref === undefined ? undefined : { outcome: m![1] === "ok" ? "success" : "failed", refId: ref };
    },
  ),
  language: kind<Lang>(
    "l",
    (lang) => lang,
    (rest) => (rest === "en" || rest === "id" ? rest : undefined),
  ),
  /** Confirm and Cancel of a deposit's summary, bound to its id. */
  depositConfirm: kind<string>("dc", (id) => id, refId),
  depositCancel: kind<string>("dx", (id) => id, refId),
  /** Confirm and Cancel of an edited catalogue's diff, bound to the upload's id. */
  catalogConfirm: kind<string>("kc", (id) => id, refId),
  catalogCancel: kind<string>("kx", (id) => id, refId),
  /** Confirm and Cancel of a price change that needed a second look, bound to its id. */
  priceConfirm: kind<string>("pc", (id) => id, refId),
  priceCancel: kind<string>("pk", (id) => id, refId),
  /** Confirm and Cancel of a broadcast's preview, bound to its id. */
  broadcastConfirm: kind<string>("bc", (id) => id, refId),
  broadcastCancel: kind<string>("bx", (id) => id, refId),
  /** A deposit request's buttons, bound to its id: Approve, Other amount, Reject (the admins'), Cancel (the reseller's). */
  requestApprove: kind<string>("ra", (id) => id, refId),
  requestOther: kind<string>("ro", (id) => id, refId),
  requestReject: kind<string>("rj", (id) => id, refId),
  requestCancel: kind<string>("rq", (id) => id, refId),
  /** "Top up saldo" under a reseller's /saldo. */
  requestNew: kind<null>(
    "rn",
    () => "",
    (rest) => (rest === "" ? null : undefined),
  ),
  /** The reseller's choice of the request a proof is for (when several waited for one). */
  requestWhich: kind<string>("rw", (id) => id, refId),
  /** Cancel of another amount's summary: nothing credited, the request still waits for a decision. */
  requestOtherCancel: kind<string>("rx", (id) => id, refId),
  /** Confirm of another amount for a request (what the bank shows), bound to the request and the amount. */
  requestOtherConfirm: kind<{ id: string; amount: number }>(
    "rt",
    (d) => `${d.id}:${d.amount}`,
    (rest) => {
      const m = /^([A-Za-z0-9]{1,40}):([1-9][0-9]{0,8})$/.exec(rest);
      return m === null ? undefined : { id: m[1]!, amount: Number(m[2]) };
    },
  ),
} as const;

const KINDS: ReadonlyArray<CallbackKind<unknown>> = Object.values(Callback);

/** True when the data is one of ours (perhaps for a menu that is closed now). */
export function isOurCallback(raw: string | undefined): boolean {
  return raw !== undefined && KINDS.some((k) => k.decode(raw) !== undefined);
}

/**
 * Routes the buttons of one kind to a handler with their decoded data, behind an optional guard
 * (such as `adminOnly`). Data with the prefix but not the shape passes on (the fallback answers it).
 */
export function onCallback<C extends Context, T>(
  composer: Composer<C>,
  kind: CallbackKind<T>,
  handler: (ctx: Filter<C, "callback_query:data">, data: T) => Promise<unknown>,
  guard?: (ctx: C, next: () => Promise<void>) => Promise<void>,
): void {
  composer.callbackQuery(new RegExp(`^${kind.prefix}:`), async (ctx, next) => {
    const data = kind.decode(ctx.callbackQuery.data);
    if (data === undefined) return next();
    if (guard === undefined) await handler(ctx, data);
    else await guard(ctx, async () => void (await handler(ctx, data)));
  });
}
