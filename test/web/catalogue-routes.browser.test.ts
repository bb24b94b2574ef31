import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, STAFF, staffWorld, type World } from "../e2e/world.js";
import { launchBrowser, openApp, shows, type Opened } from "./browser.js";
import { shopScene, type Scene } from "./scene.js";

/**
 * A shop with two providers edits a product's routes in the Mini App's Catalogue (a real browser
 * against the bot started as in production); the chat's /catalog file shows what was saved.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe("a product's routes in the Mini App's Catalogue", () => {
  let world: World;
  let scene: Scene;
  let app: Opened | undefined;
  beforeEach(async () => {
    world = await staffWorld();
    scene = await shopScene(world, {
      history: false,
      env: {
        TOPUP_PROVIDERS: "main,backup",
        TOPUP_BACKUP_BASE_URL: world.sandbox.url,
        TOPUP_BACKUP_MITRA_ID: "B1",
        TOPUP_BACKUP_SECRET_KEY: "backup-secret",
      },
    });
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await world.cleanup();
  });

  /** The catalogue in use, as /catalog sends it in the chat. */
  async function catalogInChat() {
    const before = world.fake.messagesTo(ADMIN.id).length;
    world.fake.sendText(ADMIN, "/catalog");
    const doc = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.method === "sendDocument" && world.fake.messagesTo(ADMIN.id).indexOf(m) >= before,
    );
    return JSON.parse(doc.document!.content) as {
      games: Array<{ products: Array<{ code: string; routes?: unknown }> }>;
    };
  }

  it("when an admin sets a product's routes (order, provider, code) and confirms, then the catalogue in use has them", async () => {
    app = await open();
    const { page } = app;
    await shows(page, /Catalogue/);
    // Without routes: every provider, in the configured order, under the product's code.
    expect(await page.getByTestId("routes-ML86").innerText()).toMatch(/every provider \(main › backup\)/);
    await page.getByTestId("routes-choose-ML86").click();
    expect(await page.getByTestId("route-0-provider-ML86").inputValue()).toBe("main");
    expect(await page.getByTestId("route-1-provider-ML86").inputValue()).toBe("backup");
    await page.getByTestId("route-1-code-ML86").fill("MLBB86");
    await page.getByTestId("route-1-up-ML86").click();
    expect(await page.getByTestId("route-0-code-ML86").inputValue()).toBe("MLBB86");
    await app.shot("admin-catalogue-routes-light");

    // A code the rules refuse is named at its route, and nothing is saved.
    await page.getByTestId("route-1-code-ML86").fill("ML 86");
    await page.getByTestId("main-action").click();
    await shows(page, /route 2 code must be 1 to 32 letters/);
    await page.getByTestId("route-1-code-ML86").fill("ML86");

    await page.getByTestId("main-action").click();
    await shows(page, /Your changes/);
    expect(await page.getByTestId("catalogue-diff").innerText()).toBe(
      "ML86, routes: every provider, under its code → backup MLBB86 › main ML86",
    );
    await page.getByTestId("main-action").click();
    await shows(page, /Applied: the catalogue in use is now edit 1/);

    const saved = await catalogInChat();
    expect(saved.games[0]!.products.find((p) => p.code === "ML86")!.routes).toEqual([
      { provider: "backup", code: "MLBB86" },
      { provider: "main", code: "ML86" },
    ]);
    // The page shows what was saved; removing the routes goes back to every provider.
    expect(await page.getByTestId("route-0-provider-ML86").inputValue()).toBe("backup");
    await page.getByTestId("routes-all-ML86").click();
    await page.getByTestId("main-action").click();
    await shows(page, /Your changes/);
    await page.getByTestId("main-action").click();
    await shows(page, /Applied: the catalogue in use is now edit 2/);
    expect((await catalogInChat()).games[0]!.products.find((p) => p.code === "ML86")).not.toHaveProperty("routes");
  });

  it("when an order was refused by its first route and went to the next, then the admin's order card names both providers with the ref id each knows it by", async () => {
    app = await open();
    const { page } = app;
    await shows(page, /Catalogue/);
    // ML86 from main first as NOPE86 (which it does not sell: it refuses, and the order goes on),
    // then from the backup (whose key this scene's sandbox refuses: the order fails there).
    await page.getByTestId("routes-choose-ML86").click();
    await page.getByTestId("route-0-code-ML86").fill("NOPE86");
    await page.getByTestId("main-action").click();
    await shows(page, /Your changes/);
    await page.getByTestId("main-action").click();
    await shows(page, /Applied: the catalogue in use is now edit 1/);

    const result = await world.order(STAFF, "ML86", "11112222(3333)");
    expect(result.text).toMatch(/gagal/);
    const refId = /Ref ID: <code>([A-Z0-9]+)<\/code>/i.exec(result.text)![1]!;
    await page.getByTestId("tab-orders").click();
    const provider = page.getByTestId(`provider-${refId}`);
    await provider.waitFor();
    expect(await provider.innerText()).toBe(`via backup ${refId}R2 · refused by main (product/not-found) ${refId}`);
    // Sold by main at once (before the routes): main is named, nobody refused it.
    const others = await page.locator(".order-provider").allInnerTexts();
    expect(others.length).toBeGreaterThan(1);
    expect(others.filter((text) => !text.includes(refId)).every((text) => /^via main TG[A-Z0-9]+$/.test(text))).toBe(
      true,
    );
    await app.shot("admin-order-providers-light");
  });

  const open = () => openApp(browser, { base: scene.base, botToken: world.fake.token, user: ADMIN, tab: "catalogue" });
});
