import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { createWorld, type RunningBot, type World } from "../e2e/world.js";
import { freePort } from "../helpers/redis.js";
import { fundReseller } from "../helpers/ledger-history.js";

const PLAYER = "12345678(1234)";
const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };

type Body = Record<string, unknown> & { status: number; error_code?: string; test?: boolean; data?: any };

describe("test keys of the H2H API: real shapes, nothing ordered", () => {
  let world: World;
  let bot: RunningBot;
  let base: string;
  let clock: number;
  let live: { mitraId: string; secretKey: string };
  let test: { mitraId: string; secretKey: string };

  beforeEach(async () => {
    world = await createWorld({ initialBalance: 10_000_000 });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    clock = Date.parse("2026-11-26T03:00:00Z");
    bot = await world.run(
      {
        ADMIN_IDS: String(ADMIN.id),
        RESELLER_IDS: String(BUDI.id),
        H2H_ENABLED: "true",
        H2H_RATE_LIMIT: "1000",
        PORT: String(port),
      },
      { now: () => new Date(clock) },
    );
    const app = bot.app!;
    live = await app.partners.issue(BUDI.id, clock);
    test = await app.partners.issueTest(BUDI.id, clock);
    await fundReseller(app.wallets, BUDI.id, 100_000, ADMIN.id, clock);
  });
  afterEach(() => world.cleanup());

  async function get(path: string, key: typeof test, params: Record<string, string | string[]> = {}): Promise<Body> {
    const q = new URLSearchParams({ mitra_id: key.mitraId, secret_key: key.secretKey });
    for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) q.append(k, one);
    const res = await fetch(`${base}${path}?${q.toString()}`);
    return (await res.json()) as Body;
  }
  const order = (key: typeof test, ref: string, extra: Record<string, string | string[]> = {}) =>
    get("/v1/transaction/partner", key, { ref_id: ref, item_code: "ML86", destination: PLAYER, ...extra });

  it("when a test key orders, then it succeeds in the real shape with test: true and TEST ids, and no provider, saldo, ledger or report sees it", async () => {
    const ok = await order(test, "INV-1");
    expect(ok).toMatchObject({
      status: 1,
      test: true,
      data: {
        ref_id: "INV-1",
        destination: PLAYER,
        last_balance: 1_000_000,
        product_detail: { code: "ML86", price: 19_800, priceRp: 19_800, rate: 1, status: "SUKSES" },
      },
    });
    expect(ok.data.sn).toMatch(/^TEST\d+$/);
    expect(ok.data.trx_id).toMatch(/^TEST-\d{6}-\d+$/);
    expect(ok.data.message).toContain(ok.data.sn);
    const status = await get("/v1/transaction/status", test, { ref_id: "INV-1" });
    expect(status).toMatchObject({ status: 1, test: true, data: { sn: ok.data.sn, trx_id: ok.data.trx_id } });

    // Its own ref id space: used once by the test key, and still free for the real key.
    expect(await order(test, "INV-1")).toMatchObject({
      status: 0,
      error_code: "transaction/ref-id-already-exists",
      test: true,
    });
    expect(await get("/v1/transaction/status", live, { ref_id: "INV-1" })).toMatchObject({
      status: 0,
      error_code: "transaction/not-found",
    });

    const failed = await order(test, "INV-2", { destination: `FAIL${PLAYER}` });
    expect(failed).toMatchObject({ status: 0, error_code: "transaction/failed", ref_id: "INV-2", test: true });
    expect(failed.trx_id).toMatch(/^TEST-/);
    expect(await get("/v1/transaction/status", test, { ref_id: "INV-2" })).toMatchObject({
      status: 0,
      error_code: "transaction/failed",
      test: true,
    });

    expect(await get("/v1/balance", test)).toEqual({ status: 1, data: { balance: 1_000_000, held: 0 }, test: true });
    const products = await get("/v1/products", test);
    expect(products).toMatchObject({ status: 1, test: true });
    expect(products.data).toContainEqual(expect.objectContaining({ code: "ML86", price: 19_800 }));

    // Nothing reached the provider, the saldo, the ledger or the reports.
    expect(world.sandbox.calls).toHaveLength(0);
    expect(await get("/v1/balance", live)).toEqual({ status: 1, data: { balance: 100_000, held: 0 } });
    expect((await bot.app!.ledger.history(BUDI.id, 0, 50)).total).toBe(0);
    expect((await bot.app!.ledger.history("all", 0, 50)).total).toBe(0);
    expect(await bot.app!.ledger.partnerOrder(BUDI.id, "INV-1")).toBeUndefined();

    // The real key orders with the same ref id, and its answers carry no test mark.
    const real = await order(live, "INV-1");
    expect(real.status).toBe(1);
    expect(real.test).toBeUndefined();
    expect(real.data.sn).not.toMatch(/^TEST/);
    expect(world.sandbox.calls).toHaveLength(1);
  });

  it("when a test order is wrong, then it is refused as a real one would be, with test: true, and its ref id stays unused", async () => {
    const cases: Array<[Record<string, string | string[]>, string]> = [
      [{ item_code: "NOPE1" }, "product/not-found"],
      [{ destination: "12 34" }, "destination/invalid"],
      [{ destination: "FAIL12 34" }, "destination/invalid"],
      [{ destination: "PEND" }, "destination/invalid"],
      [{ destination: "" }, "request/invalid-parameter"],
      [{ ref_id: "bad ref!" }, "request/invalid-parameter"],
      [{ max_price: "1.5" }, "request/invalid-parameter"],
      [{ max_price: "19799" }, "price/above-max"],
    ];
    for (const [extra, code] of cases)
      expect(await order(test, "REUSE-1", extra), JSON.stringify(extra)).toMatchObject({
        status: 0,
        error_code: code,
        test: true,
      });
    expect(await get("/v1/transaction/status", { ...test, secretKey: "wrong" }, { ref_id: "REUSE-1" })).toMatchObject({
      status: 0,
      error_code: "auth/invalid-credentials",
    });
    expect((await order(test, "REUSE-1", { max_price: "19800" })).status).toBe(1);
  });

  it("when a test order's destination starts with PEND, then it is pending, owes a callback, and succeeds 5 s later by the clock", async () => {
    const app = bot.app!;
    const ordered = clock;
    const pending = await order(test, "PEND-1", { destination: `PEND${PLAYER}` });
    expect(pending).toMatchObject({
      status: 1,
      test: true,
      data: {
        ref_id: "PEND-1",
        destination: `PEND${PLAYER}`,
        destination_name: "",
        sn: "",
        last_balance: 1_000_000,
        product_detail: { code: "ML86", status: "PENDING" },
      },
    });
    expect(pending.data.message).toMatch(/^PENDING 86 Diamonds ke PEND12345678\(1234\)\. Status belum final/);
    expect(pending.data.trx_id).toMatch(/^TEST-/);

    // A callback is owed, due when it ends, under the test order's own ref id.
    const owed = (await app.partnerCallbacks.due(ordered + 5_000, 100)).filter((o) => o.refId.startsWith("TEST"));
    expect(owed).toHaveLength(1);
    expect(owed[0]!.dueAt).toBe(ordered + 5_000);
    expect(await app.partnerCallbacks.due(ordered + 4_999, 100)).toEqual([]);
    const testRef = owed[0]!.refId;
    expect(await app.testOrders.callbackOf(testRef)).toBeUndefined();

    clock += 4_999;
    expect((await get("/v1/transaction/status", test, { ref_id: "PEND-1" })).data.product_detail.status).toBe(
      "PENDING",
    );
    clock += 1;
    const done = await get("/v1/transaction/status", test, { ref_id: "PEND-1" });
    expect(done).toMatchObject({
      status: 1,
      test: true,
      data: { ref_id: "PEND-1", trx_id: pending.data.trx_id, product_detail: { status: "SUKSES" } },
    });
    expect(done.data.sn).toMatch(/^TEST\d+$/);
    expect(await app.testOrders.callbackOf(testRef)).toEqual({ userId: BUDI.id, body: done });
    expect(await app.testOrders.callbackOf("TESTNOSUCHORDER")).toBeUndefined();
    expect(world.sandbox.calls).toHaveLength(0);
  });
});
