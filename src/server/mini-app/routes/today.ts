import { Hono } from "hono";
import type { MiniAppEnv } from "../auth.js";
import type { MiniAppDeps } from "../deps.js";

/** GET /admin/today: the day so far, the last days' series, the balance and what the shop owes, as reports/ computes them. */
export const todayRoutes = (deps: Pick<MiniAppDeps, "reports">) =>
  new Hono<MiniAppEnv>().get("/", async (c) => c.json(await deps.reports.today(), 200));
