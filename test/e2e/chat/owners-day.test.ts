import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";
import { ADMIN, button, createWorld, MITRA, SECRET, STAFF, type World } from "../world.js";
import { freePort } from "../../helpers/redis.js";

const RESELLER: FakeUser = { id: 5005, first_name: "Budi", username: "budi_shop", language_code: "id" };
const ADMIN_ID: FakeUser = { id: 1003, first_name: "Wati", language_code: "id" };

/**
 * A shop owner's day, as it surprised owners before: each point of it read end to end in the
 * chat, in English (ADMIN, Sari the staff member reads Indonesian) and Bahasa Indonesia.
 */
describe("an owner's day without surprises: books right to the rupiah, the shop's own words, nothing rewritten", () => {
  let world: World;
  const env = () => ({
    ADMIN_IDS: `${ADMIN.id},${ADMIN_ID.id}`,
    ALLOWED_USER_IDS: String(STAFF.id),
    RESELLER_IDS: String(RESELLER.id),
  });
  beforeEach(async () => (world = await createWorld({ initialBalance: 1_000_000 })));
  afterEach(() => world.cleanup());

  /** Sends a command and resolves with the first new message to that user that matches. */
  async function ask(user: FakeUser, text: string, pattern: RegExp): Promise<SentMessage> {
    const before = world.fake.messagesTo(user.id).length;
    world.fake.sendText(user, text);
    return world.fake.waitForMessage(
      user.id,
      (m) => pattern.test(m.text) && world.fake.messagesTo(user.id).indexOf(m) >= before,
    );
  }
  const refOf = (m: SentMessage) => /<code>((?:TG)[A-Z0-9]+)<\/code>/.exec(m.text)![1]!;

  it("when an unknown order is settled as a success, then its cost is the provider price last seen for the product, and a never-priced one is left out of the margin, saying so", async () => {
    await world.run({ ...env(), TOPUP_BASE_URL: await world.flakyProvider() });
    // A sale first: the provider names its price for ML86 (19,500).
    await world.order(STAFF, "ML86", "12345678(1234)");
    const unknown = await world.order(STAFF, "ML86", "77712345(1234)");
    expect(unknown.text).toContain("Hasil belum diketahui");
    const pending = await ask(ADMIN, "/pending", /77712345/);
    expect(pending.text).toContain("Provider price last seen for it: Rp 19,500");
    // Ref ids typed in any case are found.
    const settled = await ask(ADMIN, `/settle ${refOf(unknown).toLowerCase()} success 556677`, /is settled as/);
    expect(settled.text).toContain("Its cost for the margin: Rp 19,500, the provider price last seen");
    // FF70 was never sold: no price to take. The margin leaves it out, and says so.
    const never = await world.order(STAFF, "FF70", "777000111");
    world.fake.sendText(ADMIN, `/settle ${refOf(never)} success 889900`);
    await world.waitText(ADMIN, /margin is left out of the report/);
    const report = await ask(ADMIN, "/report", /Sales report/);
    // 2 × ML86 at 20,000 less 2 × 19,500; FF70 (10,000) sold at an unknown provider price.
    expect(report.text).toContain("Margin: Rp 1,000");
    expect(report.text).toMatch(/One sale \(Rp 10,000\) has no known provider price/);
    expect(report.text).not.toContain("− Rp 0 =");
    expect(report.text).toContain("FF70 · 70 Diamonds: 1 × · Rp 10,000 sold at an unknown provider price");
    // An admin who knows what the provider charged gives it after the SN.
    const third = await world.order(STAFF, "FF70", "777000222");
    const given = await ask(ADMIN, `/settle ${refOf(third)} success 123123 Rp9.400`, /is settled as/);
    expect(given.text).toContain("Its cost for the margin: Rp 9,400, as you gave it.");
    const again = await ask(ADMIN, "/report", /Sales report/);
    expect(again.text).toContain("Margin: Rp 1,600");
  });

  it("when the shop's deposit with the provider runs out, then admins are told why each order failed, and alerted once until it sells again", async () => {
    await world.run(env());
    world.fake.sendText(ADMIN_ID, "/start");
    await world.waitText(ADMIN_ID, /Halo Wati/);
    world.sandbox.deposit(-world.sandbox.balance());
    await world.order(STAFF, "ML86", "12345678(1234)");
    const notice = await world.waitText(ADMIN, /Failed order<\/b> by Sari/);
    expect(notice.text).toContain("Error code: <code>balance/insufficient</code>");
    expect(notice.text).toContain("insufficient balance");
    const alert = await world.waitText(ADMIN, /deposit with the provider is empty/);
    expect(alert.text).toContain(refOf(notice));
    await world.order(STAFF, "ML86", "12345678(1234)");
    await world.fake.waitFor(
      () => world.fake.messagesTo(ADMIN.id).filter((m) => /Failed order/.test(m.text)).length === 2,
    );
    // Indonesian for the admin who reads it, once per crossing.
    await world.fake.waitForIdle();
    const alerts = (user: FakeUser) =>
      world.fake.messagesTo(user.id).filter((m) => /provider is empty|Deposit toko di provider habis/.test(m.text));
    expect(alerts(ADMIN)).toHaveLength(1);
    expect(alerts(ADMIN_ID).map((m) => m.text)).toEqual([expect.stringContaining("Deposit toko di provider habis")]);
    world.sandbox.deposit(100_000);
    await world.order(STAFF, "ML86", "12345678(1234)");
    world.sandbox.deposit(-world.sandbox.balance());
    await world.order(STAFF, "ML86", "12345678(1234)");
    await world.fake.waitFor(() => alerts(ADMIN).length === 2);
  });

  it("when a price is typed far below cost or a tier is mistyped, then nothing changes without a second look", async () => {
    await world.run(env());
    await world.order(STAFF, "ML86", "12345678(1234)"); // the provider's price for ML86: 19,500
    const warned = await ask(ADMIN, "/price ML86 2150", /Check this price/);
    expect(warned.text).toContain("every sale at this price loses <b>Rp 17,350</b>");
    expect(warned.text).toMatch(/89% away from the price it replaces \(Rp 20,000\)/);
    world.fake.sendText(STAFF, "/pricelist");
    await world.waitText(STAFF, /<code>ML86<\/code> 86 Diamonds: <b>Rp 20\.000<\/b>/);
    world.fake.tapButton(ADMIN, warned, button(warned, /^pk:/));
    await world.fake.waitForMessage(ADMIN.id, (m) => m.message_id === warned.message_id && /Cancelled/.test(m.text));
    // Meant it: Confirm sets it, once.
    const meant = await ask(ADMIN, "/price ML86 19000", /Check this price/);
    world.fake.tapButton(ADMIN, meant, button(meant, /^pc:/));
    world.fake.tapButton(ADMIN, meant, button(meant, /^pc:/));
    await world.fake.waitForMessage(ADMIN.id, (m) => m.message_id === meant.message_id && /confirmed/.test(m.text));
    world.fake.sendText(STAFF, "/pricelist");
    await world.waitText(STAFF, /<code>ML86<\/code> 86 Diamonds: <b>Rp 19\.000<\/b>/);
    // A tier nobody has: refused, with the tiers there are; made only when asked.
    const typo = await ask(ADMIN, "/price ML86 19000 platinum", /There is no tier/);
    expect(typo.text).toContain("The tiers are: gold, reseller");
    world.fake.sendText(ADMIN_ID, "/price ML86 19000 platinum");
    await world.waitText(ADMIN_ID, /Tidak ada tier <b>platinum<\/b>\. Tier yang ada: gold, reseller/);
    await ask(ADMIN, "/price ML86 19600 platinum new", /platinum/);
    const list = await ask(ADMIN, "/pricelist", /Price list/);
    expect(list.text).toContain("platinum");
  });

  it("when a sale is made below its provider price, then the admins' notice and /report mark it as a loss", async () => {
    await world.run(env());
    world.fake.sendText(ADMIN_ID, "/start");
    await world.waitText(ADMIN_ID, /Halo Wati/);
    // A sale at Rp 20,000 first: the provider names its price for ML86 (19,500); no loss there.
    await world.order(STAFF, "ML86", "12345678(1234)");
    const first = await world.waitText(ADMIN, /Sale<\/b> by Sari/);
    expect(first.text).not.toMatch(/Loss/);
    const warned = await ask(ADMIN, "/price ML86 19000", /Check this price/);
    world.fake.tapButton(ADMIN, warned, button(warned, /^pc:/));
    await world.fake.waitForMessage(ADMIN.id, (m) => m.message_id === warned.message_id && /confirmed/.test(m.text));
    const before = world.fake.messagesTo(ADMIN.id).length;
    await world.order(STAFF, "ML86", "12345678(1234)");
    const notice = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => /Sale<\/b> by Sari/.test(m.text) && world.fake.messagesTo(ADMIN.id).indexOf(m) >= before,
    );
    expect(notice.text).toContain(
      "🔻 <b>Loss</b>: sold at Rp 19,000, below the provider price Rp 19,500: <b>Rp 500</b> lost on this sale.",
    );
    const told = await world.waitText(ADMIN_ID, /Rugi<\/b>: terjual Rp 19\.000/);
    expect(told.text).toContain("rugi <b>Rp 500</b>");
    // The day: two sales of ML86, 39,000 against 39,000: no loss in sum. A third at a loss tips it.
    await world.order(STAFF, "ML86", "12345678(1234)");
    await world.fake.waitFor(
      () => world.fake.messagesTo(ADMIN.id).filter((m) => /Loss<\/b>: sold at Rp 19,000/.test(m.text)).length === 2,
    );
    const report = await ask(ADMIN, "/report", /Sales report/);
    expect(report.text).toMatch(/86 Diamonds: 3 × · Rp 58,000 − Rp 58,500 = Rp -500 🔻 <b>loss<\/b>/);
    expect(report.text).toMatch(/Margin: Rp -500 🔻 <b>loss<\/b>/);
  });

  it("when a player id fits another game's rule, then it is refused with the game's example, never rewritten", async () => {
    await world.run(env());
    const refused = await ask(ADMIN, "/order FF70 12345678(1234)", /123456789/);
    expect(refused.text).not.toContain("Please check your order");
    world.fake.sendText(STAFF, "/order FF70 12345678 1234");
    await world.waitText(STAFF, /<code>123456789<\/code>/);
    // Only the form the game's own rule names is written its way.
    const summary = await world.summaryFor(ADMIN, "ML86", "12345678 1234");
    expect(summary.text).toContain("Player id: <code>12345678(1234)</code>");
    await world.fake.waitForIdle();
    expect(world.fake.messagesTo(ADMIN.id).filter((m) => /123456781234/.test(m.text))).toHaveLength(0);
    expect(world.sandbox.calls).toHaveLength(0);
  });

  it("when an order ended minutes ago, then /cancel says there is nothing to cancel, in both languages", async () => {
    await world.run(env());
    await world.order(ADMIN, "ML86", "12345678(1234)");
    await ask(ADMIN, "/cancel", /There is nothing to cancel/);
    await world.order(STAFF, "FF70", "123456789");
    await ask(STAFF, "/cancel", /Tidak ada yang bisa dibatalkan|tidak ada yang/i);
  });

  it("when ref ids are typed in lower case, then /status finds the order", async () => {
    await world.run(env());
    const result = await world.order(ADMIN, "ML86", "12345678(1234)");
    const status = await ask(ADMIN, `/status ${refOf(result).toLowerCase()}`, /Order status|Status/);
    expect(status.text).toContain(refOf(result));
  });

  it("when an admin orders, then they get the result once, and the other admin the sale notice", async () => {
    await world.run(env());
    await world.order(ADMIN, "ML86", "12345678(1234)");
    await world.waitText(ADMIN_ID, /Penjualan|Sale/);
    await world.fake.waitForIdle();
    expect(world.fake.messagesTo(ADMIN.id).filter((m) => /<b>Sale<\/b> by/.test(m.text))).toHaveLength(0);
    expect(world.fake.messagesTo(ADMIN.id).filter((m) => /Top-up successful/.test(m.text))).toHaveLength(1);
  });

  it("when a deposit is credited to a reseller who never opened the bot, then the admin hears so, and the reseller gets it at their /start", async () => {
    await world.run({ ...env(), PORT: String(await freePort()), WEBAPP_URL: "https://shop.example.com" });
    const summary = await ask(ADMIN, "/deposit 5005 50rb", /Deposit<\/b> for reseller/);
    // Telegram refuses a first message to someone who never wrote to the bot.
    world.fake.failNext("sendMessage", {
      error_code: 403,
      description: "Forbidden: bot can't initiate conversation with a user",
    });
    world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    const told = await world.waitText(ADMIN, /could not be told of deposit/);
    expect(told.text).toContain("open the bot and send /start");
    world.fake.sendText(RESELLER, "/start");
    const start = await world.waitText(RESELLER, /Halo Budi/);
    expect(start.text).toContain("/app");
    const credited = await world.waitText(RESELLER, /Deposit masuk/);
    expect(credited.text).toContain("Rp 50.000");
    // A reseller's /start names their own pages, and their chat gets the shop app's button.
    expect(start.text).toMatch(/halaman Anda sendiri/);
    expect(
      world.fake.calls.some((c) => c.method === "setChatMenuButton" && Number(c.payload.chat_id) === RESELLER.id),
    ).toBe(true);
    await world.fake.waitForIdle();
    expect(world.fake.messagesTo(ADMIN.id).filter((m) => /could not be told/.test(m.text))).toHaveLength(1);
  });

  it("when admins look people up, then they are named (name and @username) beside their id, and a staff member's saldo is no saldo", async () => {
    await world.run(env());
    world.fake.sendText(RESELLER, "/start");
    await world.waitText(RESELLER, /Halo Budi/);
    const users = await ask(ADMIN, "/users", /Who may order/);
    expect(users.text).toContain("Budi (@budi_shop) <code>5005</code>");
    const summary = await ask(ADMIN, "/deposit 5005 25000", /Deposit<\/b> for reseller Budi \(@budi_shop\) <code>5005/);
    world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    await world.waitText(ADMIN, /Credited to Budi \(@budi_shop\) <code>5005/);
    const all = await ask(ADMIN, "/saldo all", /Resellers' saldo/);
    expect(all.text).toContain("Budi (@budi_shop) <code>5005</code>");
    const staff = await ask(ADMIN, "/saldo 1002", /staff/);
    expect(staff.text).toContain("have no saldo");
    world.fake.sendText(ADMIN_ID, "/saldo 1002");
    await world.waitText(ADMIN_ID, /adalah staf/);
  });

  it("when the shop runs on the built-in sandbox, then every result and notice says it was a trial", async () => {
    // No TOPUP_BASE_URL: the built-in sandbox.
    for (const name of ["TOPUP_BASE_URL", "TOPUP_MITRA_ID", "TOPUP_SECRET_KEY"]) delete world.env[name];
    await world.run(env());
    const result = await world.order(STAFF, "ML86", "12345678(1234)");
    expect(result.text).toContain("Sandbox: uji coba");
    const notice = await world.waitText(ADMIN, /Sale<\/b> by Sari/);
    expect(notice.text).toContain("Sandbox: a trial");
  });

  it("when a pending order is settled, then its /pending buttons go; an expired Confirm loses its buttons; a sticker gets a hint", async () => {
    await world.run({ ...env(), TOPUP_BASE_URL: await world.flakyProvider() });
    const unknown = await world.order(STAFF, "ML86", "77712345(1234)");
    const line = await ask(ADMIN, "/pending", /77712345[\s\S]*Why:/);
    expect(line.reply_markup?.inline_keyboard?.flat().length).toBe(2);
    await ask(ADMIN, `/settle ${refOf(unknown)} failed not in the dashboard`, /is settled as/);
    await world.fake.waitFor(
      () =>
        (world.fake.messagesTo(ADMIN.id).find((m) => m.message_id === line.message_id)?.reply_markup ?? null) === null,
    );
    // A Confirm whose draft is gone (expired): refused, and the summary keeps its text without buttons.
    const summary = await world.summaryFor(ADMIN, "FF70", "123456789");
    world.fake.tapButton(ADMIN, summary, "c:TG000000000GONE000000");
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /expired|no longer/i.test(a.text ?? "")));
    // A sticker while the dialogue waits for a player id: a one-line hint, never silence.
    await ask(STAFF, "/order ML86", /Kirim ID pemain, contoh/);
    const before = world.fake.messagesTo(STAFF.id).length;
    world.fake.sendSticker(STAFF);
    await world.fake.waitFor(() => world.fake.messagesTo(STAFF.id).length > before);
    const hint = world.fake.messagesTo(STAFF.id).at(-1)!;
    expect([hint.text, hint.text.split("\n").length]).toEqual([expect.stringMatching(/ID pemain sebagai teks/), 1]);
  });

  it("when the provider answers a success with an empty SN, then every screen shows it the same way", async () => {
    // The sandbox behind a proxy that empties the SN of every success.
    const proxy = createServer((req, res) => {
      void fetch(`${world.sandbox.url}${req.url ?? "/"}`).then(async (answer) => {
        const body = (await answer.json()) as { status: number; data?: { sn?: string } };
        if (body.data !== undefined) body.data.sn = "  ";
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    world.onCleanup(() => new Promise((resolve) => proxy.close(() => resolve())));
    await world.run({
      ...env(),
      TOPUP_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      TOPUP_MITRA_ID: MITRA,
      TOPUP_SECRET_KEY: SECRET,
    });
    const result = await world.order(ADMIN, "ML86", "12345678(1234)");
    expect(result.text).toContain("SN: <code>–</code>");
    const status = await ask(ADMIN, `/status ${refOf(result)}`, /Ref id/);
    expect(status.text).toContain("SN: <code>–</code>");
    const history = await ask(ADMIN, "/history", /page 1 of 1 \(1 order\)/);
    expect(history.text).toContain("SN <code>–</code>");
  });
});
