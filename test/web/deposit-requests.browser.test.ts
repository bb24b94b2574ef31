import type { Browser, Locator } from "playwright-core";
import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ONE_PIXEL_PNG } from "../e2e/fake-bot-api.js";
import { ADMIN, button, staffWorld, type World } from "../e2e/world.js";
import { signInitData } from "../helpers/init-data.js";
import { mkdirSync } from "node:fs";
import type { SentMessage } from "../e2e/fake-bot-api.js";
import { launchBrowser, openApp, screenText, shows, SCREENSHOTS, type Opened } from "./browser.js";
import { RESELLER, RESELLER_ID, shopScene, type Scene } from "./scene.js";

/**
 * Deposit requests in the Mini App, in Chromium against the bot as it runs in production: the
 * admins' Pending page shows each request with its proof (fetched by the bot from Telegram, served
 * as the image it is) and decides it once, as the chat's buttons do; a reseller asks from their
 * wallet page and sends the proof in the chat.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const RECEIPT_WIDTH = 320;

/** A bank app's transfer receipt, as a reseller screenshots it (drawn by the browser): a PNG. */
async function receiptImage(amount: number): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: RECEIPT_WIDTH, height: 300 } });
  try {
    await page.setContent(`<body style="margin:0;font-family:sans-serif;background:#0b5cab;color:#fff;text-align:center">
      <p style="padding-top:24px;font-size:15px">m-Transfer</p>
      <p style="font-size:22px;font-weight:bold">BERHASIL</p>
      <p style="font-size:28px">Rp ${amount.toLocaleString("id-ID")}</p>
      <p style="font-size:13px">ke BCA 1234567890<br>TOKO BERKAH</p></body>`);
    return await page.screenshot({ type: "png" });
  } finally {
    await page.close();
  }
}

/**
 * A picture of a bot message as a Telegram chat shows it (the photo, the caption with its bold and
 * code, the buttons), drawn from what the bot sent through the Bot API: for the README.
 */
