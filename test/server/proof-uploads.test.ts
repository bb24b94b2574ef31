import { request as httpRequest, type IncomingMessage } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ONE_PIXEL_PNG, type FakeUser } from "../e2e/fake-bot-api.js";
import { ADMIN, createWorld, type World } from "../e2e/world.js";
import { signInitData } from "../helpers/init-data.js";
import { freePort } from "../helpers/redis.js";

const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "id" };
const DEWI: FakeUser = { id: 5006, first_name: "Dewi", language_code: "en" };
let seq = 0;

/** An upload whose body is sent in two parts: the first at once, the rest when `finish` is called. */
function upload(url: string, user: FakeUser, token: string, body: Buffer, headers: Record<string, string> = {}) {
  const req = httpRequest(url, {
    method: "POST",
    headers: {
      authorization: `tma ${signInitData(user, token)}`,
      "content-type": "image/png",
      "content-length": String(body.length),
      ...headers,
    },
  });
  const answered = new Promise<{ status: number; text: string; headers: IncomingMessage["headers"] }>(
    (resolve, reject) => {
      req.on("response", (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      });
      req.on("error", reject);
    },
  );
  req.write(body.subarray(0, 8));
  return {
    answered,
    finish: () => {
      if (!req.destroyed && !req.writableEnded) req.end(body.subarray(8));
    },
    abort: () => req.destroy(),
  };
}

