import { validate, type AuthDateInvalidError, type ExpiredError } from "@tma.js/init-data-node";
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { Buyer } from "../../catalog/catalog.js";
import type { Logger } from "../../logger.js";

/** Who is asking, once their init data passed: the Telegram user and what they may do here. */
export interface Viewer {
  userId: number;
  firstName: string;
  languageCode: string | undefined;
  /** undefined: may not order (a stranger); staff may order but see nothing here. */
  buyer: Buyer | undefined;
}

export type MiniAppEnv = { Variables: { viewer: Viewer } };

/** Telegram's own limit: init data older than a day is refused (`npm run app-link` counts on it too). */
export const INIT_DATA_MAX_AGE_S = 24 * 60 * 60;

/** The user as Telegram puts it in init data (a JSON object); the rest of its fields are not needed here. */
const initDataUser = z.object({
  id: z.number().int().positive(),
  first_name: z.string(),
  language_code: z.string().optional(),
});

/** What a check of init data found: who is asking, or why not, in words for the log (never a part of the data). */
type Checked = { ok: true; viewer: Omit<Viewer, "buyer"> } | { ok: false; reason: string };

/** A duration in words: `45 s`, `12 min`, `24 h`, `1 h 5 min`, `3 days 2 h`. */
function inWords(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
  return h % 24 === 0 ? `${Math.floor(h / 24)} days` : `${Math.floor(h / 24)} days ${h % 24} h`;
}

/**
 * Checks init data (the raw query string Telegram signed) and reads its user. Its `hash` is checked
 * with the bot token and its age by @tma.js/init-data-node's `validate`; the user is read here, not
 * by the package's `parse`, which also demands the `signature` field that Telegram clients older
 * than Bot API 8.0 do not send (their init data is signed by `hash` alone, and valid).
 */
export function checkInitData(raw: string, botToken: string, maxAgeS = INIT_DATA_MAX_AGE_S): Checked {
  try {
    validate(raw, botToken, { expiresIn: maxAgeS });
  } catch (err) {
    return { ok: false, reason: refusalReason(err, maxAgeS) };
  }
  const user = new URLSearchParams(raw).get("user");
  if (user === null || user === "") return { ok: false, reason: "missing field: user" };
  let json: unknown;
  try {
    json = JSON.parse(user);
  } catch {
    return { ok: false, reason: "bad field: user is not JSON" };
  }
  const parsed = initDataUser.safeParse(json);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join(".") ?? "";
    return { ok: false, reason: `bad field: user${field === "" ? "" : `.${field}`} is missing or not valid` };
  }
  const { id, first_name, language_code } = parsed.data;
  return { ok: true, viewer: { userId: id, firstName: first_name, languageCode: language_code } };
}

/**
 * The package's errors, told apart by name: `instanceof` does not work on them (error-kid, which
 * makes them, sets each one's prototype to its base class).
 */
function refusalReason(err: unknown, maxAgeS: number): string {
  const name = err instanceof Error ? err.name : "unknown error";
  switch (name) {
    case "ExpiredError": {
      const { issuedAt, expiresAt } = (err as ExpiredError).data;
      const now = Date.now();
      return (
        `expired ${inWords(now - expiresAt.getTime())} ago ` +
        `(signed ${inWords(now - issuedAt.getTime())} ago, the limit is ${inWords(maxAgeS * 1000)})`
      );
    }
    case "SignatureInvalidError":
      return "bad signature: the hash does not match (forged, altered, or signed with another bot's token)";
    case "SignatureMissingError":
      return "missing field: hash";
    case "AuthDateInvalidError": {
      const value = (err as AuthDateInvalidError).data.value;
      return value === undefined || value === "" ? "missing field: auth_date" : "bad field: auth_date is not a time";
    }
    default:
      return `not readable (${name})`;
  }
}

/**
 * Every call under /app/api/ carries Telegram's init data, `Authorization: tma <initData>`, as
 * Telegram gave it to the page (the raw query string: re-encoding it would break the signature).
 * Its signature is checked with the bot token (HMAC-SHA256, by @tma.js/init-data-node, the tma.js
 * family's package for Node) and its age: missing, forged, altered or older than 24 h is 401 and
 * nothing else, on every path, before any route (an unknown path too). The token never leaves
 * here: a refusal logs only why, in words (never the init data or its hash).
 */
export function initDataAuth(opts: {
  botToken: string;
  buyerOf: (userId: number) => Promise<Buyer | undefined>;
  logger: Logger;
  maxAgeS?: number;
}): MiddlewareHandler<MiniAppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    const raw = /^tma (\S+)$/.exec(header ?? "")?.[1];
    const checked: Checked =
      raw !== undefined
        ? checkInitData(raw, opts.botToken, opts.maxAgeS)
        : {
            ok: false,
            reason:
              header === undefined || header.trim() === "" || header.trim() === "tma"
                ? "no init data: no Authorization: tma <init data> header"
                : "the Authorization header is not tma <init data>",
          };
    if (!checked.ok) {
      opts.logger.info({ path: c.req.path, reason: checked.reason }, "mini app: init data refused");
      return c.json({ error: "unauthorized" }, 401);
    }
    c.set("viewer", { ...checked.viewer, buyer: await opts.buyerOf(checked.viewer.userId) });
    await next();
  };
}

/** Only these roles pass (403 for anyone else with valid init data). */
export function onlyFor(...roles: Array<Buyer["role"]>): MiddlewareHandler<MiniAppEnv> {
  return async (c, next) => {
    const role = c.get("viewer").buyer?.role;
    if (role === undefined || !roles.includes(role)) return c.json({ error: "forbidden" }, 403);
    await next();
  };
}
