import type { Browser } from "playwright-core";
import { request } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, STAFF, staffWorld, type World } from "../e2e/world.js";
import { signInitData, signPre8InitData } from "../helpers/init-data.js";
import { launchBrowser, openApp, screenText, shows, type Opened } from "./browser.js";
import { ADMIN_ID, RESELLER, RESELLER_ID, shopScene, type Scene } from "./scene.js";

/**
 * The Mini App in a real browser (Debian's Chromium, driven by playwright-core), against the bot
 * started as in production (`node dist/main.js`, WEBAPP_URL and PORT set), opened the way Telegram
 * opens it: launch parameters in the fragment, init data signed with the test bot's token. The
 * tests read what is shown and tap as a person would; screenshots go to test-results/screenshots (docs/screenshots with UPDATE_SCREENSHOTS=1).
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe("the Mini App's pages, as admins and resellers see them (one shop for all)", () => {
  let world: World;
  let scene: Scene;
  beforeAll(async () => {
    world = await staffWorld();
    scene = await shopScene(world);
  });
  afterAll(() => world.cleanup());

  const open = (opts: Omit<Parameters<typeof openApp>[1], "base" | "botToken">) =>
    openApp(browser, { base: scene.base, botToken: world.fake.token, ...opts });

  it("when an admin opens each page, light and dark, then each shows the shop's own figures and lists", async () => {
    for (const theme of ["light", "dark"] as const) {
      const app = await open({ user: ADMIN, theme });
      try {
        await shows(app.page, /Today, /);
        expect(await app.page.getByTestId("today-sales").innerText()).toBe("3");
        expect(await app.page.getByTestId("today-revenue").innerText()).toBe("Rp 78,200");
        expect(await app.page.getByTestId("today-pending").innerText()).toMatch(/1/);
        await app.page.getByTestId("days-chart").locator("canvas").waitFor();
        await app.shot(`admin-today-${theme}`);

        await app.page.getByTestId("tab-catalogue").click();
        await shows(app.page, /Catalogue/);
        expect(await app.page.getByTestId("price-ML86").inputValue()).toBe("20000");
        expect(await app.page.getByTestId("price-ML86-reseller").inputValue()).toBe("19800");
        await app.shot(`admin-catalogue-${theme}`);

        await app.page.getByTestId("tab-pending").click();
        await shows(app.page, scene.unknownRef);
        await app.shot(`admin-pending-${theme}`);

        await app.page.getByTestId("tab-resellers").click();
        // Resellers by name, beside their id.
        await shows(app.page, /Owed to resellers .*Rp 311,300 Budi · 5005/);
        await app.shot(`admin-resellers-${theme}`);

        await app.page.getByTestId("tab-orders").click();
        await shows(app.page, /ML172/);
        await app.shot(`admin-orders-${theme}`);
      } finally {
        await app.close();
      }
    }
  });

  it("when an admin opens a reseller, then the saldo, held money and statement are there, newest first", async () => {
    const app = await open({ user: ADMIN, tab: "resellers" });
    try {
      await shows(app.page, /5005/);
      await app.page.getByTestId("reseller-5005").click();
      await shows(app.page, /Reseller Budi · 5005/);
      // One line per order, where its money left the saldo: spent (never also "held" once it succeeded).
      await shows(app.page, /Statement Spent on an order .*− Rp 38,700 .*Deposit .*\+ Rp 250,000/i);
      expect(await screenText(app.page)).not.toMatch(/Held for an order/);
      expect(await app.page.getByTestId("reseller-saldo").innerText()).toBe("Rp 211,300");
      await app.shot("admin-reseller-detail-light");
      await app.page.getByTestId("back").click();
      await shows(app.page, /Resellers/);
    } finally {
      await app.close();
    }
  });

  it("when a reseller opens their pages, then they see their saldo, their statement, their own orders and their prices", async () => {
    for (const theme of ["light", "dark"] as const) {
      const app = await open({ user: RESELLER, theme });
      try {
        await shows(app.page, /Your saldo .*Statement Spent on an order .*Deposit/i);
        expect(await app.page.getByTestId("wallet-saldo").innerText()).toBe("Rp 211,300");
        await app.shot(`reseller-saldo-${theme}`);
        await app.page.getByTestId("tab-my-orders").click();
        await shows(app.page, /ML172/);
        const text = await screenText(app.page);
        expect(text).not.toMatch(/ML86|FF140|FF70/); // other people's orders
        expect(text).not.toMatch(/SBX-/); // the provider's trx id is not for resellers
        await app.shot(`reseller-orders-${theme}`);
        await app.page.getByTestId("tab-prices").click();
        await shows(app.page, /Your prices/);
        expect(await app.page.getByTestId("price-ML86").innerText()).toMatch(/Rp 19,800/);
        await app.shot(`reseller-prices-${theme}`);
      } finally {
        await app.close();
      }
    }
  });

  it("when an admin and a reseller read Bahasa Indonesia, then the page is in Indonesian with rupiah dots", async () => {
    const admin = await open({ user: ADMIN_ID });
    try {
      await shows(admin.page, /Hari ini, /);
      expect(await admin.page.getByTestId("today-revenue").innerText()).toBe("Rp 78.200");
      expect(await admin.page.locator("nav.tabs").innerText()).toMatch(/Katalog/);
      await admin.shot("admin-today-id");
    } finally {
      await admin.close();
    }
    const reseller = await open({ user: RESELLER_ID, theme: "dark" });
    try {
      await shows(reseller.page, /Saldo Anda/);
      expect(await reseller.page.getByTestId("wallet-saldo").innerText()).toBe("Rp 100.000");
      await reseller.shot("reseller-saldo-id-dark");
    } finally {
      await reseller.close();
    }
  });

  it("when the screen is 360 px wide, then no page is wider than the screen", async () => {
    for (const [user, tabs] of [
      [ADMIN, ["today", "catalogue", "pending", "resellers", "orders"]],
      [RESELLER, ["wallet", "my-orders", "prices"]],
    ] as const) {
      const app = await open({ user, width: 360 });
      try {
        for (const tab of tabs) {
          await app.page.getByTestId(`tab-${tab}`).click();
          await app.page.locator("main.screen h1").first().waitFor();
          await expect.poll(() => app.page.locator(".state.loading").count()).toBe(0);
          const width = await app.page.evaluate(
            () => (globalThis as any).document.documentElement.scrollWidth as number,
          );
          expect([tab, width]).toEqual([tab, 360]);
        }
      } finally {
        await app.close();
      }
    }
  });

  it("when a Telegram client older than Bot API 8.0 opens the page (init data without signature), then the admin gets Today; forged, the page refuses", async () => {
    const pre8 = signPre8InitData(ADMIN, world.fake.token);
    const app = await open({ user: ADMIN, initData: pre8, version: "7.10" });
    const forged = await open({
      user: ADMIN,
      initData: signPre8InitData(ADMIN, "123456:not-the-bots-token"),
      version: "7.10",
    });
    try {
      await shows(app.page, /Today, /);
      expect(await app.page.getByTestId("today-sales").innerText()).toBe("3");
      // The page sent the init data exactly as Telegram passed it, on every call.
      expect(app.authorizations().length).toBeGreaterThan(0);
      for (const auth of app.authorizations()) expect(auth).toBe(`tma ${pre8}`);

      await forged.page.getByRole("alert").waitFor();
      expect(await forged.page.locator("body").innerText()).toMatch(/without Telegram's sign-in, or too long ago/);
      expect(await forged.page.locator("body").innerText()).not.toMatch(/Rp |5005|ML86/);
    } finally {
      await Promise.all([app.close(), forged.close()]);
    }
  });

  it("when the init data is forged or too old, or a staff member opens it, then the page says so and shows nothing of the shop", async () => {
    const forged = await open({ user: ADMIN, initData: signInitData(ADMIN, "123456:not-the-bots-token") });
    const expired = await open({ user: ADMIN, initData: signInitData(ADMIN, world.fake.token, 25 * 3600) });
    const staff = await open({ user: STAFF });
    try {
      for (const app of [forged, expired]) {
        await app.page.getByRole("alert").waitFor();
        expect(await app.page.locator("body").innerText()).toMatch(/without Telegram's sign-in, or too long ago/);
        expect(await app.page.locator("body").innerText()).not.toMatch(/Rp |5005|ML86/);
      }
      await expired.shot("refused-expired");
      // In the language Telegram gave for them (Sari reads Indonesian).
      await staff.page.getByRole("alert").waitFor();
      expect(await staff.page.locator("body").innerText()).toMatch(/untuk admin dan reseller toko/);
    } finally {
      await Promise.all([forged.close(), expired.close(), staff.close()]);
    }
  });
});

describe("the Mini App's changes, each the chat's own (a shop per test)", () => {
  let world: World;
  let scene: Scene;
  let app: Opened | undefined;
  beforeEach(async () => {
    world = await staffWorld();
    scene = await shopScene(world, { history: false });
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await world.cleanup();
  });

  const open = (opts: Omit<Parameters<typeof openApp>[1], "base" | "botToken">) =>
    openApp(browser, { base: scene.base, botToken: world.fake.token, ...opts });

  it("when an admin changes a price in the page and confirms, then the chat's /pricelist shows it at once", async () => {
    app = await open({ user: ADMIN, tab: "catalogue" });
    const { page } = app;
    await shows(page, /Catalogue/);
    // One provider: the page is as it always was, without routes.
    expect(await page.getByTestId("routes-ML86").count()).toBe(0);
    await page.getByTestId("price-ML86").fill("21.500");
    await page.getByTestId("main-action").click();
    await shows(page, /Your changes/);
    expect(await page.getByTestId("catalogue-diff").innerText()).toMatch(/ML86: Rp 20,000 → Rp 21,500/);
    await app.shot("admin-catalogue-review-light");
    await page.getByTestId("main-action").click();
    await shows(page, /Applied: the catalogue in use is now edit 1/);
    world.fake.sendText(STAFF, "/pricelist");
    await world.waitText(STAFF, /ML86<\/code> 86 Diamonds: <b>Rp 21\.500<\/b>/);
  });

  it("when a save fails, then the page says why, at the field, keeps what was typed, and nothing changes", async () => {
    app = await open({ user: ADMIN, tab: "catalogue", theme: "dark" });
    const { page } = app;
    await shows(page, /Catalogue/);
    await page.getByTestId("price-ML86").fill("abc");
    await page.getByTestId("price-FF70").fill("12000");
    await page.getByTestId("main-action").click();
    await shows(page, /One thing to fix .*Mobile Legends › ML86: price must be a number of rupiah/);
    expect(await page.locator(".field.invalid .field-error").first().innerText()).toMatch(
      /can't tell which amount this is: write e\.g\. 21000, 21\.000, Rp21\.000, 21rb/,
    );
    expect(await page.getByTestId("price-ML86").inputValue()).toBe("abc");
    expect(await page.getByTestId("price-FF70").inputValue()).toBe("12000");
    await app.shot("admin-catalogue-failed-save-dark");
    // Meanwhile another admin changes a price in the chat: the page's Confirm does not overwrite it unseen.
    world.fake.sendText(ADMIN, "/price GI60 16500");
    await world.waitText(ADMIN, /GI60/);
    await page.getByTestId("price-ML86").fill("20500");
    await page.getByTestId("main-action").click();
    await shows(page, /Somebody changed the catalogue meanwhile \(now edit 1\)/);
    expect(await page.getByTestId("price-FF70").inputValue()).toBe("12000");
    expect(await page.getByTestId("price-GI60").inputValue()).toBe("16500");
    // Reviewed again against the catalogue as it is now: the admin's own changes, not the other's undone.
    await page.getByTestId("main-action").click();
    await shows(page, /Your changes/);
    const diff = await page.getByTestId("catalogue-diff").innerText();
    expect(diff).toMatch(/ML86: Rp 20,000 → Rp 20,500/);
    expect(diff).toMatch(/FF70: Rp 10,000 → Rp 12,000/);
    expect(diff).not.toMatch(/GI60/);
    world.fake.sendText(STAFF, "/pricelist");
    await world.waitText(STAFF, /FF70<\/code> 70 Diamonds: <b>Rp 10\.000<\/b>/);
  });

  it("when a save is refused, then the notice names each problem by game and product, and the first field to fix is scrolled to and focused", async () => {
    app = await open({ user: ADMIN, tab: "catalogue" });
    const { page } = app;
    await shows(page, /Catalogue/);
    // Two fields far down the page: a name emptied, and a price that is no amount.
    const gi330Name = page.getByTestId("product-GI330").locator("input.product-name");
    await gi330Name.fill("");
    await page.getByTestId("price-PUBG60").fill("abc");
    await page.evaluate(() => (globalThis as any).scrollTo(0, 0));
    await page.getByTestId("main-action").click();
    await shows(page, /2 things to fix/);
    expect(await page.getByTestId("catalogue-notice-lines").innerText()).toBe(
      "Genshin Impact › GI330: name must not be empty\nPUBG Mobile › PUBG60: price must be a number of rupiah",
    );
    // Each field shows its own message, and the first is where the admin types next, on screen.
    expect(await page.getByTestId("product-GI330").locator(".field-error").innerText()).toBe("name must not be empty");
    await expect.poll(() => gi330Name.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);
    const box = await gi330Name.boundingBox();
    expect(box !== null && box.y >= 0 && box.y + box.height <= 740).toBe(true);
    await app.shot("admin-catalogue-problems-light");
    await gi330Name.fill("330 Genesis Crystals");
    await page.getByTestId("price-PUBG60").fill("15500");
    await page.getByTestId("main-action").click();
    await shows(page, /Your changes .*PUBG60: Rp 15,000 → Rp 15,500/);
  });

  it("when someone sets a price in the chat while an admin edits another in the page, then Confirm is refused as stale, the review again lists only the admin's change, and Confirm keeps both", async () => {
    app = await open({ user: ADMIN, tab: "catalogue" });
    const { page } = app;
    await shows(page, /Catalogue/);
    await page.getByTestId("price-ML172").fill("40000");
    await page.getByTestId("main-action").click();
    await shows(page, /Your changes/);
    expect(await page.getByTestId("catalogue-diff").innerText()).toBe("ML172: Rp 39,000 → Rp 40,000");
    // Meanwhile, in the chat:
    world.fake.sendText(ADMIN, "/price ML86 21000");
    await world.waitText(ADMIN, /<b>ML86<\/b> · 86 Diamonds: price Rp 20,000 → <b>Rp 21,000<\/b>/);
    await page.getByTestId("main-action").click();
    await shows(page, /Somebody changed the catalogue meanwhile \(now edit 1\)\. Your edits are kept/);
    expect(await page.getByTestId("price-ML86").inputValue()).toBe("21000");
    expect(await page.getByTestId("price-ML172").inputValue()).toBe("40000");
    await page.getByTestId("main-action").click();
    await shows(page, /Your changes/);
    expect(await page.getByTestId("catalogue-diff").innerText()).toBe("ML172: Rp 39,000 → Rp 40,000");
    await page.getByTestId("main-action").click();
    await shows(page, /Applied: the catalogue in use is now edit 2/);
    world.fake.sendText(STAFF, "/pricelist");
    const list = await world.waitText(STAFF, /ML86<\/code> 86 Diamonds: <b>Rp 21\.000<\/b>/);
    expect(list.text).toMatch(/ML172<\/code> 172 Diamonds: <b>Rp 40\.000<\/b>/);
  });

  it("when an admin in the page and someone in the chat change the same price meanwhile, then the admin's is kept and the page says so before Confirm", async () => {
    app = await open({ user: ADMIN, tab: "catalogue" });
    const { page } = app;
    await shows(page, /Catalogue/);
    await page.getByTestId("price-ML86").fill("22000");
    await page.getByTestId("main-action").click();
    await shows(page, /Your changes .*ML86: Rp 20,000 → Rp 22,000/);
    world.fake.sendText(ADMIN, "/price ML86 21000");
    await world.waitText(ADMIN, /<b>ML86<\/b> · 86 Diamonds: price Rp 20,000 → <b>Rp 21,000<\/b>/);
    await page.getByTestId("main-action").click();
    await shows(page, /Somebody changed the catalogue meanwhile \(now edit 1\)/);
    expect(await page.getByTestId("catalogue-notice-lines").innerText()).toBe(
      "ML86 price: you set Rp 22,000, someone else set Rp 21,000 meanwhile; yours is kept — check it.",
    );
    expect(await page.getByTestId("price-ML86").inputValue()).toBe("22000");
    await app.shot("admin-catalogue-conflict-light");
    await page.getByTestId("main-action").click();
    await shows(page, /Your changes/);
    expect(await page.getByTestId("catalogue-diff").innerText()).toBe("ML86: Rp 21,000 → Rp 22,000");
    await page.getByTestId("main-action").click();
    await shows(page, /Applied: the catalogue in use is now edit 2/);
    world.fake.sendText(STAFF, "/pricelist");
    await world.waitText(STAFF, /ML86<\/code> 86 Diamonds: <b>Rp 22\.000<\/b>/);
  });

  it("when an admin sets a price below what the provider charged last time, then the review says so beside it with the loss per sale, and nothing applies before Confirm", async () => {
    app = await open({ user: ADMIN, tab: "catalogue" });
    const { page } = app;
    await shows(page, /Catalogue/);
    // The scene's ML86 sale went through the sandbox, which charged Rp 19,500.
    await page.getByTestId("price-ML86").fill("19000");
    await page.getByTestId("price-ML86-reseller").fill("9.000");
    await page.getByTestId("price-ML172").fill("39500");
    await page.getByTestId("main-action").click();
    await shows(page, /Your changes/);
    expect(await screenText(page)).toMatch(/2 prices need a second look/);
    expect(await page.getByTestId("warning-ML86").innerText()).toBe(
      "⚠ Below the provider's last price (Rp 19,500): every sale loses Rp 500.",
    );
    expect(await page.getByTestId("warning-ML86-reseller").allInnerTexts()).toEqual([
      "⚠ Below the provider's last price (Rp 19,500): every sale loses Rp 10,500.",
      "⚠ 55% away from the price it replaces (Rp 19,800): a typo?",
    ]);
    expect(await page.getByTestId("warning-ML172").count()).toBe(0);
    expect(await page.getByTestId("main-action").innerText()).toBe("Confirm changes");
    await app.shot("admin-catalogue-warnings-light");
    // An admin who reads Indonesian is told the same, in their words.
    const rina = await open({ user: ADMIN_ID, tab: "catalogue", theme: "dark" });
    try {
      await shows(rina.page, /Katalog/);
      await rina.page.getByTestId("price-ML86").fill("19rb");
      await rina.page.getByTestId("main-action").click();
      await shows(rina.page, /Perubahan Anda/);
      expect(await rina.page.getByTestId("warning-ML86").innerText()).toBe(
        "⚠ Di bawah harga provider terakhir (Rp 19.500): setiap penjualan rugi Rp 500.",
      );
      await rina.shot("admin-catalogue-warnings-id-dark");
    } finally {
      await rina.close();
    }
    world.fake.sendText(STAFF, "/pricelist");
    await world.waitText(STAFF, /ML86<\/code> 86 Diamonds: <b>Rp 20\.000<\/b>/);
    await page.getByTestId("main-action").click();
    await shows(page, /Applied: the catalogue in use is now edit 1/);
    world.fake.sendText(STAFF, "/pricelist");
    await world.waitText(STAFF, /ML86<\/code> 86 Diamonds: <b>Rp 19\.000<\/b>/);
  });

  it("when an admin types prices and a deposit the way people write them, then the page shows the rupiah it read before Confirm, in English and Indonesian", async () => {
    app = await open({ user: ADMIN, tab: "catalogue" });
    const { page } = app;
    await shows(page, /Catalogue/);
    // What is typed stays as typed; below it, the rupiah it reads as.
    await page.getByTestId("price-ML86").fill("Rp 21.500");
    expect(await page.getByTestId("price-ML86-read").innerText()).toBe("Rp 21,500");
    expect(await page.getByTestId("price-ML86").inputValue()).toBe("Rp 21.500");
    // What could be read two ways says so at once, with examples.
    await page.getByTestId("price-ML86").fill("21.5");
    expect(await page.locator(".field.invalid .field-error").first().innerText()).toMatch(
      /can't tell which amount this is: .*21rb/,
    );
    await page.getByTestId("price-ML86").fill("21,5rb");
    expect(await page.getByTestId("price-ML86-read").innerText()).toBe("Rp 21,500");
    await page.getByTestId("price-ML86-reseller").fill("21 ribu");
    expect(await page.getByTestId("price-ML86-reseller-read").innerText()).toBe("Rp 21,000");
    await page.getByTestId("main-action").click();
    await shows(page, /Your changes/);
    const diff = await page.getByTestId("catalogue-diff").innerText();
    expect(diff).toMatch(/ML86: Rp 20,000 → Rp 21,500/);
    expect(diff).toMatch(/ML86, tier reseller: Rp 19,800 → Rp 21,000/);
    await page.getByTestId("main-action").click();
    await shows(page, /Applied: the catalogue in use is now edit 1/);
    world.fake.sendText(STAFF, "/pricelist");
    await world.waitText(STAFF, /ML86<\/code> 86 Diamonds: <b>Rp 21\.500<\/b>/);
    await app.close();

    // An admin who reads Indonesian credits a deposit typed as 50rb.
    app = await open({ user: ADMIN_ID, tab: "resellers" });
    const idPage = app.page;
    await shows(idPage, /5005/);
    await idPage.getByTestId("reseller-5005").click();
    await shows(idPage, /Reseller Budi · 5005/);
    await idPage.getByTestId("deposit-open").click();
    await idPage.getByTestId("deposit-amount").fill("1,5");
    await idPage.getByTestId("deposit-note").fill("transfer BCA");
    await idPage.getByTestId("main-action").click();
    await shows(idPage, /Tulis rupiah bulat, mis\. 50000, 50\.000, Rp50\.000, 50rb, 1,5jt atau -5rb/);
    // The amount to fix is where the admin types next.
    const amount = idPage.getByTestId("deposit-amount");
    await expect.poll(() => amount.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);
    await idPage.getByTestId("deposit-amount").fill("50rb");
    await idPage.getByTestId("main-action").click();
    await shows(idPage, /Deposit untuk dikonfirmasi/i);
    expect(await screenText(idPage)).toMatch(/\+ Rp 50\.000/);
  });

  it("when an admin double-taps Confirm on a deposit and the request is sent again, then it is credited once and the reseller told once", async () => {
    app = await open({ user: ADMIN, tab: "resellers" });
    const { page } = app;
    await shows(page, /5005/);
    await page.getByTestId("reseller-5005").click();
    await shows(page, /Reseller (Budi · )?5005/);
    await page.getByTestId("deposit-open").click();
    await page.getByTestId("deposit-amount").fill("50.000");
    await page.getByTestId("deposit-note").fill("transfer BRI");
    let confirmCall: { url: string; auth: string } | undefined;
    page.on("request", (r) => {
      if (/\/deposits\/[A-Z0-9]+\/confirm$/.test(r.url()))
        confirmCall = { url: r.url(), auth: r.headers().authorization! };
    });
    await page.getByTestId("main-action").click();
    await shows(page, /Deposit to confirm/i);
    expect(await page.getByTestId("deposit-after").innerText()).toBe("Rp 261,300");
    await app.shot("admin-deposit-review-light");
    await page.getByTestId("main-action").dblclick();
    await shows(page, /Credited \+ Rp 50,000: the saldo is now Rp 261,300/);
    // The same request again, as a flaky network would resend it.
    const again = await request(confirmCall!.url, { method: "POST", headers: { authorization: confirmCall!.auth } });
    expect(again.statusCode).toBe(409);
    expect(((await again.body.json()) as { error: string }).error).toBe("taken");
    expect(await page.getByTestId("reseller-saldo").innerText()).toBe("Rp 261,300");
    const credited = /Rp 50,000/;
    await world.waitText(RESELLER, credited);
    await world.fake.waitForIdle();
    expect(world.fake.messagesTo(RESELLER.id).filter((m) => credited.test(m.text))).toHaveLength(1);
    world.fake.sendText(RESELLER, "/saldo");
    await world.waitText(RESELLER, /Rp 261,300/);
  });

  it("when an admin settles an unknown order in the page, then the user is told in the chat and /pending is empty there too", async () => {
    app = await open({ user: ADMIN, tab: "pending" });
    const { page } = app;
    await shows(page, scene.unknownRef);
    await page.getByTestId(`settle-success-${scene.unknownRef}`).click();
    await page.getByTestId("settle-value").fill("SN-8877");
    await page.getByTestId("main-action").click();
    await shows(page, new RegExp(`${scene.unknownRef} settled: Success`));
    await shows(page, /No order waits to be settled/);
    await world.waitText(STAFF, /SN-8877/);
    world.fake.sendText(ADMIN, "/pending");
    await world.waitText(ADMIN, /No orders with an unknown result/);
  });

  it("when a reseller's order is refused by the provider, then their order card says it failed and the price came back, never the provider's words, in English and Indonesian", async () => {
    // The shop's own deposit with the provider is empty: the provider refuses in its own words.
    world.sandbox.deposit(-world.sandbox.balance());
    const failed = await world.order(RESELLER, "FF70", "123456789");
    const refId = /Ref id: <code>([A-Z0-9]+)<\/code>/i.exec(failed.text)![1]!;
    const gagal = await world.order(RESELLER_ID, "FF70", "123456789");
    const refIdId = /Ref ID: <code>([A-Z0-9]+)<\/code>/.exec(gagal.text)![1]!;
    for (const [user, ref, said] of [
      [RESELLER, refId, "Failed: nothing was topped up, and the price (Rp 9,800) is back in your saldo."],
      [RESELLER_ID, refIdId, "Gagal: tidak ada yang terisi, dan harganya (Rp 9.800) sudah kembali ke saldo Anda."],
    ] as const) {
      app = await open({ user });
      await app.page.getByTestId("tab-my-orders").click();
      const card = app.page.getByTestId(`order-${ref}`);
      await shows(app.page, said);
      expect(await card.innerText()).toContain(said);
      expect(await screenText(app.page)).not.toMatch(/insufficient|balance\//i);
      await app.shot(`reseller-order-failed-${user.language_code}`);
      await app.close();
      app = undefined;
    }
  });

  it("when the page runs inside Telegram, then its primary action is Telegram's main button and Back is Telegram's", async () => {
    app = await open({ user: ADMIN, tab: "resellers", telegram: true });
    const { page } = app;
    const events = () => page.evaluate(() => (globalThis as unknown as { __events: Array<[string, any]> }).__events);
    /** What Telegram does when the user presses one of its buttons. */
    const press = (event: string) =>
      page.evaluate((type) => {
        const telegram = (globalThis as any).Telegram as { WebView: { receiveEvent(t: string, d: unknown): void } };
        telegram.WebView.receiveEvent(type, {});
      }, event);
    await shows(page, /5005/);
    expect((await events()).map(([type]) => type)).toEqual(expect.arrayContaining(["web_app_ready", "web_app_expand"]));
    await page.getByTestId("reseller-5005").click();
    await shows(page, /Reseller (Budi · )?5005/);
    // Telegram's buttons are set by effects, which Preact runs after the screen is painted: the
    // screen may show before its button is set (on a busy machine, a frame later), so wait for it.
    const backButton = async () =>
      (await events()).filter(([type]) => type === "web_app_setup_back_button").at(-1)?.[1];
    await expect.poll(backButton).toEqual({ is_visible: true });
    await page.getByTestId("deposit-open").click();
    await page.getByTestId("deposit-amount").fill("10000");
    // No button of the page's own: Telegram draws it, says what it says, and reports its press.
    expect(await page.getByTestId("main-action").count()).toBe(0);
    const mainButton = async () =>
      (await events()).filter(([type]) => type === "web_app_setup_main_button").at(-1)?.[1];
    await expect.poll(mainButton).toMatchObject({ is_visible: true, text: "Review", is_active: true });
    await press("main_button_pressed");
    await shows(page, /Deposit to confirm/i);
    await expect.poll(mainButton).toMatchObject({ is_visible: true, text: "Confirm deposit" });
    await press("back_button_pressed");
    await shows(page, /Resellers/);
    await expect.poll(mainButton).toEqual({ is_visible: false });
  });
});
