import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { addBackup } from "../e2e/backup.js";
import { createWorld, SECRET, type RunningBot, type World } from "../e2e/world.js";
import { freePort } from "../helpers/redis.js";
import { fundReseller, writePastDeposit } from "../helpers/ledger-history.js";

/** A Mobile Legends player id of the sample catalogue: an id and a zone. */
const PLAYER = "12345678(1234)";
const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };
const DEWI: FakeUser = { id: 5006, first_name: "Dewi", language_code: "id" };

/** What a partner's system reads: the HTTP status and the JSON body. */
interface Answer {
  status: number;
  body: Record<string, unknown> & { status: number; error_code?: string; error_msg?: string; data?: any };
}

describe("the H2H API: a reseller's system orders by HTTP in the provider's own shape", () => {
  let world: World;
  let bot: RunningBot;
  let base: string;
  let keys: Map<number, { mitraId: string; secretKey: string }>;

  beforeEach(async () => {
    world = await createWorld({ initialBalance: 10_000_000 });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    bot = await world.run({
      ADMIN_IDS: String(ADMIN.id),
      RESELLER_IDS: `${BUDI.id},${DEWI.id}`,
      H2H_ENABLED: "true",
      H2H_RATE_LIMIT: "1000",
      PORT: String(port),
    });
    const services = bot.app!;
    keys = new Map();
    for (const user of [BUDI, DEWI]) {
      const issued = await partnersOf(services).issue(user.id, Date.now());
      keys.set(user.id, issued);
      const at = new Date().toISOString();
      const deposit = {
        id: `DEP${user.id}`,
        resellerId: user.id,
        amount: 100_000,
        note: "",
        adminId: ADMIN.id,
        chatId: ADMIN.id,
      };
      await writePastDeposit(walletsOf(services), { ...deposit, createdAt: at }, { at });
    }
  });
  afterEach(async () => {
    await world.cleanup();
  });

  const partnersOf = (app: NonNullable<RunningBot["app"]>) => app.partners;
  const walletsOf = (app: NonNullable<RunningBot["app"]>) => app.wallets;

  async function get(path: string, params: Record<string, string | string[]>, method = "GET"): Promise<Answer> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) q.append(k, one);
    const res = await fetch(`${base}${path}?${q.toString()}`, { method });
    return { status: res.status, body: (await res.json()) as Answer["body"] };
  }

  const creds = (user: FakeUser) => ({
    mitra_id: keys.get(user.id)!.mitraId,
    secret_key: keys.get(user.id)!.secretKey,
  });
  const order = (user: FakeUser, ref: string, extra: Record<string, string | string[]> = {}) =>
    get("/v1/transaction/partner", { destination: PLAYER, ref_id: ref, item_code: "ML86", ...creds(user), ...extra });

  it("orders once per ref id, paid from the saldo at the reseller's price, and answers in the provider's shape", async () => {
    const first = await order(BUDI, "INV-1");
    expect(first.status).toBe(200);
    expect(first.body.status).toBe(1);
    const data = first.body.data;
    expect(data.ref_id).toBe("INV-1");
    expect(data.destination).toBe(PLAYER);
    expect(data.trx_id).toMatch(/^[A-Z0-9]+-\d{6}-\d+$/);
    expect(data.sn).toMatch(/^\d+$/);
    expect(data.message).toContain(data.sn);
    expect(data.message).toContain(data.destination_name);
    expect(data.product_detail).toMatchObject({ code: "ML86", status: "SUKSES", rate: 1 });
    const price = data.product_detail.price as number;
    expect(data.last_balance).toBe(100_000 - price);

    // The same ref id again: never a second order, whatever else is sent with it.
    const again = await order(BUDI, "INV-1", { item_code: "ML172" });
    expect(again.body).toMatchObject({ status: 0, error_code: "transaction/ref-id-already-exists" });
    expect(world.sandbox.calls.filter((r) => r.destination === PLAYER)).toHaveLength(1);

    // Another partner may use the same ref id.
    expect((await order(DEWI, "INV-1")).body.status).toBe(1);

    const status = await get("/v1/transaction/status", { ref_id: "INV-1", ...creds(BUDI) });
    expect(status.body.status).toBe(1);
    expect(status.body.data.trx_id).toBe(data.trx_id);
    expect(status.body.data.sn).toBe(data.sn);

    const balance = await get("/v1/balance", creds(BUDI));
    expect(balance.body).toEqual({ status: 1, data: { balance: 100_000 - price, held: 0 } });
    const products = await get("/v1/products", creds(BUDI));
    expect(products.body.status).toBe(1);
    expect(products.body.data).toContainEqual(
      expect.objectContaining({
        code: "ML86",
        price,
        available: true,
        // The player-id rule the shop checks, so the partner's system can check it first.
        rule: "^[0-9]{6,12}\\([0-9]{4,5}\\)$",
        example: "12345678(1234)",
      }),
    );

    // While the shop is paused, nothing is available (and an order is refused with shop/paused).
    const before = world.fake.messagesTo(ADMIN.id).length;
    world.fake.sendText(ADMIN, "/pause stock count");
    await world.fake.waitForMessage(
      ADMIN.id,
      (m) => /Orders are paused/.test(m.text) && world.fake.messagesTo(ADMIN.id).indexOf(m) >= before,
    );
    const paused = (await get("/v1/products", creds(BUDI))).body.data as Array<{ available: boolean }>;
    expect(paused.length).toBeGreaterThan(0);
    expect(paused.every((p) => !p.available)).toBe(true);
    expect((await order(BUDI, "INV-P")).body).toMatchObject({ status: 0, error_code: "shop/paused" });
  });

  it("sent twice at the same moment, one ref id orders once", async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => order(BUDI, "SAME-1", { destination: "55555555(1234)" })),
    );
    expect(answers.filter((a) => a.body.status === 1)).toHaveLength(1);
    expect(answers.filter((a) => a.body.error_code === "transaction/ref-id-already-exists")).toHaveLength(9);
    // Another partner never reads this order: for them the ref id names nothing.
    const theirs = await get("/v1/transaction/status", { ref_id: "SAME-1", ...creds(DEWI) });
    expect(theirs.body).toMatchObject({ status: 0, error_code: "transaction/not-found" });
    expect(world.sandbox.calls.filter((r) => r.destination === "55555555(1234)")).toHaveLength(1);
  });

  it("refuses bad input with the spec's error shape and names what is wrong; a refused ref id stays usable", async () => {
    const cases: Array<[Record<string, string | string[]>, string, RegExp?]> = [
      [{ destination: "" }, "request/invalid-parameter", /destination/],
      [{ destination: ["1", "2"] }, "request/invalid-parameter", /destination/],
      [{ destination: "9".repeat(10_000) }, "request/invalid-parameter", /destination/],
      [{ ref_id: "bad ref!" }, "request/invalid-parameter", /ref_id/],
      [{ item_code: "OTHER-SHOP-1" }, "product/not-found"],
      [{ destination: "12 34" }, "destination/invalid"],
      // Written another way than the game's own form: refused, never rewritten.
      [{ destination: "12345678 (1234)" }, "destination/invalid"],
      [{ destination: "१२३४५६७८🙂" }, "destination/invalid"],
      [{ secret_key: "wrong" }, "auth/invalid-credentials"],
      [{ mitra_id: "PAAAAAAAAAA" }, "auth/invalid-credentials"],
      [{ mitra_id: "" }, "auth/invalid-credentials"],
      // Typed as a bank or a person writes it: refused, never read as another amount.
      [{ max_price: "19.800" }, "request/invalid-parameter", /max_price/],
      [{ max_price: "Rp 20000" }, "request/invalid-parameter", /max_price/],
      [{ max_price: "-1" }, "request/invalid-parameter", /max_price/],
      [{ max_price: ["20000", "30000"] }, "request/invalid-parameter", /max_price/],
      // ML86 costs this reseller more than 1 rupiah: above their limit, nothing is held.
      [{ max_price: "1" }, "price/above-max", /max_price/],
    ];
    for (const [extra, code, words] of cases) {
      const a = await order(BUDI, "REUSE-1", extra);
      expect(a.status, JSON.stringify(extra).slice(0, 80)).toBe(200);
      expect(a.body, JSON.stringify(extra).slice(0, 80)).toMatchObject({ status: 0, error_code: code });
      expect(typeof a.body.error_msg).toBe("string");
      if (words !== undefined) expect(a.body.error_msg).toMatch(words);
    }
    const missing = await get("/v1/transaction/partner", { ref_id: "X", item_code: "ML86", ...creds(BUDI) });
    expect(missing.body).toMatchObject({ status: 0, error_code: "request/invalid-parameter" });
    expect(missing.body.error_msg).toMatch(/destination is missing/);
    // None of them used the ref id (nothing was held): it orders now, within its max_price.
    expect((await get("/v1/balance", creds(BUDI))).body.data).toMatchObject({ held: 0 });
    const within = await order(BUDI, "REUSE-1", { max_price: "1000000" });
    expect(within.body.status).toBe(1);
    // The exact price is within it too (max_price is the most the partner pays, not less than).
    const price = String(within.body.data.product_detail.price);
    expect((await order(BUDI, "REUSE-2", { max_price: price })).body.status).toBe(1);

    const post = await get(
      "/v1/transaction/partner",
      { ref_id: "P-1", item_code: "ML86", destination: "1", ...creds(BUDI) },
      "POST",
    );
    expect(post.status).toBe(405);
    expect(post.body.status).toBe(0);
    // HEAD is not an order either (it would be one with no answer to read).
    const head = await fetch(
      `${base}/v1/transaction/partner?${new URLSearchParams({ ref_id: "HEAD-1", item_code: "ML86", destination: PLAYER, ...creds(BUDI) }).toString()}`,
      { method: "HEAD" },
    );
    expect(head.status).toBe(405);
    expect((await get("/v1/transaction/status", { ref_id: "HEAD-1", ...creds(BUDI) })).body.error_code).toBe(
      "transaction/not-found",
    );
    // Paths match exactly: a trailing slash is no operation, and orders nothing.
    const slash = await get("/v1/transaction/partner/", {
      ref_id: "SLASH-1",
      item_code: "ML86",
      destination: PLAYER,
      ...creds(BUDI),
    });
    expect(slash.status).toBe(404);
    expect(slash.body).toMatchObject({ status: 0, error_code: "request/not-found" });
    expect((await get("/v1/transaction/status", { ref_id: "SLASH-1", ...creds(BUDI) })).body.error_code).toBe(
      "transaction/not-found",
    );
    for (const path of ["/v1/balance", "/v1/products", "/v1/transaction/status", "/v1/transactions"]) {
      const other = await fetch(`${base}${path}?${new URLSearchParams(creds(BUDI)).toString()}`, { method: "HEAD" });
      expect([path, other.status, other.headers.get("allow")]).toEqual([path, 405, "GET"]);
    }
    const nowhere = await get("/v1/nothing", creds(BUDI));
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.status).toBe(0);

    // Nothing in any answer or log carries a key.
    expect(bot.output()).not.toContain(keys.get(BUDI.id)!.secretKey);
    expect(bot.output()).not.toContain(SECRET);
  });

  it("refuses a short saldo, a key turned off and a partner no longer a reseller", async () => {
    // ML257 costs the reseller 57,600: the first fits in the 100,000 saldo, the second does not.
    expect((await order(BUDI, "BIG-1", { item_code: "ML257" })).body.status).toBe(1);
    const short = await order(BUDI, "BIG-2", { item_code: "ML257" });
    expect(short.body).toMatchObject({ status: 0, error_code: "balance/insufficient" });
    expect((await get("/v1/balance", creds(BUDI))).body.data).toEqual({ balance: 100_000 - 57_600, held: 0 });
    await partnersOf(bot.app!).turnOff(BUDI.id);
    expect((await order(BUDI, "OFF-1")).body.error_code).toBe("auth/invalid-credentials");
    expect((await get("/v1/balance", creds(DEWI))).body.status).toBe(1);

    // A reseller the admin added in the chat, with a key, then removed: the key stops working.
    const SITI: FakeUser = { id: 5007, first_name: "Siti", language_code: "en" };
    world.fake.sendText(ADMIN, `/allow ${SITI.id} reseller`);
    await world.waitText(ADMIN, new RegExp(`${SITI.id}`));
    const siti = await partnersOf(bot.app!).issue(SITI.id, Date.now());
    const sitiCreds = { mitra_id: siti.mitraId, secret_key: siti.secretKey };
    expect((await get("/v1/balance", sitiCreds)).body).toEqual({ status: 1, data: { balance: 0, held: 0 } });
    // With saldo 0 an order is refused as such, and its ref id stays unused.
    const broke = await get("/v1/transaction/partner", {
      ...sitiCreds,
      ref_id: "S-1",
      item_code: "ML86",
      destination: PLAYER,
    });
    expect(broke.body).toMatchObject({ status: 0, error_code: "balance/insufficient" });
    const before = world.fake.messagesTo(ADMIN.id).length;
    world.fake.sendText(ADMIN, `/deny ${SITI.id}`);
    await world.fake.waitForMessage(ADMIN.id, (m) => world.fake.messagesTo(ADMIN.id).indexOf(m) >= before);
    expect((await get("/v1/balance", sitiCreds)).body).toMatchObject({
      status: 0,
      error_code: "auth/invalid-credentials",
    });
  });
});

