import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTopupClient } from "../../src/topup/client.js";
import { buildStatusUrl, buildTopupUrl, redactUrl } from "../../src/topup/provider-url.js";
import { parseStatusAnswer, parseTopupAnswer } from "../../src/topup/provider-answer.js";
import { createSandboxProvider, type SandboxProvider } from "../../src/topup/sandbox.js";
import type { TopupRequest, TopupResult, TopupStatusResult } from "../../src/topup/types.js";

const SECRET = "sk-test-NEVER-SHOWN-4242";
const MITRA = "M-77";
const req = (refId: string, extra: Partial<TopupRequest> = {}): TopupRequest => ({
  refId,
  itemCode: "ML86",
  destination: "12345678(1234)",
  ...extra,
});

const successBody = (refId: string, overrides: Record<string, unknown> = {}, detail: Record<string, unknown> = {}) => ({
  status: 1,
  data: {
    trx_id: "TRX-231123-42",
    ref_id: refId,
    destination: "12345678(1234)",
    destination_name: "Budi",
    message: "Top up to Budi succeeded, SN 1234567890",
    sn: "1234567890",
    last_balance: 980000,
    product_detail: {
      name: "86 Diamonds",
      code: "ML86",
      price: 19500,
      rate: 1,
      priceRp: 19500,
      status: "SUKSES",
      ...detail,
    },
    ...overrides,
  },
});

/** A provider double on a random port whose answer the test decides. */
async function faultyProvider(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function json(status: number, body: unknown, contentType = "application/json") {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { "content-type": contentType });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
}

const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

async function orderAgainst(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  refId = "TGREF1",
  timeoutMs = 2000,
): Promise<TopupResult> {
  const provider = await faultyProvider(handler);
  servers.push(provider);
  const result = await createTopupClient({ baseUrl: provider.url, mitraId: MITRA, secretKey: SECRET, timeoutMs }).order(
    req(refId),
  );
  expect(JSON.stringify(result)).not.toContain(SECRET);
  return result;
}

describe("provider client against the sandbox", () => {
  let sandbox: SandboxProvider;
  beforeAll(async () => {
    sandbox = createSandboxProvider({
      mitraId: MITRA,
      secretKey: SECRET,
      products: [{ code: "ML86", name: "86 Diamonds", priceRp: 19500 }],
      initialBalance: 50000,
    });
    await sandbox.listen(0, "127.0.0.1");
  });
  afterAll(() => sandbox.close());
  const client = () => {
    const inner = createTopupClient({ baseUrl: sandbox.url, mitraId: MITRA, secretKey: SECRET, timeoutMs: 5000 });
    return {
      async order(r: TopupRequest) {
        const result = await inner.order(r);
        expect(JSON.stringify(result)).not.toContain(SECRET);
        return result;
      },
    };
  };

  it("when an order succeeds, then every field of the answer is there and the balance goes down by the price", async () => {
    const first = await client().order(req("TGOK1"));
    const second = await client().order(req("TGOK2", { destination: "999999(1111)" }));
    expect(first).toMatchObject({
      kind: "success",
      refId: "TGOK1",
      destination: "12345678(1234)",
      lastBalance: 30500,
      productDetail: { code: "ML86", priceRp: 19500, status: "SUKSES" },
    });
    expect(second).toMatchObject({ kind: "success", lastBalance: 11000 });
    if (first.kind !== "success") return;
    expect(first.sn).toMatch(/^\d+$/);
    expect(first.trxId).toMatch(/^[A-Za-z]+-\d{6}-\d+$/);
    expect(first.destinationName).not.toBe("");
    expect(first.message).toContain(first.sn);
    expect(first.message).toContain(first.destinationName);
    expect(sandbox.balance()).toBe(11000);
  });

  it("when the balance is too low, then the order failed with the provider's code and message", async () => {
    const result = await client().order(req("TGPOOR"));
    expect(result).toEqual({
      kind: "failed",
      reason: "provider-error",
      errorCode: "balance/insufficient",
      errorMsg: "insufficient balance",
    });
  });

  it("when a ref_id is sent again, then it is unknown (the provider has it), not failed", async () => {
    const result = await client().order(req("TGOK1"));
    expect(result).toMatchObject({
      kind: "unknown",
      reason: "ref-id-already-exists",
      errorCode: "transaction/ref-id-already-exists",
    });
  });

  it("when the credentials are wrong or the product unknown, then the order failed with the code", async () => {
    const wrong = await createTopupClient({
      baseUrl: sandbox.url,
      mitraId: MITRA,
      secretKey: "wrong",
      timeoutMs: 5000,
    }).order(req("TGAUTH"));
    expect(wrong).toEqual({
      kind: "failed",
      reason: "provider-error",
      errorCode: "auth/invalid-credentials",
      errorMsg: "invalid partner credentials",
    });
    const unknownProduct = await client().order(req("TGNOPE", { itemCode: "NOPE" }));
    expect(unknownProduct).toMatchObject({ kind: "failed", errorCode: "product/not-found" });
  });

  it("when calls were made, then the sandbox recorded exactly those, one per order", () => {
    expect(sandbox.calls.map((c) => [c.refId, c.outcome, c.errorCode])).toEqual([
      ["TGOK1", "success", undefined],
      ["TGOK2", "success", undefined],
      ["TGPOOR", "error", "balance/insufficient"],
      ["TGOK1", "error", "transaction/ref-id-already-exists"],
      ["TGAUTH", "error", "auth/invalid-credentials"],
      ["TGNOPE", "error", "product/not-found"],
    ]);
  });
});

