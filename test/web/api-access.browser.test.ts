import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPartnerCallbacks } from "../../src/partners/callbacks-owed.js";
import { createDeliveries } from "../../src/partners/deliveries.js";
import { createStorage } from "../../src/storage/storage.js";
import { ADMIN, createWorld, STAFF, type World } from "../e2e/world.js";
import { freePort, REDIS_URL } from "../helpers/redis.js";
import { launchBrowser, openApp, screenText, shows, type Opened } from "./browser.js";

const RESELLER = { id: 5005, first_name: "Budi", language_code: "en" };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/**
 * A reseller's API access on the Resellers page, in a real browser against the bot built as
 * `npm run build` leaves it: a new key reaches the admin's chat, the page never shows one.
 */
describe("the Resellers page: a reseller's API access", () => {
  let world: World;
  let base: string;
  let app: Opened | undefined;
  beforeEach(async () => {
    world = await createWorld();
    const port = await freePort();
    await world.run({
      ADMIN_IDS: String(ADMIN.id),
      ALLOWED_USER_IDS: String(STAFF.id),
      RESELLER_IDS: String(RESELLER.id),
      PORT: String(port),
      WEBAPP_URL: "https://shop.example.com",
    });
    base = `http://127.0.0.1:${port}`;
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await world.cleanup();
  });

  it("when an admin creates a key, sets a callback, makes a new key and turns access off, then the keys go to their chat and never to the page", async () => {
    app = await openApp(browser, { base, botToken: world.fake.token, user: ADMIN, tab: "resellers" });
    const { page } = app;
    await shows(page, /5005/);
    await page.getByTestId("reseller-5005").click();
    await shows(page, /API access \(H2H\)/i);
    expect(await page.getByTestId("api-state").innerText()).toBe("no key yet");
    expect(await screenText(page)).toMatch(/off until H2H_ENABLED=true/);

    await page.getByTestId("api-on").click();
    await shows(page, /A new key was sent to your private chat/);
    const first = await world.waitText(ADMIN, /secret_key/);
    const firstKey = /secret_key: <code>([^<]+)<\/code>/.exec(first.text)![1]!;
    const mitraId = /mitra_id: <code>([^<]+)<\/code>/.exec(first.text)![1]!;
    await expect.poll(() => page.getByTestId("api-state").innerText()).toBe("on");
    expect(await page.getByTestId("api-mitra").innerText()).toBe(mitraId);
    await app.shot("admin-reseller-api-light");

    await page.getByTestId("api-callback").fill("ftp://reseller.example.com");
    await page.getByTestId("api-callback-save").click();
    await shows(page, /Give an http:\/\/ or https:\/\/ address/);
    await page.getByTestId("api-callback").fill("https://reseller.example.com/cb");
    await page.getByTestId("api-callback-save").click();
    await shows(page, /Callback saved/);

    // A key in use is replaced only when asked twice.
    await page.getByTestId("api-on").click();
    await shows(page, /The current key stops working at once/);
    await page.getByTestId("api-on").click();
    await expect.poll(() => world.fake.messagesTo(ADMIN.id).filter((m) => /secret_key/.test(m.text)).length).toBe(2);
    const second = world.fake.messagesTo(ADMIN.id).filter((m) => /secret_key/.test(m.text))[1]!;
    expect(second.text).toContain(mitraId);
    expect(second.text).toContain("https://shop.example.com/v1/transaction/partner");

    await page.getByTestId("api-off").click();
    await shows(page, /API access turned off/);
    await expect.poll(() => page.getByTestId("api-state").innerText()).toBe("off");
    const secondKey = /secret_key: <code>([^<]+)<\/code>/.exec(second.text)![1]!;
    const html = await page.content();
    expect(html).not.toContain(firstKey);
    expect(html).not.toContain(secondKey);
    expect(await page.getByTestId("api-callback").inputValue()).toBe("https://reseller.example.com/cb");

    // The same section in Bahasa Indonesia, dark, on a 360 px phone.
    await app.close();
    app = await openApp(browser, {
      base,
      botToken: world.fake.token,
      user: { ...ADMIN, language_code: "id" },
      theme: "dark",
      tab: "resellers",
    });
    await app.page.getByTestId("reseller-5005").click();
    await shows(app.page, /Akses API \(H2H\)/i);
    expect(await app.page.getByTestId("api-state").innerText()).toBe("mati");
    await app.shot("admin-reseller-api-id-dark");
  });

  it("when a reseller's callbacks were tried, then the page lists each attempt and sends an order's callback again", async () => {
    const storage = await createStorage({ redisUrl: REDIS_URL, prefix: world.prefix });
    try {
      await world.bots[0]!.app!.partners.issue(RESELLER.id, Date.now());
      await world.bots[0]!.app!.partners.setCallback(RESELLER.id, "https://reseller.example.com/cb");
      const deliveries = createDeliveries(storage);
      const at = Date.parse("2026-11-20T08:00:00.000Z");
      const attempt = (n: number, status: number, error?: string) => ({
        eventId: "ev_0123456789abcdef01234567",
        refId: "INV-2026-0042",
        shopRefId: "TGK7Q2M9X4",
        at: at + (n - 1) * 60_000,
        attempt: n,
        status,
        ok: status >= 200 && status < 300,
        ...(error === undefined ? {} : { error }),
      });
      await deliveries.record(RESELLER.id, attempt(1, 0, "timeout"));
      await deliveries.record(RESELLER.id, attempt(2, 500));
      await deliveries.record(RESELLER.id, attempt(3, 200));

      app = await openApp(browser, { base, botToken: world.fake.token, user: ADMIN, tab: "resellers" });
      const { page } = app;
      await page.getByTestId("reseller-5005").click();
      await shows(page, /Last callbacks/i);
      await expect.poll(() => page.getByTestId("callback-delivery").count()).toBe(3);
      expect(await page.getByTestId("callback-outcome").allInnerTexts()).toEqual([
        "✓ 200",
        "✗ HTTP 500",
        "✗ not reached",
      ]);
      expect(await page.getByTestId("callback-delivery").last().innerText()).toMatch(/attempt 1 · no answer in 10 s/);
      expect(await screenText(page)).toMatch(/INV-2026-0042/);
      // One "Send again" per order, on its newest attempt.
      expect(await page.getByTestId("callback-again").count()).toBe(1);
      await page.getByTestId("callback-delivery").last().scrollIntoViewIfNeeded();
      await app.shot("admin-reseller-callbacks-light");

      await page.getByTestId("callback-again").click();
      await shows(page, /The callback of INV-2026-0042 goes out again within a minute/);
      const owed = await createPartnerCallbacks(storage).due(Date.now() + 1000, 10);
      expect(owed.map((o) => o.refId)).toEqual(["TGK7Q2M9X4"]);
    } finally {
      await storage.close();
    }
  });
});
