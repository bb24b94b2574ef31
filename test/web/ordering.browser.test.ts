import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, button, createWorld, type World } from "../e2e/world.js";
import { signInitData } from "../helpers/init-data.js";
import { freePort } from "../helpers/redis.js";
import { launchBrowser, openApp, screenText, shows } from "./browser.js";
import { RESELLER, RESELLER_ID, shopScene } from "./scene.js";

/**
 * Ordering in the Mini App, in Chromium against the bot as it runs in production (`node
 * dist/main.js`): a reseller and an admin order from the page; one order per Confirm however it is
 * tapped, repeated or interrupted; the chat and the page agree.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** The ref id of the summary on the page. */
async function summaryRef(page: Page): Promise<string> {
  const text = await page.getByTestId("order-summary").innerText();
  return /\b(TG[0-9A-Z]+)\b/.exec(text)![1]!;
}

/** Chooses a product, types the player id, and waits for the summary. */
async function toSummary(page: Page, code: string, player: string): Promise<string> {
  await page.getByTestId(`order-product-${code}`).click();
  await page.getByTestId("order-player").fill(player);
  await page.getByTestId("main-action").click();
  await page.getByTestId("order-summary").waitFor();
  return summaryRef(page);
}

describe("ordering in the Mini App", () => {
  let world: World;
  afterEach(() => world.cleanup());

  it("when a reseller orders on the page and taps Confirm twice, then one order is sent, the result has the SN, and the chat has it too", async () => {
    world = await createWorld({ initialBalance: 2_000_000 });
    const scene = await shopScene(world, { history: false });
    const calls = () => world.sandbox.calls.length;
    const auth = { authorization: `tma ${signInitData(RESELLER, world.fake.token)}` };
    const saldoOf = async () =>
      ((await (await fetch(`${scene.base}/app/api/reseller/wallet`, { headers: auth })).json()) as { saldo: number })
        .saldo;
    const saldo = await saldoOf();
    const rp = (n: number) => `Rp ${n.toLocaleString("en-US")}`;
    const app = await openApp(browser, { base: scene.base, botToken: world.fake.token, user: RESELLER, tab: "order" });
    const { page } = app;
    try {
      await shows(page, `Your saldo: ${rp(saldo)}`);
      await shows(page, /ML86 · 86 Diamonds/);
      await app.shot("reseller-order-products-light");

      // The game's rule is checked as the id is typed; the summary shows the saldo before and after.
      await page.getByTestId("order-product-ML86").click();
      await page.getByTestId("order-player").fill("1234");
      await shows(page, /not a valid player id for this game[^]*12345678\(1234\)/);
      await page.getByTestId("order-player").fill("12345678 1234");
      await page.getByTestId("main-action").click();
      await page.getByTestId("order-summary").waitFor();
      const refId = await summaryRef(page);
      await shows(page, "Player 12345678(1234)");
      await shows(page, `Saldo: ${rp(saldo)} → after this order ${rp(saldo - 19_800)}`);
      await app.shot("reseller-order-summary-light");

      // Two taps at once: the page sends one request, the bot orders once.
      const before = calls();
      await page.getByTestId("main-action").dblclick();
      await page.getByTestId("order-result").waitFor({ timeout: 20_000 });
      await shows(page, /Top-up successful[^]*SN/);
      await app.shot("reseller-order-result-light");
      // The receipt picture, as the chat's Receipt sends it, shown in the card.
      await page.getByTestId(`receipt-${refId}`).click();
      const picture = page.getByTestId(`receipt-picture-${refId}`);
      await picture.waitFor();
      await expect
        .poll(() => picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
        .toBe(960);
      await picture.scrollIntoViewIfNeeded();
      await app.shot("reseller-order-receipt-light");
      expect(world.sandbox.calls.filter((c) => c.refId === refId)).toHaveLength(1);
      expect(calls()).toBe(before + 1);

      expect(await saldoOf()).toBe(saldo - 19_800);

      // The same Confirm sent again by hand (a repeated request): the order as it ended, nothing new.
      const again = await fetch(`${scene.base}/app/api/reseller/order/${refId}/confirm`, {
        method: "POST",
        headers: auth,
      });
      expect(again.status).toBe(200);
      expect(((await again.json()) as { order: { state: string } }).order.state).toBe("success");
      expect(calls()).toBe(before + 1);

      // The chat got the result, and /history lists the order.
      await world.waitText(RESELLER, new RegExp(`Top-up successful[^]*${refId}`));
      world.fake.sendText(RESELLER, "/history");
      await world.waitText(RESELLER, new RegExp(refId));

      // The receipt picture for the reseller and any admin; another reseller cannot read it, nor the order, nor confirm it.
      const other = { authorization: `tma ${signInitData(RESELLER_ID, world.fake.token)}` };
      const admin = { authorization: `tma ${signInitData(ADMIN, world.fake.token)}` };
      const own = await fetch(`${scene.base}/app/api/reseller/receipt/${refId}`, { headers: auth });
      expect(own.status).toBe(200);
      expect(own.headers.get("content-type")).toBe("image/png");
      expect((await fetch(`${scene.base}/app/api/admin/receipt/${refId}`, { headers: admin })).status).toBe(200);
      expect((await fetch(`${scene.base}/app/api/reseller/receipt/${refId}`, { headers: other })).status).toBe(404);
      expect((await fetch(`${scene.base}/app/api/reseller/receipt/${refId}`)).status).toBe(401);
      expect((await fetch(`${scene.base}/app/api/admin/receipt/${scene.unknownRef}`, { headers: admin })).status).toBe(
        409,
      );
      expect((await fetch(`${scene.base}/app/api/reseller/order/${refId}`, { headers: other })).status).toBe(404);
      expect(
        (await fetch(`${scene.base}/app/api/reseller/order/${refId}/confirm`, { method: "POST", headers: other }))
          .status,
      ).toBe(404);
    } finally {
      await app.close();
    }
  });

  it("when the page asks for the same summary again after a lost answer, then it gets the same draft; a thousand asks are refused after the limit", async () => {
    world = await createWorld({ initialBalance: 2_000_000 });
    const scene = await shopScene(world, { history: false });
    const auth = {
      authorization: `tma ${signInitData(RESELLER, world.fake.token)}`,
      "content-type": "application/json",
    };
    const draft = (requestId: string, playerId = "12345678(1234)") =>
      fetch(`${scene.base}/app/api/reseller/order/draft`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ requestId, code: "ML86", playerId }),
      });
    const first = (await (await draft("page-request-0001")).json()) as { order: { refId: string } };
    const second = (await (await draft("page-request-0001")).json()) as { order: { refId: string } };
    expect(second.order.refId).toBe(first.order.refId);

    // A player id that breaks the game's rule, a body too large, a product not theirs.
    expect((await draft("page-request-0002", "12 34")).status).toBe(422);
    const big = await fetch(`${scene.base}/app/api/reseller/order/draft`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ requestId: "page-request-0003", code: "ML86", playerId: "x".repeat(5000) }),
    });
    expect(big.status).toBe(413);

    // One user asking again and again: refused with Retry-After once past the minute's allowance.
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await draft(`flood-request-${String(i).padStart(4, "0")}`)).status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(30);
    const refused = await draft("flood-request-last");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(world.sandbox.calls.filter((c) => c.destination === "12345678(1234)").length).toBe(1);
  });

  it("when the same player was just topped up, then the summary says so in Indonesian and dark, and Confirm reads Pesan lagi", async () => {
    world = await createWorld({ initialBalance: 2_000_000 });
    const scene = await shopScene(world, { history: false });
    const app = await openApp(browser, {
      base: scene.base,
      botToken: world.fake.token,
      user: RESELLER_ID,
      tab: "order",
      theme: "dark",
    });
    const { page } = app;
    try {
      await shows(page, /Pesanan baru/);
      await toSummary(page, "FF70", "123456789");
      await page.getByTestId("main-action").click();
      await shows(page, /Top-up berhasil/);
      await page.getByTestId("main-action").click();
      await shows(page, /Pesanan baru/);
      await toSummary(page, "FF70", "123456789");
      await shows(page, /Sudah pernah dipesan: kamu memesan ini untuk pemain ini/);
      await expect.poll(() => page.getByTestId("main-action").innerText()).toBe("Pesan lagi");
      await app.shot("reseller-order-again-id-dark");
      // The staff's order for the same player earlier is not hers: only her own is pointed out.
      expect(await screenText(page)).not.toContain("Budi");
    } finally {
      await app.close();
    }
  });

  it("when a reseller orders inside Telegram, then Continue and Confirm are Telegram's main button, and its press orders once", async () => {
    world = await createWorld({ initialBalance: 2_000_000 });
    const scene = await shopScene(world, { history: false });
    const app = await openApp(browser, {
      base: scene.base,
      botToken: world.fake.token,
      user: RESELLER,
      tab: "order",
      telegram: true,
    });
    const { page } = app;
    try {
      const events = () =>
        page.evaluate(() => (globalThis as unknown as { __events: Array<[string, unknown]> }).__events);
      const mainButton = async () =>
        (await events()).filter(([type]) => type === "web_app_setup_main_button").at(-1)?.[1];
      const press = (event: string) =>
        page.evaluate((type) => {
          const telegram = (
            globalThis as unknown as { Telegram: { WebView: { receiveEvent(t: string, d: unknown): void } } }
          ).Telegram;
          telegram.WebView.receiveEvent(type, {});
        }, event);
      await shows(page, /New order/);
      await page.getByTestId("order-product-FF70").click();
      await page.getByTestId("order-player").fill("223344556");
      expect(await page.getByTestId("main-action").count()).toBe(0);
      await expect.poll(mainButton).toMatchObject({ is_visible: true, text: "Continue", is_active: true });
      await press("main_button_pressed");
      await page.getByTestId("order-summary").waitFor();
      const refId = await summaryRef(page);
      await expect.poll(mainButton).toMatchObject({ is_visible: true, text: "Confirm order" });
      // Pressed twice (a double tap on Telegram's button): one order.
      await press("main_button_pressed");
      await press("main_button_pressed");
      await page.getByTestId("order-result").waitFor({ timeout: 20_000 });
      await shows(page, /Top-up successful/);
      await expect.poll(mainButton).toMatchObject({ is_visible: true, text: "New order" });
      expect(world.sandbox.calls.filter((c) => c.refId === refId)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it("when an admin orders from the page and the result is unknown, then the page says it is held and the order waits in Pending", async () => {
    world = await createWorld({ initialBalance: 2_000_000 });
    const scene = await shopScene(world, { history: false });
    const app = await openApp(browser, { base: scene.base, botToken: world.fake.token, user: ADMIN, tab: "order" });
    const { page } = app;
    try {
      const refId = await toSummary(page, "FF70", "777555444");
      await page.getByTestId("main-action").click();
      await page.getByTestId("order-result").waitFor({ timeout: 20_000 });
      await shows(page, /Result unknown[^]*Pending/);
      await world.waitText(ADMIN, new RegExp(`unknown[^]*${refId}`, "i"));
      const auth = { authorization: `tma ${signInitData(ADMIN, world.fake.token)}` };
      const pending = await (await fetch(`${scene.base}/app/api/admin/pending`, { headers: auth })).text();
      expect(pending).toContain(refId);
    } finally {
      await app.close();
    }
  });

  it("when the bot is killed between Confirm and the result, then after the restart the page shows the order held, sent once", async () => {
    world = await createWorld({ initialBalance: 2_000_000 });
    const slow = await world.slowSandbox(4000);
    const port = await freePort();
    const env = {
      ADMIN_IDS: String(ADMIN.id),
      RESELLER_IDS: String(RESELLER.id),
      PORT: String(port),
      WEBAPP_URL: "https://shop.example.com",
      TOPUP_BASE_URL: slow.url,
      TOPUP_TIMEOUT_MS: "6000",
    };
    const first = await world.runProcess(env);
    for (const user of [RESELLER, ADMIN]) {
      world.fake.sendText(user, "/start");
      await world.fake.waitForMessage(user.id, () => true);
    }
    world.fake.sendText(ADMIN, `/deposit ${RESELLER.id} 100000 cash`);
    const deposit = await world.waitText(ADMIN, /for reseller/);
    world.fake.tapButton(ADMIN, deposit, button(deposit, /^dc:/));
    await world.waitText(ADMIN, /Credited/);

    const app = await openApp(browser, {
      base: `http://127.0.0.1:${port}`,
      botToken: world.fake.token,
      user: RESELLER,
      tab: "order",
    });
    const { page } = app;
    try {
      const refId = await toSummary(page, "ML86", "12345678(1234)");
      await page.getByTestId("main-action").click();
      await page.getByTestId("order-processing").waitFor();
      await expect.poll(() => slow.calls.length, { timeout: 10_000 }).toBe(1);
      await first.kill("SIGKILL");

      // The answer is lost: the page says it is asking how the order stands, and keeps asking.
      await shows(page, /Asking the bot how the order stands/);
      await world.runProcess(env);
      // Reloaded once the bot is back, the page finds the same order (it kept its ref id).
      await page.reload();
      await page.getByTestId("order-result").waitFor({ timeout: 30_000 });
      await shows(page, /Result unknown[^]*held/);
      expect(slow.calls.filter((c) => c.refId === refId)).toHaveLength(1);
      // The saldo stays held for it until an admin settles it.
      const auth = { authorization: `tma ${signInitData(RESELLER, world.fake.token)}` };
      const wallet = (await (
        await fetch(`http://127.0.0.1:${port}/app/api/reseller/wallet`, { headers: auth })
      ).json()) as {
        saldo: number;
        held: number;
      };
      expect(wallet).toMatchObject({ saldo: 80_200, held: 19_800 });
    } finally {
      await app.close();
    }
  });
});
