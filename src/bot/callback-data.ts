/**
 * Every callback_data the bot sends, typed, encoded and parsed in this one place.
 * Telegram allows 64 bytes; a prefix and an id stay well below that. Confirm and Cancel carry
 * the order's ref_id, so an old or doubled button can only ever act on its own order.
 */
export type CallbackData =
  | { type: "game"; index: number }
  | { type: "games" }
  | { type: "product"; code: string }
  | { type: "confirm"; refId: string }
  | { type: "cancel"; refId: string }
  | { type: "history"; scope: "me" | "all"; page: number }
  | { type: "report-csv"; day: string }
  | { type: "settle"; outcome: "success" | "failed"; refId: string }
  | { type: "language"; lang: "en" | "id" };

export function encodeCallback(data: CallbackData): string {
  switch (data.type) {
    case "game":
      return `g:${data.index}`;
    case "games":
      return "gs";
    case "product":
      return `p:${data.code}`;
    case "confirm":
      return `c:${data.refId}`;
    case "cancel":
      return `x:${data.refId}`;
    case "history":
      return `h:${data.scope === "all" ? "a" : "m"}:${data.page}`;
    case "report-csv":
      return `r:${data.day}`;
    case "settle":
      return `s:${data.outcome === "success" ? "ok" : "no"}:${data.refId}`;
    case "language":
      return `l:${data.lang}`;
  }
}

const ID = /^[A-Za-z0-9._-]{1,60}$/;

/** Anything that is not exactly one of ours (forged, truncated, from an old version) is `undefined`. */
export function parseCallback(raw: string | undefined): CallbackData | undefined {
  if (raw === undefined || raw.length > 64) return undefined;
  if (raw === "gs") return { type: "games" };
  let m = /^h:([ma]):([0-9]{1,5})$/.exec(raw);
  if (m !== null) return { type: "history", scope: m[1] === "a" ? "all" : "me", page: Number(m[2]) };
  m = /^r:([0-9]{4}-[0-9]{2}-[0-9]{2})$/.exec(raw);
  if (m !== null) return { type: "report-csv", day: m[1]! };
  m = /^s:(ok|no):([A-Za-z0-9._-]{1,56})$/.exec(raw);
  if (m !== null) return { type: "settle", outcome: m[1] === "ok" ? "success" : "failed", refId: m[2]! };
  if (raw === "l:en" || raw === "l:id") return { type: "language", lang: raw === "l:en" ? "en" : "id" };
  const sep = raw.indexOf(":");
  if (sep !== 1) return undefined;
  const kind = raw[0];
  const value = raw.slice(2);
  if (kind === "g") return /^[0-9]{1,3}$/.test(value) ? { type: "game", index: Number(value) } : undefined;
  if (!ID.test(value)) return undefined;
  if (kind === "p") return { type: "product", code: value };
  if (kind === "c") return { type: "confirm", refId: value };
  if (kind === "x") return { type: "cancel", refId: value };
  return undefined;
}
