import { Hono } from "hono";
import { z } from "zod";
import type { MiniAppEnv } from "../auth.js";
import type { MiniAppDeps } from "../deps.js";
import { notFound, paramsOf } from "../errors.js";
import { depositView } from "../views.js";
import { REF_ID } from "./ids.js";

const depositId = paramsOf(z.object({ id: z.string().regex(REF_ID) }));

/**
 * /admin/deposits/:id: a prepared deposit confirmed (credited once however often this is called:
 * the ledger's step; the reseller is told in the chat; one naming a deposit request credits it by
 * hand, or is refused) or cancelled.
 */
export function depositsRoutes(deps: Pick<MiniAppDeps, "deposits" | "depositRequests">) {
  const { deposits, depositRequests } = deps;
  return new Hono<MiniAppEnv>()
    .post("/:id/confirm", depositId, async (c) => {
      const id = c.req.valid("param").id;
      // A deposit naming a deposit request credits it by hand, as in the chat: refused (and the
      // deposit cancelled) when the request was credited before or is another reseller's.
      const answer = await depositRequests.confirmDeposit(id, c.get("viewer").userId);
      if (answer.kind === "refused") {
        const cancelled = await deposits.get(id);
        if (cancelled === undefined) return notFound(c);
        return c.json({ error: "taken" as const, deposit: depositView(cancelled, 0) }, 409);
      }
      const r = answer.confirmed;
      switch (r.kind) {
        case "done":
          return c.json(
            { deposit: depositView(r.deposit, r.wallet.saldo - r.deposit.amount), saldo: r.wallet.saldo },
            200,
          );
        case "taken": {
          const before = (r.deposit.saldoAfter ?? 0) - r.deposit.amount;
          return c.json({ error: "taken" as const, deposit: depositView(r.deposit, before) }, 409);
        }
        case "short":
          return c.json({ error: "short" as const, saldo: r.saldo }, 409);
        case "not-found":
          return notFound(c);
      }
    })
    .post("/:id/cancel", depositId, async (c) => {
      const r = await deposits.cancel(c.req.valid("param").id);
      if (r.kind === "not-found") return notFound(c);
      if (r.kind === "taken") return c.json({ error: "taken" as const, deposit: depositView(r.deposit, 0) }, 409);
      return c.json({ deposit: depositView(r.deposit, 0) }, 200);
    });
}
