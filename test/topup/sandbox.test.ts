import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxProvider, sandboxPlayerName, type SandboxProvider } from "../../src/topup/sandbox.js";

describe("sandbox provider, over real HTTP", () => {
  let sandbox: SandboxProvider;
  beforeAll(async () => {
    sandbox = createSandboxProvider({ mitraId: "M1", secretKey: "s3", products: [{ code: "FF70", name: "70 Diamonds", priceRp: 9500 }], initialBalance: 100000 });
    await sandbox.listen(0, "127.0.0.1");
  });
  afterAll(() => sandbox.close());

  const get = async (path: string, params: Record<string, string>) => {
    const res = await request(`${sandbox.url}${path}?${new URLSearchParams(params)}`);
    return { status: res.statusCode, body: (await res.body.json()) as any };
  };
  const full = { destination: "123456789", ref_id: "R1", item_code: "ff70", secret_key: "s3", mitra_id: "M1" };

  it("when a parameter is missing, then it answers status 0 naming it", async () => {
    for (const missing of Object.keys(full)) {
      const params = { ...full, ref_id: `MISS-${missing}` } as Record<string, string>;
      delete params[missing];
      const { body } = await get("/v1/transaction/partner", params);
      expect(body).toEqual({ status: 0, error_code: "request/missing-parameter", error_msg: `missing parameter: ${missing}` });
    }
  });

  it("when the credentials are wrong, then it refuses without echoing the secret", async () => {
    const { body } = await get("/v1/transaction/partner", { ...full, ref_id: "BAD", secret_key: "guess" });
    expect(body).toEqual({ status: 0, error_code: "auth/invalid-credentials", error_msg: "invalid partner credentials" });
  });

  it("when an order is valid, then the answer has the shape of topup-api.md 2.2 and the balance drops by the price", async () => {
    const { body } = await get("/v1/transaction/partner", full);
    expect(body.status).toBe(1);
    expect(Object.keys(body.data).sort()).toEqual(["destination", "destination_name", "last_balance", "message", "product_detail", "ref_id", "sn", "trx_id"]);
    expect(body.data).toMatchObject({ ref_id: "R1", destination: "123456789", last_balance: 90500, destination_name: sandboxPlayerName("123456789") });
    expect(body.data.trx_id).toMatch(/^[A-Z]+-\d{6}-\d+$/);
    expect(body.data.sn).toMatch(/^\d+$/);
    expect(body.data.message).toContain(body.data.sn);
    expect(body.data.message).toContain(body.data.destination_name);
    expect(body.data.product_detail).toEqual({ name: "70 Diamonds", code: "FF70", price: 9500, rate: 1, priceRp: 9500, status: "SUKSES" });
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
    expect(body.status).toBe(0);
  });
});