describe("the H2H API with two providers: a product whose every provider rests is not available", () => {
  let world: World;
  afterEach(() => world.cleanup());

  it("when main and the backup both say their deposit is empty, then /v1/products lists their products as available: false, and they are available again once the rest is over", async () => {
    world = await createWorld({ initialBalance: 10_000_000 });
    const backup = await addBackup(world);
    let t = Date.parse("2026-11-28T09:00:00Z");
    const port = await freePort();
    const bot = await world.run(
      { ADMIN_IDS: String(ADMIN.id), RESELLER_IDS: String(BUDI.id), H2H_ENABLED: "true", PORT: String(port) },
      { now: () => new Date(t) },
    );
    const key = await bot.app!.partners.issue(BUDI.id, t);
    await fundReseller(bot.app!.wallets, BUDI.id, 100_000, ADMIN.id, t);
    const get = async (path: string, params: Record<string, string>) => {
      const q = new URLSearchParams({ mitra_id: key.mitraId, secret_key: key.secretKey, ...params });
      const res = await fetch(`http://127.0.0.1:${port}${path}?${q.toString()}`);
      return (await res.json()) as { status: number; data?: any; error_code?: string };
    };
    const availability = async () =>
      new Map(
        ((await get("/v1/products", {})).data as Array<{ code: string; available: boolean }>).map((p) => [
          p.code,
          p.available,
        ]),
      );

    expect([...(await availability()).values()].every(Boolean)).toBe(true);

    world.sandbox.deposit(-world.sandbox.balance());
    backup.deposit(-backup.balance());
    const failed = await get("/v1/transaction/partner", { ref_id: "R-1", item_code: "ML86", destination: PLAYER });
    expect(failed.status).toBe(0);
    expect(world.sandbox.calls).toHaveLength(1);
    expect(backup.calls).toHaveLength(1);

    // Both rest: every product is sold only through them, so none is available now.
    const resting = await availability();
    expect(resting.get("ML86")).toBe(false);
    expect([...resting.values()].some(Boolean)).toBe(false);

    // Five minutes later the rest is over: the next order may try them, so they are listed again.
    t += 5 * 60_000;
    expect([...(await availability()).values()].every(Boolean)).toBe(true);
  });
});
