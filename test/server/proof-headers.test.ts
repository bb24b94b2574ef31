import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { createWorld, type World } from "../e2e/world.js";
import { signInitData } from "../helpers/init-data.js";
import { freePort } from "../helpers/redis.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };

describe("a deposit request's proof served by the Mini App's API, over HTTP", () => {
  let world: World;
  let base: string;
  beforeEach(async () => {
    world = await createWorld();
    const port = await freePort();
    Object.assign(world.env, {
      ADMIN_IDS: String(ADMIN.id),
      RESELLER_IDS: String(BUDI.id),
      PORT: String(port),
      WEBAPP_URL: "https://shop.example.com",
    });
    base = `http://127.0.0.1:${port}/app/api`;
  });
  afterEach(() => world.cleanup());

  it("when an admin's page fetches a proof, then the browser gets the proof's own sandbox and private cache", async () => {
    await world.run();
    world.fake.sendText(ADMIN, "/payinfo BCA 1234567890 a.n. Toko Maju");
    await world.waitText(ADMIN, /instructions set/);
    world.fake.sendText(BUDI, "/deposit 100rb");
    const asked = await world.waitText(BUDI, /Deposit request/);
    const id = /<code>(DR[0-9A-Z]{19})<\/code>/.exec(asked.text)![1]!;
    world.fake.sendPhoto(BUDI, undefined, { replyTo: asked });
    await world.waitText(BUDI, /Proof received/);

    const res = await request(`${base}/admin/deposit-requests/${id}/proof`, {
      headers: { authorization: `tma ${signInitData(ADMIN, world.fake.token)}` },
    });
    await res.body.arrayBuffer();
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    expect(res.headers["cache-control"]).toBe("private, max-age=300");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");

    // The rest of the API keeps the page's policy and is never cached.
    const list = await request(`${base}/admin/deposit-requests`, {
      headers: { authorization: `tma ${signInitData(ADMIN, world.fake.token)}` },
    });
    await list.body.text();
    expect(list.headers["cache-control"]).toBe("no-store");
    expect(list.headers["content-security-policy"]).toContain("default-src 'self'");
  });
});
