import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { createWorld, type World } from "../e2e/world.js";
import { signInitData } from "../helpers/init-data.js";
import { freePort } from "../helpers/redis.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const SARI: FakeUser = { id: 1002, first_name: "Sari", language_code: "id" };

describe("an order's provider price: one figure in /pending, the Mini App and the CSV", () => {
  let world: World;
  let base: string;
  beforeEach(async () => {
    world = await createWorld({ initialBalance: 1_000_000 });
    const port = await freePort();
    Object.assign(world.env, {
      ADMIN_IDS: String(ADMIN.id),
      ALLOWED_USER_IDS: String(SARI.id),
      PORT: String(port),
      WEBAPP_URL: "https://shop.example.com",
      TZ: "Asia/Jakarta",
    });
    base = `http://127.0.0.1:${port}/app/api`;
  });
  afterEach(() => world.cleanup());

  const get = async (path: string) => {
    const res = await request(`${base}${path}`, {
      headers: { authorization: `tma ${signInitData(ADMIN, world.fake.token)}` },
    });
    return { status: res.statusCode, text: await res.body.text() };
  };

  it("when an order's result is unknown and then settled, then the chat, the page and the CSV name the same provider price", async () => {
    const at = Date.parse("2026-11-26T03:00:00Z");
    await world.run({ TOPUP_BASE_URL: await world.flakyProvider() }, { now: () => new Date(at) });
    // A sale shows the provider's price for FF70; then an order whose result is unknown.
    await world.order(SARI, "FF70", "123456789");
    const unknown = await world.order(SARI, "FF70", "777000111");
    const refId = /Ref ID: <code>([A-Z0-9]+)<\/code>/.exec(unknown.text)![1]!;

    world.fake.sendText(ADMIN, "/pending");
    const line = await world.waitText(ADMIN, new RegExp(`<code>${refId}</code> · `));
    const chat = Number(/last seen for it: Rp ([0-9,]+)/.exec(line.text)![1]!.replace(/,/g, ""));
    expect(chat).toBeGreaterThan(0);
    const pending = JSON.parse((await get("/admin/pending")).text) as {
      orders: Array<{ refId: string; providerPrice?: number }>;
    };
    expect(pending.orders.find((o) => o.refId === refId)?.providerPrice).toBe(chat);

    // Settled as a success without a price: the last price seen is its cost, everywhere.
    world.fake.sendText(ADMIN, `/settle ${refId} success 99887766554433`);
    await world.waitText(ADMIN, new RegExp(`Order <code>${refId}</code> is settled as ✅ success`));
    const found = JSON.parse((await get(`/admin/orders?q=${refId}`)).text) as {
      orders: Array<{ refId: string; providerPrice?: number }>;
    };
    expect(found.orders.find((o) => o.refId === refId)?.providerPrice).toBe(chat);
    const csv = (await get("/admin/orders.csv?day=2026-11-26")).text.split("\r\n");
    const column = csv[0]!.split(",").indexOf("provider_price");
    expect(column).toBeGreaterThan(-1);
    const row = csv.find((r) => r.includes(refId))!.split(",");
    expect(Number(row[column])).toBe(chat);
  });
});
