import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ONE_PIXEL_PNG, type FakeUser, type SentMessage } from "../fake-bot-api.js";
import { createDepositRequestStore } from "../../../src/deposits/request-store.js";
import { button, createWorld, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const STAFF: FakeUser = { id: 1002, first_name: "Sari", language_code: "en" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };
const DEWI: FakeUser = { id: 5006, first_name: "Dewi", language_code: "id" };

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const rupiah = (text: string) => Number(text.replace(/,/g, ""));

describe("resellers ask for a deposit: a unique amount, a proof, decided once by an admin", () => {
  let world: World;
  let clock = Date.parse("2026-11-26T03:00:00Z");
  const env = {
    ADMIN_IDS: String(ADMIN.id),
    ALLOWED_USER_IDS: String(STAFF.id),
    RESELLER_IDS: `${BUDI.id},${DEWI.id}`,
  };

  beforeEach(async () => {
    clock = Date.parse("2026-11-26T03:00:00Z");
    world = await createWorld({ initialBalance: 1_000_000 });
  });
  afterEach(() => world.cleanup());

  const start = () => world.run(env, { now: () => new Date(clock), recoveryIntervalMs: 100 });

  /** What the user is sent after `send()`, the first one matching. */
  async function answer(user: FakeUser, send: () => void, pattern: RegExp): Promise<SentMessage> {
    const before = world.fake.messagesTo(user.id).length;
    send();
    return world.fake.waitForMessage(
      user.id,
      (m) => pattern.test(m.text) && world.fake.messagesTo(user.id).indexOf(m) >= before,
    );
  }

  async function setPayInfo() {
    await answer(ADMIN, () => world.fake.sendText(ADMIN, "/payinfo BCA 1234567890 a.n. Toko Maju"), /instructions set/);
  }

  /** A reseller's /deposit: the request's message, id and exact amount. */
  async function ask(user: FakeUser, amount: string) {
    const message = await answer(
      user,
      () => world.fake.sendText(user, `/deposit ${amount}`),
      /Deposit request|Permintaan deposit/,
    );
    const m = /<code>(DR[0-9A-Z]{19})<\/code>[\s\S]*?<b>Rp ([0-9.,]+)<\/b>/.exec(message.text)!;
    return { message, id: m[1]!, exact: rupiah(m[2]!.replace(/\./g, ",")) };
  }

  /** The admins' message with the proof of request `id`. */
  const adminNotice = (id: string) =>
    world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendPhoto" && m.text.includes(id));

  it("when a reseller asks, transfers and sends the proof, then an admin's Approve credits the exact amount once", async () => {
    await start();
    // Without payment instructions there is nothing to ask for.
    await answer(BUDI, () => world.fake.sendText(BUDI, "/deposit 100rb"), /has not set up deposits/);
    await setPayInfo();

    const { message, id, exact } = await ask(BUDI, "100rb");
    expect(exact).toBeGreaterThan(100_000);
    expect(exact).toBeLessThan(101_000);
    expect(message.text).toContain("BCA 1234567890 a.n. Toko Maju");
    expect(message.text).toMatch(/reply to this message/);
    // Text in answer to the request is not a proof: the hint says what is.
    await answer(
      BUDI,
      () => world.fake.replyText(BUDI, "sudah transfer", message, BUDI.id),
      /Send the proof as a photo/,
    );

    await answer(BUDI, () => world.fake.sendPhoto(BUDI, undefined, { replyTo: message }), /Proof received/);
    const notice = await adminNotice(id);
    expect(notice.text).toContain("Budi");
    expect(notice.text).toContain("5005");
    expect(notice.text).toContain(`Rp ${exact.toLocaleString("en-US")}`);
    expect(notice.text).toContain("Saldo now: Rp 0");

    // A double tap, and Telegram delivering the tap again: one credit, one notice.
    const approve = button(notice, /^ra:/);
    let tap: ReturnType<typeof world.fake.tapButton> | undefined;
    world.fake.batch(() => {
      tap = world.fake.tapButton(ADMIN, notice, approve);
      world.fake.tapButton(ADMIN, notice, approve);
    });
    await world.waitText(ADMIN, /approved: Rp [0-9,]+ credited/);
    world.fake.redeliver(tap!);
    await world.fake.waitFor(
      () => world.fake.callbackAnswers.filter((a) => /Already decided/.test(a.text ?? "")).length >= 2,
    );
    const told = await world.waitText(BUDI, /Deposit credited/);
    expect(told.text).toContain(`Rp ${exact.toLocaleString("en-US")}`);
    expect(told.text).toContain(id);
    await world.fake.waitForIdle();
    expect(world.fake.messagesTo(BUDI.id).filter((m) => /Deposit credited/.test(m.text))).toHaveLength(1);
    const saldo = await answer(BUDI, () => world.fake.sendText(BUDI, "/saldo"), /Your saldo/);
    expect(saldo.text).toContain(`Rp ${exact.toLocaleString("en-US")}`);
    expect(saldo.text).toContain(id);

    // The day's report counts it.
    const report = await answer(ADMIN, () => world.fake.sendText(ADMIN, "/report"), /Sales report/);
    const amount = `Rp ${exact.toLocaleString("en-US")}`;
    expect(report.text).toContain(
      `Deposit requests: 1 asked (${amount}) · 1 approved (${amount}) · 0 rejected · 0 expired`,
    );

    // The month's deposits beside /export's orders: the request id and who approved it.
    world.fake.sendText(ADMIN, "/export");
    const file = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.document?.filename.startsWith("deposits-") === true,
    );
    const [header, row] = file.document!.content.trim().split("\r\n");
    expect(header).toBe(
      "credited_at,deposit_id,kind,reseller_id,reseller_name,amount,note,request_id,approved_by,approved_by_name",
    );
    expect(row).toMatch(new RegExp(`^2026-11-26 10:00:00,${id},deposit,5005,Budi,${exact},${id},${id},1001,Admin$`));

    const status = await answer(BUDI, () => world.fake.sendText(BUDI, `/status ${id}`), /Deposit request/);
    expect(status.text).toMatch(/approved/);
    // Another reseller cannot see it; staff answering the request's message with a picture: refused.
    await answer(DEWI, () => world.fake.sendText(DEWI, `/status ${id}`), /tidak ada/);
    await answer(STAFF, () => world.fake.sendPhoto(STAFF, undefined, { replyTo: message }), /No such deposit request/);
  });

  it("when a reseller sends /deposit or /status DR… in a group, then nothing is made or shown there and they are pointed to the private chat; the admins' room still shows it", async () => {
    const GROUP = -100500;
    const ADMIN_ROOM = -100777;
    await world.run({ ...env, ADMIN_CHAT_ID: String(ADMIN_ROOM) }, { now: () => new Date(clock) });
    await setPayInfo();
    const inGroup = () => world.fake.messagesTo(GROUP);
    const pointer = async (user: FakeUser, text: string, pattern: RegExp) => {
      const before = inGroup().length;
      world.fake.sendText(user, text, GROUP);
      return world.fake.waitForMessage(GROUP, (m) => pattern.test(m.text) && inGroup().indexOf(m) >= before);
    };

    const asked = await pointer(BUDI, "/deposit@topup_test_bot 100rb", /only in your private chat with me/);
    expect(asked.text).toContain("send /deposit there");
    expect(JSON.stringify(asked.reply_markup)).toContain('"url":"https://t.me/topup_test_bot"');
    const diminta = await pointer(DEWI, "/deposit 50rb", /hanya dibuat dan ditampilkan di chat pribadi/);
    expect(diminta.text).toContain("kirim /deposit di sana");

    // In the private chat it works; its id and amount never reach the group.
    const { id, exact } = await ask(BUDI, "100rb");
    const status = await pointer(BUDI, `/status ${id}`, /only in your private chat with me/);
    expect(status.text).toContain("send /status there");
    // An admin in an ordinary group is not shown it either.
    await pointer(ADMIN, `/status ${id}`, /only in your private chat with me/);
    await world.fake.waitForIdle();
    for (const m of inGroup()) {
      expect(m.text).not.toMatch(/DR[0-9A-Z]{19}/);
      expect(m.text).not.toContain(exact.toLocaleString("en-US"));
    }

    // The admins' room: the request is shown to an admin, and a deposit by hand still asks for Confirm.
    world.fake.sendText(ADMIN, `/status ${id}`, ADMIN_ROOM);
    await world.fake.waitForMessage(ADMIN_ROOM, (m) => m.text.includes(id) && /waiting for proof/i.test(m.text));
    world.fake.sendText(ADMIN, "/deposit 5005 50000", ADMIN_ROOM);
    await world.fake.waitForMessage(ADMIN_ROOM, (m) => /"dc:/.test(JSON.stringify(m.reply_markup ?? {})));

    // Only the private chat's request was made.
    const report = await answer(ADMIN, () => world.fake.sendText(ADMIN, "/report"), /Sales report/);
    expect(report.text).toMatch(/Deposit requests: 1 asked/);
  });

  it("when amounts are wrong, or someone else asks, then each is refused with what is allowed", async () => {
    await start();
    await setPayInfo();
    for (const typed of ["0", "-5", "abc", "1e30", "10001rb", "5000"]) {
      const refused = await answer(
        BUDI,
        () => world.fake.sendText(BUDI, `/deposit ${typed}`),
        /not an amount you can ask for/,
      );
      expect(refused.text).toContain("Rp 10,000");
      expect(refused.text).toContain("Rp 10,000,000");
    }
    await answer(STAFF, () => world.fake.sendText(STAFF, "/deposit 100rb"), /for admins and resellers/);
    const STRANGER: FakeUser = { id: 7777, first_name: "Tamu", language_code: "en" };
    const refused = await answer(
      STRANGER,
      () => world.fake.sendText(STRANGER, "/deposit 100rb"),
      /for admins and resellers/,
    );
    expect(refused.text).toContain("<code>7777</code>");
    await answer(ADMIN, () => world.fake.sendText(ADMIN, "/deposit 100rb"), /Use <code>\/deposit USER_ID AMOUNT/);
    expect(world.fake.messagesTo(ADMIN.id).some((m) => m.method === "sendPhoto")).toBe(false);
  });

  it("when a reseller asks twice for the same amount, then each request has its own exact amount, three at most", async () => {
    await start();
    await setPayInfo();
    const first = await ask(BUDI, "50000");
    const second = await ask(BUDI, "50rb");
    const third = await ask(BUDI, "Rp50.000");
    expect(new Set([first.exact, second.exact, third.exact]).size).toBe(3);
    await answer(BUDI, () => world.fake.sendText(BUDI, "/deposit 50rb"), /3 open deposit requests/);

    // A sticker, or a sticker answering a request, is not a proof: the hint says what is.
    await answer(BUDI, () => world.fake.sendSticker(BUDI), /Send the proof as a photo/);
    // A photo with no reply while three wait: which one? The reseller taps the third.
    const which = await answer(BUDI, () => world.fake.sendPhoto(BUDI), /which one is this transfer for/);
    world.fake.tapButton(BUDI, which, `rw:${third.id}`);
    await world.waitText(BUDI, new RegExp(`Proof received for <code>${third.id}</code>`));
    await adminNotice(third.id);
    // Cancel one: it is closed, and a second tap says so.
    world.fake.tapButton(BUDI, first.message, `rq:${first.id}`);
    await world.waitText(BUDI, new RegExp(`Request <code>${first.id}</code> cancelled`));
    // The request's message loses its Cancel button.
    await world.fake.waitFor(
      () =>
        !JSON.stringify(
          world.fake.messagesTo(BUDI.id).find((m) => m.message_id === first.message.message_id)?.reply_markup ?? {},
        ).includes("rq:"),
    );
    world.fake.tapButton(BUDI, first.message, `rq:${first.id}`);
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => /cannot be cancelled: cancelled/.test(a.text ?? "")),
    );
    // Now a fourth may be asked; the third, with its proof, can no longer be cancelled.
    const fourth = await ask(BUDI, "50rb");
    expect([second.exact, third.exact]).not.toContain(fourth.exact);
    world.fake.tapButton(BUDI, third.message, `rq:${third.id}`);
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => /cannot be cancelled: waiting for approval/.test(a.text ?? "")),
    );
  });

  it("when one reseller asked and cancelled 1,000 times, then another reseller's /deposit of that amount works, and the 11th ask in an hour is refused with when", async () => {
    const bot = await start();
    await setPayInfo();
    // Dewi asks for Rp 100,000 and cancels at once, 1,000 times (ten an hour, the most allowed).
    const store = createDepositRequestStore(bot.app!.storage);
    const SIX_MINUTES = 6 * 60 * 1000;
    const kinds = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const at = clock + i * SIX_MINUTES;
      const r = await store.create(
        {
          id: `DRLOOP${i}`,
          resellerId: DEWI.id,
          chatId: DEWI.id,
          lang: "id",
          amount: 100_000,
          createdAt: at,
          expiresAt: at + HOUR,
        },
        { firstCode: (i % 999) + 1, maxOpen: 3, maxPerHour: 10, reuseMs: 7 * DAY, day: "2026-11-26" },
      );
      kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
      if (r.kind === "made")
        expect((await store.cancel(r.request.id, DEWI.id, at + 1000, "2026-11-26")).kind).toBe("cancelled");
    }
    // Her own cancelled codes stay hers for 7 days: the 1,000th has none left, and says so.
    expect(Object.fromEntries(kinds)).toEqual({ made: 999, "no-code": 1 });
    // A minute after her last request (the 999th ask).
    clock += 998 * SIX_MINUTES + 60_000;

    // In the chat now: ten asked in the last hour, so the 11th is refused with the time she may ask again.
    const refused = await answer(DEWI, () => world.fake.sendText(DEWI, "/deposit 50rb"), /satu jam terakhir/);
    // 10 asks at 6-minute steps: the oldest of the last hour is 55 minutes old, free in 5 minutes
    // (2026-11-30 05:54 UTC + 60 minutes, 13:54 in Jakarta).
    expect(refused.text).toMatch(/10 permintaan deposit[\s\S]*pukul 30 Nov 2026.*13\.54/);
    expect(world.fake.messagesTo(DEWI.id).filter((m) => /Permintaan deposit/.test(m.text))).toHaveLength(0);

    // Budi gets the amount at once, with a code Dewi's cancelled requests had.
    const budi = await ask(BUDI, "100000");
    expect(budi.exact).toBeGreaterThan(100_000);
    expect(budi.exact).toBeLessThan(101_000);

    // Six minutes later Dewi may ask again; the same /deposit handled twice is one request, not two.
    clock += 6 * 60 * 1000;
    const update = world.fake.sendText(DEWI, "/deposit 50rb");
    const made = await world.waitText(DEWI, /Permintaan deposit/);
    world.fake.redeliver(update);
    await world.fake.waitForIdle();
    const id = /DR[0-9A-Z]{19}/.exec(made.text)![0];
    expect(
      world.fake.messagesTo(DEWI.id).filter((m) => /Permintaan deposit/.test(m.text) && !m.text.includes(id)),
    ).toHaveLength(0);
    await answer(DEWI, () => world.fake.sendText(DEWI, "/deposit 60rb"), /satu jam terakhir/);
  });

  it("when a proof comes for a request that no longer waits for one, then it is refused without downloading it", async () => {
    await start();
    await setPayInfo();
    const { message, id } = await ask(BUDI, "100rb");
    world.fake.tapButton(BUDI, message, `rq:${id}`);
    await world.waitText(BUDI, new RegExp(`Request <code>${id}</code> cancelled`));
    await answer(
      BUDI,
      () => world.fake.sendPhoto(BUDI, undefined, { replyTo: message, fileId: "late-proof", fileUniqueId: "late" }),
      /does not take a proof any more: cancelled/,
    );
    expect(world.fake.calls.filter((c) => c.method === "getFile")).toHaveLength(0);
  });

  it("when a document named .jpg is really a web page, then it is refused by its bytes, and a real picture is taken", async () => {
    await start();
    await setPayInfo();
    const { message, id } = await ask(BUDI, "100rb");
    await answer(
      BUDI,
      () =>
        world.fake.sendDocument(BUDI, {
          fileName: "bukti.jpg",
          content: "<html><script>alert(1)</script></html>",
          mimeType: "image/jpeg",
          replyTo: message,
        }),
      /Send the proof as a photo, an image/,
    );
    expect((await answer(BUDI, () => world.fake.sendText(BUDI, `/status ${id}`), /DR/)).text).toMatch(/waiting for/i);
    // A PDF sent as a plain file (no declared type) is what its bytes say: a proof.
    await answer(
      BUDI,
      () => world.fake.sendDocument(BUDI, { fileName: "transfer", content: "%PDF-1.4 transfer", replyTo: message }),
      new RegExp(`Proof received for <code>${id}</code>`),
    );
  });

  it("when an admin rejects, then nothing can approve it and the reseller gets the reason", async () => {
    await start();
    await setPayInfo();
    const { message, id } = await ask(DEWI, "75rb");
    await answer(
      DEWI,
      () => world.fake.sendPhoto(DEWI, undefined, { replyTo: message, fileUniqueId: "shot-1" }),
      /Bukti/,
    );
    const notice = await adminNotice(id);
    const approve = button(notice, /^ra:/);
    // A reseller pressing Approve (a forged tap on their own request): refused, nothing decided.
    world.fake.tapButton(DEWI, notice, approve);
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /khusus admin/.test(a.text ?? "")));
    world.fake.tapButton(ADMIN, notice, button(notice, /^rj:/));
    const prompt = await world.waitText(ADMIN, /Reply to this message with a short reason/);
    // An Approve from another copy of the notice (or an old one) after the Reject.
    world.fake.tapButton(ADMIN, notice, approve);
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => /Already decided: rejected/.test(a.text ?? "")),
    );
    await answer(ADMIN, () => world.fake.replyText(ADMIN, "no transfer found <b>", prompt, ADMIN.id), /was told why/);
    const told = await world.waitText(DEWI, /ditolak: no transfer found/);
    expect(told.text).toContain("&lt;b&gt;");
    await world.fake.waitForIdle();
    const saldo = await answer(DEWI, () => world.fake.sendText(DEWI, "/saldo"), /Saldo Anda/);
    expect(saldo.text).toContain("Rp 0");

    // The same picture for a new request: the admins are warned.
    const again = await ask(DEWI, "75rb");
    await answer(
      DEWI,
      () =>
        // The same bytes as another file (a screenshot saved and sent again): Telegram gives it a
        // new unique id; the bot knows it by its SHA-256.
        world.fake.sendPhoto(DEWI, undefined, {
          replyTo: again.message,
          fileId: "photo-2",
          fileUniqueId: "shot-2",
          bytes: Buffer.concat([ONE_PIXEL_PNG, Buffer.from("photo-1")]),
        }),
      /Bukti/,
    );
    const warned = await adminNotice(again.id);
    expect(warned.text).toContain(`already sent for <code>${id}</code>`);
  });

  it("when the bank shows another amount, then the admin credits that amount once", async () => {
    await start();
    await setPayInfo();
    // The one request waiting for a proof takes a photo sent without a reply.
    const { id } = await ask(BUDI, "200rb");
    await answer(BUDI, () => world.fake.sendPhoto(BUDI), /Proof received/);
    const notice = await adminNotice(id);
    const approve = button(notice, /^ra:/);
    world.fake.tapButton(ADMIN, notice, button(notice, /^ro:/));
    const prompt = await world.waitText(ADMIN, /Which amount does the bank show/);
    const summary = await answer(
      ADMIN,
      () => world.fake.replyText(ADMIN, "199.500", prompt, ADMIN.id),
      /Credit <b>Rp 199,500<\/b>/,
    );
    world.fake.tapButton(ADMIN, summary, button(summary, /^rt:/));
    await world.waitText(ADMIN, /approved: Rp 199,500 credited/);
    world.fake.tapButton(ADMIN, notice, approve);
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => /Already decided: approved/.test(a.text ?? "")),
    );
    const told = await world.waitText(BUDI, /Deposit credited/);
    expect(told.text).toContain("Rp 199,500");
  });

  it("when an admin types the bank's 100.137,00 as Other amount, then the bot asks first with the amount read, Cancel credits nothing, and only Confirm credits it, once", async () => {
    await start();
    await setPayInfo();
    const { message, id, exact } = await ask(BUDI, "100rb");
    await answer(BUDI, () => world.fake.sendPhoto(BUDI, undefined, { replyTo: message }), /Proof received/);
    const notice = await adminNotice(id);
    world.fake.tapButton(ADMIN, notice, button(notice, /^ro:/));
    const prompt = await world.waitText(ADMIN, /Which amount does the bank show/);
    const credited = () => world.fake.messagesTo(BUDI.id).filter((m) => /Deposit credited/.test(m.text));

    // The amount read is shown, with Confirm and Cancel; nothing is credited yet.
    const first = await answer(
      ADMIN,
      () => world.fake.replyText(ADMIN, "100.137,00", prompt, ADMIN.id),
      /Credit <b>Rp 100,137<\/b>/,
    );
    expect(first.text).toContain(`for <code>${id}</code> instead of Rp ${exact.toLocaleString("en-US")}?`);
    world.fake.tapButton(ADMIN, first, button(first, /^rx:/));
    await world.waitText(ADMIN, new RegExp(`Nothing credited for <code>${id}</code>: it still waits`));
    expect(first.reply_markup?.inline_keyboard ?? []).toEqual([]);
    await world.fake.waitForIdle();
    expect(credited()).toHaveLength(0);

    // What cannot be read gets an example, no summary.
    await answer(ADMIN, () => world.fake.replyText(ADMIN, "100.137,5", prompt, ADMIN.id), /I can't tell which amount/);

    const second = await answer(
      ADMIN,
      () => world.fake.replyText(ADMIN, "100.137,00", prompt, ADMIN.id),
      /Credit <b>Rp 100,137<\/b>/,
    );
    const confirm = button(second, /^rt:/);
    world.fake.tapButton(ADMIN, second, confirm);
    world.fake.tapButton(ADMIN, second, confirm);
    await world.waitText(ADMIN, /approved: Rp 100,137 credited/);
    const told = await world.waitText(BUDI, /Deposit credited/);
    expect(told.text).toContain("Rp 100,137");

    // Decided now: another amount typed gets no summary to confirm.
    await answer(ADMIN, () => world.fake.replyText(ADMIN, "5rb", prompt, ADMIN.id), /Already decided: approved/);
    await world.fake.waitForIdle();
    expect(credited()).toHaveLength(1);
  });

  it("when a reseller taps Top up saldo under /saldo and replies with an amount, then a request is made", async () => {
    await start();
    await setPayInfo();
    const saldo = await answer(BUDI, () => world.fake.sendText(BUDI, "/saldo"), /Your saldo/);
    world.fake.tapButton(BUDI, saldo, button(saldo, /^rn:/));
    const prompt = await world.waitText(BUDI, /How much do you want to top up/);
    expect(prompt.reply_markup?.force_reply).toBe(true);
    const made = await answer(BUDI, () => world.fake.replyText(BUDI, "75rb", prompt, BUDI.id), /Deposit request/);
    expect(made.text).toMatch(/Transfer exactly <b>Rp 75,[0-9]{3}<\/b>/);
    await answer(BUDI, () => world.fake.replyText(BUDI, "lots", prompt, BUDI.id), /not an amount you can ask for/);
  });

  it("when an admin rejects and gives no reason within 10 minutes, then the reseller is told it was rejected", async () => {
    await start();
    await setPayInfo();
    const { message, id } = await ask(BUDI, "40rb");
    await answer(BUDI, () => world.fake.sendPhoto(BUDI, undefined, { replyTo: message }), /Proof received/);
    const notice = await adminNotice(id);
    world.fake.tapButton(ADMIN, notice, button(notice, /^rj:/));
    const prompt = await world.waitText(ADMIN, /Reply to this message with a short reason/);
    clock += 11 * 60 * 1000;
    const told = await world.waitText(BUDI, new RegExp(`<code>${id}</code> \\(Rp 40,[0-9]{3}\\) was rejected\\.`));
    expect(told.text).not.toMatch(/rejected:/);
    // A reason that comes after that is not passed on twice.
    await answer(ADMIN, () => world.fake.replyText(ADMIN, "late", prompt, ADMIN.id), /already told/);
    expect(world.fake.messagesTo(BUDI.id).filter((m) => m.text.includes("was rejected"))).toHaveLength(1);
  });

  it("when the admin sets the QRIS picture with /payinfo, then each request shows it, and a PDF proof is taken", async () => {
    await start();
    await answer(ADMIN, () => world.fake.sendText(ADMIN, "/payinfo"), /No payment instructions yet/);
    await answer(
      ADMIN,
      () => world.fake.sendPhoto(ADMIN, undefined, { fileId: "qris-1", fileUniqueId: "qris", caption: "/payinfo" }),
      /instructions set[\s\S]*Scan the QRIS above[\s\S]*with the image/,
    );
    const shown = await answer(ADMIN, () => world.fake.sendText(ADMIN, "/payinfo"), /Payment instructions/);
    expect(shown.method).toBe("sendPhoto");

    // The request comes with the QRIS picture, its text as the caption.
    const { message, id } = await ask(BUDI, "120rb");
    expect(message.method).toBe("sendPhoto");
    expect(message.text).toContain("Scan the QRIS above");

    // A file of another type is refused with what a proof may be; a PDF is a proof.
    world.fake.sendDocument(BUDI, {
      fileName: "bukti.zip",
      content: "PK",
      mimeType: "application/zip",
      replyTo: message,
    });
    await world.waitText(BUDI, /Send the proof as a photo, an image/);
    world.fake.sendDocument(BUDI, {
      fileName: "bukti.pdf",
      content: "%PDF-1.4 transfer",
      mimeType: "application/pdf",
      replyTo: message,
    });
    await world.waitText(BUDI, new RegExp(`Proof received for <code>${id}</code>`));
    const notice = await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendDocument" && m.text.includes(id));
    expect(notice.text).toContain("Rp 120,");

    await answer(ADMIN, () => world.fake.sendText(ADMIN, "/payinfo off"), /instructions removed/);
    await answer(DEWI, () => world.fake.sendText(DEWI, "/deposit 100rb"), /Toko belum mengatur deposit/);
  });

  it("when a request waits for its proof past its time, then it expires and the reseller is told", async () => {
    await start();
    await setPayInfo();
    const { message, id } = await ask(BUDI, "100rb");
    clock += 25 * 60 * 60 * 1000;
    const told = await world.waitText(BUDI, /expired without a proof/);
    expect(told.text).toContain(id);
    await answer(
      BUDI,
      () => world.fake.sendPhoto(BUDI, undefined, { replyTo: message }),
      /does not take a proof any more: expired/,
    );
    expect(world.fake.messagesTo(ADMIN.id).some((m) => m.method === "sendPhoto")).toBe(false);
  });
});
