import { dayIn } from "../../../src/calendar.js";
import { gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OrderLedger } from "../../../src/orders/ledger.js";
import { CSV_HEADER } from "../../../src/reports/csv.js";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";
import { ADMIN, button, STAFF, staffWorld, type World } from "../world.js";

const RESELLER: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };

describe("old orders: compacted in Redis, still answered by the chat", () => {
  let world: World;
  beforeEach(async () => {
    world = await staffWorld({ initialBalance: 5_000_000 });
    world.env.RESELLER_IDS = String(RESELLER.id);
  });
  afterEach(() => world.cleanup());

  /** Sends a text and resolves with the first message after it that matches. */
  async function ask(user: FakeUser, text: string, pattern: RegExp): Promise<SentMessage> {
    const before = world.fake.messagesTo(user.id).length;
    world.fake.sendText(user, text);
    return world.fake.waitForMessage(
      user.id,
      (m) => pattern.test(m.text) && world.fake.messagesTo(user.id).indexOf(m) >= before,
    );
  }

  /** Taps a button and resolves with the next document sent. */
  async function documentAfterTap(user: FakeUser, message: SentMessage, data: string) {
    const before = world.fake.messagesTo(user.id).length;
    world.fake.tapButton(user, message, data);
    return world.fake.waitForMessage(
      user.id,
      (m) => m.document !== undefined && world.fake.messagesTo(user.id).indexOf(m) >= before,
    );
  }

  it("when every finished order is compacted (LEDGER_HOT_DAYS=0), then /status, /history, /report, its CSV, /saldo and an old Confirm answer exactly as before", async () => {
    const bot = await world.run({ LEDGER_HOT_DAYS: "0", LEDGER_COMPACT_EVERY_MS: "3600000" });
    const app = bot.app!;
    const depositSummary = await ask(ADMIN, `/deposit ${RESELLER.id} 200000`, /Confirm|Konfirmasi/);
    world.fake.tapButton(ADMIN, depositSummary, button(depositSummary, /^dc:/));
    await world.waitText(RESELLER, /saldo/i);
    const refs: string[] = [];
    const summaries: Array<{ message: SentMessage; confirm: string }> = [];
    for (const [user, code, player] of [
      [STAFF, "ML86", "12345678(1234)"],
      [STAFF, "FF70", "123456789"],
      [ADMIN, "ML172", "87654321(4321)"],
      [RESELLER, "ML86", "12345678(1234)"],
      [RESELLER, "FF70", "555555555"],
    ] as const) {
      const summary = await world.summaryFor(user, code, player);
      const refId = /<code>([A-Z0-9]{20,})<\/code>/.exec(summary.text)![1]!;
      const confirm = button(summary, /^c:/);
      world.fake.tapButton(user, summary, confirm);
      await world.fake.waitForMessage(
        user.id,
        (m) => m.text.includes(refId) && m.message_id !== summary.message_id && /SN:? <code>/.test(m.text),
      );
      refs.push(refId);
      summaries.push({ message: summary, confirm });
    }
    const questions: Array<[FakeUser, string, RegExp]> = [
      ...refs.map((r): [FakeUser, string, RegExp] => [ADMIN, `/status ${r}`, new RegExp(r)]),
      [STAFF, `/status ${refs[0]!.toLowerCase()}`, new RegExp(refs[0]!)],
      [STAFF, "/history", /page 1|halaman 1/],
      [ADMIN, "/history all", /All orders/],
      [RESELLER, "/history", /page 1/],
      [ADMIN, "/report", /Sales report/],
      [RESELLER, "/saldo", /Your saldo/],
      [ADMIN, `/saldo ${RESELLER.id}`, /saldo/i],
    ];
    const answer = async () => {
      const texts: string[] = [];
      for (const [user, text, pattern] of questions) texts.push((await ask(user, text, pattern)).text);
      const report = await ask(ADMIN, "/report", /Sales report/);
      const csv = await documentAfterTap(ADMIN, report, button(report, /CSV/));
      return { texts, csv: csv.document!.content };
    };
    const before = await answer();
    const providerCalls = world.sandbox.calls.length;

    const pass = await app.compaction.runOnce();
    expect(pass).toEqual({ orders: 5, movements: 0 });
    const { storage } = app;
    if (storage.kind !== "redis") throw new Error("redis expected");
    for (const r of refs) expect(await storage.redis.exists(`${world.prefix}o:${r}`)).toBe(0);

    expect(await answer()).toEqual(before);
    // An old Confirm of a compacted order (a client resending it): answered, nothing sent again.
    const answered = world.fake.callbackAnswers.length;
    world.fake.tapButton(STAFF, summaries[0]!.message, summaries[0]!.confirm);
    await world.fake.waitFor(() => world.fake.callbackAnswers.length > answered);
    expect(world.sandbox.calls).toHaveLength(providerCalls);
  });

  it("when an admin asks for a month, then /export sends its orders as one CSV; a bad month, an empty one and a non-admin get a clear answer", async () => {
    const bot = await world.run({ LEDGER_HOT_DAYS: "0", LEDGER_COMPACT_EVERY_MS: "3600000" });
    await world.order(STAFF, "ML86", "12345678(1234)");
    await world.order(ADMIN, "FF70", "123456789");
    await bot.app!.compaction.runOnce();
    await world.order(STAFF, "ML172", "12345678(1234)"); // not compacted yet: both kinds in one file
    const month = dayIn("Asia/Jakarta", new Date()).slice(0, 7);

    const before = world.fake.messagesTo(ADMIN.id).length;
    world.fake.sendText(ADMIN, `/export ${month}`);
    const file = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.document !== undefined && world.fake.messagesTo(ADMIN.id).indexOf(m) >= before,
    );
    expect(file.document!.filename).toBe(`orders-${month}.csv`);
    expect(file.text).toBe(`Orders of ${month} (Asia/Jakarta): 3`);
    const rows = file.document!.content.trim().split("\r\n");
    expect(rows[0]).toBe(CSV_HEADER.join(","));
    expect(rows.slice(1).map((r) => r.split(",")[5])).toEqual(["ML86", "FF70", "ML172"]);

    for (const bad of ["2026-13", "march", "2026-3", "1999-12"])
      await ask(
        ADMIN,
        `/export ${bad}`,
        /Use \/export for this month, <code>\/export last month<\/code>, or \/export YYYY-MM/,
      );
    await ask(ADMIN, "/export 2020-02", /No orders in 2020-02/);
    await ask(STAFF, `/export ${month}`, /khusus admin/);
    expect(world.fake.messagesTo(STAFF.id).some((m) => m.document !== undefined)).toBe(false);
  });

  it("when an admin sends /export alone, then this month's file comes with a button for last month's, in English and Indonesian", async () => {
    const ID_ADMIN: FakeUser = { id: 1003, first_name: "Rina", language_code: "id" };
    // The shop's clock, moved by the test from one day to another (at noon in Jakarta: never near a midnight).
    let at = Date.parse("2026-02-20T05:00:00Z");
    const started = Date.now();
    await world.run({ ADMIN_IDS: `${ADMIN.id},${ID_ADMIN.id}` }, { now: () => new Date(at + (Date.now() - started)) });
    await world.order(STAFF, "ML86", "12345678(1234)");
    at = Date.parse("2026-03-15T05:00:00Z");
    await world.order(STAFF, "FF70", "123456789");
    await world.order(ADMIN, "ML172", "12345678(1234)");

    /** Sends a text (or taps a button) and resolves with the next document in the chat. */
    const nextDocument = async (user: FakeUser, act: () => void) => {
      const before = world.fake.messagesTo(user.id).length;
      act();
      return world.fake.waitForMessage(
        user.id,
        (m) => m.document !== undefined && world.fake.messagesTo(user.id).indexOf(m) >= before,
      );
    };
    const march = await nextDocument(ADMIN, () => world.fake.sendText(ADMIN, "/export"));
    expect(march.document!.filename).toBe("orders-2026-03.csv");
    expect(march.text).toBe("Orders of 2026-03 (Asia/Jakarta): 2");
    expect(march.document!.content.trim().split("\r\n")).toHaveLength(3);
    const lastMonth = button(march, /Last month: 2026-02/);
    const february = await nextDocument(ADMIN, () => world.fake.tapButton(ADMIN, march, lastMonth));
    expect(february.document!.filename).toBe("orders-2026-02.csv");
    expect(february.text).toBe("Orders of 2026-02 (Asia/Jakarta): 1");
    expect(february.document!.content).toContain(",ML86,");
    // In words, and by its number, as before.
    expect((await nextDocument(ADMIN, () => world.fake.sendText(ADMIN, "/export Last Month"))).text).toBe(
      "Orders of 2026-02 (Asia/Jakarta): 1",
    );
    expect((await nextDocument(ADMIN, () => world.fake.sendText(ADMIN, "/export 2026-03"))).text).toBe(
      "Orders of 2026-03 (Asia/Jakarta): 2",
    );

    // A month without orders yet says so, and still offers the month before.
    at = Date.parse("2026-04-02T05:00:00Z");
    const april = await ask(ID_ADMIN, "/export", /Tidak ada pesanan pada 2026-04/);
    const offered = button(april, /Bulan lalu: 2026-03/);
    const fromButton = await nextDocument(ID_ADMIN, () => world.fake.tapButton(ID_ADMIN, april, offered));
    expect(fromButton.text).toBe("Pesanan 2026-03 (Asia/Jakarta): 2");
    expect((await nextDocument(ID_ADMIN, () => world.fake.sendText(ID_ADMIN, "/export bulan lalu"))).text).toBe(
      "Pesanan 2026-03 (Asia/Jakarta): 2",
    );
    // The month's button is for admins only.
    world.fake.tapButton(STAFF, april, offered);
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /khusus admin/.test(a.text ?? "")));
    expect(world.fake.messagesTo(STAFF.id).some((m) => m.document !== undefined)).toBe(false);
  });

  it("when a month has 100,000 orders, then /export sends them all gzipped, well within Telegram's 50 MB", async () => {
    // The memory ledger (no REDIS_URL) takes 100,000 orders through its own steps in a second or two.
    const bot = await world.run({ REDIS_URL: "" });
    const ledger: OrderLedger = bot.app!.ledger;
    const start = Date.parse("2026-01-01T00:00:00+07:00");
    const span = Date.parse("2026-02-01T00:00:00+07:00") - start;
    const COUNT = 100_000;
    for (let i = 0; i < COUNT; i++) {
      const at = new Date(start + Math.floor((i * span) / COUNT)).toISOString();
      const refId = `TGBULK${String(i).padStart(14, "0")}`;
      await ledger.saveDraft(
        {
          refId,
          chatId: STAFF.id,
          userId: STAFF.id,
          userName: "Sari",
          lang: "id",
          gameName: "Mobile Legends",
          productCode: "ML86",
          productName: "86 Diamonds",
          price: 20000,
          playerId: `${10_000_000 + i}(1234)`,
          createdAt: at,
          state: "draft",
        },
        60_000,
      );
      await ledger.claim(refId, { userId: STAFF.id, at });
      await ledger.finish(
        { refId, userId: STAFF.id },
        { state: i % 10 === 0 ? "failed" : "success", at, result: { sn: String(i), trxId: `T${i}` } },
      );
    }
    const before = world.fake.messagesTo(ADMIN.id).length;
    world.fake.sendText(ADMIN, "/export 2026-01");
    const file = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.document !== undefined && world.fake.messagesTo(ADMIN.id).indexOf(m) >= before,
      60_000,
    );
    expect(file.document!.filename).toBe("orders-2026-01.csv.gz");
    expect(file.text).toMatch(/^Orders of 2026-01 \(Asia\/Jakarta\): 100000 \(gzip/);
    const bytes = file.document!.bytes!;
    expect(bytes.length).toBeLessThan(50 * 1024 * 1024);
    const rows = gunzipSync(bytes).toString("utf8").trim().split("\r\n");
    expect(rows).toHaveLength(COUNT + 1);
    expect(rows[0]).toBe(CSV_HEADER.join(","));
    expect(new Set(rows.slice(1).map((r) => r.split(",")[1])).size).toBe(COUNT);
    expect(rows.filter((r) => r.includes(",failed,"))).toHaveLength(COUNT / 10);
  }, 120_000);
});
