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
  | { type: "cancel"; refId: string };

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
  }
}

const ID = /^[A-Za-z0-9._-]{1,60}$/;

/** Anything that is not exactly one of ours (forged, truncated, from an old version) is `undefined`. */
export function parseCallback(raw: string | undefined): CallbackData | undefined {
  if (raw === undefined || raw.length > 64) return undefined;
  if (raw === "gs") return { type: "games" };
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
