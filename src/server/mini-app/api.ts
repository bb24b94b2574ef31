import { Hono } from "hono";
import { onlyFor, type MiniAppEnv } from "./auth.js";
import type { MiniAppDeps } from "./deps.js";
import { catalogueRoutes } from "./routes/catalogue.js";
import { adminDepositRequestRoutes, resellerDepositRequestRoutes } from "./routes/deposit-requests.js";
import { depositsRoutes } from "./routes/deposits.js";
import { orderingRoutes, receiptRoutes } from "./routes/ordering.js";
import { ordersRoutes } from "./routes/orders.js";
import { pendingRoutes } from "./routes/pending.js";
import { questionsRoutes } from "./routes/questions.js";
import { ownAccountRoutes } from "./routes/own-account.js";
import { resellersRoutes } from "./routes/resellers.js";
import { sessionRoutes } from "./routes/session.js";
import { todayRoutes } from "./routes/today.js";

/**
 * The Mini App's JSON interface, mounted at /app/api (the init-data check runs before it): one
 * sub-app per resource, chained so that each route's parameters and answers are part of the type
 * `MiniAppApi`, which the page calls through Hono's typed client. Admins reach /admin/…, resellers
 * /reseller/… (403 for anyone else, unknown paths under them too). Every change goes through the
 * same services as the chat command that does it, and every figure comes from reports/: the chat
 * and the page always agree.
 */
export function miniAppApi(deps: MiniAppDeps) {
  const admin = new Hono<MiniAppEnv>()
    .use(onlyFor("admin"))
    .route("/today", todayRoutes(deps))
    .route("/", questionsRoutes(deps))
    .route("/catalog", catalogueRoutes(deps))
    .route("/pending", pendingRoutes(deps))
    .route("/resellers", resellersRoutes(deps))
    .route("/deposits", depositsRoutes(deps))
    .route("/deposit-requests", adminDepositRequestRoutes(deps))
    .route("/order", orderingRoutes(deps))
    .route("/receipt", receiptRoutes(deps, true))
    .route("/", ordersRoutes(deps));
  const reseller = new Hono<MiniAppEnv>()
    .use(onlyFor("reseller"))
    .route("/deposit-requests", resellerDepositRequestRoutes(deps))
    .route("/order", orderingRoutes(deps))
    .route("/receipt", receiptRoutes(deps, false))
    .route("/", ownAccountRoutes(deps));
  return new Hono<MiniAppEnv>()
    .route("/session", sessionRoutes(deps))
    .route("/admin", admin)
    .route("/reseller", reseller);
}

/** The Mini App's routes as a type: the contract the page's client (`hc<MiniAppApi>`) is checked against. */
export type MiniAppApi = ReturnType<typeof miniAppApi>;