describe("provider client against faulty providers", () => {
  it("when the provider answers an HTML 502, then the result is unknown: not JSON", async () => {
    const result = await orderAgainst(json(502, "<html><body>502 Bad Gateway</body></html>", "text/html"));
    expect(result).toMatchObject({ kind: "unknown", reason: "not-json", httpStatus: 502 });
  });

  it("when a 200 carries an error body, then the order failed (the body decides)", async () => {
    const result = await orderAgainst(
      json(200, { status: 0, error_code: "product/out-of-stock", error_msg: "Stok habis" }),
    );
    expect(result).toEqual({
      kind: "failed",
      reason: "provider-error",
      errorCode: "product/out-of-stock",
      errorMsg: "Stok habis",
    });
  });

  it("when a 500 carries a success body, then it is a success (the body decides)", async () => {
    expect(await orderAgainst(json(500, successBody("TGREF1")))).toMatchObject({ kind: "success", sn: "1234567890" });
  });

  it("when error_msg is not text, then the error code is kept and the message left out", async () => {
    for (const errorMsg of [{ detail: "x" }, null, ["a"], 42]) {
      const result = await orderAgainst(
        json(200, { status: 0, error_code: "system/maintenance", error_msg: errorMsg }),
      );
      expect(result).toEqual({ kind: "failed", reason: "provider-error", errorCode: "system/maintenance" });
    }
  });

  it("when the provider does not answer in time, then the result is unknown: timeout", async () => {
    const result = await orderAgainst(() => undefined, "TGSLOW", 300);
    expect(result).toMatchObject({ kind: "unknown", reason: "timeout" });
  });

  it("when the body stalls half-way, then the timeout still applies", async () => {
    const result = await orderAgainst(
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"status":1,');
      },
      "TGSTALL",
      300,
    );
    expect(result).toMatchObject({ kind: "unknown", reason: "timeout" });
  });

  it("when the connection is reset after the request was sent, then the result is unknown: connection lost", async () => {
    const result = await orderAgainst((request) => request.socket.destroy());
    expect(result).toMatchObject({ kind: "unknown", reason: "connection-lost" });
  });

  it("when nothing listens on the port, then the order failed: not sent", async () => {
    const provider = await faultyProvider(() => undefined);
    const url = provider.url;
    await provider.close();
    const result = await createTopupClient({ baseUrl: url, mitraId: MITRA, secretKey: SECRET, timeoutMs: 2000 }).order(
      req("TGREFUSED"),
    );
    expect(result).toMatchObject({ kind: "failed", reason: "not-sent" });
    expect(JSON.stringify(result)).toContain("ECONNREFUSED");
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it("when a success lacks a field or its data is not an object, then the result is unknown: malformed", async () => {
    const noSn = successBody("TGREF1");
    delete (noSn.data as Record<string, unknown>).sn;
    expect(await orderAgainst(json(200, noSn))).toMatchObject({
      kind: "unknown",
      reason: "malformed",
      trxId: "TRX-231123-42",
    });
    expect(await orderAgainst(json(200, { status: 1, data: "ok" }))).toMatchObject({
      kind: "unknown",
      reason: "malformed",
    });
    expect(await orderAgainst(json(200, { status: 1 }))).toMatchObject({ kind: "unknown", reason: "malformed" });
    expect(await orderAgainst(json(200, successBody("TGREF1", { last_balance: "lots" })))).toMatchObject({
      kind: "unknown",
      reason: "malformed",
    });
  });

  it("when the body is JSON but not an answer, then the result is unknown: malformed", async () => {
    for (const body of [[], null, 7, { status: 2 }, { status: 0 }, { ok: true }]) {
      expect(await orderAgainst(json(200, body))).toMatchObject({ kind: "unknown", reason: "malformed" });
    }
  });

  it("when product_detail.status is not SUKSES, then the result is unknown and keeps what the provider said", async () => {
    for (const status of ["PENDING", "GAGAL", "sukses"]) {
      const result = await orderAgainst(json(200, successBody("TGREF1", {}, { status })));
      expect(result).toMatchObject({
        kind: "unknown",
        reason: "status-not-sukses",
        trxId: "TRX-231123-42",
        sn: "1234567890",
        productDetail: { status },
      });
    }
  });

  it("when the answer echoes another ref_id, then it is not taken as this order's success", async () => {
    expect(await orderAgainst(json(200, successBody("TGSOMEONEELSE")))).toMatchObject({
      kind: "unknown",
      reason: "malformed",
    });
  });

  it("when numbers arrive as numeric strings, then they are accepted as numbers", async () => {
    const body = {
      status: "1",
      data: {
        ...successBody("TGREF1").data,
        sn: 1234567890,
        last_balance: "15000",
        product_detail: {
          name: "86 Diamonds",
          code: "ML86",
          price: "19500",
          rate: "1",
          priceRp: "19500",
          status: "SUKSES",
        },
      },
    };
    const result = await orderAgainst(json(200, body));
    expect(result).toMatchObject({
      kind: "success",
      sn: "1234567890",
      lastBalance: 15000,
      productDetail: { price: 19500, rate: 1, priceRp: 19500 },
    });
  });

  it("when the request is made, then it is one GET on /v1/transaction/partner with all five parameters", async () => {
    const seen: string[] = [];
    await orderAgainst((request, res) => {
      seen.push(`${request.method} ${request.url}`);
      json(200, successBody("TGREF1"))(request, res);
    });
    expect(seen).toHaveLength(1);
    const url = new URL(seen[0]!.split(" ")[1]!, "http://x");
    expect(seen[0]!.startsWith("GET /v1/transaction/partner?")).toBe(true);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      destination: "12345678(1234)",
      ref_id: "TGREF1",
      item_code: "ML86",
      secret_key: SECRET,
      mitra_id: MITRA,
    });
  });

  it("when the provider says the ref_id exists in another spelling, then it is still unknown, never failed", async () => {
    for (const code of ["transaction/ref-id-already-exists", " Transaction/Ref-Id-Already-Exists "]) {
      const result = await orderAgainst(
        json(200, { status: "0", error_code: code, error_msg: "ref_id already exists" }),
      );
      expect(result).toMatchObject({ kind: "unknown", reason: "ref-id-already-exists" });
    }
  });

  it("when an sn arrives as a number too big to be exact, then the result is unknown, not a wrong sn", async () => {
    const body = JSON.stringify(successBody("TGREF1")).replace('"sn":"1234567890"', '"sn":123456789012345678901');
    expect(await orderAgainst(json(200, body))).toMatchObject({ kind: "unknown", reason: "malformed" });
  });

  it("when error_msg echoes our request or is huge, then the secret is scrubbed and the text capped", async () => {
    const echo = await orderAgainst(
      json(200, {
        status: 0,
        error_code: "request/bad",
        error_msg: `bad request /v1/transaction/partner?ref_id=x&secret_key=${SECRET}&mitra_id=${MITRA}`,
      }),
    );
    expect(echo).toMatchObject({ kind: "failed", errorCode: "request/bad" });
    expect(echo.kind === "failed" && echo.errorMsg).toContain("secret_key=***");
    const huge = await orderAgainst(
      json(200, { status: 0, error_code: "request/bad", error_msg: `line\n${"x".repeat(5000)}` }),
    );
    expect(huge.kind === "failed" && huge.errorMsg?.length).toBeLessThanOrEqual(300);
    expect(huge.kind === "failed" && huge.errorMsg).not.toContain("\n");
  });

  it("when the body is larger than 1 MB, then the result is unknown", async () => {
    const result = await orderAgainst(json(200, `{"status":1,"pad":"${"x".repeat(2 * 1024 * 1024)}"}`));
    expect(result).toMatchObject({ kind: "unknown", reason: "malformed" });
  });

  it("when the connection drops half-way through the body, then the result is unknown: connection lost", async () => {
    const result = await orderAgainst((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "500" });
      res.write('{"status":1,"data":{');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    expect(result).toMatchObject({ kind: "unknown", reason: "connection-lost" });
  });

  it("when the provider host does not exist, then the order failed: not sent", async () => {
    const result = await createTopupClient({
      baseUrl: "http://no-such-provider.invalid",
      mitraId: MITRA,
      secretKey: SECRET,
      timeoutMs: 5000,
    }).order(req("TGDNS"));
    expect(result).toMatchObject({ kind: "failed", reason: "not-sent" });
    expect(JSON.stringify(result)).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it("when two orders are made, then each goes on a fresh connection (no stale keep-alive socket)", async () => {
    let connections = 0;
    const provider = await faultyProvider((request, res) =>
      json(200, successBody(new URL(request.url!, "http://x").searchParams.get("ref_id")!))(request, res),
    );
    servers.push(provider);
    provider.server.on("connection", () => connections++);
    const client = createTopupClient({ baseUrl: provider.url, mitraId: MITRA, secretKey: SECRET, timeoutMs: 2000 });
    expect(await client.order(req("TGA"))).toMatchObject({ kind: "success" });
    // Give a keep-alive socket time to return to the pool, so reuse would show if it happened.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await client.order(req("TGB"))).toMatchObject({ kind: "success" });
    expect(connections).toBe(2);
  });

  it("when the provider answers 502 every time, then the client still makes one call only (no retry)", async () => {
    let count = 0;
    await orderAgainst((request, res) => {
      count++;
      json(502, "bad gateway", "text/plain")(request, res);
    });
    expect(count).toBe(1);
  });
});

describe("the provider URL", () => {
  it("when values need encoding, then they are encoded, and the redacted form hides the secret", () => {
    const url = buildTopupUrl(
      { baseUrl: "https://p.example.com/", mitraId: MITRA, secretKey: SECRET },
      req("TG1", { destination: "12&34 (5)" }),
    );
    expect(url.pathname).toBe("/v1/transaction/partner");
    expect(url.searchParams.get("destination")).toBe("12&34 (5)");
    expect(url.searchParams.get("secret_key")).toBe(SECRET);
    const redacted = redactUrl(url);
    expect(redacted).not.toContain(SECRET);
    expect(redacted).toContain("secret_key=***");
    expect(redactUrl(`not a url ?secret_key=${SECRET}&x=1`)).not.toContain(SECRET);
  });

  it("when the URL is built, then all five parameters are there and encoded in the raw text", () => {
    const url = buildTopupUrl(
      { baseUrl: "https://p.example.com/api/", mitraId: MITRA, secretKey: "a&b=c" },
      req("TG 2", { destination: "12345678(1234)&x=1", itemCode: "ML86" }),
    );
    expect(url.origin + url.pathname).toBe("https://p.example.com/api/v1/transaction/partner");
    expect(url.search).not.toContain("&x=1");
    expect(url.search).toContain("destination=12345678%281234%29%26x%3D1");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      destination: "12345678(1234)&x=1",
      ref_id: "TG 2",
      item_code: "ML86",
      secret_key: "a&b=c",
      mitra_id: MITRA,
    });
    expect(redactUrl(url)).not.toContain("a%26b");
    expect(redactUrl(url.toString())).toContain(`mitra_id=${MITRA}`);
  });

  it("when a URL carries user info, then redactUrl hides it too", () => {
    expect(redactUrl("https://user:pw-123@p.example.com/v1?secret_key=zz")).toBe(
      "https://***@p.example.com/v1?secret_key=***",
    );
  });

  it("when the client is configured with a bad base URL or timeout, then it refuses at creation without echoing the URL", () => {
    expect(() =>
      createTopupClient({ baseUrl: "not a url secret", mitraId: MITRA, secretKey: SECRET, timeoutMs: 1000 }),
    ).toThrow(/baseUrl/);
    expect(() =>
      createTopupClient({ baseUrl: "not a url secret", mitraId: MITRA, secretKey: SECRET, timeoutMs: 1000 }),
    ).not.toThrow(/secret/);
    expect(() =>
      createTopupClient({ baseUrl: "https://p.example.com/?a=1", mitraId: MITRA, secretKey: SECRET, timeoutMs: 1000 }),
    ).toThrow(/baseUrl/);
    expect(() =>
      createTopupClient({ baseUrl: "https://p.example.com", mitraId: MITRA, secretKey: SECRET, timeoutMs: 0 }),
    ).toThrow(/timeoutMs/);
  });
});

