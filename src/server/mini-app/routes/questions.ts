import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import { z } from "zod";
import { isDay } from "../../../calendar.js";
import type { MiniAppEnv } from "../auth.js";
import type { MiniAppDeps } from "../deps.js";
import { zodIssues } from "../errors.js";

/** `?period=day|week|month&day=YYYY-MM-DD`: the period that day is in (today's when no day is given). */
const periodQuery = zValidator(
  "query",
  z.object({
    period: z.enum(["day", "week", "month"], { error: "must be day, week or month" }).default("day"),
    day: z.string().refine(isDay, "must be a day such as 2026-03-10").optional(),
  }),
  // A period the page cannot ask for is a bad request: 400, naming the parameter.
  (result, c) =>
    result.success ? undefined : c.json({ error: "invalid" as const, issues: zodIssues(result.error) }, 400),
);

/**
 * The owner's questions, as the chat's /top, /compare and /hours answer them (reports/questions.ts
 * adds them up from the per-day figures): /admin/top, /admin/compare, /admin/hours.
 */
export function questionsRoutes(deps: Pick<MiniAppDeps, "reports">) {
  const { reports } = deps;
  return new Hono<MiniAppEnv>()
    .get("/top", periodQuery, async (c) => {
      const { period, day } = c.req.valid("query");
      return c.json(await reports.questions.top(period, day), 200);
    })
    .get("/compare", async (c) => c.json(await reports.questions.compareMonth(), 200))
    .get("/hours", periodQuery, async (c) => {
      const { period, day } = c.req.valid("query");
      return c.json(await reports.questions.hours(period, day), 200);
    });
}
