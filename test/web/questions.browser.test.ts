import type { Browser, Page } from "playwright-core";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, staffWorld, type World } from "../e2e/world.js";
import { signInitData } from "../helpers/init-data.js";
import { launchBrowser, openApp } from "./browser.js";
import { ADMIN_ID, shopScene, type Scene } from "./scene.js";

/**
 * The owner's questions on the admin's Today page, in a real browser against the bot started as in
 * production (the shop of scene.ts: four weeks of sales, today's orders, a reseller's sale).
 */

let browser: Browser;
let world: World;
let scene: Scene;
beforeAll(async () => {
  browser = await launchBrowser();
  world = await staffWorld();
  scene = await shopScene(world);
});
afterAll(async () => {
  await browser.close();
  await world.cleanup();
});

/** What the API answers the admin for `path`: the figures the cards must show. */
async function asked(path: string): Promise<any> {
  const res = await request(`${scene.base}/app/api${path}`, {
    headers: { authorization: `tma ${signInitData(ADMIN, world.fake.token)}` },
  });
  return res.body.json();
}

/** A card's text, once it has loaded. */
async function cardText(page: Page, testid: string): Promise<string> {
  const card = page.getByTestId(testid);
  await card.waitFor();
  return (await card.innerText()).replace(/\s+/g, " ");
}

describe("the owner's questions on Today", () => {
  it("when an admin opens Today, then Top sellers shows today's products and reseller, and ◀ ▶ page to the day before and back", async () => {
    const app = await openApp(browser, { base: scene.base, botToken: world.fake.token, user: ADMIN });
    try {
      const { page } = app;
      const top = await asked("/admin/top?period=day");
      await expect.poll(() => cardText(page, "top-lists"), { timeout: 15_000 }).toMatch(/ML172 · 172 Diamonds/);
      expect(await cardText(page, "top-totals")).toBe(
        `${top.totals.orders.success} sales · Rp 78,200 · margin Rp ${top.totals.margin.toLocaleString("en-US")}`,
      );
      expect(await cardText(page, "top-lists")).toMatch(
        /Resellers, by sales at their price Budi 1 order · profit Rp [\d,]+ Rp 38,700/i,
      );
      await expect.poll(() => page.getByTestId("top-after").isDisabled()).toBe(true);
      await page.getByTestId("top-lists").scrollIntoViewIfNeeded();
      await app.shot("admin-top-day-light");

      const today = await cardText(page, "top-name");
      await page.getByTestId("top-before").click();
      await expect.poll(() => cardText(page, "top-name")).not.toBe(today);
      await expect.poll(() => cardText(page, "top-lists")).toMatch(/FF70 · 70 Diamonds/);
      expect(await cardText(page, "top-lists")).toMatch(/No reseller sales in this period/);
      await page.getByTestId("top-after").click();
      await expect.poll(() => cardText(page, "top-name")).toBe(today);

      await page.getByTestId("top-period").getByText("Month", { exact: true }).click();
      const month = await asked("/admin/top?period=month");
      await expect
        .poll(() => cardText(page, "top-totals"))
        .toMatch(
          new RegExp(`^${month.totals.orders.success} sales · Rp ${month.totals.selling.toLocaleString("en-US")} `),
        );
    } finally {
      await app.close();
    }
  });

  it("when an admin reads This month vs last month and Hours, then they show the month's figures and the orders of each hour, light and dark", async () => {
    const compare = await asked("/admin/compare");
    const hours = await asked("/admin/hours?period=day");
    for (const theme of ["light", "dark"] as const) {
      const app = await openApp(browser, { base: scene.base, botToken: world.fake.token, user: ADMIN, theme });
      try {
        const { page } = app;
        await expect
          .poll(() => cardText(page, "compare-revenue"), { timeout: 15_000 })
          .toMatch(`Rp ${compare.now.selling.toLocaleString("en-US")}`);
        expect(await cardText(page, "compare-sales")).toMatch(
          `last month ${compare.before.orders.success.toLocaleString("en-US")}`,
        );
        await page.getByTestId("compare").scrollIntoViewIfNeeded();
        await app.shot(`admin-compare-${theme}`);
        const hoursCard = page.locator(".question", { hasText: "Hours" });
        await hoursCard.scrollIntoViewIfNeeded();
        if (hours.busiest.length === 0) {
          await expect.poll(() => hoursCard.innerText()).toMatch(/No orders in this period/);
        } else {
          const counts = await hoursCard
            .locator(".hour-bars li")
            .evaluateAll((bars) => bars.map((b) => Number(b.getAttribute("data-count"))));
          expect(counts).toEqual(hours.hours.map((h: any) => h.count));
          expect(await cardText(page, "hours-busiest")).toMatch(
            `Busiest: ${String(hours.busiest[0].hour).padStart(2, "0")}:00`,
          );
        }
        await app.shot(`admin-hours-${theme}`);
      } finally {
        await app.close();
      }
    }
  });

  it("when an admin reads Bahasa Indonesia, then the cards are in Indonesian with rupiah dots", async () => {
    const app = await openApp(browser, { base: scene.base, botToken: world.fake.token, user: ADMIN_ID });
    try {
      const { page } = app;
      await expect
        .poll(() => cardText(page, "top-totals"), { timeout: 15_000 })
        .toMatch(/penjualan · Rp 78\.200 · margin Rp/);
      expect(await page.getByTestId("top-period").innerText()).toMatch(/Hari\s+Minggu\s+Bulan/);
      expect(await cardText(page, "compare-sales")).toMatch(/bulan lalu/);
      expect(await page.locator(".question h2").allInnerTexts()).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/terlaris/i),
          expect.stringMatching(/bulan ini vs bulan lalu/i),
          expect.stringMatching(/jam pesanan/i),
        ]),
      );
      await page.getByTestId("top-lists").scrollIntoViewIfNeeded();
      await app.shot("admin-top-id");
    } finally {
      await app.close();
    }
  });
});
