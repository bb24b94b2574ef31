import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { ADMIN, button, createWorld, STAFF, type World } from "../e2e/world.js";
import { signInitData } from "../helpers/init-data.js";
import { freePort } from "../helpers/redis.js";

const RESELLER: FakeUser = { id: 5005, first_name: "Budi", language_code: "id" };

describe("the owner's questions in the Mini App's API: top sellers, this month against last, the hours", () => {
  let world: World;
  let base: string;

  beforeEach(async () => {
    world = await createWorld();
    const port = await freePort();
    Object.assign(world.env, {
      ADMIN_IDS: String(ADMIN.id),
      ALLOWED_USER_IDS: String(STAFF.id),
      RESELLER_IDS: String(RESELLER.id),
      PORT: String(port),
      WEBAPP_URL: "https://shop.example.com",
    });
    base = `http://127.0.0.1:${port}/app/api`;
  });
  afterEach(async () => {
    await world.cleanup();
  });

  /** A GET as the page makes it, with `user`'s init data. */
  async function get(path: string, user: FakeUser) {
    const res = await request(`${base}${path}`, {
      headers: { authorization: `tma ${signInitData(user, world.fake.token)}` },
    });
    return { status: res.statusCode, json: (await res.body.json()) as any };
  }

  /** Two sales today: one by the admin, one by a reseller who deposited first. */
  async function twoSales() {
    world.fake.sendText(ADMIN, "/deposit 5005 100000");
    const summary = await world.waitText(ADMIN, /for reseller <code>5005<\/code>/);
    world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    await world.waitText(RESELLER, /Deposit/);
    await world.order(RESELLER, "ML86", "12345678(1234)");
    await world.order(ADMIN, "FF70", "123456789");
  }

  it("when an admin asks for the top sellers of the day, then both sales are there with the reseller, and paging back shows the day before empty", async () => {
    await world.run();
    await twoSales();
    const today = await get("/admin/top?period=day", ADMIN);
    expect(today.status).toBe(200);
    expect(today.json.period).toMatchObject({ kind: "day" });
    expect(today.json.totals).toMatchObject({ orders: { success: 2 }, selling: 29_800 });
    expect(today.json.products.map((p: any) => p.key).sort()).toEqual(["FF70", "ML86"]);
    expect(today.json.resellers).toEqual([expect.objectContaining({ userId: RESELLER.id, count: 1, sales: 19_800 })]);
    expect(today.json.after).toBeUndefined();
    const before = await get(`/admin/top?period=day&day=${today.json.before}`, ADMIN);
    expect(before.json.period).toMatchObject({ kind: "day", from: today.json.before });
    expect(before.json.totals.orders.success).toBe(0);
    expect(before.json.after).toBe(today.json.period.from);
    const month = await get("/admin/top?period=month", ADMIN);
    expect(month.json.period.kind).toBe("month");
    expect(month.json.totals.orders.success).toBe(2);
  });

  it("when an admin compares this month with last month, then this month's sales are counted and last month had nothing to compare with", async () => {
    await world.run();
    await twoSales();
    const compare = await get("/admin/compare", ADMIN);
    expect(compare.status).toBe(200);
    expect(compare.json.now).toMatchObject({ orders: { success: 2 }, selling: 29_800 });
    expect(compare.json.before).toMatchObject({ orders: { success: 0 }, selling: 0 });
    expect(compare.json.change).toEqual({ sales: null, selling: null, margin: null });
  });

  it("when an admin asks when orders come, then the hour the orders were sent holds both and is the busiest", async () => {
    await world.run();
    await twoSales();
    const session = await get("/session", ADMIN);
    const orders = await get("/admin/orders", ADMIN);
    const hourOf = (iso: string) =>
      Number(
        new Intl.DateTimeFormat("en-GB", { timeZone: session.json.timeZone, hour: "2-digit", hourCycle: "h23" }).format(
          new Date(iso),
        ),
      );
    const sent = orders.json.orders.map((o: any) => hourOf(o.submittedAt ?? o.createdAt));
    const hours = await get("/admin/hours?period=week", ADMIN);
    expect(hours.status).toBe(200);
    expect(hours.json.period.kind).toBe("week");
    expect(hours.json.hours).toHaveLength(24);
    expect(hours.json.hours.reduce((n: number, h: any) => n + h.count, 0)).toBe(2);
    for (const hour of sent) expect(hours.json.hours[hour].count).toBeGreaterThan(0);
    expect(hours.json.busiest.map((h: any) => h.hour)).toContain(sent[0]);
  });

  it("when the period or the day is not one the page can ask for, then it is 400 naming the parameter, and only admins may ask", async () => {
    await world.run();
    for (const path of ["/admin/top?period=year", "/admin/hours?period=", "/admin/top?day=2026-02-31"]) {
      const bad = await get(path, ADMIN);
      expect(bad.status).toBe(400);
      expect(bad.json.error).toBe("invalid");
      expect(bad.json.issues[0].path).toBe(path.includes("day=") ? "day" : "period");
    }
    expect((await get("/admin/hours?period=day&day=tomorrow", ADMIN)).status).toBe(400);
    for (const path of ["/admin/top", "/admin/compare", "/admin/hours"]) {
      expect((await get(path, RESELLER)).status).toBe(403);
      expect((await get(path, STAFF)).status).toBe(403);
    }
  });
});
