import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { createWorld, type RunningBot, type World } from "../e2e/world.js";
import { freePort } from "../helpers/redis.js";
import { writePastDeposit } from "../helpers/ledger-history.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const STAFF: FakeUser = { id: 1002, first_name: "Sari", language_code: "en" };
/** The downstream shop, a reseller of the upstream one. */
const SHOP_B: FakeUser = { id: 7007, first_name: "Toko B", language_code: "en" };
const PLAYER = "12345678(1234)";

/** A reseller of `bot` with API access and `saldo` to spend: their key. */
async function partner(bot: RunningBot, user: FakeUser, saldo: number) {
  const app = bot.app!;
  const key = await app.partners.issue(user.id, Date.now());
  const at = new Date().toISOString();
  const deposit = {
    id: `DEP${user.id}`,
    resellerId: user.id,
    amount: saldo,
    note: "",
    adminId: ADMIN.id,
    chatId: ADMIN.id,
  };
  await writePastDeposit(app.wallets, { ...deposit, createdAt: at }, { at });
  return key;
}

/** A partner's GET under /v1/ with their key: the JSON answer. */
async function ask(
  base: string,
  key: { mitraId: string; secretKey: string },
  path: string,
  params: Record<string, string>,
) {
  const query = new URLSearchParams({ ...params, mitra_id: key.mitraId, secret_key: key.secretKey }).toString();
  return (await (await fetch(`${base}${path}?${query}`)).json()) as { status: number; error_code?: string; data?: any };
}

