import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { button, createWorld, type RunningBot, type World } from "../world.js";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const ADMIN_ID: FakeUser = { id: 1003, first_name: "Dewi", language_code: "id" };
const STAFF: FakeUser = { id: 1002, first_name: "Sari", language_code: "id" };
const STRANGER: FakeUser = { id: 4004, first_name: "Budi", language_code: "en" };
const GROUP = -100123;
const TOPIC = 7;
const BOT_USERNAME = "topup_test_bot";

describe("ADMIN_CHAT_ID: the admins' group gets the notices and takes admin commands from admins only", () => {
  let world: World;
  const base = () => ({ ADMIN_IDS: `${ADMIN.id},${ADMIN_ID.id}`, ALLOWED_USER_IDS: String(STAFF.id) });
  const inGroup = (pattern: RegExp) => world.fake.messagesTo(GROUP).filter((m) => pattern.test(m.text));
  const privateNotices = () => [...world.fake.messagesTo(ADMIN.id), ...world.fake.messagesTo(ADMIN_ID.id)];
  /** Stops the bot; stop waits for every notice started, so counting afterwards counts them all. */
  const stopped = async (bot: RunningBot) => void (await bot.kill());

  beforeEach(async () => {
    world = await createWorld({ initialBalance: 100_000 });
  });
  afterEach(() => world.cleanup());

  it("when staff sells, then the sale notice goes to the group once, and to no admin's private chat", async () => {
    const bot = await world.run({ ...base(), ADMIN_CHAT_ID: String(GROUP) });
    const result = await world.order(STAFF, "ML86", "12345678(1234)");
    expect(result.text).toContain("Top-up berhasil");
    const notice = await world.fake.waitForMessage(GROUP, (m) => /Sale<\/b> by Sari/.test(m.text));
    expect(notice.text).toContain("<code>1002</code>");
    expect(notice.text).toContain("Balance after: Rp 80,500");
    expect(notice.message_thread_id).toBeUndefined();
    await stopped(bot);
    expect(inGroup(/Sale<\/b> by Sari/)).toHaveLength(1);
    expect(privateNotices()).toHaveLength(0);
  });

  it("when the first admin of ADMIN_IDS reads Indonesian, then the group's notices are in Indonesian", async () => {
    const bot = await world.run({ ADMIN_IDS: `${ADMIN_ID.id},${ADMIN.id}`, ADMIN_CHAT_ID: String(GROUP) });
    world.fake.sendText(ADMIN_ID, "/start");
    await world.waitText(ADMIN_ID, /Halo Dewi/);
    await world.order(ADMIN, "ML86", "12345678(1234)");
    await world.fake.waitForMessage(GROUP, (m) => /Penjualan<\/b> oleh Admin/.test(m.text));
    await stopped(bot);
    expect(world.fake.messagesTo(GROUP)).toHaveLength(1);
    // The admin's own private chat has the /start answer and the order, no notice.
    expect(privateNotices().filter((m) => /Penjualan|Sale<\/b>/.test(m.text))).toHaveLength(0);
  });

  it("when a sale goes below LOW_BALANCE_THRESHOLD and an order's result is unknown, then both notices go to the group", async () => {
    const bot = await world.run({
      ...base(),
      ADMIN_CHAT_ID: String(GROUP),
      LOW_BALANCE_THRESHOLD: "90000",
      TOPUP_BASE_URL: await world.flakyProvider(),
    });
    await world.order(STAFF, "ML86", "12345678(1234)"); // 80,500: below 90,000
    const alert = await world.fake.waitForMessage(GROUP, (m) => /Low balance<\/b>: Rp 80,500/.test(m.text));
    expect(alert.text).toContain("below the threshold of Rp 90,000");
    const unknown = await world.order(STAFF, "FF70", "777000111");
    const refId = /<code>(TG[A-Z0-9]+)<\/code>/.exec(unknown.text)?.[1] ?? "";
    expect(refId).not.toBe("");
    await world.fake.waitForMessage(GROUP, (m) =>
      new RegExp(`Order with unknown result</b> by Sari[^]*${refId}`).test(m.text),
    );
    await stopped(bot);
    expect(inGroup(/Low balance/)).toHaveLength(1);
    expect(inGroup(/Order with unknown result/)).toHaveLength(1);
    expect(privateNotices()).toHaveLength(0);
  });

  it("when ADMIN_CHAT_ID names a forum topic, then notices, command answers and the settle dialogue stay in that topic", async () => {
    await world.run({
      ...base(),
      ADMIN_CHAT_ID: `${GROUP}:${TOPIC}`,
      LOW_BALANCE_THRESHOLD: "90000",
      TOPUP_BASE_URL: await world.flakyProvider(),
    });
    await world.order(STAFF, "ML86", "12345678(1234)");
    const sale = await world.fake.waitForMessage(GROUP, (m) => /Sale<\/b> by Sari/.test(m.text));
    const alert = await world.fake.waitForMessage(GROUP, (m) => /Low balance/.test(m.text));
    expect(sale.message_thread_id).toBe(TOPIC);
    expect(alert.message_thread_id).toBe(TOPIC);
    const unknown = await world.order(STAFF, "FF70", "777000111");
    const refId = /<code>(TG[A-Z0-9]+)<\/code>/.exec(unknown.text)?.[1] ?? "";
    const notice = await world.fake.waitForMessage(GROUP, (m) => /Order with unknown result/.test(m.text));
    expect(notice.message_thread_id).toBe(TOPIC);

    // An admin's command in the topic is answered in the topic.
    world.fake.sendText(ADMIN, "/report", GROUP, TOPIC);
    const report = await world.fake.waitForMessage(GROUP, (m) => /Sales report/.test(m.text));
    expect(report.message_thread_id).toBe(TOPIC);
    world.fake.sendText(ADMIN, "/pending", GROUP, TOPIC);
    const item = await world.fake.waitForMessage(GROUP, (m) => m.text.includes(`<code>${refId}</code> · `));
    expect(item.message_thread_id).toBe(TOPIC);

    // Staff tapping the settle button in the group is refused; an admin's tap asks for the SN, in the topic.
    world.fake.tapButton(STAFF, item, button(item, /Success/));
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => /khusus admin|for admins/.test(a.text ?? "") && a.show_alert === true),
    );
    world.fake.tapButton(ADMIN, item, button(item, /Success/));
    const ask = await world.fake.waitForMessage(GROUP, (m) => /Send the SN of order/.test(m.text));
    expect(ask.message_thread_id).toBe(TOPIC);
    expect(inGroup(/Settled|is settled/)).toHaveLength(0);
  });

  it("when the bot is not in the group any more, then the notices fall back to each admin's private chat, and that is logged", async () => {
    const bot = await world.run({ ...base(), ADMIN_CHAT_ID: String(GROUP), LOW_BALANCE_THRESHOLD: "90000" });
    world.fake.blockChat(GROUP);
    await world.order(STAFF, "ML86", "12345678(1234)");
    const sale = await world.waitText(ADMIN, /Sale<\/b> by Sari/);
    expect(sale.text).toContain("Balance after: Rp 80,500");
    await world.fake.waitForMessage(ADMIN_ID.id, (m) => /Sale<\/b> by Sari/.test(m.text));
    await world.waitText(ADMIN, /Low balance/);
    await world.fake.waitForMessage(ADMIN_ID.id, (m) => /Low balance/.test(m.text));
    await stopped(bot);
    expect(world.fake.messagesTo(GROUP)).toHaveLength(0);
    expect(bot.output()).toMatch(
      /notice not delivered to ADMIN_CHAT_ID[^\n]*"chatId":-100123|"chatId":-100123[^\n]*notice not delivered to ADMIN_CHAT_ID/,
    );
    expect(bot.output()).toContain("bot was blocked");
    expect(privateNotices().filter((m) => /Sale<\/b>/.test(m.text))).toHaveLength(2);
  });

  it("when the bot starts with ADMIN_CHAT_ID, then each admin of ADMIN_IDS gets the admin menu in that group", async () => {
    await world.run({ ...base(), ADMIN_CHAT_ID: `${GROUP}:${TOPIC}` });
    const inAdminChat = () =>
      world.fake.calls.filter((c) => c.method === "setMyCommands" && c.payload.scope?.type === "chat_member");
    await world.fake.waitFor(() => inAdminChat().length === 4);
    for (const admin of [ADMIN, ADMIN_ID]) {
      const menus = inAdminChat().filter((c) => c.payload.scope.user_id === admin.id);
      expect(menus.map((c) => c.payload.scope.chat_id)).toEqual([GROUP, GROUP]);
      expect(menus.map((c) => c.payload.language_code)).toEqual([undefined, "id"]);
      for (const c of menus) expect(c.payload.commands.map((x: { command: string }) => x.command)).toContain("report");
    }
  });

  it("when ADMIN_CHAT_ID is unset, then each admin gets the notice in their private chat, as before", async () => {
    const bot = await world.run(base());
    await world.order(STAFF, "ML86", "12345678(1234)");
    await world.waitText(ADMIN, /Sale<\/b> by Sari/);
    await world.fake.waitForMessage(ADMIN_ID.id, (m) => /Sale<\/b> by Sari/.test(m.text));
    await stopped(bot);
    expect(world.fake.messagesTo(GROUP)).toHaveLength(0);
  });

  it("when members write in the admin group, then an admin's /report works, staff are refused and a stranger's chatter gets no answer", async () => {
    await world.run({ ...base(), ADMIN_CHAT_ID: String(GROUP) });
    await world.order(STAFF, "ML86", "12345678(1234)");
    await world.fake.waitForMessage(GROUP, (m) => /Sale<\/b> by Sari/.test(m.text));
    const count = () => world.fake.messagesTo(GROUP).length;
    /** The bot's messages in the group after the first `from` ones. */
    const since = (from: number): SentMessage[] => world.fake.messagesTo(GROUP).slice(from);

    world.fake.sendText(ADMIN, "/report", GROUP);
    const report = await world.fake.waitForMessage(GROUP, (m) => /Sales report/.test(m.text));
    expect(report.text).toContain("Orders: 1");
    let before = count();
    world.fake.sendText(ADMIN, `/report@${BOT_USERNAME}`, GROUP);
    await world.fake.waitFor(() => since(before).some((m) => /Sales report/.test(m.text)));

    before = count();
    world.fake.sendText(STAFF, "/report", GROUP);
    const refusal = await world.fake.waitForMessage(
      GROUP,
      (m) => /khusus admin|for admins/.test(m.text) && world.fake.messagesTo(GROUP).indexOf(m) >= before,
    );
    expect(since(before)).toEqual([refusal]);
    before = count();
    world.fake.sendText(STAFF, `/pending@${BOT_USERNAME}`, GROUP);
    await world.fake.waitFor(() => since(before).some((m) => /khusus admin|for admins/.test(m.text)));
    expect(since(before).some((m) => /unknown result|belum diketahui/.test(m.text))).toBe(false);

    // A stranger: chatter gets nothing; their command gets no data. The updates of one chat are
    // handled in order, so once the admin's answer is there, what the stranger sent was handled.
    const pendingNone = /No orders with an unknown result/;
    before = count();
    world.fake.sendText(STRANGER, "hi all, who sells diamonds here?", GROUP);
    world.fake.sendText(ADMIN, "/pending", GROUP);
    await world.fake.waitFor(() => since(before).some((m) => pendingNone.test(m.text)));
    expect(since(before).map((m) => m.text)).toEqual([expect.stringMatching(pendingNone)]);
    before = count();
    world.fake.sendText(STRANGER, "/report", GROUP);
    world.fake.sendText(ADMIN, "/pending", GROUP);
    await world.fake.waitFor(() => since(before).some((m) => pendingNone.test(m.text)));
    const toStranger = since(before).slice(0, -1);
    expect(toStranger.length).toBeLessThanOrEqual(1);
    for (const m of toStranger) expect(m.text).toMatch(/may not order[^]*<code>4004<\/code>/);
    expect(toStranger.map((m) => m.text).join("\n")).not.toMatch(/Sales report|Rp|Orders:/);
  });
});