describe("proof uploads from the page: checked before the body is kept, a few at a time", () => {
  let world: World;
  let base: string;

  beforeEach(async () => {
    world = await createWorld();
    const port = await freePort();
    Object.assign(world.env, {
      ADMIN_IDS: String(ADMIN.id),
      RESELLER_IDS: `${BUDI.id},${DEWI.id}`,
      PORT: String(port),
      WEBAPP_URL: "https://shop.example.com",
    });
    base = `http://127.0.0.1:${port}`;
  });
  afterEach(() => world.cleanup());

  async function start() {
    await world.run();
    world.fake.sendText(ADMIN, "/payinfo BCA 1234567890 a.n. Toko Maju");
    await world.waitText(ADMIN, /instructions set/);
  }

  /** A request made in the page: its id. */
  async function ask(user: FakeUser, amount: number): Promise<string> {
    const res = await fetch(`${base}/app/api/reseller/deposit-requests`, {
      method: "POST",
      headers: { authorization: `tma ${signInitData(user, world.fake.token)}`, "content-type": "application/json" },
      body: JSON.stringify({ amount, requestId: `upload-test-${++seq}` }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { request: { id: string } }).request.id;
  }
  const proofUrl = (id: string) => `${base}/app/api/reseller/deposit-requests/${id}/proof`;

  it("when a reseller asked and cancelled 10 requests in the page within the hour, then the 11th gets 429 saying when", async () => {
    await start();
    const auth = { authorization: `tma ${signInitData(BUDI, world.fake.token)}` };
    for (let i = 0; i < 10; i++) {
      const id = await ask(BUDI, 100_000);
      expect((await fetch(proofUrl(id).replace(/proof$/, "cancel"), { method: "POST", headers: auth })).status).toBe(
        200,
      );
    }
    const refused = await fetch(`${base}/app/api/reseller/deposit-requests`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ amount: 100_000, requestId: `upload-test-${++seq}` }),
    });
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: string; until: string };
    expect(body.error).toBe("too-soon");
    expect(Number.isNaN(Date.parse(body.until))).toBe(false);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another reseller asks as before.
    expect(await ask(DEWI, 100_000)).toMatch(/^DR/);
  });

  it("when a proof is too large, not the reseller's or its request is closed, then it is refused before its body is read", async () => {
    await start();
    const mine = await ask(BUDI, 100_000);
    const dewis = await ask(DEWI, 100_000);
    const big = Buffer.alloc(20 * 1024 * 1024);
    // Only the first 8 bytes are ever sent: each answer comes without the body.
    const tooLarge = upload(proofUrl(mine), BUDI, world.fake.token, big);
    expect((await tooLarge.answered).status).toBe(413);
    tooLarge.abort();
    const notMine = upload(proofUrl(dewis), BUDI, world.fake.token, big.subarray(0, 1024 * 1024));
    expect((await notMine.answered).status).toBe(404);
    notMine.abort();
    const cancel = await fetch(`${proofUrl(mine).replace(/proof$/, "cancel")}`, {
      method: "POST",
      headers: { authorization: `tma ${signInitData(BUDI, world.fake.token)}` },
    });
    expect(cancel.status).toBe(200);
    const closed = upload(proofUrl(mine), BUDI, world.fake.token, big.subarray(0, 1024 * 1024));
    expect((await closed.answered).status).toBe(409);
    closed.abort();
    expect(world.fake.calls.filter((c) => c.method === "sendPhoto" || c.method === "sendDocument")).toHaveLength(0);
  });

  it("when a file named .jpg is really a web page, then it is refused by its bytes with 415, as a form or as the body", async () => {
    await start();
    const id = await ask(BUDI, 100_000);
    const auth = { authorization: `tma ${signInitData(BUDI, world.fake.token)}` };
    const html = "<html><script>alert(1)</script></html>";
    const asBody = await fetch(proofUrl(id), {
      method: "POST",
      headers: { ...auth, "content-type": "image/jpeg" },
      body: html,
    });
    expect(asBody.status).toBe(415);
    expect(await asBody.text()).toMatch(/not a JPEG, PNG or WebP image nor a PDF/);
    const form = new FormData();
    form.append("file", new File([html], "bukti.jpg", { type: "image/jpeg" }));
    const asForm = await fetch(proofUrl(id), { method: "POST", headers: auth, body: form });
    expect(asForm.status).toBe(415);
    // A real picture, in a form, is taken.
    const good = new FormData();
    good.append("file", new File([ONE_PIXEL_PNG], "bukti.png", { type: "image/png" }));
    expect((await fetch(proofUrl(id), { method: "POST", headers: auth, body: good })).status).toBe(200);
  });

  it("when 60 proofs are uploaded at once, then a few are read and the rest get 429, /healthz answers, and each accepted proof is kept once", async () => {
    await start();
    const ids = [
      ...(await Promise.all([1, 2, 3].map((i) => ask(BUDI, 100_000 + i * 1000)))),
      ...(await Promise.all([1, 2, 3].map((i) => ask(DEWI, 200_000 + i * 1000)))),
    ];
    const uploads = Array.from({ length: 60 }, (_, i) => {
      const id = ids[i % ids.length]!;
      return upload(proofUrl(id), i % ids.length < 3 ? BUDI : DEWI, world.fake.token, ONE_PIXEL_PNG);
    });
    const statuses: number[] = [];
    const answers = uploads.map((u) => u.answered.then((a) => (statuses.push(a.status), a)));
    // Every upload beyond the few being read is answered while those bodies are still unfinished.
    await world.fake.waitFor(() => statuses.length >= 56);
    expect(statuses.every((s) => s === 429)).toBe(true);
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    for (const u of uploads) u.finish();
    const all = await Promise.all(answers);
    const accepted = all.filter((a) => a.status === 200);
    expect(accepted).toHaveLength(4);
    expect(all.filter((a) => a.status === 429)).toHaveLength(56);
    expect(all.find((a) => a.status === 429)!.headers["retry-after"]).toBe("5");
    // Each accepted proof went to Telegram once, for four different requests.
    const kept = accepted.map((a) => (JSON.parse(a.text) as { request: { id: string; state: string } }).request);
    expect(new Set(kept.map((r) => r.id)).size).toBe(4);
    expect(kept.every((r) => r.state === "review")).toBe(true);
    const toResellers = world.fake.calls.filter(
      (c) => c.method === "sendPhoto" && [BUDI.id, DEWI.id].includes(Number(c.payload.chat_id)),
    );
    expect(toResellers).toHaveLength(4);
  });
});
