import type { Browser, Page } from "playwright-core";
import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ONE_PIXEL_PNG, type FakeUser } from "../e2e/fake-bot-api.js";
import { ADMIN, staffWorld, type World } from "../e2e/world.js";
import { signInitData } from "../helpers/init-data.js";
import { launchBrowser, openApp, screenText, shows, type Opened } from "./browser.js";
import { ADMIN_ID, RESELLER, RESELLER_ID, shopScene, type Scene } from "./scene.js";

/**
 * Amounts typed in the Mini App's boxes the way people type them (`Rp 50.000,00`, `50rb`, `1,5jt`,
 * the bank's `100.137,00`), in Chromium against the bot as it runs in production: each box shows
 * the rupiah it read beside it, refuses what it cannot read with an example, and Other amount
 * credits only after a second press that shows the amount.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const en = (n: number) => `Rp ${n.toLocaleString("en-US")}`;

describe("amounts typed in the Mini App", () => {
  let world: World;
  let scene: Scene;
  let app: Opened | undefined;
  beforeAll(async () => {
    world = await staffWorld();
    scene = await shopScene(world, { history: false });
    world.fake.sendText(ADMIN, "/payinfo Transfer ke BCA 1234567890 a.n. Toko Berkah");
    await world.waitText(ADMIN, /instructions set/);
  });
  afterAll(() => world.cleanup());
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const open = (opts: Omit<Parameters<typeof openApp>[1], "base" | "botToken">) =>
    openApp(browser, { base: scene.base, botToken: world.fake.token, ...opts });

  /** An API call as an admin's page makes it. */
  async function asAdmin(path: string): Promise<any> {
    const res = await request(`${scene.base}/app/api${path}`, {
      headers: { authorization: `tma ${signInitData(ADMIN, world.fake.token)}` },
    });
    return res.body.json();
  }
  const saldoOf = async (user: FakeUser) => (await asAdmin(`/admin/resellers/${user.id}`)).reseller.saldo as number;

  /** Types into a box key by key, as a phone's keyboard does (letters, dots and commas included). */
  async function type(page: Page, testid: string, text: string): Promise<void> {
    const box = page.getByTestId(testid);
    await box.fill("");
    await box.pressSequentially(text);
  }

  /** The requests the reseller's page lists. */
  const myRequests = (page: Page) => page.locator('[data-testid^="my-request-"]').count();

  it("when a reseller types Rp 50.000,00 or 1,5jt in Top up saldo, then the page shows the rupiah it read and asks for exactly that", async () => {
    app = await open({ user: RESELLER, tab: "wallet" });
    const { page } = app;
    await shows(page, /Transfer ke BCA 1234567890/);
    // The box takes letters: a phone shows its whole keyboard, not digits only.
    expect(await page.getByTestId("topup-amount").getAttribute("inputmode")).toBeNull();

    await type(page, "topup-amount", "Rp 50.000,00");
    await expect.poll(() => page.getByTestId("topup-amount-read").innerText()).toBe("Rp 50,000");
    await page.getByTestId("topup-ask").click();
    await shows(page, /Transfer exactly Rp 50,[0-9]{3} \(Rp 50,000 \+ code [0-9]+\)/);
    const first = /request (DR[0-9A-Z]{19})/.exec(await screenText(page))![1]!;
    await world.waitText(RESELLER, new RegExp(`<code>${first}</code>[\\s\\S]*Rp 50,000`));

    await type(page, "topup-amount", "1,5jt");
    await expect.poll(() => page.getByTestId("topup-amount-read").innerText()).toBe("Rp 1,500,000");
    await app.shot("reseller-top-up-amount-light");
    await page.getByTestId("topup-ask").click();
    await shows(page, /Transfer exactly Rp 1,500,[0-9]{3} \(Rp 1,500,000 \+ code [0-9]+\)/);
    await expect.poll(() => myRequests(page)).toBe(2);

    // What cannot be read is refused with an example, and nothing is asked for.
    for (const typed of ["abc", "50.5"]) {
      await type(page, "topup-amount", typed);
      expect(await page.getByTestId("topup-amount-read").innerText()).toBe("");
      await page.getByTestId("topup-ask").click();
      await expect
        .poll(async () => page.locator(".field.invalid .field-error").innerText())
        .toMatch(/can't read this as an amount: write e\.g\. 50000, Rp 50\.000, Rp 50\.000,00, 50rb or 1,5jt/);
      expect(await page.getByTestId("topup-amount").inputValue()).toBe(typed);
    }
    // An amount read but below the shop's smallest is refused at the box, with the limits.
    await type(page, "topup-amount", "5rb");
    expect(await page.getByTestId("topup-amount-read").innerText()).toBe("Rp 5,000");
    await page.getByTestId("topup-ask").click();
    await expect
      .poll(async () => page.locator(".field.invalid .field-error").innerText())
      .toBe("Rp 5,000 is outside what you can ask for: Rp 10,000 to Rp 10,000,000.");
    await world.fake.waitForIdle();
    expect(await myRequests(page)).toBe(2);
    expect(world.fake.messagesTo(RESELLER.id).filter((m) => /Deposit request<\/b>/.test(m.text))).toHaveLength(2);
  });

  it("when a reseller who reads Indonesian types 50rb, then the page reads it as Rp 50.000 in the dark theme and asks for that", async () => {
    app = await open({ user: RESELLER_ID, tab: "wallet", theme: "dark" });
    const { page } = app;
    await shows(page, /Transfer ke BCA 1234567890/);
    await type(page, "topup-amount", "50rb");
    await expect.poll(() => page.getByTestId("topup-amount-read").innerText()).toBe("Rp 50.000");
    await type(page, "topup-amount", "abc");
    await page.getByTestId("topup-ask").click();
    await expect
      .poll(async () => page.locator(".field.invalid .field-error").innerText())
      .toMatch(/tidak terbaca sebagai jumlah: tulis mis\. 50000, Rp 50\.000, Rp 50\.000,00, 50rb atau 1,5jt/);
    await app.shot("reseller-top-up-amount-id-dark");
    await type(page, "topup-amount", "50rb");
    await page.getByTestId("topup-ask").click();
    await shows(page, /Transfer tepat Rp 50\.[0-9]{3} \(Rp 50\.000 \+ kode [0-9]+\)/);
  });

  /** A reseller's request of `amount` with its proof sent in the chat: its id and exact amount. */
  async function requestWithProof(user: FakeUser, amount: string, fileUniqueId: string) {
    const before = world.fake.messagesTo(user.id).length;
    world.fake.sendText(user, `/deposit ${amount}`);
    const message = await world.fake.waitForMessage(
      user.id,
      (m) => /<code>DR[0-9A-Z]{19}<\/code>/.test(m.text) && world.fake.messagesTo(user.id).indexOf(m) >= before,
    );
    const id = /<code>(DR[0-9A-Z]{19})<\/code>/.exec(message.text)![1]!;
    const exact = Number(/<b>Rp ([0-9.,]+)<\/b>/.exec(message.text)![1]!.replace(/[.,]/g, ""));
    world.fake.sendPhoto(user, undefined, {
      replyTo: message,
      fileId: `proof-${fileUniqueId}`,
      fileUniqueId,
      // Bytes of its own: a proof sent before would be flagged.
      bytes: Buffer.concat([ONE_PIXEL_PNG, Buffer.from(fileUniqueId)]),
    });
    await world.waitText(ADMIN, new RegExp(id));
    return { id, exact };
  }

  it("when an admin types the bank's 100.137,00 as Other amount, then the page asks first showing Rp 100,137 and credits it once, only on Confirm", async () => {
    // Budi's two requests above wait for proofs; Dewi asks in the chat and sends hers.
    const { id, exact } = await requestWithProof(RESELLER_ID, "100rb", "amounts-a");
    const before = await saldoOf(RESELLER_ID);
    app = await open({ user: ADMIN, tab: "pending" });
    const { page } = app;
    const card = page.getByTestId(`request-${id}`);
    await card.waitFor();
    await page.getByTestId(`other-${id}`).click();
    await type(page, "request-value", "100.137,00");
    await expect.poll(() => page.getByTestId("request-value-read").innerText()).toBe("Rp 100,137");
    await page.getByTestId("request-send").click();

    // The first press only shows what would be credited.
    const summary = page.getByTestId(`other-summary-${id}`);
    await summary.waitFor();
    expect((await summary.innerText()).replace(/\s+/g, " ")).toContain(
      `Credit Rp 100,137 for ${id} instead of ${en(exact)}?`,
    );
    expect(await page.getByTestId("request-confirm").innerText()).toBe("Confirm: credit Rp 100,137");
    await card.evaluate((el) =>
      (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: "center" }),
    );
    await app.shot("admin-other-amount-confirm-light");
    expect(await saldoOf(RESELLER_ID)).toBe(before);
    expect((await asAdmin("/admin/deposit-requests")).requests.find((r: any) => r.id === id).state).toBe("review");

    // Back to the box: what was typed is kept; an amount that cannot be read gets no summary.
    await page.getByTestId("request-change").click();
    expect(await page.getByTestId("request-value").inputValue()).toBe("100.137,00");
    await type(page, "request-value", "100.137,5");
    await page.getByTestId("request-send").click();
    await expect
      .poll(async () => card.locator(".field.invalid .field-error").innerText())
      .toMatch(/can't read this as an amount: write e\.g\./);
    expect(await page.getByTestId(`other-summary-${id}`).count()).toBe(0);
    expect(await saldoOf(RESELLER_ID)).toBe(before);

    await type(page, "request-value", "100.137,00");
    await page.getByTestId("request-send").click();
    await page.getByTestId("request-confirm").click();
    await shows(page, new RegExp(`${id} approved: Rp 100,137 credited`));
    expect(await saldoOf(RESELLER_ID)).toBe(before + 100_137);
    // Dewi reads Indonesian: her saldo grew by the amount the bank showed.
    await world.fake.waitForMessage(RESELLER_ID.id, (m) => m.text.includes("Rp 100.137"));
    await world.fake.waitForIdle();
    expect(await saldoOf(RESELLER_ID)).toBe(before + 100_137);
  });

  it("when an admin who reads Indonesian uses Other amount at 360 px in the dark theme, then the question shows the amount read in Indonesian, and Back credits nothing", async () => {
    const { id, exact } = await requestWithProof(RESELLER_ID, "60rb", "amounts-b");
    const before = await saldoOf(RESELLER_ID);
    app = await open({ user: ADMIN_ID, tab: "pending", theme: "dark" });
    const { page } = app;
    await page.getByTestId(`request-${id}`).waitFor();
    await page.getByTestId(`other-${id}`).click();
    await type(page, "request-value", "Rp 59.500");
    await expect.poll(() => page.getByTestId("request-value-read").innerText()).toBe("Rp 59.500");
    await page.getByTestId("request-send").click();
    const summary = page.getByTestId(`other-summary-${id}`);
    await summary.waitFor();
    expect((await summary.innerText()).replace(/\s+/g, " ")).toContain(
      `Masukkan Rp 59.500 untuk ${id}, bukan Rp ${exact.toLocaleString("id-ID")}?`,
    );
    await summary.evaluate((el) =>
      (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: "center" }),
    );
    await app.shot("admin-other-amount-confirm-id-dark");
    // The page's layout fits the phone: nothing wider than the screen.
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    await page.getByTestId("request-change").click();
    await page.getByTestId("request-back").click();
    await expect.poll(() => page.getByTestId(`approve-${id}`).count()).toBe(1);
    expect(await saldoOf(RESELLER_ID)).toBe(before);
    expect((await asAdmin("/admin/deposit-requests")).requests.find((r: any) => r.id === id).state).toBe("review");
  });
});
