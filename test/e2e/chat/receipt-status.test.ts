import { PNG } from "pngjs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatTime } from "../../../src/bot/format.js";
import { parseConfig } from "../../../src/config.js";
import type { OrderRecord } from "../../../src/orders/order.js";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";
import { addBackup, routedCatalog } from "../backup.js";
import { button, createWorld, type RunningBot, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const STAFF: FakeUser = { id: 1002, first_name: "Sari", language_code: "id" };
const OTHER: FakeUser = { id: 1003, first_name: "Joko", language_code: "en" };
const RESELLER: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };
const STRANGER: FakeUser = { id: 3003, first_name: "Stranger", language_code: "en" };

/** Every button of a message, flat. */
const buttonsOf = (m: SentMessage): Array<{ text: string; callback_data?: string; copy_text?: { text: string } }> =>
  (m.reply_markup?.inline_keyboard ?? []).flat();

const refOf = (m: SentMessage) => /Ref ID: <code>([A-Z0-9]+)<\/code>/i.exec(m.text)![1]!;

describe("receipts and /status through the bot: the app in process, fake Bot API, sandbox provider, real Redis", () => {
  let world: World;
  const base = {
    ADMIN_IDS: String(ADMIN.id),
    ALLOWED_USER_IDS: `${STAFF.id},${OTHER.id}`,
    RESELLER_IDS: String(RESELLER.id),
  };

  beforeEach(async () => {
    world = await createWorld({ initialBalance: 1_000_000 });
  });
  afterEach(() => world.cleanup());

  const recordOf = async (bot: RunningBot, refId: string): Promise<OrderRecord> => (await bot.app!.ledger.get(refId))!;

  /** Sends a text and resolves with the first later bot message in that chat that matches. */
  async function ask(user: FakeUser, text: string, pattern: RegExp, chatId = user.id): Promise<SentMessage> {
    const before = world.fake.messagesTo(chatId).length;
    world.fake.sendText(user, text, chatId === user.id ? undefined : chatId);
    return world.fake.waitForMessage(
      chatId,
      (m) => pattern.test(m.text) && world.fake.messagesTo(chatId).indexOf(m) >= before,
    );
  }

  /** Taps Receipt on a message and resolves with the receipt that follows in that chat. */
  async function tapReceipt(user: FakeUser, message: SentMessage, pattern: RegExp): Promise<SentMessage> {
    const chatId = message.chat_id;
    const before = world.fake.messagesTo(chatId).length;
    world.fake.tapButton(user, message, button(message, /^rc:/));
    return world.fake.waitForMessage(
      chatId,
      (m) => pattern.test(m.text) && world.fake.messagesTo(chatId).indexOf(m) >= before,
    );
  }

  it("when an order succeeds, then the result has Receipt and Copy SN, and Receipt sends a text to forward: shop, time in TZ, product, player, SN, ref id; no balance, price or trx id", async () => {
    const bot = await world.run({ ...base, SHOP_NAME: "Toko Maju <Jaya>", TZ: "Asia/Makassar" });
    // A staff member: an admin who orders also gets the sale notice, with the same ref id.
    const result = await world.order(OTHER, "ML86", "12345678(1234)");
    expect(result.text).toContain("Top-up successful");
    const refId = refOf(result);
    const order = await recordOf(bot, refId);
    const sn = order.result!.sn!;
    // The result keeps its text and gets the two buttons.
    expect(result.text).toContain(`SN: <code>${sn}</code>`);
    expect(button(result, /^rc:/)).toBe(`rc:${refId}`);
    expect(buttonsOf(result).find((b) => b.callback_data === `rc:${refId}`)?.text).toBe("🧾 Receipt");
    expect(buttonsOf(result).find((b) => b.copy_text?.text === sn)?.text).toBe("📋 Copy SN");

    const receipt = await tapReceipt(OTHER, result, /Top-up receipt/);
    // One photo: a PNG sized for a phone, the text receipt as its caption.
    expect(receipt.method).toBe("sendPhoto");
    expect(receipt.document?.filename).toBe(`receipt-${refId}.png`);
    const png = PNG.sync.read(receipt.document!.bytes!);
    expect(png.width).toBe(960);
    expect(png.height).toBeGreaterThan(900);
    const time = `${formatTime(order.finishedAt!, "en", "Asia/Makassar")} GMT+8`;
    expect(receipt.text).toBe(
      [
        "🧾 <b>Toko Maju &lt;Jaya&gt;</b>",
        "<b>Top-up receipt</b>",
        "",
        `Date: ${time}`,
        "Status: ✅ Successful",
        "Game: Mobile Legends",
        "Product: <b>ML86</b> · 86 Diamonds",
        "Player ID: <code>12345678(1234)</code>",
        `Player name: <b>${order.result!.destinationName!}</b>`,
        `SN: <code>${sn}</code>`,
        `Ref ID: <code>${refId}</code>`,
        "",
        "Thank you for your purchase!",
      ].join("\n"),
    );
    expect(receipt.text).not.toMatch(/Balance|Saldo|\bsaldo\b|Rp |Trx/);
    expect(receipt.text).not.toContain(order.result!.trxId!);
    expect(buttonsOf(receipt)).toEqual([{ text: "📋 Copy SN", copy_text: { text: sn } }]);
    expect(world.fake.callbackAnswers.some((a) => /Receipt sent below/.test(a.text ?? ""))).toBe(true);

    // A second tap is a second copy, and the query is answered again.
    await tapReceipt(OTHER, result, /Top-up receipt/);
    expect(world.fake.messagesTo(OTHER.id).filter((m) => /Top-up receipt/.test(m.text))).toHaveLength(2);
    expect(world.fake.callbackAnswers.filter((a) => /Receipt sent below/.test(a.text ?? ""))).toHaveLength(2);
  });

  it("when an Indonesian user taps Receipt, then it is in Bahasa Indonesia with the bot's name and WIB; an admin who taps it gets it in English", async () => {
    const bot = await world.run(base);
    const result = await world.order(STAFF, "ML86", "12345678(1234)");
    expect(result.text).toContain("Top-up berhasil");
    const refId = refOf(result);
    const order = await recordOf(bot, refId);
    const sn = order.result!.sn!;
    expect(buttonsOf(result).map((b) => b.text)).toEqual(["🧾 Struk", "📋 Salin SN"]);
    expect(buttonsOf(result).find((b) => b.copy_text?.text === sn)).toBeDefined();

    const receipt = await tapReceipt(STAFF, result, /Bukti top-up/);
    // No SHOP_NAME: the bot's first_name from getMe.
    expect(receipt.text).toContain(`🧾 <b>${world.fake.botUser.first_name}</b>`);
    expect(receipt.text).toContain(`Tanggal: ${formatTime(order.finishedAt!, "id", "Asia/Jakarta")} WIB`);
    expect(receipt.text).toContain("Status: ✅ Berhasil");
    expect(receipt.text).toContain("Produk: <b>ML86</b> · 86 Diamonds");
    expect(receipt.text).toContain("ID pemain: <code>12345678(1234)</code>");
    expect(receipt.text).toContain(`Nama pemain: <b>${order.result!.destinationName!}</b>`);
    expect(receipt.text).toContain(`SN: <code>${sn}</code>`);
    expect(receipt.text).toContain(`Ref ID: <code>${refId}</code>`);
    expect(receipt.text).toContain("Terima kasih atas pembelian Anda!");
    expect(receipt.text).not.toMatch(/Saldo|\bsaldo\b|Balance|Rp |transaksi/);
    expect(buttonsOf(receipt)).toEqual([{ text: "📋 Salin SN", copy_text: { text: sn } }]);

    // The admin may get the receipt of anyone's order, in the admin's own language.
    const forAdmin = await tapReceipt(ADMIN, result, /Top-up receipt/);
    expect(forAdmin.text).toContain(`SN: <code>${sn}</code>`);
  });

  it("when another staff member or a stranger taps someone's Receipt, then they get an alert and nothing else", async () => {
    await world.run(base);
    const result = await world.order(STAFF, "ML86", "12345678(1234)");
    const refId = refOf(result);
    const before = world.fake.messagesTo(STAFF.id).length;

    world.fake.tapButton(OTHER, result, `rc:${refId}`);
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => a.show_alert === true && /someone else's order/.test(a.text ?? "")),
    );
    world.fake.tapButton(STRANGER, result, `rc:${refId}`);
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => a.show_alert === true && /may not order/.test(a.text ?? "")),
    );
    // A forged tap in their own chat: the same alert, as for a ref id that does not exist.
    world.fake.tapButton(OTHER, 1, `rc:${refId}`);
    world.fake.tapButton(OTHER, 1, "rc:TGNOSUCHORDER00000000");
    await world.fake.waitFor(
      () => world.fake.callbackAnswers.filter((a) => /someone else's order/.test(a.text ?? "")).length === 3,
    );
    // Updates of one chat run in order: once these answers are in, the taps were handled.
    await ask(STAFF, "/status", /\/status REF_ID/);
    await ask(OTHER, "/status", /\/status REF_ID/);
    expect(
      world.fake
        .messagesTo(STAFF.id)
        .slice(before)
        .map((m) => m.text),
    ).toEqual([expect.stringMatching(/\/status REF_ID/)]);
    expect(world.fake.messagesTo(OTHER.id).map((m) => m.text)).toEqual([expect.stringMatching(/\/status REF_ID/)]);
    expect(world.fake.messagesTo(STRANGER.id)).toEqual([]);
    expect(world.fake.allOutgoingText()).not.toMatch(/Top-up receipt|Bukti top-up/);
  });

  it("when a reseller taps Receipt, then the receipt has no saldo and no price", async () => {
    const bot = await world.run(base);
    world.fake.sendText(ADMIN, `/deposit ${RESELLER.id} 50000`);
    const summary = await world.waitText(ADMIN, new RegExp(`for reseller <code>${RESELLER.id}</code>`));
    world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    await world.waitText(RESELLER, /Deposit credited/);

    const result = await world.order(RESELLER, "ML86", "12345678(1234)");
    expect(result.text).toContain("Saldo left: Rp 30,200");
    const refId = refOf(result);
    const sn = (await recordOf(bot, refId)).result!.sn!;
    const receipt = await tapReceipt(RESELLER, result, /Top-up receipt/);
    expect(receipt.text).toContain(`SN: <code>${sn}</code>`);
    expect(receipt.text).toContain(`Ref ID: <code>${refId}</code>`);
    expect(receipt.text).not.toMatch(/Saldo|\bsaldo\b|Balance|Rp |19,800|30,200|[Pp]rice/);
  });

  it("when an admin settles an unknown order as success, then the user's message has Receipt and Copy SN", async () => {
    await world.run({ ...base, TOPUP_BASE_URL: await world.flakyProvider() });
    const unknown = await world.order(STAFF, "FF70", "777000111");
    expect(unknown.text).toContain("Hasil belum diketahui");
    expect(buttonsOf(unknown)).toEqual([]);
    const refId = refOf(unknown);
    // A receipt of an order that did not succeed: an alert, nothing sent.
    world.fake.tapButton(STAFF, unknown, `rc:${refId}`);
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => a.show_alert === true && /tidak berhasil/.test(a.text ?? "")),
    );

    world.fake.sendText(ADMIN, `/settle ${refId} success 99887766554433`);
    await world.waitText(ADMIN, new RegExp(`Order <code>${refId}</code> is settled as ✅ success`));
    const told = await world.waitText(STAFF, /Admin sudah memeriksa pesanan ini/);
    expect(button(told, /^rc:/)).toBe(`rc:${refId}`);
    expect(buttonsOf(told).find((b) => b.copy_text?.text === "99887766554433")).toBeDefined();
    const receipt = await tapReceipt(STAFF, told, /Bukti top-up/);
    expect(receipt.text).toContain("SN: <code>99887766554433</code>");
    expect(receipt.text).toContain("ID pemain: <code>777000111</code>");
    expect(receipt.text).not.toMatch(/Nama pemain/);
  });

  it("when /status is sent, then the owner and admins see the order, anyone else the answer of an unknown ref id", async () => {
    await world.run(base);
    const result = await world.order(STAFF, "ML86", "12345678(1234)");
    const refId = refOf(result);
    const sn = /SN: <code>(\d+)<\/code>/.exec(result.text)![1]!;

    await ask(STAFF, "/status", /Kirim <code>\/status REF_ID<\/code>/);

    // The owner, with the ref id in lower case.
    const mine = await ask(STAFF, `/status ${refId.toLowerCase()}`, /Status pesanan/);
    expect(mine.text).toContain("Status: ✅ berhasil");
    expect(mine.text).toContain("Produk: <b>ML86</b> · 86 Diamonds");
    expect(mine.text).toMatch(/Pemain: <b>[^<]+<\/b> \(<code>12345678\(1234\)<\/code>\)/);
    expect(mine.text).toContain(`SN: <code>${sn}</code>`);
    expect(mine.text).toContain(`Ref ID: <code>${refId}</code>`);
    expect(mine.text).toMatch(/Dibuat: .+\nDikirim ke provider: .+\nSelesai: .+/);
    expect(mine.text).not.toMatch(/Dipesan oleh|Saldo|Rp /);
    expect(button(mine, /^rc:/)).toBe(`rc:${refId}`);
    expect(buttonsOf(mine).find((b) => b.copy_text?.text === sn)).toBeDefined();

    // An admin also sees who ordered.
    const admin = await ask(ADMIN, `/status ${refId}`, /Order status/);
    expect(admin.text).toContain("State: ✅ success");
    expect(admin.text).toContain(`SN: <code>${sn}</code>`);
    expect(admin.text).toContain(`Ordered by: Sari (<code>${STAFF.id}</code>)`);
    // A one-provider shop's order names no provider, to anyone.
    expect(admin.text).not.toMatch(/Provider|Refused|main/);

    // Another staff member learns nothing: word for word the answer for a ref id that does not exist.
    const other = await ask(OTHER, `/status ${refId}`, /No order with that ref id/);
    const missing = `TG${"Z".repeat(refId.length - 2)}`;
    const unknown = await ask(OTHER, `/status ${missing}`, /No order with that ref id/);
    expect(other.text).toBe(`No order with that ref id of yours: <code>${refId}</code>`);
    expect(unknown.text).toBe(other.text.replace(refId, missing));
    expect(other.reply_markup).toEqual(unknown.reply_markup);
  });

  it("when main refused an order and the backup sold it, then /status and the admins' notice name each provider with the ref id it knows the order by, and its buyer sees no provider", async () => {
    await addBackup(world);
    await world.run({ ...base, CATALOG_FILE: await routedCatalog() });
    const result = await world.order(STAFF, "ML86", "12345678(1234)");
    expect(result.text).toMatch(/berhasil/);
    const refId = refOf(result);

    // The admins' notice of the sale: the provider that sold it and the one that refused it first.
    const notice = await world.fake.waitForMessage(ADMIN.id, (m) => m.text.includes(`Sale</b> by Sari`));
    expect(notice.text).toContain(`Provider: <b>backup</b> · ref <code>${refId}R2</code>`);
    expect(notice.text).toContain(`Refused by main · ref <code>${refId}</code>: product/not-found`);

    const admin = await ask(ADMIN, `/status ${refId}`, /Order status/);
    expect(admin.text).toContain(`Ref id: <code>${refId}</code>`);
    expect(admin.text).toContain(
      `Provider: <b>backup</b> · ref <code>${refId}R2</code>\nRefused by main · ref <code>${refId}</code>: product/not-found`,
    );

    // The buyer reads their order as ever: one ref id, no provider.
    const mine = await ask(STAFF, `/status ${refId}`, /Status pesanan/);
    expect(mine.text).toContain(`Ref ID: <code>${refId}</code>`);
    // (The attempt's ref id is the order's with R2 after it; a random ref id may hold "R2" itself.)
    expect(mine.text).not.toMatch(/Provider|Ditolak|backup/);
    expect(mine.text).not.toContain(`${refId}R2`);

    // Sold by main at once: the notice says nothing of providers, /status names main for admins.
    const plain = await world.order(STAFF, "ML172", "12345678(1234)");
    const plainRef = refOf(plain);
    const plainNotice = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.text.includes(`Sale</b> by Sari`) && m.text.includes(plainRef),
    );
    expect(plainNotice.text).not.toMatch(/Provider|Refused/);
    const plainStatus = await ask(ADMIN, `/status ${plainRef}`, new RegExp(`Order status[\\s\\S]*${plainRef}`));
    expect(plainStatus.text).toContain(`Provider: <b>main</b> · ref <code>${plainRef}</code>`);
    expect(plainStatus.text).not.toMatch(/Refused/);
  });

  it("when /status names a draft or a cancelled order, then it says that nothing was ordered", async () => {
    await world.run(base);
    const summary = await world.summaryFor(ADMIN, "ML86", "12345678(1234)");
    const refId = /Order ref: <code>([A-Z0-9]+)<\/code>/.exec(summary.text)![1]!;
    const draft = await ask(ADMIN, `/status ${refId}`, /Order status/);
    expect(draft.text).toContain("State: 📝 not confirmed\nNothing was ordered.");
    expect(draft.text).not.toMatch(/SN:|Finished/);
    expect(buttonsOf(draft)).toEqual([]);
    // No receipt for a draft.
    world.fake.tapButton(ADMIN, summary, `rc:${refId}`);
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => a.show_alert === true && /did not succeed/.test(a.text ?? "")),
    );

    world.fake.tapButton(ADMIN, summary, button(summary, /Cancel/));
    await world.fake.waitForMessage(ADMIN.id, (m) => m.message_id === summary.message_id && /Cancelled/.test(m.text));
    const cancelled = await ask(ADMIN, `/status ${refId}`, /Order status/);
    expect(cancelled.text).toContain("State: ✖ cancelled\nNothing was ordered.");
    expect(world.sandbox.calls).toHaveLength(0);
  });
});

describe("SHOP_NAME", () => {
  const shopName = (value: string | undefined) => {
    const parsed = parseConfig({ BOT_TOKEN: "123:abc", ...(value === undefined ? {} : { SHOP_NAME: value }) });
    return parsed.ok ? parsed.config.shopName : parsed.errors;
  };

  it("when SHOP_NAME is set, then it is the name on receipts; unset or empty means the bot's name; over 64 characters is refused", () => {
    expect(shopName(" Toko Maju Jaya ")).toBe("Toko Maju Jaya");
    expect(shopName(undefined)).toBeUndefined();
    expect(shopName("  ")).toBeUndefined();
    expect(shopName("x".repeat(64))).toBe("x".repeat(64));
    expect(shopName("x".repeat(65))).toEqual(["SHOP_NAME must be at most 64 characters"]);
  });
});
