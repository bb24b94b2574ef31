import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxProvider, sandboxPlayerName, type SandboxProvider } from "../../src/topup/sandbox.js";

describe("sandbox provider, over real HTTP", () => {
  let sandbox: SandboxProvider;
  beforeAll(async () => {
    sandbox = createSandboxProvider({
      mitraId: "M1",
      secretKey: "s3",
      products: [{ code: "FF70", name: "70 Diamonds", priceRp: 9500 }],
      initialBalance: 100000,
    });
    await sandbox.listen(0, "127.0.0.1");
  });
  afterAll(() => sandbox.close());

  const get = async (path: string, params: Record<string, string>) => {
    const res = await request(`${sandbox.url}${path}?${new URLSearchParams(params).toString()}`);
    return { status: res.statusCode, body: (await res.body.json()) as any };
  };
  const full = { destination: "123456789", ref_id: "R1", item_code: "ff70", secret_key: "s3", mitra_id: "M1" };

  it("when a parameter is missing, then it answers status 0 naming it", async () => {
    for (const missing of Object.keys(full)) {
      const params = { ...full, ref_id: `MISS-${missing}` } as Record<string, string>;
      delete params[missing];
      const { body } = await get("/v1/transaction/partner", params);
      expect(body).toEqual({
        status: 0,
        error_code: "request/missing-parameter",
        error_msg: `missing parameter: ${missing}`,
      });
    }
  });

  it("when the credentials are wrong, then it refuses without echoing the secret", async () => {
    const { body } = await get("/v1/transaction/partner", { ...full, ref_id: "BAD", secret_key: "guess" });
    expect(body).toEqual({
      status: 0,
      error_code: "auth/invalid-credentials",
      error_msg: "invalid partner credentials",
    });
  });

  it("when an order is valid, then the answer has the shape of topup-api.md 2.2 and the balance drops by the price", async () => {
    const { body } = await get("/v1/transaction/partner", full);
    expect(body.status).toBe(1);
    expect(Object.keys(body.data).sort()).toEqual([
      "destination",
      "destination_name",
      "last_balance",
      "message",
      "product_detail",
      "ref_id",
      "sn",
      "trx_id",
    ]);
    expect(body.data).toMatchObject({
      ref_id: "R1",
      destination: "123456789",
      last_balance: 90500,
      destination_name: sandboxPlayerName("123456789"),
    });
    expect(body.data.trx_id).toMatch(/^[A-Za-z]+-\d{6}-\d+$/);
    expect(body.data.sn).toMatch(/^\d+$/);
    expect(body.data.message).toContain(body.data.sn);
    expect(body.data.message).toContain(body.data.destination_name);
    expect(body.data.product_detail).toEqual({
      name: "70 Diamonds",
      code: "FF70",
      price: 9500,
      rate: 1,
      priceRp: 9500,
      status: "SUKSES",
    });
    expect(sandbox.balance()).toBe(90500);
  });

  it("when a ref_id is used again, then it answers ref-id-already-exists and charges nothing", async () => {
    const { body } = await get("/v1/transaction/partner", { ...full, destination: "987654321" });
    expect(body).toMatchObject({ status: 0, error_code: "transaction/ref-id-already-exists" });
    expect(sandbox.balance()).toBe(90500);
  });

  it("when the same player id comes again, then the player name is the same", () => {
    expect(sandboxPlayerName("123456789")).toBe(sandboxPlayerName("123456789"));
    expect(sandboxPlayerName("123456789")).not.toBe("");
  });

  it("when the path is wrong, then it is a 404 with a status 0 body", async () => {
    const { status, body } = await get("/v1/transaction/other", full);
    expect(status).toBe(404);
    expect(body).toMatchObject({ status: 0, error_code: "request/not-found" });
  });

  it("when the method is not GET, then it is a 405 with a status 0 body", async () => {
    const res = await request(
      `${sandbox.url}/v1/transaction/partner?${new URLSearchParams({ ...full, ref_id: "POST1" }).toString()}`,
      { method: "POST" },
    );
    expect(res.statusCode).toBe(405);
    expect(await res.body.json()).toMatchObject({ status: 0, error_code: "request/method-not-allowed" });
    expect(sandbox.balance()).toBe(90500);
  });

  it("when the mitra_id is wrong, then it refuses like a wrong secret", async () => {
    const { body } = await get("/v1/transaction/partner", { ...full, ref_id: "BADM", mitra_id: "M2" });
    expect(body).toEqual({
      status: 0,
      error_code: "auth/invalid-credentials",
      error_msg: "invalid partner credentials",
    });
  });

  it("when the product is unknown, then it answers product/not-found and charges nothing", async () => {
    const { body } = await get("/v1/transaction/partner", { ...full, ref_id: "NOPROD", item_code: "XX1" });
    expect(body).toMatchObject({ status: 0, error_code: "product/not-found" });
    expect(sandbox.balance()).toBe(90500);
  });

  it("when a destination has characters to encode, then it is echoed exactly and the name follows it", async () => {
    const { body } = await get("/v1/transaction/partner", { ...full, ref_id: "R-ENC", destination: "12345678(1234)" });
    expect(body.data).toMatchObject({
      ref_id: "R-ENC",
      destination: "12345678(1234)",
      destination_name: sandboxPlayerName("12345678(1234)"),
    });
  });

  it("when every request is made, then each order request is recorded with its outcome, errors included (another path is not an order)", () => {
    expect(sandbox.calls.map((c) => c.errorCode ?? c.outcome)).toEqual([
      ...Object.keys(full).map(() => "request/missing-parameter"),
      "auth/invalid-credentials",
      "success",
      "transaction/ref-id-already-exists",
      "request/method-not-allowed",
      "auth/invalid-credentials",
      "product/not-found",
      "success",
    ]);
    expect(JSON.stringify(sandbox.calls)).not.toContain("s3");
  });
});