describe("shops in a chain: this bot's provider client ordering from another shop's H2H API", () => {
  const worlds: World[] = [];
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    for (const w of worlds.splice(0)) await w.cleanup();
  });

  /**
   * Shop A, with the H2H API on and SHOP_B as its reseller. `slowMs`: its own provider answers
   * after that long (a sandbox of its own), else the world's sandbox.
   */
  async function upstreamShop(
    opts: { extra?: Record<string, string>; options?: Parameters<World["run"]>[1]; slowMs?: number } = {},
  ) {
    const world = await createWorld({ initialBalance: 10_000_000 });
    worlds.push(world);
    const slow = opts.slowMs === undefined ? undefined : await world.slowSandbox(opts.slowMs);
    const port = await freePort();
    const bot = await world.run(
      {
        ADMIN_IDS: String(ADMIN.id),
        RESELLER_IDS: String(SHOP_B.id),
        H2H_ENABLED: "true",
        // The partners' callback receivers of these tests listen on 127.0.0.1.
        H2H_CALLBACK_ALLOW_PRIVATE: "true",
        PORT: String(port),
        ...(slow === undefined ? {} : { TOPUP_BASE_URL: slow.url }),
        ...opts.extra,
      },
      opts.options ?? {},
    );
    return { world, bot, slow, base: `http://127.0.0.1:${port}` };
  }

  /** A partner's callback endpoint: what it received, answered with `status()`. */
  async function callbackServer(status: () => number) {
    const received: Array<{ body: string; signature: string | undefined }> = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        received.push({ body, signature: req.headers["x-signature"] as string | undefined });
        res.writeHead(status()).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    servers.push(server);
    return { received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb` };
  }

  /** Shop B, a staff chat whose provider is shop A's H2H API (B's key as A's reseller). */
  async function downstreamShop(
    aBase: string,
    key: { mitraId: string; secretKey: string },
    extra: Record<string, string> = {},
    options: Parameters<World["run"]>[1] = {},
  ) {
    const world = await createWorld();
    worlds.push(world);
    const bot = await world.run(
      {
        ADMIN_IDS: String(ADMIN.id),
        ALLOWED_USER_IDS: String(STAFF.id),
        TOPUP_BASE_URL: aBase,
        TOPUP_MITRA_ID: key.mitraId,
        TOPUP_SECRET_KEY: key.secretKey,
        ...extra,
      },
      options,
    );
    return { world, bot };
  }

  it("a chat order in shop B is carried out by shop A's provider, paid from B's saldo at A, exactly once", async () => {
    const a = await upstreamShop();
    const key = await partner(a.bot, SHOP_B, 100_000);
    const b = await downstreamShop(a.base, key);
    const result = await b.world.order(STAFF, "ML86", PLAYER);
    expect(result.text).toMatch(/success|Success|✅/);
    expect(a.world.sandbox.calls).toHaveLength(1);
    expect(a.world.sandbox.calls[0]?.destination).toBe(PLAYER);
    // Shop B's own sandbox was never asked: the order went up the chain.
    expect(b.world.sandbox.calls).toHaveLength(0);
    // B paid A its reseller price (19,800 for ML86 in the sample catalogue), from its saldo at A.
    expect((await a.bot.app!.wallets.get(SHOP_B.id)).saldo).toBe(100_000 - 19_800);
    // The key B uses at A never reached B's chats or logs.
    expect(b.world.fake.allOutgoingText()).not.toContain(key.secretKey);
    expect(b.bot.output()).not.toContain(key.secretKey);
  });

  it("an order whose outcome A does not know in time is held, then settled by an admin: the partner's callback is signed and retried until acknowledged", async () => {
    let clock = Date.now();
    let acknowledge = false;
    const callback = await callbackServer(() => (acknowledge ? 200 : 500));
    // A's own provider answers after 1.5 s; A waits 0.3 s for it.
    const a = await upstreamShop({
      slowMs: 1500,
      extra: { TOPUP_TIMEOUT_MS: "300" },
      options: { now: () => new Date(clock), recoveryIntervalMs: 50 },
    });
    const app = a.bot.app!;
    const key = await partner(a.bot, SHOP_B, 100_000);
    await app.partners.setCallback(SHOP_B.id, callback.url);
    const q = (path: string, params: Record<string, string>) => ask(a.base, key, path, params);
    const order = { ref_id: "SLOW-1", item_code: "ML86", destination: PLAYER };

    // Pending, in the success shape: no client takes it for a refusal and orders again.
    const pending = { status: 1, data: { ref_id: "SLOW-1", sn: "", product_detail: { status: "PENDING" } } };
    expect(await q("/v1/transaction/partner", order)).toMatchObject(pending);
    // Held, not spent and not released, until the outcome is known.
    expect(await q("/v1/balance", {})).toEqual({ status: 1, data: { balance: 100_000 - 19_800, held: 19_800 } });
    expect(await q("/v1/transaction/status", { ref_id: "SLOW-1" })).toMatchObject(pending);
    expect(await q("/v1/transaction/partner", order)).toMatchObject({
      status: 0,
      error_code: "transaction/ref-id-already-exists",
    });

    const refId = (await app.ledger.partnerOrder(SHOP_B.id, "SLOW-1"))!;
    const settled = await app.orders.settle({ refId, adminId: ADMIN.id, outcome: { state: "success", sn: "998877" } });
    expect(settled.kind).toBe("settled");
    await expect.poll(() => callback.received.length, { timeout: 10_000 }).toBe(1);
    // Not acknowledged: tried again a minute later, not before.
    acknowledge = true;
    clock += 61_000;
    await expect.poll(() => callback.received.length, { timeout: 10_000 }).toBe(2);
    for (const r of callback.received) {
      expect(r.signature).toBe(`sha256=${createHmac("sha256", key.signingSecret).update(r.body).digest("hex")}`);
      const body = JSON.parse(r.body) as { status: number; data: { ref_id: string; sn: string; last_balance: number } };
      expect(body.status).toBe(1);
      expect(body.data).toMatchObject({ ref_id: "SLOW-1", sn: "998877", last_balance: 100_000 - 19_800 });
    }
    // One event, sent twice: the same event_id, the partner's ref_id at the top, each attempt's own time.
    const [first, second] = callback.received.map(
      (r) => JSON.parse(r.body) as { ref_id: string; trx_id: string; event_id: string; timestamp: string },
    );
    expect(first!.ref_id).toBe("SLOW-1");
    expect(second!.event_id).toBe(first!.event_id);
    expect(second!.trx_id).toBe(first!.trx_id);
    expect(Date.parse(second!.timestamp) - Date.parse(first!.timestamp)).toBeGreaterThanOrEqual(61_000);
    // The refused attempt was logged, with the partner's ref_id and the answer.
    const failed = a.bot
      .output()
      .split("\n")
      .filter((l) => l.includes("partner callback attempt failed"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(failed[0]).toMatchObject({ partnerRef: "SLOW-1", attempt: 1, status: 500, to: callback.url });
    const status = await q("/v1/transaction/status", { ref_id: "SLOW-1" });
    expect(status.status).toBe(1);
    expect(status.data.sn).toBe("998877");
    expect(await q("/v1/balance", {})).toEqual({ status: 1, data: { balance: 100_000 - 19_800, held: 0 } });
    // The provider was asked once, and the key never reached a log or a chat.
    expect(a.slow!.calls).toHaveLength(1);
    expect(a.bot.output()).not.toContain(key.secretKey);
    expect(a.world.fake.allOutgoingText()).not.toContain(key.secretKey);
  });

  it("a partner who hangs up before the answer loses nothing: the order goes on, the status query and the callback tell its outcome", async () => {
    const callback = await callbackServer(() => 204);
    const a = await upstreamShop({
      slowMs: 800,
      extra: { TOPUP_TIMEOUT_MS: "5000" },
      options: { recoveryIntervalMs: 50 },
    });
    const key = await partner(a.bot, SHOP_B, 100_000);
    await a.bot.app!.partners.setCallback(SHOP_B.id, callback.url);
    const query = new URLSearchParams({
      ref_id: "GONE-1",
      item_code: "ML86",
      destination: PLAYER,
      mitra_id: key.mitraId,
      secret_key: key.secretKey,
    }).toString();
    const hangUp = new AbortController();
    const cut = fetch(`${a.base}/v1/transaction/partner?${query}`, { signal: hangUp.signal }).catch(() => "cut");
    await expect.poll(() => a.slow!.calls.length, { timeout: 10_000 }).toBe(1);
    hangUp.abort();
    expect(await cut).toBe("cut");
    // The order finished without them: its outcome is kept, and the callback brings it.
    await expect.poll(() => callback.received.length, { timeout: 10_000 }).toBe(1);
    const body = JSON.parse(callback.received[0]!.body) as { status: number; data: { ref_id: string; sn: string } };
    expect(body).toMatchObject({ status: 1, data: { ref_id: "GONE-1" } });
    const status = await ask(a.base, key, "/v1/transaction/status", { ref_id: "GONE-1" });
    expect(status.status).toBe(1);
    expect(status.data.sn).toBe(body.data.sn);
    expect(a.slow!.calls).toHaveLength(1);
  });

  it("an order carried out when the shop's process stopped before answering is told by the callback, once the answer can no longer come; an order answered at once gets none", async () => {
    let clock = Date.now();
    const callback = await callbackServer(() => 200);
    const a = await upstreamShop({
      extra: { TOPUP_TIMEOUT_MS: "5000" },
      options: { now: () => new Date(clock), recoveryIntervalMs: 50 },
    });
    const app = a.bot.app!;
    const key = await partner(a.bot, SHOP_B, 100_000);
    await app.partners.setCallback(SHOP_B.id, callback.url);
    const answered = await ask(a.base, key, "/v1/transaction/partner", {
      ref_id: "FAST-1",
      item_code: "ML86",
      destination: PLAYER,
    });
    expect(answered.status).toBe(1);
    // The order the way a request makes it, its outcome recorded, and no answer given: as when the
    // process stops between the two.
    const lost = await app.partnerOrders.order({
      userId: SHOP_B.id,
      userName: SHOP_B.first_name,
      buyer: { role: "reseller", tier: "reseller" },
      partnerRef: "LOST-1",
      itemCode: "ML86",
      destination: PLAYER,
    });
    expect(lost).toMatchObject({ kind: "order", order: { state: "success" } });
    // Not while the answer could still be on its way…
    clock += 30_000;
    await expect.poll(() => app.partnerCallbacks.due(clock, 10).then((d) => d.length)).toBe(0);
    expect(callback.received).toHaveLength(0);
    // …then the callback, for the lost answer only (both were due by then).
    clock += 60_000;
    await expect.poll(() => callback.received.length, { timeout: 10_000 }).toBe(1);
    const body = JSON.parse(callback.received[0]!.body) as { status: number; data: { ref_id: string; sn: string } };
    expect(body).toMatchObject({ status: 1, data: { ref_id: "LOST-1" } });
    await expect.poll(() => app.partnerCallbacks.due(clock + 3_600_000, 10).then((d) => d.length)).toBe(0);
    expect(callback.received).toHaveLength(1);
    expect(a.world.sandbox.calls).toHaveLength(2);
  });

  it("the admins hear of the API's sales in one notice per period, not one per sale", async () => {
    let clock = Date.parse("2026-11-26T03:00:00Z");
    const a = await upstreamShop({
      extra: { H2H_NOTICE_MINUTES: "5" },
      options: { now: () => new Date(clock), recoveryIntervalMs: 50 },
    });
    const key = await partner(a.bot, SHOP_B, 100_000);
    for (const ref of ["N-1", "N-2", "N-3"]) {
      const answer = await ask(a.base, key, "/v1/transaction/partner", {
        ref_id: ref,
        item_code: "ML86",
        destination: PLAYER,
      });
      expect(answer.status).toBe(1);
    }
    const notices = () => a.world.fake.messagesTo(ADMIN.id).filter((m) => /H2H API sales|Sale/.test(m.text));
    // Nothing per sale; after the period, one notice with the three.
    clock += 5 * 60_000 + 1_000;
    const notice = await a.world.fake.waitForMessage(ADMIN.id, (m) => /H2H API sales/.test(m.text));
    expect(notice.text).toMatch(/3 sold/);
    expect(notice.text).toContain(String(SHOP_B.id));
    expect(notices()).toHaveLength(1);
  });

  it("an order shop B could not learn in time is settled by B itself from A's status answer, and B's user is told", async () => {
    let clockB = Date.now();
    // A's provider answers after 1.5 s; A waits up to 5 s for it, B only 0.3 s for A.
    const a = await upstreamShop({ slowMs: 1500, extra: { TOPUP_TIMEOUT_MS: "5000" } });
    const key = await partner(a.bot, SHOP_B, 100_000);
    const b = await downstreamShop(
      a.base,
      key,
      { TOPUP_TIMEOUT_MS: "300" },
      { now: () => new Date(clockB), recoveryIntervalMs: 50 },
    );
    const first = await b.world.order(STAFF, "ML86", PLAYER);
    expect(first.text).toMatch(/unknown|not known|belum/i);
    // A carries it out meanwhile; B asks A's status a minute later and settles it as a success.
    const ledgerA = a.bot.app!.ledger;
    await expect
      .poll(async () => (await ledgerA.pending()).length + (await ledgerA.inFlight()).length, { timeout: 10_000 })
      .toBe(0);
    clockB += 61_000;
    // The settlement's own message (the summary, edited to "unknown" before, may hold "SN" in its ref id).
    const told = await b.world.fake.waitForMessage(
      STAFF.id,
      (m) => m.message_id !== first.message_id && /confirmed by the provider's status/.test(m.text),
      10_000,
    );
    expect(told.text).toMatch(/success|SN/i);
    expect(told.text).toMatch(/\d{6,}/);
    const order = (await b.bot.app!.ledger.history("all", 0, 5)).orders[0]!;
    expect(order.state).toBe("success");
    expect(order.settledBy).toBe(0);
    expect(a.slow!.calls).toHaveLength(1);
  });
});
