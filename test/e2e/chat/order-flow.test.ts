import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../fake-bot-api.js";
import { ADMIN, button, STAFF, staffWorld, type World } from "../world.js";

const STRANGER: FakeUser = { id: 3003, first_name: "Stranger", language_code: "en" };

describe("the order, through the bot: the app in process, fake Bot API over HTTP, sandbox provider, real Redis", () => {
  let world: World;
  beforeEach(async () => (world = await staffWorld()));
  afterEach(() => world.cleanup());

  it("when an admin orders with the buttons, then the result names the player, the sn, the balance, trx_id and ref_id, from one provider call", async () => {
    await world.run();
    world.fake.sendText(ADMIN, "/order");
    const menu = await world.waitText(ADMIN, /Choose a game/);
    world.fake.tapButton(ADMIN, menu, button(menu, /Mobile Legends/));
    const products = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === menu.message_id && /86 Diamonds/.test(JSON.stringify(m.reply_markup)),
    );
    expect(JSON.stringify(products.reply_markup)).toContain("ML86 · 86 Diamonds");
    world.fake.tapButton(ADMIN, products, button(products, /^ML86/));
    await world.waitText(ADMIN, /Send the player id, for example <code>12345678\(1234\)<\/code>/);
    world.fake.sendText(ADMIN, "12345678(1234)");
    const summary = await world.waitText(ADMIN, /Please check your order/);
    expect(summary.text).toContain("ML86");
    expect(summary.text).toContain("Rp 20,000");
    const refId = /Order ref: <code>([A-Z0-9]+)<\/code>/.exec(summary.text)![1]!;
    expect(button(summary, /Confirm/)).toBe(`c:${refId}`);

    world.fake.tapButton(ADMIN, summary, button(summary, /Confirm/));
    const result = await world.waitText(ADMIN, /Top-up successful/);
    expect(world.sandbox.calls).toHaveLength(1);
    const call = world.sandbox.calls[0]!;
    expect(call).toMatchObject({ refId, itemCode: "ML86", destination: "12345678(1234)" });
    expect(result.text).toMatch(/SN: <code>\d+<\/code>/);
    expect(result.text).toMatch(/Player: <b>[^<]+<\/b> \(<code>12345678\(1234\)<\/code>\)/);
    expect(result.text).toContain(`Balance left: Rp ${new Intl.NumberFormat("en-US").format(world.sandbox.balance())}`);
    expect(result.text).toMatch(/Trx id: <code>[A-Za-z]+-\d{6}-\d+<\/code>/);
    expect(result.text).toContain(`Ref id: <code>${refId}</code>`);
    expect(result.text).toContain("<b>ML86</b> · 86 Diamonds");
    // The callback was answered (with "processing") and the summary lost its buttons.
    expect(world.fake.callbackAnswers.some((a) => /Processing/.test(a.text ?? ""))).toBe(true);
    // Scrolled back up, the summary says how the order ended, not that it is still processing.
    const sn = /SN: <code>(\d+)<\/code>/.exec(result.text)![1]!;
    const summaryNow = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === summary.message_id && m.text.includes(`Done: SN <code>${sn}</code>`),
    );
    expect(summaryNow.text).not.toMatch(/Processing/);
    expect(summaryNow.reply_markup?.inline_keyboard ?? []).toEqual([]);
    expect(summaryNow.text).toContain(`Order ref: <code>${refId}</code>`);
  });

  it("when a staff member with an Indonesian Telegram orders in one line, then it is in Bahasa Indonesia with rupiah dots", async () => {
    await world.run();
    const summary = await world.summaryFor(STAFF, "ml172", "87654321(4321)");
    expect(summary.text).toContain("Periksa pesanan Anda");
    expect(summary.text).toContain("Rp 39.000");
    expect(summary.text).toContain("ML172");
    world.fake.tapButton(STAFF, summary, button(summary, /^c:/));
    const result = await world.waitText(STAFF, /Top-up berhasil/);
    expect(result.text).toContain(`Sisa saldo: Rp ${new Intl.NumberFormat("id-ID").format(world.sandbox.balance())}`);
    expect(world.sandbox.calls).toHaveLength(1);
  });

  it("when the product code is typed instead of tapped, then the order goes on with that product", async () => {
    await world.run();
    world.fake.sendText(ADMIN, "/order");
    await world.waitText(ADMIN, /Choose a game/);
    world.fake.sendText(ADMIN, "nope1");
    await world.waitText(ADMIN, /There is no product with the code <b>nope1<\/b>/);
    world.fake.sendText(ADMIN, "ff70");
    await world.waitText(ADMIN, /Send the player id, for example <code>123456789<\/code>/);
    world.fake.sendText(ADMIN, "123456789");
    const summary = await world.waitText(ADMIN, /Please check your order/);
    expect(summary.text).toContain("FF70");
  });

  it("when the player id is invalid, then the bot explains with the example and accepts a valid one", async () => {
    await world.run();
    world.fake.sendText(ADMIN, "/order ML86 123");
    await world.waitText(
      ADMIN,
      /<code>123<\/code> is not a valid player id for Mobile Legends\. It should look like <code>12345678\(1234\)<\/code>/,
    );
    world.fake.sendSticker(ADMIN);
    await world.waitText(ADMIN, /send the player id as text/);
    world.fake.sendText(ADMIN, "12345678(1234)");
    const summary = await world.waitText(ADMIN, /Please check your order/);
    expect(summary.text).toContain("<code>12345678(1234)</code>");
    expect(world.sandbox.calls).toHaveLength(0);
  });

  it("when Confirm is tapped twice in one batch, then the provider gets one call and the user one result", async () => {
    const bot = await world.run();
    const summary = await world.summaryFor(ADMIN, "ML86", "12345678(1234)");
    const data = button(summary, /Confirm/);
    world.fake.batch(() => {
      world.fake.tapButton(ADMIN, summary, data);
      world.fake.tapButton(ADMIN, summary, data);
    });
    await world.waitText(ADMIN, /Top-up successful/);
    await world.fake.waitForIdle();
    expect(world.sandbox.calls).toHaveLength(1);
    expect(world.fake.messagesTo(ADMIN.id).filter((m) => /Top-up successful/.test(m.text))).toHaveLength(1);
    expect(world.fake.callbackAnswers).toHaveLength(2);
    expect(bot.output()).not.toMatch(/update failed/);
  });

  it("when an old Confirm is tapped after the order, then nothing is ordered and the user is told the recorded outcome", async () => {
    await world.run();
    const summary = await world.summaryFor(ADMIN, "ML86", "12345678(1234)");
    world.fake.tapButton(ADMIN, summary, button(summary, /Confirm/));
    const result = await world.waitText(ADMIN, /Top-up successful/);
    const sn = /SN: <code>(\d+)<\/code>/.exec(result.text)![1]!;
    world.fake.tapButton(ADMIN, summary.message_id, `c:${/Order ref: <code>([A-Z0-9]+)/.exec(summary.text)![1]}`);
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => (a.text ?? "").includes(`Already ordered: success, SN ${sn}`)),
    );
    expect(world.sandbox.calls).toHaveLength(1);
  });

  it("when the user sends /cancel, then the order is left and nothing is ordered, even from its old buttons", async () => {
    await world.run();
    world.fake.sendText(ADMIN, "/order ML86");
    await world.waitText(ADMIN, /Send the player id/);
    world.fake.sendText(ADMIN, "/cancel");
    await world.waitText(ADMIN, /Cancelled\. Nothing was ordered\./);
    world.fake.sendText(ADMIN, "12345678(1234)");
    await world.waitText(ADMIN, /Send \/order to order a top-up/);

    const summary = await world.summaryFor(ADMIN, "ML86", "12345678(1234)");
    world.fake.sendText(ADMIN, "/cancel");
    await world.fake.waitFor(
      () =>
        world.fake.messagesTo(ADMIN.id).filter((m) => /Cancelled\. Nothing was ordered\./.test(m.text)).length === 2,
    );
    world.fake.tapButton(ADMIN, summary, button(summary, /Confirm/));
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /cancelled/.test(a.text ?? "")));
    expect(world.sandbox.calls).toHaveLength(0);
  });

  it("when someone outside the lists writes, then they get their user id and nothing reaches the provider", async () => {
    await world.run();
    const adminSummary = await world.summaryFor(ADMIN, "ML86", "12345678(1234)");
    world.fake.sendText(STRANGER, "/order ML86 12345678(1234)");
    await world.waitText(STRANGER, /may not order.*<code>3003<\/code>/s);
    world.fake.sendText(STRANGER, "/start");
    await world.fake.waitFor(() => world.fake.messagesTo(STRANGER.id).length === 2);
    expect(world.fake.messagesTo(STRANGER.id)[1]!.text).toContain("3003");
    world.fake.tapButton(STRANGER, adminSummary, button(adminSummary, /Confirm/));
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /3003/.test(a.text ?? "")));
    world.fake.enqueueRaw({
      callback_query: { id: "forged-1", from: STRANGER, chat_instance: "x", data: "c:TG0000000000000000000" },
    });
    await world.fake.waitFor(() => world.fake.callbackAnswers.filter((a) => /3003/.test(a.text ?? "")).length === 2);
    expect(world.sandbox.calls).toHaveLength(0);
  });

  it("when an allowed user taps a forged or foreign button, then nothing is ordered and the tap is answered", async () => {
    await world.run();
    const adminSummary = await world.summaryFor(ADMIN, "ML86", "12345678(1234)");
    world.fake.tapButton(STAFF, adminSummary, button(adminSummary, /Confirm/));
    world.fake.tapButton(STAFF, adminSummary, "c:TG0000000000000000000");
    world.fake.tapButton(STAFF, adminSummary, "c:../../etc");
    await world.fake.waitFor(() => world.fake.callbackAnswers.length === 3);
    expect(world.sandbox.calls).toHaveLength(0);
  });

  it("when the provider refuses the order, then the user reads its error code and message", async () => {
    const refusing = await listenJson({
      status: 0,
      error_code: "balance/insufficient",
      error_msg: "Saldo tidak cukup",
    });
    try {
      await world.run({ TOPUP_BASE_URL: refusing.url });
      const summary = await world.summaryFor(ADMIN, "ML86", "12345678(1234)");
      world.fake.tapButton(ADMIN, summary, button(summary, /Confirm/));
      const failed = await world.waitText(ADMIN, /Order failed/);
      expect(failed.text).toContain("<code>balance/insufficient</code>");
      expect(failed.text).toContain("Saldo tidak cukup");
      await world.fake.waitForMessage(
        ADMIN.id,
        (m) => m.message_id === summary.message_id && /Failed: the result is below/.test(m.text),
      );
    } finally {
      await refusing.close();
    }
  });
});

/** A provider double that answers every request with one JSON body. */
async function listenJson(body: unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