describe("sandbox provider, money and identity", () => {
  const params = (ref: string, destination = "555555555") => ({
    destination,
    ref_id: ref,
    item_code: "GI60",
    secret_key: "k",
    mitra_id: "m",
  });
  const started: SandboxProvider[] = [];
  afterAll(async () => {
    for (const s of started) await s.close();
  });
  const start = async (initialBalance: number, latencyMs = 0) => {
    const s = createSandboxProvider({
      mitraId: "m",
      secretKey: "k",
      products: [{ code: "GI60", name: "60 Genesis Crystals", priceRp: 16000 }],
      initialBalance,
      latencyMs,
    });
    started.push(s);
    await s.listen(0, "127.0.0.1");
    return s;
  };
  const order = async (s: SandboxProvider, p: Record<string, string>) =>
    (await request(`${s.url}/v1/transaction/partner?${new URLSearchParams(p).toString()}`)).body.json() as Promise<any>;

  it("when the balance does not cover the price, then it answers balance/insufficient and keeps the balance", async () => {
    const s = await start(20000);
    expect(await order(s, params("A1"))).toMatchObject({ status: 1, data: { last_balance: 4000 } });
    expect(await order(s, params("A2"))).toEqual({
      status: 0,
      error_code: "balance/insufficient",
      error_msg: "insufficient balance",
    });
    expect(s.balance()).toBe(4000);
  });

  it("when orders succeed, then each has its own trx_id and sn, and one player keeps one name", async () => {
    const s = await start(1_000_000);
    const a = await order(s, params("B1", "800123456"));
    const b = await order(s, params("B2", "800123456"));
    const c = await order(s, params("B3", "800999999"));
    expect(new Set([a.data.trx_id, b.data.trx_id, c.data.trx_id]).size).toBe(3);
    expect(new Set([a.data.sn, b.data.sn, c.data.sn]).size).toBe(3);
    for (const x of [a, b, c]) {
      expect(x.data.trx_id).toMatch(/^[A-Za-z]+-\d{6}-\d+$/);
      expect(x.data.sn).toMatch(/^\d{16,20}$/);
      expect(Number.isInteger(x.data.last_balance)).toBe(true);
    }
    expect(a.data.destination_name).toBe(b.data.destination_name);
    expect(a.data.destination_name).not.toBe("");
    expect(s.balance()).toBe(1_000_000 - 3 * 16000);
  });

  it("when the answer is slow, then the call is recorded and charged before the answer leaves", async () => {
    const s = await start(100000, 1500);
    let answered = false;
    const pending = order(s, params("C1")).finally(() => (answered = true));
    // The sandbox runs in this process: as soon as it has the request, it has recorded and charged it.
    while (s.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    expect(s.calls).toHaveLength(1);
    expect(s.balance()).toBe(84000);
    expect(await pending).toMatchObject({ status: 1, data: { ref_id: "C1" } });
  });

  it("when money is deposited or taken away, then the next order sees that balance", async () => {
    const s = await start(10000);
    expect(await order(s, params("D1"))).toMatchObject({ status: 0, error_code: "balance/insufficient" });
    expect(s.deposit(20000)).toBe(30000);
    expect(await order(s, params("D2"))).toMatchObject({ status: 1, data: { last_balance: 14000 } });
    expect(s.deposit(-s.balance())).toBe(0);
    expect(() => s.deposit(-1)).toThrow(RangeError);
    expect(() => s.deposit(0.5)).toThrow(RangeError);
    expect(s.balance()).toBe(0);
  });

  it("when a product price is not a positive integer, then the sandbox refuses to start", () => {
    expect(() =>
      createSandboxProvider({ mitraId: "m", secretKey: "k", products: [{ code: "X", name: "x", priceRp: 10.5 }] }),
    ).toThrow(/priceRp/);
  });
});