async function chatShot(name: string, message: SentMessage, photo: Buffer): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 390, height: 600 }, deviceScaleFactor: 2 });
  try {
    const rows = (message.reply_markup?.inline_keyboard ?? []) as Array<Array<{ text: string }>>;
    const buttons = rows
      .map((row) => `<div class="row">${row.map((b) => `<div class="btn">${b.text}</div>`).join("")}</div>`)
      .join("");
    await page.setContent(`<body style="margin:0;background:#9fc29a;font-family:sans-serif;font-size:15px">
      <div style="background:#fff;padding:10px 14px;font-weight:bold;border-bottom:1px solid #ddd">Toko Berkah Bot</div>
      <div style="padding:12px;max-width:300px">
        <div style="background:#fff;border-radius:12px;overflow:hidden">
          <img src="data:image/png;base64,${photo.toString("base64")}" style="width:100%;display:block">
          <div style="padding:8px 10px;white-space:pre-wrap;line-height:1.35">${message.text}</div>
        </div>
        <style>.row{display:flex;gap:4px;margin-top:4px}.btn{flex:1;background:rgba(0,0,0,.25);color:#fff;
          border-radius:8px;padding:8px;text-align:center;font-weight:bold}code{font-size:13px}</style>
        ${buttons}
      </div></body>`);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOTS}/${name}.png` });
  } finally {
    await page.close();
  }
}

/**
 * Whether a button is drawn as the page draws a button of these classes (its fill): an action a
 * user must find at once is the page's filled button, not the browser's grey default.
 */
async function drawnAs(button: Locator, classes: string): Promise<boolean> {
  return button.evaluate((el, names) => {
    // The page's own objects, typed as much as is used here (the tests have no DOM types).
    interface Drawn {
      ownerDocument: { createElement(tag: string): Drawn; body: { append(node: Drawn): void } };
      className: string;
      remove(): void;
    }
    const page = globalThis as unknown as { getComputedStyle(node: Drawn): { backgroundColor: string } };
    const button = el as unknown as Drawn;
    const probe = button.ownerDocument.createElement("button");
    probe.className = names;
    button.ownerDocument.body.append(probe);
    const fill = page.getComputedStyle(probe).backgroundColor;
    probe.remove();
    return page.getComputedStyle(button).backgroundColor === fill;
  }, classes);
}

describe("deposit requests in the Mini App", () => {
  let world: World;
  let scene: Scene;
  let app: Opened | undefined;
  beforeAll(async () => {
    world = await staffWorld();
    scene = await shopScene(world, { history: false });
  });
  afterAll(() => world.cleanup());
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const open = (opts: Omit<Parameters<typeof openApp>[1], "base" | "botToken">) =>
    openApp(browser, { base: scene.base, botToken: world.fake.token, ...opts });

  /** A reseller's request in the chat with its proof sent as a reply: its id. */
  async function requestWithProof(user: typeof RESELLER, amount: string, fileUniqueId: string) {
    world.fake.sendText(user, `/deposit ${amount}`);
    const message = await world.waitText(user, new RegExp(`Rp ${amount.replace("rb", "")}`));
    const id = /<code>(DR[0-9A-Z]{19})<\/code>/.exec(message.text)![1]!;
    world.fake.sendPhoto(user, undefined, {
      replyTo: message,
      fileId: `proof-${fileUniqueId}`,
      fileUniqueId,
      bytes: ONE_PIXEL_PNG,
    });
    await world.waitText(ADMIN, new RegExp(id));
    return id;
  }

  it("when a reseller asks from the page and an admin approves in the page, then the exact amount is credited once", async () => {
    // No instructions yet: the page says so; the admin writes them in the page.
    app = await open({ user: ADMIN, tab: "pending" });
    await shows(app.page, /No payment instructions yet/);
    await app.page.getByTestId("payinfo-text").fill("Transfer ke BCA 1234567890 a.n. Toko Berkah");
    expect(await drawnAs(app.page.getByTestId("payinfo-save"), "primary")).toBe(true);
    await app.page.getByTestId("payinfo-save").click();
    await shows(app.page, /Payment instructions saved/);
    await app.close();

    // The reseller asks on their wallet page.
    app = await open({ user: RESELLER, tab: "wallet" });
    await shows(app.page, /Transfer ke BCA 1234567890/);
    await app.page.getByTestId("topup-amount").fill("150000");
    expect(await drawnAs(app.page.getByTestId("topup-ask"), "primary")).toBe(true);
    await app.page.getByTestId("topup-ask").click();
    await shows(app.page, /Transfer exactly Rp 150,[0-9]{3} \(Rp 150,000 \+ code [0-9]+\)/);
    const text = await screenText(app.page);
    const id = /request (DR[0-9A-Z]{19})/.exec(text)![1]!;
    const exact = Number(/Transfer exactly Rp ([0-9,]+)/.exec(text)![1]!.replace(/,/g, ""));
    await app.page
      .getByTestId(`my-request-${id}`)
      .evaluate((el) => (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: "center" }));
    await app.shot("reseller-top-up");
    await app.close();

    // The request is in the chat too; the proof goes there, as a reply to it: a bank app's receipt.
    const inChat = await world.waitText(RESELLER, new RegExp(`Deposit request</b> <code>${id}</code>`));
    expect(inChat.text).toContain("Transfer ke BCA 1234567890");
    const bytes = await receiptImage(exact);
    world.fake.sendPhoto(RESELLER, undefined, { replyTo: inChat, fileId: "proof-a", fileUniqueId: "proof-a", bytes });
    await world.waitText(RESELLER, new RegExp(`Proof received for <code>${id}</code>`));
    const notice = await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendPhoto" && m.text.includes(id));
    expect(notice.text).toContain(`Transfer: <b>Rp ${exact.toLocaleString("en-US")}</b>`);
    await chatShot("chat-deposit-request", notice, bytes);

    app = await open({ user: ADMIN, tab: "pending" });
    const card = app.page.getByTestId(`request-${id}`);
    await card.waitFor();
    await expect.poll(async () => card.innerText()).toMatch(/Budi \(5005\) · saldo Rp/);
    // The proof is the image the reseller sent, fetched by the bot from Telegram.
    const proof = app.page.getByTestId(`proof-${id}`);
    await proof.waitFor();
    await expect
      .poll(() => proof.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(RECEIPT_WIDTH);
    expect(await proof.getAttribute("src")).toMatch(/^blob:/);
    await app.shot("admin-deposit-request");
    // Approve is the card's filled button; Other amount and Reject are outlined beside it.
    expect(await drawnAs(app.page.getByTestId(`approve-${id}`), "primary")).toBe(true);
    expect(await drawnAs(app.page.getByTestId(`reject-${id}`), "primary")).toBe(false);
    await app.page.getByTestId(`approve-${id}`).click();
    await shows(app.page, new RegExp(`${id} approved: Rp ${exact.toLocaleString("en-US")} credited`));

    // Today counts it: approved / asked.
    await app.page.getByTestId("tab-today").click();
    await expect.poll(async () => app!.page.getByTestId("today-requests").innerText()).toMatch(/1 \/ 1/);

    // The chat's button afterwards: already decided, nothing more credited.

    world.fake.tapButton(ADMIN, notice, `ra:${id}`);
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => /Already decided: approved/.test(a.text ?? "")),
    );
    const credited = new RegExp(`Deposit credited</b>: Rp ${exact.toLocaleString("en-US")}`);
    await world.waitText(RESELLER, credited);
    await world.fake.waitForIdle();
    expect(world.fake.messagesTo(RESELLER.id).filter((m) => credited.test(m.text))).toHaveLength(1);
  });

  it("when a reseller sends the proof from the page, then the admins get it in the chat and on the page", async () => {
    app = await open({ user: RESELLER_ID, tab: "wallet" });
    await app.page.getByTestId("topup-amount").fill("80000");
    await app.page.getByTestId("topup-ask").click();
    await shows(app.page, /Transfer tepat Rp 80\.[0-9]{3}/);
    const id = /permintaan (DR[0-9A-Z]{19})/.exec(await screenText(app.page))![1]!;
    const exact = Number(/Transfer tepat Rp ([0-9.]+)/.exec(await screenText(app.page))![1]!.replace(/\./g, ""));
    // Not an image: refused with what a proof may be.
    await app.page.getByTestId(`proof-file-${id}`).setInputFiles({
      name: "bukti.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("not a picture"),
    });
    await shows(app.page, /Kirim bukti sebagai gambar/);
    await app.page.getByTestId(`proof-file-${id}`).setInputFiles({
      name: "bukti.png",
      mimeType: "image/png",
      buffer: await receiptImage(exact),
    });
    await shows(app.page, new RegExp(`Bukti untuk ${id} diterima`));
    const notice = await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendPhoto" && m.text.includes(id));
    expect(notice.text).toContain("Dewi");
    await app.close();

    // The admins' page shows the very picture the reseller chose.
    app = await open({ user: ADMIN, tab: "pending" });
    const proof = app.page.getByTestId(`proof-${id}`);
    await proof.waitFor();
    await expect
      .poll(() => proof.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(RECEIPT_WIDTH);
  });

  it("when a proof is asked for without the init data, or by a reseller, then nothing is served", async () => {
    const id = await requestWithProof(RESELLER_ID, "60rb", "proof-b");
    const url = `${scene.base}/app/api/admin/deposit-requests/${id}/proof`;
    const anonymous = await request(url);
    expect(anonymous.statusCode).toBe(401);
    await anonymous.body.dump();
    const asReseller = await request(url, {
      headers: { authorization: `tma ${signInitData(RESELLER_ID, world.fake.token)}` },
    });
    expect(asReseller.statusCode).toBe(403);
    await asReseller.body.dump();
    const asAdmin = await request(url, {
      headers: { authorization: `tma ${signInitData(ADMIN, world.fake.token)}` },
    });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.headers["content-type"]).toBe("image/png");
    expect(asAdmin.headers["x-content-type-options"]).toBe("nosniff");
    expect(Buffer.from(await asAdmin.body.arrayBuffer()).equals(ONE_PIXEL_PNG)).toBe(true);
    // The bot token never reaches the page.
    expect(JSON.stringify(asAdmin.headers)).not.toContain(world.fake.token);

    // Rejected from the page with a reason: the reseller reads it in the chat.
    app = await open({ user: ADMIN, tab: "pending" });
    await app.page.getByTestId(`reject-${id}`).click();
    await app.page.getByTestId("request-value").fill("transfer tidak ditemukan");
    expect(await drawnAs(app.page.getByTestId("request-send"), "primary destructive")).toBe(true);
    await app.page.getByTestId("request-send").click();
    await shows(app.page, new RegExp(`${id} rejected`));
    await world.waitText(RESELLER_ID, /ditolak: transfer tidak ditemukan/);
  });
  it("when an admin credits a request by hand in the chat, then the reseller's page says credited by hand and the admin's page has it no more", async () => {
    // Payment instructions (the page's first test writes them too; this one may run alone).
    world.fake.sendText(ADMIN, "/payinfo Transfer ke BCA 1234567890 a.n. Toko Berkah");
    await world.waitText(ADMIN, /instructions set/);
    world.fake.sendText(RESELLER_ID, "/deposit 70rb");
    const asked = await world.waitText(RESELLER_ID, /Permintaan deposit<\/b> <code>DR/);
    const id = /<code>(DR[0-9A-Z]{19})<\/code>/.exec(asked.text)![1]!;
    const exact = Number(/<b>Rp ([0-9.]+)<\/b>/.exec(asked.text)![1]!.replace(/\./g, ""));
    world.fake.sendText(ADMIN, `/deposit ${RESELLER_ID.id} ${exact} ${id}`);
    const summary = await world.waitText(ADMIN, new RegExp(`credits deposit request <code>${id}</code> by hand`));
    world.fake.tapButton(ADMIN, summary, summary.reply_markup!.inline_keyboard[0]![0]!.callback_data);
    await world.waitText(RESELLER_ID, new RegExp(`Rp ${exact.toLocaleString("id-ID")}`));

    app = await open({ user: RESELLER_ID, tab: "wallet" });
    const mine = app.page.getByTestId(`my-request-${id}`);
    await mine.waitFor();
    await expect.poll(async () => mine.innerText()).toMatch(/dikredit manual/);
    await app.close();
    app = await open({ user: ADMIN, tab: "pending" });
    await shows(app.page, /Deposit requests/i);
    expect(await app.page.getByTestId(`request-${id}`).count()).toBe(0);
  });
  it("when a request shown on the Pending page is approved in the chat meanwhile, then pressing Approve on the page credits nothing more and says who approved it and for how much", async () => {
    world.fake.sendText(ADMIN, "/payinfo Transfer ke BCA 1234567890 a.n. Toko Berkah");
    await world.waitText(ADMIN, /instructions set/);
    world.fake.sendText(RESELLER, "/deposit 60rb");
    const asked = await world.waitText(RESELLER, /Deposit request<\/b> <code>DR[\s\S]*Rp 60,000/);
    const id = /<code>(DR[0-9A-Z]{19})<\/code>/.exec(asked.text)![1]!;
    world.fake.sendPhoto(RESELLER, undefined, {
      replyTo: asked,
      fileId: "proof-meanwhile",
      fileUniqueId: "proof-meanwhile",
      bytes: ONE_PIXEL_PNG,
    });
    const notice = await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendPhoto" && m.text.includes(id));
    const approve = button(notice, /^ra:/);

    app = await open({ user: ADMIN, tab: "pending" });
    await app.page.getByTestId(`approve-${id}`).waitFor();
    // Approved in the chat while the page still shows the request.
    world.fake.tapButton(ADMIN, notice, approve);
    const amount = `Rp ${/<b>Rp ([0-9,]+)<\/b>/.exec(asked.text)![1]!}`;
    await world.waitText(RESELLER, new RegExp(`Deposit credited</b>: ${amount}`));
    await app.page.getByTestId(`approve-${id}`).click();
    await shows(app.page, new RegExp(`${id} was already approved by .+: ${amount} credited`));
    await world.fake.waitForIdle();
    expect(
      world.fake.messagesTo(RESELLER.id).filter((m) => m.text.includes("Deposit credited") && m.text.includes(amount)),
    ).toHaveLength(1);
  });
});
