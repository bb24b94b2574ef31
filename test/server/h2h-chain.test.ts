import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { createWorld, type RunningBot, type World } from "../e2e/world.js";
import { freePort } from "../helpers/redis.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const STAFF: FakeUser = { id: 1002, first_name: "Sari", language_code: "en" };
/** The downstream shop, a reseller of the upstream one. */
const SHOP_B: FakeUser = { id: 7007, first_name: "Toko B", language_code: "en" };
const PLAYER = "12345678(1234)";

/** A reseller of `bot` with API access and `saldo` to spend: their key. */
async function partner(bot: RunningBot, user: FakeUser, saldo: number) {
  const app = bot.app!;
  const key = await app.partners.issue(user.id, Date.now());
  const id = `DEP${user.id}`;
  const at = new Date().toISOString();
  await app.wallets.saveDeposit(
    {
      id,
      resellerId: user.id,
      amount: saldo,
      note: "",
      adminId: ADMIN.id,
      chatId: ADMIN.id,
      createdAt: at,
      state: "draft",
    },
    60_000,
  );
  await app.wallets.confirmDeposit(id, { adminId: ADMIN.id, at });
  return key;
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

  async function upstreamShop(extra: Record<string, string> = {}, options: Parameters<World["run"]>[1] = {}) {
    const world = await createWorld({ initialBalance: 10_000_000 });
    worlds.push(world);
    const port = await freePort();
    const bot = await world.run(
      {
        ADMIN_IDS: String(ADMIN.id),
        RESELLER_IDS: String(SHOP_B.id),
        H2H_ENABLED: "true",
        PORT: String(port),
        ...extra,
      },
      options,
    );
    return { world, bot, base: `http://127.0.0.1:${port}` };
  }

  it("a chat order in shop B is carried out by shop A's provider, paid from B's saldo at A, exactly once", async () => {
    const a = await upstreamShop();
    const key = await partner(a.bot, SHOP_B, 100_000);
    const b = await createWorld();
    worlds.push(b);
    await b.run({
      ADMIN_IDS: String(ADMIN.id),
      ALLOWED_USER_IDS: String(STAFF.id),
      TOPUP_BASE_URL: a.base,
      TOPUP_MITRA_ID: key.mitraId,
      TOPUP_SECRET_KEY: key.secretKey,
    });
    const result = await b.order(STAFF, "ML86", PLAYER);
    expect(result.text).toMatch(/success|Success|✅/);
    expect(a.world.sandbox.calls).toHaveLength(1);
    expect(a.world.sandbox.calls[0]?.destination).toBe(PLAYER);
    // Shop B's own sandbox was never asked: the order went up the chain.
    expect(b.sandbox.calls).toHaveLength(0);
    // B paid A its reseller price (19,800 for ML86 in the sample catalogue), from its saldo at A.
    expect((await a.bot.app!.wallets.get(SHOP_B.id)).saldo).toBe(100_000 - 19_800);
    // The key B uses at A never reached B's chats or logs.
    expect(b.fake.allOutgoingText()).not.toContain(key.secretKey);
    expect(b.bots[0]!.output()).not.toContain(key.secretKey);
  });

  it("an order whose outcome A does not know in time is held, then settled by an admin: the partner's callback is signed and retried until acknowledged", async () => {
    let clock = Date.now();
    const received: Array<{ body: string; signature: string | undefined }> = [];
    let acknowledge = false;
    const callback = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        received.push({ body, signature: req.headers["x-signature"] as string | undefined });
        res.writeHead(acknowledge ? 200 : 500).end();
      });
    });
    await new Promise<void>((r) => callback.listen(0, "127.0.0.1", r));
    servers.push(callback);
    const world = await createWorld();
    worlds.push(world);
    // A's own provider answers after 1.5 s; A waits 0.3 s for it.
    const slow = await world.slowSandbox(1500);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const bot = await world.run(
      {
        ADMIN_IDS: String(ADMIN.id),
        RESELLER_IDS: String(SHOP_B.id),
        H2H_ENABLED: "true",
        PORT: String(port),
        TOPUP_BASE_URL: slow.url,
        TOPUP_TIMEOUT_MS: "300",
      },
      { now: () => new Date(clock), recoveryIntervalMs: 50 },
    );
    const app = bot.app!;
    const key = await partner(bot, SHOP_B, 100_000);
    await app.partners.setCallback(SHOP_B.id, `http://127.0.0.1:${(callback.address() as AddressInfo).port}/cb`);
    const q = (path: string, params: Record<string, string>) =>
      fetch(
        `${base}${path}?${new URLSearchParams({ ...params, mitra_id: key.mitraId, secret_key: key.secretKey }).toString()}`,
      ).then(async (r) => (await r.json()) as { status: number; error_code?: string; data?: any });

    const first = await q("/v1/transaction/partner", { ref_id: "SLOW-1", item_code: "ML86", destination: PLAYER });
    expect(first).toMatchObject({ status: 0, error_code: "transaction/unknown" });
    // Held, not spent and not released, until the outcome is known.
    expect(await q("/v1/balance", {})).toEqual({ status: 1, data: { balance: 100_000 - 19_800, held: 19_800 } });
    expect(await q("/v1/transaction/status", { ref_id: "SLOW-1" })).toMatchObject({
      status: 0,
      error_code: "transaction/unknown",
    });
    expect(
      await q("/v1/transaction/partner", { ref_id: "SLOW-1", item_code: "ML86", destination: PLAYER }),
    ).toMatchObject({
      status: 0,
      error_code: "transaction/ref-id-already-exists",
    });

    const refId = (await app.ledger.partnerOrder(SHOP_B.id, "SLOW-1"))!;
    const settled = await app.orders.settle({ refId, adminId: ADMIN.id, outcome: { state: "success", sn: "998877" } });
    expect(settled.kind).toBe("settled");
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    // Not acknowledged: tried again a minute later, not before.
    acknowledge = true;
    clock += 61_000;
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2);
    for (const r of received) {
      expect(r.signature).toBe(`sha256=${createHmac("sha256", key.secretKey).update(r.body).digest("hex")}`);
      const body = JSON.parse(r.body) as { status: number; data: { ref_id: string; sn: string; last_balance: number } };
      expect(body.status).toBe(1);
      expect(body.data).toMatchObject({ ref_id: "SLOW-1", sn: "998877", last_balance: 100_000 - 19_800 });
    }
    const status = await q("/v1/transaction/status", { ref_id: "SLOW-1" });
    expect(status.status).toBe(1);
    expect(status.data.sn).toBe("998877");
    expect(await q("/v1/balance", {})).toEqual({ status: 1, data: { balance: 100_000 - 19_800, held: 0 } });
    // The provider was asked once, and the key never reached a log or a chat.
    expect(slow.calls).toHaveLength(1);
    expect(bot.output()).not.toContain(key.secretKey);
    expect(world.fake.allOutgoingText()).not.toContain(key.secretKey);
  });

  it("a partner who hangs up before the answer loses nothing: the order goes on, the status query and the callback tell its outcome", async () => {
    const received: string[] = [];
    const callback = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        received.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => callback.listen(0, "127.0.0.1", r));
    servers.push(callback);
    const world = await createWorld();
    worlds.push(world);
    const slow = await world.slowSandbox(800);
    const port = await freePort();
    const bot = await world.run(
      {
        ADMIN_IDS: String(ADMIN.id),
        RESELLER_IDS: String(SHOP_B.id),
        H2H_ENABLED: "true",
        PORT: String(port),
        TOPUP_BASE_URL: slow.url,
        TOPUP_TIMEOUT_MS: "5000",
      },
      { recoveryIntervalMs: 50 },
    );
    const key = await partner(bot, SHOP_B, 100_000);
    await bot.app!.partners.setCallback(SHOP_B.id, `http://127.0.0.1:${(callback.address() as AddressInfo).port}/cb`);
    const params = (extra: Record<string, string>) =>
      new URLSearchParams({ ...extra, mitra_id: key.mitraId, secret_key: key.secretKey }).toString();
    const hangUp = new AbortController();
    const cut = fetch(
      `http://127.0.0.1:${port}/v1/transaction/partner?${params({ ref_id: "GONE-1", item_code: "ML86", destination: PLAYER })}`,
      { signal: hangUp.signal },
    ).catch(() => "cut");
    await expect.poll(() => slow.calls.length, { timeout: 10_000 }).toBe(1);
    hangUp.abort();
    expect(await cut).toBe("cut");
    // The order finished without them: its outcome is kept, and the callback brings it.
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    const body = JSON.parse(received[0]!) as { status: number; data: { ref_id: string; sn: string } };
    expect(body).toMatchObject({ status: 1, data: { ref_id: "GONE-1" } });
    const status = (await (
      await fetch(`http://127.0.0.1:${port}/v1/transaction/status?${params({ ref_id: "GONE-1" })}`)
    ).json()) as { status: number; data: { sn: string } };
    expect(status.status).toBe(1);
    expect(status.data.sn).toBe(body.data.sn);
    expect(slow.calls).toHaveLength(1);
  });

  it("the admins hear of the API's sales in one notice per period, not one per sale", async () => {
    let clock = Date.parse("2026-11-26T03:00:00Z");
    const world = await createWorld({ initialBalance: 10_000_000 });
    worlds.push(world);
    const port = await freePort();
    const bot = await world.run(
      {
        ADMIN_IDS: String(ADMIN.id),
        RESELLER_IDS: String(SHOP_B.id),
        H2H_ENABLED: "true",
        H2H_NOTICE_MINUTES: "5",
        PORT: String(port),
      },
      { now: () => new Date(clock), recoveryIntervalMs: 50 },
    );
    const key = await partner(bot, SHOP_B, 100_000);
    const order = async (ref: string, destination = PLAYER) =>
      (await (
        await fetch(
          `http://127.0.0.1:${port}/v1/transaction/partner?${new URLSearchParams({ ref_id: ref, item_code: "ML86", destination, mitra_id: key.mitraId, secret_key: key.secretKey }).toString()}`,
        )
      ).json()) as { status: number };
    for (const ref of ["N-1", "N-2", "N-3"]) expect((await order(ref)).status).toBe(1);
    const notices = () => world.fake.messagesTo(ADMIN.id).filter((m) => /H2H API sales|Sale/.test(m.text));
    // Nothing per sale; after the period, one notice with the three.
    clock += 5 * 60_000 + 1_000;
    const notice = await world.fake.waitForMessage(ADMIN.id, (m) => /H2H API sales/.test(m.text));
    expect(notice.text).toMatch(/3 sold/);
    expect(notice.text).toContain(String(SHOP_B.id));
    expect(notices()).toHaveLength(1);
  });

  it("an order shop B could not learn in time is settled by B itself from A's status answer, and B's user is told", async () => {
    let clockB = Date.now();
    const a = await createWorld();
    worlds.push(a);
    // A's provider answers after 1.5 s; A waits up to 5 s for it, B only 0.3 s for A.
    const slow = await a.slowSandbox(1500);
    const portA = await freePort();
    const botA = await a.run({
      ADMIN_IDS: String(ADMIN.id),
      RESELLER_IDS: String(SHOP_B.id),
      H2H_ENABLED: "true",
      PORT: String(portA),
      TOPUP_BASE_URL: slow.url,
      TOPUP_TIMEOUT_MS: "5000",
    });
    const key = await partner(botA, SHOP_B, 100_000);
    const b = await createWorld();
    worlds.push(b);
    const botB = await b.run(
      {
        ADMIN_IDS: String(ADMIN.id),
        ALLOWED_USER_IDS: String(STAFF.id),
        TOPUP_BASE_URL: `http://127.0.0.1:${portA}`,
        TOPUP_MITRA_ID: key.mitraId,
        TOPUP_SECRET_KEY: key.secretKey,
        TOPUP_TIMEOUT_MS: "300",
      },
      { now: () => new Date(clockB), recoveryIntervalMs: 50 },
    );
    const first = await b.order(STAFF, "ML86", PLAYER);
    expect(first.text).toMatch(/unknown|not known|belum/i);
    // A carries it out meanwhile; B asks A's status a minute later and settles it as a success.
    await expect
      .poll(async () => (await botA.app!.ledger.pending()).length + (await botA.app!.ledger.inFlight()).length, {
        timeout: 10_000,
      })
      .toBe(0);
    clockB += 61_000;
    const told = await b.fake.waitForMessage(
      STAFF.id,
      (m) => m.message_id !== first.message_id && /SN|success/i.test(m.text) && m.text !== first.text,
      10_000,
    );
    expect(told.text).toMatch(/\d{6,}/);
    const refId = (await botB.app!.ledger.history("all", 0, 5)).orders[0]!;
    expect(refId.state).toBe("success");
    expect(refId.settledBy).toBe(0);
    expect(slow.calls).toHaveLength(1);
  });
});
