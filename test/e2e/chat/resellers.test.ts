import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CSV_HEADER } from "../../../src/reports/csv.js";
import type { FakeUser } from "../fake-bot-api.js";
import { button, createWorld, type World } from "../world.js";
import { EMPTY_DEPOSIT_REFUSAL, listenJson } from "../../helpers/provider-answer.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const STAFF: FakeUser = { id: 1002, first_name: "Sari", language_code: "en" };
const RESELLER: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };
const ENV_RESELLER: FakeUser = { id: 5006, first_name: "Dewi", language_code: "id" };

describe("resellers through the bot: a saldo of their own, their prices, deposits credited once", () => {
  let world: World;
  const base = {
    ADMIN_IDS: String(ADMIN.id),
    ALLOWED_USER_IDS: String(STAFF.id),
    RESELLER_IDS: String(ENV_RESELLER.id),
  };

  beforeEach(async () => {
    world = await createWorld({ initialBalance: 1_000_000 });
  });
  afterEach(() => world.cleanup());

  /** /deposit by the admin, Confirm tapped; resolves with the summary as it ends. */
  async function deposit(userId: number, amount: string, note = "") {
    const before = world.fake.messagesTo(ADMIN.id).length;
    world.fake.sendText(ADMIN, `/deposit ${userId} ${amount} ${note}`.trim());
    const summary = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => /"dc:/.test(JSON.stringify(m.reply_markup ?? {})) && world.fake.messagesTo(ADMIN.id).indexOf(m) >= before,
    );

    world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    return world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === summary.message_id && /Credited to/.test(m.text),
    );
  }

  const saldoOf = async (user: FakeUser) => {
    const before = world.fake.messagesTo(user.id).length;
    world.fake.sendText(user, "/saldo");
    const answer = await world.fake.waitForMessage(
      user.id,
      (m) => /Your saldo|Saldo Anda/.test(m.text) && world.fake.messagesTo(user.id).indexOf(m) >= before,
    );
    return answer.text;
  };

  it("when a new reseller orders with no saldo, then the summary says so and Confirm orders nothing", async () => {
    await world.run(base);
    world.fake.sendText(ADMIN, "/allow 5005 reseller");
    await world.waitText(ADMIN, /<code>5005<\/code> is a reseller now/);
    const summary = await world.summaryFor(RESELLER, "ML86", "12345678(1234)");
    expect(summary.text).toContain("Your price: <b>Rp 19,800</b>");
    expect(summary.text).toContain("Your saldo: Rp 0");
    expect(summary.text).toMatch(/less than Rp 19,800/);
    world.fake.tapButton(RESELLER, summary, button(summary, /^c:/));
    await world.waitText(RESELLER, /Not enough saldo: you have <b>Rp 0<\/b>, this order costs <b>Rp 19,800<\/b>/);
    expect(world.fake.callbackAnswers.some((a) => /Not enough saldo/.test(a.text ?? ""))).toBe(true);
    expect(world.sandbox.calls).toHaveLength(0);

    // After a deposit the same summary orders.
    await deposit(5005, "50.000", "transfer BCA");
    const told = await world.waitText(RESELLER, /Deposit credited/);
    expect(told.text).toContain("Rp 50,000");
    expect(told.text).toContain("Note: transfer BCA");
    world.fake.tapButton(RESELLER, summary, button(summary, /^c:/));
    const result = await world.waitText(RESELLER, /Top-up successful/);
    expect(result.text).toContain("Saldo left: Rp 30,200");
    // A reseller never sees the shop's balance with the provider, nor the provider's trx id.
    expect(result.text).not.toMatch(/Balance left/);
    expect(result.text).not.toMatch(/Trx id|SBX-/);
    expect(world.sandbox.calls).toHaveLength(1);
  });

  it("when an admin taps Confirm on a deposit twice at once and Telegram sends it again, then it is credited once", async () => {
    await world.run(base);
    // Dewi has opened the bot once: the bot knows her language for messages it starts itself.
    world.fake.sendText(ENV_RESELLER, "/start");
    await world.waitText(ENV_RESELLER, /Halo Dewi/);
    world.fake.sendText(ADMIN, "/deposit 5006 75000 cash");
    // Named as the bot last saw her, next to her id.
    const summary = await world.waitText(ADMIN, /for reseller Dewi <code>5006<\/code>/);
    expect(summary.text).toContain("Saldo now: Rp 0 → after: <b>Rp 75,000</b>");
    const data = button(summary, /^dc:/);
    let tap: ReturnType<typeof world.fake.tapButton> | undefined;
    world.fake.batch(() => {
      tap = world.fake.tapButton(ADMIN, summary, data);
      world.fake.tapButton(ADMIN, summary, data);
    });
    await world.fake.waitForMessage(ADMIN.id, (m) => m.message_id === summary.message_id && /Credited/.test(m.text));
    world.fake.redeliver(tap!);
    await world.fake.waitFor(
      () => world.fake.callbackAnswers.filter((a) => /already credited/.test(a.text ?? "")).length >= 2,
    );
    await world.waitText(ENV_RESELLER, /Deposit masuk/);
    await world.fake.waitForIdle();
    const dewi = await saldoOf(ENV_RESELLER);
    expect(dewi).toContain("Saldo Anda</b>: Rp 75.000");
    expect(world.fake.messagesTo(ENV_RESELLER.id).filter((m) => /Deposit masuk/.test(m.text))).toHaveLength(1);
  });

  it("when the reseller could not be told of a deposit, then they are told at the next tap or the next start", async () => {
    const first = await world.run(base);
    world.fake.sendText(ENV_RESELLER, "/start");
    await world.waitText(ENV_RESELLER, /Halo Dewi/);
    // Telegram refuses the notice (as when the bot stops between the credit and the message).
    world.fake.blockChat(ENV_RESELLER.id);
    const summary = await deposit(5006, "20000");
    await world.fake.waitFor(() => /notice not delivered/.test(first.output()));
    world.fake.unblockChat(ENV_RESELLER.id);
    // The admin taps the old Confirm again: nothing more is credited, the reseller is told now.
    const id = /ref <code>(DP[A-Z0-9]+)<\/code>/.exec(summary.text)![1]!;
    world.fake.tapButton(ADMIN, summary, `dc:${id}`);
    await world.waitText(ENV_RESELLER, /Deposit masuk/);
    expect(await saldoOf(ENV_RESELLER)).toContain("Rp 20.000");

    // Once more, and this time the bot restarts: the new one tells the reseller at start.
    world.fake.blockChat(ENV_RESELLER.id);
    await deposit(5006, "5000");
    await world.fake.waitFor(() => (first.output().match(/notice not delivered/g) ?? []).length >= 2);
    await first.kill();
    world.fake.unblockChat(ENV_RESELLER.id);
    await world.run(base);
    await world.fake.waitFor(
      () => world.fake.messagesTo(ENV_RESELLER.id).filter((m) => /Deposit masuk/.test(m.text)).length === 2,
    );
    expect(world.fake.messagesTo(ENV_RESELLER.id).at(-1)?.text).toContain("Rp 25.000");
  });

  it("when a reseller's order fails or its result is unknown, then the price is released once or held until settled", async () => {
    await world.run({ ...base, TOPUP_BASE_URL: await world.flakyProvider() });
    await deposit(5006, "100000");
    // Unknown (the provider answers HTML 502 for player ids starting with 777): the price stays held.
    const unknown = await world.order(ENV_RESELLER, "FF70", "777000111");
    expect(unknown.text).toContain("Hasil belum diketahui");
    expect(unknown.text).toContain("Rp 9.800 tetap ditahan");
    expect(await saldoOf(ENV_RESELLER)).toMatch(
      /Rp 90\.200[\s\S]*Ditahan untuk pesanan yang hasilnya belum diketahui: Rp 9\.800/,
    );
    const refId = /Ref ID: <code>([A-Z0-9]+)<\/code>/.exec(unknown.text)![1]!;
    // The admin settles it as failed: the price comes back, once.
    world.fake.sendText(ADMIN, `/settle ${refId} failed refunded by provider`);
    await world.waitText(ADMIN, new RegExp(`<code>${refId}</code> is settled as ❌ failed`));
    const told = await world.waitText(ENV_RESELLER, /Admin sudah memeriksa/);
    expect(told.text).toContain("Harga (Rp 9.800) sudah kembali ke saldo Anda: Rp 100.000");
    // The admin's reason (often the provider's words pasted in) is for the admins.
    expect(told.text).not.toContain("refunded by provider");
    world.fake.sendText(ADMIN, `/settle ${refId} failed again`);
    await world.waitText(ADMIN, /is not pending/);
    expect(await saldoOf(ENV_RESELLER)).toMatch(/Saldo Anda<\/b>: Rp 100\.000[\s\S]*: Rp 0\n/);

    // A refusal by the provider (status 0): the price comes back at once.
    world.sandbox.deposit(-world.sandbox.balance());
    const failed = await world.order(ENV_RESELLER, "FF140", "123456789");
    expect(failed.text).toContain("Pesanan gagal");
    expect(failed.text).toContain("sudah kembali ke saldo Anda: Rp 100.000");
    const statement = await saldoOf(ENV_RESELLER);
    // One order, read as money moving once: spent, then refunded as a refund; never "held" once settled.
    expect(statement).toMatch(/dipakai untuk pesanan − Rp 19\.200/);
    expect(statement).toMatch(/dikembalikan \(pesanan gagal\) \+ Rp 19\.200/);
    expect(statement).not.toMatch(/ditahan/);
  });

  it("when a reseller's order is refused by the provider, then they read that it failed and the price came back, in English and Indonesian, and only admins read the provider's reason", async () => {
    // The provider's own words for its own empty deposit read as if the reseller's saldo were short.
    const refusing = await listenJson(EMPTY_DEPOSIT_REFUSAL);
    try {
      await world.run({ ...base, RESELLER_IDS: `${RESELLER.id},${ENV_RESELLER.id}`, TOPUP_BASE_URL: refusing.url });
      await deposit(5005, "100000");
      await deposit(5006, "100000");
      const providerWords =
        /Saldo tidak cukup|insufficient|Error code|Kode error|provider refused|ditolak oleh provider/i;

      const summary = await world.summaryFor(RESELLER, "FF70", "123456789");
      world.fake.tapButton(RESELLER, summary, button(summary, /^c:/));
      const failed = await world.waitText(RESELLER, /Order failed/);
      expect(failed.text).toContain("The price (Rp 9,800) is back in your saldo: Rp 100,000");
      expect(failed.text).not.toMatch(providerWords);
      // The old Confirm tapped again: the same shop's word, no provider code.
      world.fake.tapButton(RESELLER, summary, button(summary, /^c:/));
      await world.fake.waitFor(() =>
        world.fake.callbackAnswers.some((a) => /Already ordered: it failed/.test(a.text ?? "")),
      );
      const toast = world.fake.callbackAnswers.find((a) => /Already ordered: it failed/.test(a.text ?? ""))!;
      expect(toast.text).toContain("Rp 9,800");
      expect(toast.text).not.toMatch(providerWords);

      const gagal = await world.order(ENV_RESELLER, "FF70", "123456789");
      expect(gagal.text).toContain("Pesanan gagal");
      expect(gagal.text).toContain("Harga (Rp 9.800) sudah kembali ke saldo Anda: Rp 100.000");
      expect(gagal.text).not.toMatch(providerWords);
      const refId = /Ref ID: <code>([A-Z0-9]+)<\/code>/.exec(gagal.text)![1]!;

      // /status by the reseller: the same; by an admin: the provider's code and message.
      world.fake.sendText(ENV_RESELLER, `/status ${refId}`);
      const status = await world.waitText(ENV_RESELLER, /Status pesanan|Order status/);
      expect(status.text).toContain("Harga (Rp 9.800) sudah kembali ke saldo Anda.");
      expect(status.text).not.toMatch(providerWords);
      world.fake.sendText(ADMIN, `/status ${refId}`);
      const adminStatus = await world.fake.waitForMessage(
        ADMIN.id,
        (m) => m.text.includes(refId) && /transaction\/insufficient-balance/.test(m.text),
      );
      expect(adminStatus.text).toContain("Saldo tidak cukup");
      // The admins' notice of the failed order names the provider's reason.
      const notice = await world.fake.waitForMessage(
        ADMIN.id,
        (m) => /Failed order/.test(m.text) && m.text.includes(refId),
      );
      expect(notice.text).toContain("transaction/insufficient-balance");
      expect(notice.text).toContain("Saldo tidak cukup");
    } finally {
      await refusing.close();
    }
  });

  it("when a reseller's saldo is too short at Confirm and the shop takes deposit requests, then the refusal says to /deposit what is missing", async () => {
    await world.run({ ...base, RESELLER_IDS: `${RESELLER.id},${ENV_RESELLER.id}` });
    world.fake.sendText(ADMIN, "/payinfo BCA 1234567890 a.n. Toko Maju");
    await world.waitText(ADMIN, /instructions set/);
    await deposit(5005, "15000");
    const summary = await world.summaryFor(RESELLER, "ML86", "12345678(1234)");
    expect(summary.text).toMatch(/less than Rp 19,800: top up first \(\/deposit/);
    world.fake.tapButton(RESELLER, summary, button(summary, /^c:/));
    const refused = await world.waitText(RESELLER, /Not enough saldo: you have <b>Rp 15,000<\/b>/);
    // What is missing is 4,800; the smallest request the shop takes is 10,000.
    expect(refused.text).toContain("<code>/deposit 10000</code>");
    const kurang = await world.summaryFor(ENV_RESELLER, "ML86", "12345678(1234)");
    world.fake.tapButton(ENV_RESELLER, kurang, button(kurang, /^c:/));
    const ditolak = await world.waitText(ENV_RESELLER, /Saldo tidak cukup: saldo Anda <b>Rp 0<\/b>/);
    expect(ditolak.text).toContain("<code>/deposit 19800</code>");
    expect(world.sandbox.calls).toHaveLength(0);
  });

  it("when a reseller looks around, then they see their own saldo and prices, never the shop's balance", async () => {
    await world.run(base);
    await deposit(5006, "40000");
    await world.order(ENV_RESELLER, "ML86", "12345678(1234)");
    // /balance of a reseller is their saldo; staff see the provider balance.
    world.fake.sendText(ENV_RESELLER, "/balance");
    const balance = await world.waitText(ENV_RESELLER, /Saldo Anda<\/b>/);
    expect(balance.text).toContain("Rp 20.200");
    expect(balance.text).not.toMatch(/Partner|mitra/i);
    expect(balance.text).toMatch(/deposit \+ Rp 40\.000/);
    expect(balance.text).toMatch(/dipakai untuk pesanan − Rp 19\.800/);
    expect(balance.text.match(/19\.800/g)).toHaveLength(1);
    world.fake.sendText(STAFF, "/balance");
    await world.waitText(STAFF, /Partner balance/);
    world.fake.sendText(STAFF, "/saldo");
    await world.waitText(STAFF, /\/saldo is for resellers/);
    world.fake.sendText(ENV_RESELLER, "/history all");
    await world.waitText(ENV_RESELLER, /khusus admin/);
    // A reseller's /deposit asks for a deposit of their own: the admin's form is not an amount.
    world.fake.sendText(ENV_RESELLER, "/deposit 5006 1000000");
    await world.waitText(ENV_RESELLER, /<code>5006 1000000<\/code> bukan jumlah yang bisa diminta/);
    // The admin's notice of the sale names the reseller's price and the margin.
    const notice = await world.waitText(ADMIN, /Reseller \(tier reseller\) paid/);
    expect(notice.text).toContain("paid Rp 19,800 · provider price Rp 19,500 · margin Rp 300");
  });

  it("when an admin sets a reseller's tier, then new summaries use its price; a product with no price for them is not offered", async () => {
    await world.run({ ...base, CATALOG_FILE: "test/e2e/chat/fixtures/tiers-catalog.json" });
    world.fake.sendText(ENV_RESELLER, "/order MLVIP 12345678(1234)");
    await world.waitText(ENV_RESELLER, /Tidak ada produk dengan kode <b>MLVIP<\/b>/);
    world.fake.sendText(ENV_RESELLER, "/order");
    const menu = await world.waitText(ENV_RESELLER, /Pilih game/);
    // Only the game with something for them; in it, only what they may buy.
    expect(JSON.stringify(menu.reply_markup)).not.toContain("Staff only");
    world.fake.sendText(ADMIN, "/tier 5006 platinum");
    await world.waitText(ADMIN, /There is no tier <b>platinum<\/b>.*reseller, gold/);
    world.fake.sendText(ADMIN, "/tier 5006 gold");
    await world.waitText(ADMIN, /tier reseller → <b>gold<\/b>/);
    const summary = await world.summaryFor(ENV_RESELLER, "MLVIP", "12345678(1234)");
    expect(summary.text).toContain("Harga Anda: <b>Rp 140.000</b>");
    const ml = await world.summaryFor(ENV_RESELLER, "ML86", "12345678(1234)");
    expect(ml.text).toContain("Harga Anda: <b>Rp 19.700</b>");
    // Staff from ALLOWED_USER_IDS: the answer says where their role is set (no /allow that would be refused).
    world.fake.sendText(ADMIN, "/tier 1002 gold");
    const staff = await world.waitText(ADMIN, /<code>1002<\/code> is staff \(ALLOWED_USER_IDS\)/);
    expect(staff.text).not.toContain("/allow");
  });

  it("when a correction would take a saldo below 0, then it is refused; /saldo all and /users show what the shop owes", async () => {
    await world.run(base);
    world.fake.sendText(ADMIN, "/allow 5005 reseller");
    await world.waitText(ADMIN, /is a reseller now/);
    await deposit(5005, "30000");
    await deposit(5006, "20000");
    world.fake.sendText(ADMIN, "/deposit 5005 -50000 oops");
    await world.waitText(ADMIN, /never goes below Rp 0: this correction is larger than the saldo \(Rp 30,000\)/);
    const corrected = await deposit(5005, "-5000", "typo");
    expect(corrected.text).toContain("− Rp 5,000");
    await world.waitText(RESELLER, /Saldo corrected<\/b>: − Rp 5,000/);
    world.fake.sendText(ADMIN, "/deposit 1002 1000");
    const staff = await world.waitText(ADMIN, /<code>1002<\/code> is staff \(ALLOWED_USER_IDS\)/);
    expect(staff.text).toContain("move their id from ALLOWED_USER_IDS to RESELLER_IDS");
    expect(staff.text).not.toContain("/allow");
    world.fake.sendText(ADMIN, "/deposit 5005 lots");
    await world.waitText(ADMIN, /I can't tell which amount <code>lots<\/code> is/);
    world.fake.sendText(ADMIN, "/deposit 5005");
    await world.waitText(ADMIN, /Use <code>\/deposit USER_ID AMOUNT \[NOTE\]<\/code>/);
    world.fake.sendText(ADMIN, "/saldo all");
    const all = await world.waitText(ADMIN, /Resellers' saldo/);
    expect(all.text).toContain("<code>5005</code> (reseller): saldo Rp 25,000 · held Rp 0");
    expect(all.text).toContain("owes resellers <b>Rp 45,000</b>");
    world.fake.sendText(ADMIN, "/saldo 5005");
    const one = await world.waitText(ADMIN, /Saldo of <code>5005<\/code>/);
    expect(one.text).toMatch(/correction − Rp 5,000/);
    world.fake.sendText(ADMIN, "/users");
    const users = await world.waitText(ADMIN, /Who may order/);
    expect(users.text).toContain("<code>5006</code>: reseller · RESELLER_IDS · tier reseller · saldo Rp 20,000");
    expect(users.text).toMatch(
      /<code>5005<\/code>: reseller · allowed in the chat by <code>1001<\/code>[^\n]* · tier reseller · saldo Rp 25,000/,
    );
  });

  it("when an admin types the amount the way people write it, then the summary before Confirm shows it in rupiah, in English and Indonesian", async () => {
    const ID_ADMIN: FakeUser = { id: 1003, first_name: "Rina", language_code: "id" };
    await world.run({ ...base, ADMIN_IDS: `${ADMIN.id},${ID_ADMIN.id}` });
    /** The summary (or the refusal) /deposit answers with. */
    const answer = async (user: FakeUser, text: string) => {
      const before = world.fake.messagesTo(user.id).length;
      world.fake.sendText(user, text);
      return (await world.fake.waitForMessage(user.id, (m) => world.fake.messagesTo(user.id).indexOf(m) >= before))
        .text;
    };
    expect(await answer(ADMIN, "/deposit 5006 50rb")).toContain("for reseller <code>5006</code>: <b>+ Rp 50,000</b>");
    expect(await answer(ADMIN, "/deposit 5006 Rp50.000")).toContain("<b>+ Rp 50,000</b>");
    expect(await answer(ADMIN, "/deposit 5006 Rp 50.000,00")).toContain("<b>+ Rp 50,000</b>");
    expect(await answer(ADMIN, "/deposit 5006 1,5jt")).toContain("<b>+ Rp 1,500,000</b>");
    // The multiplier word belongs to the amount; the note is what comes after it.
    const withNote = await answer(ADMIN, "/deposit 5006 50 ribu transfer BCA");
    expect(withNote).toContain("<b>+ Rp 50,000</b>");
    expect(withNote).toContain("Note: transfer BCA");
    const idSummary = await answer(ID_ADMIN, "/deposit 5006 1.5 juta cash");
    expect(idSummary).toContain("untuk reseller <code>5006</code>: <b>+ Rp 1.500.000</b>");
    expect(idSummary).toContain("Catatan: cash");

    // What could be read two ways is refused with examples, and nothing is prepared.
    const unclear = await answer(ADMIN, "/deposit 5006 50.5 transfer");
    expect(unclear).toContain("I can't tell which amount <code>50.5</code> is");
    expect(unclear).toContain("<code>50rb</code>");
    expect(await answer(ADMIN, "/deposit 5006 50 000")).toContain("which amount <code>50 000</code> is");
    const idUnclear = await answer(ID_ADMIN, "/deposit 5006 1,50");
    expect(idUnclear).toContain("Saya tidak yakin berapa jumlah <code>1,50</code>");
    expect(idUnclear).toContain("<code>1,5jt</code>");
    expect(await answer(ADMIN, "/deposit 5006 -0")).toContain("not 0, at most Rp 100,000,000");
    expect(await answer(ADMIN, "/deposit 5006 101jt")).toContain("not 0, at most Rp 100,000,000");

    // A correction typed the same way still works.
    await deposit(5006, "20rb");
    const corrected = await deposit(5006, "-5rb", "koreksi");
    expect(corrected.text).toContain("− Rp 5,000");
    expect(await saldoOf(ENV_RESELLER)).toContain("Rp 15.000");
  });

  it("when the day is reported, then each reseller's sales, profit and deposits are there and the CSV says who bought", async () => {
    await world.run(base);
    await deposit(5006, "50000");
    await world.order(ENV_RESELLER, "ML86", "12345678(1234)"); // 19,800 paid; provider 19,500
    await world.order(STAFF, "FF70", "123456789"); // staff: 10,000 selling; provider 9,500
    world.fake.sendText(ADMIN, "/report");
    const report = await world.waitText(ADMIN, /Sales report/);
    expect(report.text).toContain("<b>Resellers</b>");
    expect(report.text).toContain(
      "Dewi (5006), tier reseller: 1 × · sales Rp 19,800 · profit Rp 300 · deposits Rp 50,000",
    );
    world.fake.tapButton(ADMIN, report, button(report, /CSV/));
    const csv = await world.fake.waitForMessage(ADMIN.id, (m) => m.document !== undefined);
    const [header, ...rows] = csv.document!.content.trim().split("\r\n");
    expect(header).toBe(CSV_HEADER.join(","));
    const col = (row: string, name: (typeof CSV_HEADER)[number]) => row.split(",")[CSV_HEADER.indexOf(name)];
    const resellerRow = rows.find((r) => r.includes(",ML86,"))!;
    expect([col(resellerRow, "buyer_role"), col(resellerRow, "buyer_tier"), col(resellerRow, "price_paid")]).toEqual([
      "reseller",
      "reseller",
      "19800",
    ]);
    const staffRow = rows.find((r) => r.includes(",FF70,"))!;
    expect([col(staffRow, "buyer_role"), col(staffRow, "price_paid")]).toEqual(["staff", ""]);
  });
});
