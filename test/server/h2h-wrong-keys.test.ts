import { afterEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { createWorld, type RunningBot, type World } from "../e2e/world.js";
import { freePort } from "../helpers/redis.js";
import { fundReseller } from "../helpers/ledger-history.js";

const PLAYER = "12345678(1234)";
const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };

/** Someone tries keys against the H2H API; the partner with the right key goes on ordering. */
describe("the H2H API against wrong keys", () => {
  let world: World;
  afterEach(async () => {
    await world.cleanup();
  });

  async function start(extra: Record<string, string> = {}) {
    let t = Date.parse("2026-11-28T10:00:05.000Z");
    world = await createWorld({ initialBalance: 10_000_000 });
    const port = await freePort();
    const bot: RunningBot = await world.run(
      {
        ADMIN_IDS: String(ADMIN.id),
        RESELLER_IDS: String(BUDI.id),
        H2H_ENABLED: "true",
        PORT: String(port),
        ...extra,
      },
      { now: () => new Date(t), recoveryIntervalMs: 50 },
    );
    const key = await bot.app!.partners.issue(BUDI.id, t);
    await fundReseller(bot.app!.wallets, BUDI.id, 100_000, ADMIN.id, t);
    const get = async (path: string, params: Record<string, string>, forwardedFor?: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}?${new URLSearchParams(params).toString()}`, {
        headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
      });
      return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as any };
    };
    const right = { mitra_id: key.mitraId, secret_key: key.secretKey };
    const wrong = { mitra_id: key.mitraId, secret_key: "guess" };
    return { bot, get, right, wrong, key, later: (ms: number) => (t += ms) };
  }

  it("when one address sends more than 20 wrong keys in a minute, then its wrong keys get 429 with Retry-After for a minute, and a right key from it still orders", async () => {
    const { bot, get, right, wrong, key, later } = await start();
    for (let i = 0; i < 20; i++) {
      const a = await get("/v1/balance", i % 2 === 0 ? wrong : { mitra_id: "PAAAAAAAAAA", secret_key: "x" });
      expect(a.body.error_code).toBe("auth/invalid-credentials");
    }
    const held = await get("/v1/balance", wrong);
    expect(held.status).toBe(429);
    expect(held.body).toMatchObject({ status: 0, error_code: "request/rate-limited" });
    expect(Number(held.retryAfter)).toBeGreaterThan(0);
    // A header the client writes itself, past no trusted proxy, changes nothing.
    expect((await get("/v1/balance", wrong, "203.0.113.9")).status).toBe(429);
    // An empty key is a wrong key too.
    expect((await get("/v1/balance", { mitra_id: key.mitraId, secret_key: "" })).status).toBe(429);

    // The partner with the right key is never held back by the others' mistakes.
    expect((await get("/v1/balance", right)).body).toEqual({ status: 1, data: { balance: 100_000, held: 0 } });
    const order = await get("/v1/transaction/partner", {
      ...right,
      ref_id: "W-1",
      item_code: "ML86",
      destination: PLAYER,
    });
    expect(order.body).toMatchObject({ status: 1, data: { product_detail: { status: "SUKSES" } } });

    // A minute later the address is told plainly again that its key is wrong.
    later(61_000);
    expect((await get("/v1/balance", wrong)).body.error_code).toBe("auth/invalid-credentials");
    // The counts are logged once a minute, by address and mitra_id, with no key in them.
    await expect.poll(() => bot.output(), { timeout: 10_000 }).toMatch(/H2H wrong keys in the last minute/);
    const line = bot
      .output()
      .split("\n")
      .find((l) => l.includes("H2H wrong keys in the last minute"))!;
    expect(line).toContain("127.0.0.1");
    expect(line).toContain(key.mitraId);
    expect(bot.output()).not.toContain(key.secretKey);
    expect(bot.output()).not.toContain("guess");
  });

  it("when the shop is behind a trusted proxy, then the right-most X-Forwarded-For entry is the client, and two clients are counted apart", async () => {
    const { get, right, wrong } = await start({ H2H_TRUSTED_PROXIES: "10.9.9.9, 127.0.0.1" });
    for (let i = 0; i < 21; i++) await get("/v1/products", wrong, `198.51.100.${i}, 203.0.113.1`);
    expect((await get("/v1/products", wrong, "203.0.113.1")).status).toBe(429);
    // Another client behind the same proxy is not held back by the first one's wrong keys.
    const other = await get("/v1/products", wrong, "203.0.113.2");
    expect([other.status, other.body.error_code]).toEqual([200, "auth/invalid-credentials"]);
    // Nor is the first one's right key.
    expect((await get("/v1/products", right, "203.0.113.1")).body.status).toBe(1);
  });
});