describe("parsing an answer without HTTP", () => {
  const r = req("TGP1");
  it("when a success body comes with any HTTP status, then the body decides", () => {
    for (const status of [200, 201, 404, 500, 503]) {
      expect(parseTopupAnswer(JSON.stringify(successBody("TGP1")), status, r)).toMatchObject({
        kind: "success",
        refId: "TGP1",
        lastBalance: 980000,
      });
    }
  });

  it("when an answer is not SUKSES, then the detail is short and names the status", () => {
    const result = parseTopupAnswer(JSON.stringify(successBody("TGP1", {}, { status: "PENDING" })), 200, r);
    expect(result).toMatchObject({
      kind: "unknown",
      reason: "status-not-sukses",
      detail: "HTTP 200, product_detail.status is PENDING",
      lastBalance: 980000,
      destinationName: "Budi",
    });
  });

  it("when status 1 comes with a mistyped product detail, then it is malformed and names the field, not its value", () => {
    const result = parseTopupAnswer(JSON.stringify(successBody("TGP1", {}, { price: "lots-of-money" })), 200, r);
    expect(result).toMatchObject({ kind: "unknown", reason: "malformed", trxId: "TRX-231123-42", sn: "1234567890" });
    expect(result.kind === "unknown" && result.detail).toContain("product_detail.price");
    expect(JSON.stringify(result)).not.toContain("lots-of-money");
  });

  it("when the body is empty, then it is unknown: not JSON", () => {
    expect(parseTopupAnswer("", 200, r)).toMatchObject({
      kind: "unknown",
      reason: "not-json",
      detail: "HTTP 200, body is not JSON",
    });
  });
});

