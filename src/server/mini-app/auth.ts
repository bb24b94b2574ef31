import { parse, validate } from "@tma.js/init-data-node";
import type { MiddlewareHandler } from "hono";
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

/** Telegram's own limit: init data older than a day is refused (contract section 11). */
export const INIT_DATA_MAX_AGE_S = 24 * 60 * 60;

/**
 * Every call under /app/api/ carries Telegram's init data, `Authorization: tma <initData>`, as
 * Telegram gave it to the page (the raw query string: re-encoding it would break the signature).
 * Its signature is checked with the bot token (HMAC-SHA256, by @tma.js/init-data-node, the tma.js
 * family's package for Node) and its age: missing, forged, altered or older than 24 h is 401 and
 * nothing else, on every path, before any route (an unknown path too). The token never leaves
 * here: a refusal logs only why.
 */
export function initDataAuth(opts: {
  botToken: string;
  buyerOf: (userId: number) => Promise<Buyer | undefined>;
  logger: Logger;
  maxAgeS?: number;
}): MiddlewareHandler<MiniAppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const raw = /^tma (\S+)$/.exec(header)?.[1];
    let viewer: Omit<Viewer, "buyer"> | undefined;
    if (raw !== undefined) {
      try {
        validate(raw, opts.botToken, { expiresIn: opts.maxAgeS ?? INIT_DATA_MAX_AGE_S });
        const user = parse(raw).user;
        if (user !== undefined)
          viewer = { userId: user.id, firstName: user.first_name, languageCode: user.language_code };
      } catch (err) {
        opts.logger.info(
          { path: c.req.path, why: err instanceof Error ? err.name : "invalid" },
          "mini app: init data refused",
        );
      }
    }
    if (viewer === undefined) return c.json({ error: "unauthorized" }, 401);
    c.set("viewer", { ...viewer, buyer: await opts.buyerOf(viewer.userId) });
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
