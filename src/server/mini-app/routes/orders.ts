import { Hono } from "hono";
import { z } from "zod";
import { dayRange } from "../../../calendar.js";
import type { MiniAppEnv } from "../auth.js";
import type { MiniAppDeps } from "../deps.js";
import { invalid, queryOf } from "../errors.js";
import { orderView, withPartnerRefs } from "../views.js";
import { DAY, USER_ID } from "./ids.js";

const PAGE_SIZE = 20;

/**
 * /admin/orders: every order, searched by ref id or player id, day, buyer and state, a page at a
 * time; /admin/orders.csv and /admin/orders.xlsx: a day's orders as a file. Both paths are declared here, so this sub-app
 * is mounted at the admin's root.
 */
export function ordersRoutes(deps: Pick<MiniAppDeps, "reports" | "timeZone" | "providerNames">) {
  const { reports, timeZone } = deps;
  const several = (deps.providerNames?.length ?? 1) > 1;
  const ordersQuery = z.object({
    q: z.string().trim().max(64).optional(),
    day: z
      .string()
      .regex(DAY, "must be a day such as 2026-03-10")
      .refine((d) => dayRange(d, timeZone) !== undefined, "no such day")
      .optional(),
    user: z.string().regex(USER_ID, "must be a Telegram user id").optional(),
    state: z.enum(["submitting", "success", "failed", "unknown"]).optional(),
    page: z.coerce
      .number({ error: "must be a page number, 0 or more" })
      .int("must be a page number, 0 or more")
      .min(0, "must be a page number, 0 or more")
      .max(10_000, "must be at most 10000")
      .default(0),
  });

  return new Hono<MiniAppEnv>()
    .get("/orders", queryOf(ordersQuery), async (c) => {
      const q = c.req.valid("query");
      const range = q.day === undefined ? undefined : dayRange(q.day, timeZone);
      // A ref id is that one order; anything else typed is a player id, as the chat reads one.
      const found = await reports.orders.search({
        ...(q.q === undefined ? {} : { text: q.q }),
        ...(range === undefined ? {} : { fromMs: range.fromMs, toMs: range.toMs }),
        ...(q.user === undefined ? {} : { userId: Number(q.user) }),
        ...(q.state === undefined ? {} : { state: q.state }),
        page: q.page,
        pageSize: PAGE_SIZE,
      });
      return c.json(
        {
          orders: await withPartnerRefs(
            found.orders.map((o) => orderView(o, true, several)),
            reports.orders.partnerRefOf,
          ),
          page: q.page,
          hasMore: found.hasMore,
        },
        200,
      );
    })
    .get("/orders.csv", queryOf(z.object({ day: z.string().optional() })), async (c) => {
      const day = c.req.valid("query").day ?? "";
      const file = DAY.test(day) ? await reports.dayCsv(day) : undefined;
      if (file === undefined) return invalid(c, [{ path: "day", message: "must be a day such as 2026-03-10" }]);
      return c.body(file.csv, 200, {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="orders-${day}.csv"`,
      });
    })
    .get("/orders.xlsx", queryOf(z.object({ day: z.string().optional() })), async (c) => {
      const day = c.req.valid("query").day ?? "";
      const file = DAY.test(day) ? await reports.dayXlsx(day) : undefined;
      if (file === undefined) return invalid(c, [{ path: "day", message: "must be a day such as 2026-03-10" }]);
      return c.body(new Uint8Array(file.xlsx), 200, {
        "content-type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "content-disposition": `attachment; filename="orders-${day}.xlsx"`,
      });
    });
}
