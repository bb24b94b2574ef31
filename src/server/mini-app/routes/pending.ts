import { Hono } from "hono";
import { z } from "zod";
import { MAX_PROVIDER_PRICE, MAX_REASON } from "../../../orders/settle.js";
import type { MiniAppEnv } from "../auth.js";
import type { MiniAppDeps } from "../deps.js";
import { invalid, jsonBody, notFound, paramsOf } from "../errors.js";
import { orderView, withPartnerRefs } from "../views.js";
import { REF_ID } from "./ids.js";
import { settleTold } from "../../../partners/settle-told.js";

const settleBody = z.discriminatedUnion(
  "outcome",
  [
    z.object({
      outcome: z.literal("success"),
      sn: z
        .string()
        .trim()
        .regex(/^[^\s]{1,64}$/u, "an SN is 1 to 64 characters without spaces"),
      /** What the provider charged, when the admin knows it: the margin counts it. */
      cost: z
        .number({ error: "must be a whole number of rupiah" })
        .int("must be a whole number of rupiah")
        .min(0, "must be 0 or more")
        .max(MAX_PROVIDER_PRICE, `at most ${MAX_PROVIDER_PRICE} rupiah`)
        .optional(),
    }),
    z.object({
      outcome: z.literal("failed"),
      reason: z.string().trim().min(1, "say why it failed").max(MAX_REASON, `at most ${MAX_REASON} characters`),
    }),
  ],
  { error: 'must be { "outcome": "success", "sn": … } or { "outcome": "failed", "reason": … }' },
);

/**
 * /admin/pending: the orders whose outcome nobody knows yet, and the admin's verdict on one, settled
 * by the same service as /settle in the chat (the same ledger step, the same notice to the buyer).
 */
export function pendingRoutes(deps: Pick<MiniAppDeps, "orders" | "reports" | "providerNames" | "partners">) {
  const { orders, reports } = deps;
  const several = (deps.providerNames?.length ?? 1) > 1;
  return new Hono<MiniAppEnv>()
    .get("/", async (c) =>
      c.json(
        {
          orders: await withPartnerRefs(
            (await reports.orders.pending()).map((o) => orderView(o, true, several)),
            reports.orders.partnerRefOf,
          ),
        },
        200,
      ),
    )
    .post(
      "/:refId/settle",
      // The body first: a bad verdict is a 422 whatever the id.
      jsonBody(settleBody),
      paramsOf(z.object({ refId: z.string().regex(REF_ID) })),
      async (c) => {
        const typed = c.req.valid("param").refId;
        const refId = (await reports.orders.lookup(typed))?.refId ?? typed;
        const sent = c.req.valid("json");
        const r = await orders.settle({
          refId,
          adminId: c.get("viewer").userId,
          outcome:
            sent.outcome === "success"
              ? { state: "success", sn: sent.sn, ...(sent.cost === undefined ? {} : { cost: sent.cost }) }
              : { state: "failed", reason: sent.reason },
        });
        switch (r.kind) {
          case "settled":
            // Who learns of it: the user, or an H2H partner's system by a callback, or nobody yet.
            return c.json(
              { order: orderView(r.order, true, several), told: await settleTold(deps.partners, r.order) },
              200,
            );
          case "not-pending":
            return c.json({ error: "not-pending" as const, order: orderView(r.order, true, several) }, 409);
          case "not-found":
            return notFound(c);
          case "bad-sn":
            return invalid(c, [{ path: "sn", message: "an SN is 1 to 64 characters without spaces" }]);
          case "bad-cost":
            return invalid(c, [{ path: "cost", message: `0 to ${MAX_PROVIDER_PRICE} rupiah` }]);
          case "bad-reason":
            return invalid(c, [{ path: "reason", message: `1 to ${MAX_REASON} characters` }]);
        }
      },
    );
}