describe("provider client when the provider is another shop running this bot", () => {
  const rateLimited = { status: 0, error_code: "request/rate-limited", error_msg: "too many requests" };

  /** A provider that answers each call with the next handler (the last one repeats), recording each ref_id. */
  async function scripted(handlers: Array<(req: IncomingMessage, res: ServerResponse) => void>) {
    const refIds: string[] = [];
    const provider = await faultyProvider((request, res) => {
      refIds.push(new URL(request.url!, "http://x").searchParams.get("ref_id")!);
      handlers[Math.min(refIds.length, handlers.length) - 1]!(request, res);
    });
    servers.push(provider);
    return { url: provider.url, refIds };
  }

  const clientFor = (url: string, timeoutMs = 5000, rateLimitPauseMs = 20) =>
    createTopupClient({ baseUrl: url, mitraId: MITRA, secretKey: SECRET, timeoutMs, rateLimitPauseMs });

  it("when a 503 carries an error body, then the result is unknown (held), never failed", async () => {
    const result = await orderAgainst(
      json(503, { status: 0, error_code: "transaction/failed", error_msg: "service unavailable" }),
    );
    expect(result).toMatchObject({
      kind: "unknown",
      reason: "server-error",
      errorCode: "transaction/failed",
      httpStatus: 503,
    });
  });

  it("when the provider says transaction/unknown in any spelling, then the result is unknown, never failed", async () => {
    for (const code of ["transaction/unknown", " Transaction/UNKNOWN "]) {
      const result = await orderAgainst(json(200, { status: 0, error_code: code, error_msg: "ask the status" }));
      expect(result).toMatchObject({ kind: "unknown", reason: "upstream-unknown", errorMsg: "ask the status" });
    }
  });

  it("when the other shop answers as to a test key, then even its success is a refusal: its made-up SN is never sold", async () => {
    const testSuccess = { ...successBody("TGT1", { sn: "TEST1234" }), test: true };
    const result = await orderAgainst(json(200, testSuccess), "TGT1");
    expect(result).toMatchObject({ kind: "failed", reason: "provider-error", errorCode: "provider/test-key" });
    expect(result.kind === "failed" && result.errorMsg).toMatch(/test key/);
    expect(JSON.stringify(result)).not.toContain("TEST1234");
    // A pending or failed test answer is a refusal too, and so is a status query's.
    const testPending = { ...successBody("TGT1", {}, { status: "PENDING" }), test: true };
    expect(await orderAgainst(json(200, testPending), "TGT1")).toMatchObject({
      kind: "failed",
      errorCode: "provider/test-key",
    });
    expect(parseStatusAnswer(JSON.stringify({ ...successBody("TGT1"), test: true }), 200, "TGT1")).not.toMatchObject({
      kind: "success",
    });
    // Without the marker the same pending answer is held as unknown, as an older shop's transaction/unknown is.
    expect(await orderAgainst(json(200, successBody("TGT1", {}, { status: "PENDING" })), "TGT1")).toMatchObject({
      kind: "unknown",
      reason: "status-not-sukses",
    });
  });

  it("when the provider is rate-limited twice and then succeeds, then it is one success sent three times with the same ref_id", async () => {
    const provider = await scripted([json(429, rateLimited), json(429, rateLimited), json(200, successBody("TGRL1"))]);
    const result = await clientFor(provider.url).order(req("TGRL1"));
    expect(result).toMatchObject({ kind: "success", refId: "TGRL1", sn: "1234567890" });
    expect(provider.refIds).toEqual(["TGRL1", "TGRL1", "TGRL1"]);
  });

  it("when the provider stays rate-limited, then the order failed with the code once the time is up", async () => {
    const provider = await scripted([json(429, rateLimited)]);
    const started = Date.now();
    const result = await clientFor(provider.url, 1500, 50).order(req("TGRL2"));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result).toMatchObject({ kind: "failed", reason: "provider-error", errorCode: "request/rate-limited" });
    expect(result.kind === "failed" && result.detail).toMatch(/^rate-limited \d+ times/);
    expect(provider.refIds.length).toBeGreaterThanOrEqual(2);
    expect(new Set(provider.refIds)).toEqual(new Set(["TGRL2"]));
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it("when the provider asks for a Retry-After, then the pause honours it, and one too long is not waited for", async () => {
    const limitedFor = (seconds: string) => (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": seconds });
      res.end(JSON.stringify(rateLimited));
    };
    const short = await scripted([limitedFor("1"), json(200, successBody("TGRA1"))]);
    const started = Date.now();
    expect(await clientFor(short.url).order(req("TGRA1"))).toMatchObject({ kind: "success" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    const long = await scripted([limitedFor("60"), json(200, successBody("TGRA2"))]);
    expect(await clientFor(long.url).order(req("TGRA2"))).toMatchObject({
      kind: "failed",
      errorCode: "request/rate-limited",
    });
    expect(long.refIds).toEqual(["TGRA2"]);
  });

  it("when anything but a rate limit comes back, then the order is sent once only", async () => {
    const answers = [
      json(503, rateLimited),
      json(200, { status: 0, error_code: "transaction/unknown", error_msg: "x" }),
      json(200, { status: 0, error_code: "shop/paused", error_msg: "x" }),
      json(429, "slow down", "text/plain"),
    ];
    for (const answer of answers) {
      const provider = await scripted([answer, json(200, successBody("TGONE"))]);
      expect(await clientFor(provider.url).order(req("TGONE"))).not.toMatchObject({ kind: "success" });
      expect(provider.refIds).toHaveLength(1);
    }
  });
});

describe("the provider's status query", () => {
  async function statusAgainst(
    handler: (req: IncomingMessage, res: ServerResponse) => void,
    refId = "TGST1",
  ): Promise<TopupStatusResult> {
    const provider = await faultyProvider(handler);
    servers.push(provider);
    const client = createTopupClient({ baseUrl: provider.url, mitraId: MITRA, secretKey: SECRET, timeoutMs: 2000 });
    const result = await client.status!(refId);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    return result;
  }

  it("when asked, then it is one GET on /v1/transaction/status with ref_id and the credentials only", async () => {
    const seen: string[] = [];
    await statusAgainst((request, res) => {
      seen.push(`${request.method} ${request.url}`);
      json(200, successBody("TGST1"))(request, res);
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.startsWith("GET /v1/transaction/status?")).toBe(true);
    expect(Object.fromEntries(new URL(seen[0]!.split(" ")[1]!, "http://x").searchParams)).toEqual({
      ref_id: "TGST1",
      secret_key: SECRET,
      mitra_id: MITRA,
    });
  });

  it("when the provider reports a finished success for our ref_id, then it is a success with every field", async () => {
    expect(await statusAgainst(json(200, successBody("TGST1")))).toMatchObject({
      kind: "success",
      refId: "TGST1",
      sn: "1234567890",
      trxId: "TRX-231123-42",
      lastBalance: 980000,
      productDetail: { priceRp: 19500, status: "SUKSES" },
    });
  });

  it("when the provider reports transaction/failed, unknown or not-found, then each is told apart", async () => {
    expect(
      await statusAgainst(json(200, { status: 0, error_code: "transaction/failed", error_msg: "refused upstream" })),
    ).toEqual({ kind: "failed", errorCode: "transaction/failed", errorMsg: "refused upstream" });
    expect(
      await statusAgainst(json(200, { status: 0, error_code: "Transaction/Unknown", error_msg: "x" })),
    ).toMatchObject({ kind: "unknown" });
    expect(await statusAgainst(json(200, { status: 0, error_code: "transaction/not-found", error_msg: "x" }))).toEqual({
      kind: "not-found",
    });
  });

  it("when the provider has no status operation or gives no usable answer, then it is no-answer", async () => {
    const noAnswers = [
      json(404, "<html>Not Found</html>", "text/html"),
      json(405, { status: 0, error_code: "request/method-not-allowed", error_msg: "x" }),
      json(404, { status: 0, error_code: "request/not-found", error_msg: "x" }),
      json(200, { status: 0, error_code: "auth/invalid-credentials", error_msg: "x" }),
      json(429, { status: 0, error_code: "request/rate-limited", error_msg: "x" }),
      json(503, { status: 0, error_code: "transaction/failed", error_msg: "x" }),
      json(200, successBody("TGSOMEONEELSE")),
      json(200, "{"),
      (request: IncomingMessage) => request.socket.destroy(),
    ];
    for (const handler of noAnswers) {
      const result = await statusAgainst(handler);
      expect(result).toMatchObject({ kind: "no-answer" });
      expect(result.kind === "no-answer" && result.detail).toBeTruthy();
    }
  });

  it("when nothing listens, then it is no-answer and it does not throw", async () => {
    const provider = await faultyProvider(() => undefined);
    await provider.close();
    const client = createTopupClient({ baseUrl: provider.url, mitraId: MITRA, secretKey: SECRET, timeoutMs: 2000 });
    const result = await client.status!("TGST1");
    expect(result).toMatchObject({ kind: "no-answer" });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it("when the answer echoes our request, then the secret is scrubbed from what comes back", async () => {
    const result = await statusAgainst(
      json(200, {
        status: 0,
        error_code: "transaction/failed",
        error_msg: `failed: /v1/transaction/status?ref_id=TGST1&secret_key=${SECRET}`,
      }),
    );
    expect(result).toMatchObject({ kind: "failed" });
    expect(result.kind === "failed" && result.errorMsg).toContain("secret_key=***");
  });

  it("when the status URL is built, then the base path is kept and redactUrl hides the secret", () => {
    const url = buildStatusUrl({ baseUrl: "https://p.example.com/api/", mitraId: MITRA, secretKey: SECRET }, "TG 3");
    expect(url.origin + url.pathname).toBe("https://p.example.com/api/v1/transaction/status");
    expect(url.searchParams.get("ref_id")).toBe("TG 3");
    expect(redactUrl(url)).not.toContain(SECRET);
  });
});

describe("parsing a chained provider's answer without HTTP", () => {
  it("when an error body comes with any 5xx, then it is unknown; with a 4xx it is still a failure", () => {
    const body = JSON.stringify({ status: 0, error_code: "product/unavailable", error_msg: "x" });
    for (const status of [500, 502, 503, 504, 599]) {
      expect(parseTopupAnswer(body, status, req("TGP2"))).toMatchObject({ kind: "unknown", reason: "server-error" });
    }
    for (const status of [200, 400, 404, 429]) {
      expect(parseTopupAnswer(body, status, req("TGP2"))).toMatchObject({ kind: "failed", reason: "provider-error" });
    }
  });

  it("when a status answer is read, then only the codes that say so become an outcome", () => {
    const err = (code: string) => JSON.stringify({ status: 0, error_code: code, error_msg: "m" });
    expect(parseStatusAnswer(err("TRANSACTION/FAILED"), 200, "TGP3")).toMatchObject({ kind: "failed" });
    expect(parseStatusAnswer(err("transaction/not-found"), 200, "TGP3")).toEqual({ kind: "not-found" });
    expect(parseStatusAnswer(err("transaction/not-found"), 502, "TGP3")).toMatchObject({ kind: "no-answer" });
    expect(parseStatusAnswer(err("balance/insufficient"), 200, "TGP3")).toMatchObject({ kind: "no-answer" });
    expect(
      parseStatusAnswer(JSON.stringify(successBody("TGP3", {}, { status: "PENDING" })), 200, "TGP3"),
    ).toMatchObject({ kind: "unknown" });
  });
});
