import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { createWorld, type RunningBot, type World } from "../e2e/world.js";
import { freePort } from "../helpers/redis.js";
import { fundReseller } from "../helpers/ledger-history.js";
import { createLogger } from "../../src/logger.js";
import { h2hRoutes } from "../../src/server/h2h/h2h.js";
import { createRateLimit } from "../../src/server/h2h/rate-limit.js";
import { createWrongKeys } from "../../src/server/h2h/wrong-keys.js";
import type { PartnerOrders } from "../../src/partners/partner-orders.js";

const PLAYER = "12345678(1234)";
const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };

/**
 * A failure inside the shop while a partner's order is answered. The H2H routes run over real
 * HTTP on the running bot's own store, orders and saldo; only the step that fails is made to.
 */
describe("the H2H API when the shop fails inside an order", () => {
  let world: World;
  let bot: RunningBot;
  let server: ServerType | undefined;

  beforeEach(async () => {
    world = await createWorld({ initialBalance: 10_000_000 });
    bot = await world.run({
      ADMIN_IDS: String(ADMIN.id),
      RESELLER_IDS: String(BUDI.id),
      H2H_ENABLED: "true",
      PORT: String(await freePort()),
    });
    await fundReseller(bot.app!.wallets, BUDI.id, 100_000, ADMIN.id, Date.now());
  });
  afterEach(async () => {
    server?.close();
    server = undefined;
    await world.cleanup();
  });

  /** The H2H API on the bot's own parts, with its order step replaced by `order`. */
  async function api(order: (real: PartnerOrders) => PartnerOrders["order"]) {
    const app = bot.app!;
    const partnerOrders: PartnerOrders = { ...app.partnerOrders, order: order(app.partnerOrders) };
    const routes = h2hRoutes({
      partners: app.partners,
      access: { buyerOf: async () => ({ role: "reseller", tier: "reseller" }) },
      people: { get: async () => new Map() },
      partnerOrders,
      testOrders: app.testOrders,
      rateLimit: createRateLimit(app.storage, 1000),
      wrongKeys: createWrongKeys(app.storage),
      trustedProxies: new Set(),
      reconcile: { transactions: async () => undefined as never, mutations: async () => undefined as never },
      owe: (refId) => app.partnerCallbacks.owe(refId, Date.now()),
      track: (work) => work,
      refIdPrefix: app.config.refIdPrefix,
      now: () => new Date(),
      logger: createLogger("silent"),
    });
    const port = await freePort();
    server = serve({ fetch: new Hono().route("/v1", routes).fetch, port, hostname: "127.0.0.1" });
    const key = await app.partners.issue(BUDI.id, Date.now());
    return async (path: string, params: Record<string, string>) => {
      const q = new URLSearchParams({ mitra_id: key.mitraId, secret_key: key.secretKey, ...params });
      const res = await fetch(`http://127.0.0.1:${port}${path}?${q.toString()}`);
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
  }

  it("when it fails after the price was held, then the answer is the order's (final or pending, never status 0) and the same ref id never orders again", async () => {
    let failing = true;
    const ask = await api((real) => async (req) => {
      const made = await real.order(req);
      if (failing) throw new Error("recording broke after the claim");
      return made;
    });
    const order = { ref_id: "ERR-1", item_code: "ML86", destination: PLAYER };
    const first = await ask("/v1/transaction/partner", order);
    expect(first.status).toBe(200);
    // The order went through (the sandbox answered) but the step after it broke: the answer is
    // the order's own (here its success, read back), never a status 0 that invites a new ref id.
    expect(first.body).toMatchObject({ status: 1, data: { ref_id: "ERR-1", product_detail: { status: "SUKSES" } } });
    failing = false;
    // A partner who sends it again is told it is used; its status is the order's.
    expect((await ask("/v1/transaction/partner", order)).body).toMatchObject({
      error_code: "transaction/ref-id-already-exists",
    });
    expect((await ask("/v1/transaction/status", { ref_id: "ERR-1" })).body).toMatchObject({
      status: 1,
      data: { ref_id: "ERR-1", product_detail: { status: "SUKSES" } },
    });
    expect(world.sandbox.calls.filter((c) => c.destination === PLAYER)).toHaveLength(1);
  });

  it("when it fails before anything was held, then a status-0 server error says to send the same ref id again, which orders once", async () => {
    let failing = true;
    const ask = await api((real) => async (req) => {
      if (failing) throw new Error("the store did not answer");
      return real.order(req);
    });
    const order = { ref_id: "ERR-2", item_code: "ML86", destination: PLAYER };
    const first = await ask("/v1/transaction/partner", order);
    expect(first.status).toBe(500);
    expect(first.body).toMatchObject({ status: 0, error_code: "server/error" });
    expect(first.body.error_msg).toMatch(/same ref_id/);
    expect((await ask("/v1/balance", {})).body.data).toEqual({ balance: 100_000, held: 0 });
    failing = false;
    expect((await ask("/v1/transaction/partner", order)).body).toMatchObject({
      status: 1,
      data: { product_detail: { status: "SUKSES" } },
    });
    expect(world.sandbox.calls.filter((c) => c.destination === PLAYER)).toHaveLength(1);
  });
});
