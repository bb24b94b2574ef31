import { Hono } from "hono";
import { onlyFor, type MiniAppEnv } from "../auth.js";
import type { MiniAppDeps } from "../deps.js";
import type { Session } from "../views.js";

/** /session: who opened the page, in which language, and the shop's name, time zone and today. */
export function sessionRoutes(deps: Pick<MiniAppDeps, "languageOf" | "shopName" | "timeZone" | "today">) {
  return new Hono<MiniAppEnv>().get("/", onlyFor("admin", "reseller"), async (c) => {
    const viewer = c.get("viewer");
    const buyer = viewer.buyer!;
    const session: Session = {
      userId: viewer.userId,
      firstName: viewer.firstName,
      role: buyer.role === "reseller" ? "reseller" : "admin",
      ...(buyer.role === "reseller" ? { tier: buyer.tier } : {}),
      lang: await deps.languageOf(viewer.userId, viewer.languageCode),
      shopName: deps.shopName(),
      timeZone: deps.timeZone,
      today: deps.today(),
    };
    return c.json(session, 200);
  });
}
