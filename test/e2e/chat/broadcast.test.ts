import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";
import { button, createWorld, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const STAFF: FakeUser = { id: 1002, first_name: "Sari", language_code: "en" };
/** Allowed in ALLOWED_USER_IDS but never opened the bot: Telegram would refuse a message to them. */
const SILENT: FakeUser = { id: 1004, first_name: "Tono", language_code: "en" };
const RESELLER: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };
const ENV_RESELLER: FakeUser = { id: 5006, first_name: "Dewi", language_code: "id" };
const STRANGER: FakeUser = { id: 8888, first_name: "Stranger", language_code: "en" };

const ANNOUNCEMENT = /Announcement|Pengumuman/;

describe("/broadcast through the bot: a preview, Confirm once, one message to each user who may order", () => {
  let world: World;
  const base = {
    ADMIN_IDS: String(ADMIN.id),
    ALLOWED_USER_IDS: `${STAFF.id},${SILENT.id}`,
    RESELLER_IDS: String(ENV_RESELLER.id),
    BROADCAST_INTERVAL_MS: "0",
  };

  beforeEach(async () => {
    world = await createWorld();
  });
  afterEach(() => world.cleanup());

  /** The announcements a user got (not the admin's preview, which shows the same text under its heading). */
  const announcementsTo = (user: FakeUser) =>
    world.fake.messagesTo(user.id).filter((m) => ANNOUNCEMENT.test(m.plain_text.split("\n")[0] ?? ""));

  /** Staff and the env reseller open the bot; a stranger does too; 5005 is allowed as a reseller and writes. */
  async function usersStart() {
    world.fake.sendText(STAFF, "/start");
    await world.waitText(STAFF, /Hi Sari/);
    world.fake.sendText(ENV_RESELLER, "/start");
    await world.waitText(ENV_RESELLER, /Halo Dewi/);
    world.fake.sendText(STRANGER, "/start");
    await world.waitText(STRANGER, /may not order/);
    world.fake.sendText(ADMIN, "/allow 5005 reseller");
    await world.waitText(ADMIN, /<code>5005<\/code> is a reseller now/);
    // Not /start: any private message of someone who may order counts as having started the bot.
    world.fake.sendText(RESELLER, "/help");
    await world.waitText(RESELLER, /Products:/);
  }

  /** /broadcast by the admin; resolves with the preview (the message with the bc: button). */
  async function preview(text: string): Promise<SentMessage> {
    const before = world.fake.messagesTo(ADMIN.id).length;
    world.fake.sendText(ADMIN, `/broadcast ${text}`);
    return world.fake.waitForMessage(
      ADMIN.id,
      (m) => /"bc:/.test(JSON.stringify(m.reply_markup ?? {})) && world.fake.messagesTo(ADMIN.id).indexOf(m) >= before,
    );
  }

  const report = (pattern: RegExp = /Broadcast finished/) => world.waitText(ADMIN, pattern);

  it("when an admin confirms a broadcast, then each user who may order and has started the bot gets it once, nobody else", async () => {
    await world.run(base);
    await usersStart();
    const shown = await preview("Promo <b>hari ini</b>!\nDiskon 10% untuk ML & FF");
    expect(shown.text).toContain("exactly this goes to <b>4</b> users");
    // The text exactly as written: escaped, so it shows as typed and cannot break the HTML.
    expect(shown.plain_text).toContain("Promo <b>hari ini</b>!\nDiskon 10% untuk ML & FF");
    world.fake.tapButton(ADMIN, shown, button(shown, /^bc:/));

    const done = await report();
    expect(done.text).toContain("<b>4</b> delivered, 0 blocked the bot, 0 failed (of 4)");
    for (const user of [ADMIN, STAFF, RESELLER, ENV_RESELLER]) {
      const got = announcementsTo(user);
      expect(got).toHaveLength(1);
      expect(got[0]!.plain_text).toContain("Promo <b>hari ini</b>!\nDiskon 10% untuk ML & FF");
    }
    // In each user's own language.
    expect(announcementsTo(ENV_RESELLER)[0]!.plain_text).toMatch(/^📢 Pengumuman/);
    expect(announcementsTo(STAFF)[0]!.plain_text).toMatch(/^📢 Announcement/);
    // Never started the bot, or may not order: nothing.
    expect(world.fake.messagesTo(SILENT.id)).toHaveLength(0);
    expect(announcementsTo(STRANGER)).toHaveLength(0);
    // The preview ends with the count and without its buttons.
    await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === shown.message_id && /✅ Sent to 4 users: delivered 4/.test(m.text),
    );
    expect(
      world.fake.messagesTo(ADMIN.id).find((m) => m.message_id === shown.message_id)?.reply_markup,
    ).toBeUndefined();
  });

  it("when Confirm is tapped twice at once and Telegram sends the tap again, then the broadcast goes out once", async () => {
    await world.run(base);
    await usersStart();
    const shown = await preview("Maintenance tonight 23:00");
    const data = button(shown, /^bc:/);
    const cancel = button(shown, /^bx:/);
    let tap: ReturnType<typeof world.fake.tapButton> | undefined;
    world.fake.batch(() => {
      tap = world.fake.tapButton(ADMIN, shown, data);
      world.fake.tapButton(ADMIN, shown, data);
    });
    await report();
    world.fake.redeliver(tap!);
    // Cancel after the fact changes nothing either.
    world.fake.tapButton(ADMIN, shown.message_id, cancel);
    await world.fake.waitFor(
      () => world.fake.callbackAnswers.filter((a) => /already (being )?sent/.test(a.text ?? "")).length >= 3,
    );
    await world.fake.waitForIdle();
    for (const user of [ADMIN, STAFF, RESELLER, ENV_RESELLER]) expect(announcementsTo(user)).toHaveLength(1);
    expect(world.fake.messagesTo(ADMIN.id).filter((m) => /Broadcast finished/.test(m.text))).toHaveLength(1);
  });

  it("when a user blocked the bot and Telegram asks to slow down, then the blocked one is counted and the others get it once", async () => {
    await world.run(base);
    await usersStart();
    world.fake.blockChat(RESELLER.id);
    const shown = await preview("Harga baru mulai besok");
    // The first message is refused with 429: auto-retry waits retry_after and sends it then.
    world.fake.failNext("sendMessage", {
      error_code: 429,
      description: "Too Many Requests: retry after 1",
      parameters: { retry_after: 1 },
    });
    world.fake.tapButton(ADMIN, shown, button(shown, /^bc:/));
    const done = await report();
    expect(done.text).toContain("<b>3</b> delivered, 1 blocked the bot, 0 failed (of 4)");
    expect(announcementsTo(STAFF)).toHaveLength(1);
    expect(announcementsTo(ENV_RESELLER)).toHaveLength(1);
    expect(announcementsTo(RESELLER)).toHaveLength(0);
    const refused = world.fake.calls.filter((c) => c.method === "sendMessage" && c.answer?.ok === false);
    expect(refused.map((c) => (c.answer as { error_code: number }).error_code).sort()).toEqual([403, 429]);
  });

  it("when the bot stops in the middle of a broadcast, then the next start goes on and nobody gets it twice", async () => {
    // A long pause after each message: the stop comes, deterministically, after the first one.
    const first = await world.run({ ...base, BROADCAST_INTERVAL_MS: "60000" });
    await usersStart();
    const shown = await preview("Server pindah, bot tetap sama");
    world.fake.tapButton(ADMIN, shown, button(shown, /^bc:/));
    const everyone = [ADMIN, STAFF, RESELLER, ENV_RESELLER];
    const sent = () => everyone.reduce((n, u) => n + announcementsTo(u).length, 0);
    await world.fake.waitFor(() => sent() === 1);
    // stop() does not wait out the pause: it ends the loop after the message in flight.
    await first.kill();
    expect(sent()).toBe(1);

    const second = await world.run(base);
    const done = await report();
    expect(done.text).toContain("<b>4</b> delivered, 0 blocked the bot, 0 failed (of 4)");
    for (const user of everyone) expect(announcementsTo(user)).toHaveLength(1);
    expect(second.output()).not.toMatch(/interrupted, not repeated/);
    await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === shown.message_id && /✅ Sent to 4 users/.test(m.text),
    );
  });

  it("when a broadcast reaches many users, then the admin sees the progress on the preview and the count at the end", async () => {
    const many: FakeUser[] = Array.from({ length: 26 }, (_, i) => ({
      id: 3000 + i,
      first_name: `User${i}`,
      language_code: "en",
    }));
    await world.run({ ...base, ALLOWED_USER_IDS: many.map((u) => u.id).join(",") });
    for (const user of many) world.fake.sendText(user, "/start");
    await world.fake.waitFor(() => many.every((u) => world.fake.messagesTo(u.id).length === 1));
    const shown = await preview("Stok diamond sudah diisi ulang");
    expect(shown.text).toContain("goes to <b>27</b> users"); // the 26 and the admin
    world.fake.tapButton(ADMIN, shown, button(shown, /^bc:/));
    const done = await report();
    expect(done.text).toContain("<b>27</b> delivered, 0 blocked the bot, 0 failed (of 27)");
    const edits = world.fake.messagesTo(ADMIN.id).find((m) => m.message_id === shown.message_id)!.edits;
    expect(edits.some((e) => /Sending: 25 of 27 \(delivered 25, blocked 0, failed 0\)/.test(e.text ?? ""))).toBe(true);
    for (const user of many) expect(announcementsTo(user)).toHaveLength(1);
  });

  it("when the admin cancels, then nobody gets it and its Confirm says it was cancelled", async () => {
    await world.run(base);
    await usersStart();
    const shown = await preview("Salah ketik");
    const confirm = button(shown, /^bc:/);
    world.fake.tapButton(ADMIN, shown, button(shown, /^bx:/));
    await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === shown.message_id && /Cancelled: nothing was sent/.test(m.text),
    );
    world.fake.tapButton(ADMIN, shown.message_id, confirm);
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /was cancelled/.test(a.text ?? "")));
    await world.fake.waitForIdle();
    for (const user of [STAFF, RESELLER, ENV_RESELLER]) expect(announcementsTo(user)).toHaveLength(0);
  });

  it("when someone who is not an admin tries, then they are refused and nothing is sent", async () => {
    await world.run(base);
    await usersStart();
    world.fake.sendText(STAFF, "/broadcast hello everyone");
    await world.waitText(STAFF, /This command is for admins/);
    world.fake.sendText(STRANGER, "/broadcast hello everyone");
    await world.fake.waitFor(
      () => world.fake.messagesTo(STRANGER.id).filter((m) => /may not order/.test(m.text)).length === 2,
    );
    // A staff member taps (or forges) the Confirm of a real preview: refused, nothing sent.
    const shown = await preview("Only for the admin to confirm");
    world.fake.tapButton(STAFF, STAFF.id, button(shown, /^bc:/));
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /for admins/.test(a.text ?? "")));
    // Usage and length are checked before any preview.
    world.fake.sendText(ADMIN, "/broadcast");
    await world.waitText(ADMIN, /Use <code>\/broadcast TEXT<\/code>/);
    world.fake.sendText(ADMIN, `/broadcast ${"x".repeat(3501)}`);
    await world.waitText(ADMIN, /3501 characters; a broadcast can have at most 3500/);
    await world.fake.waitForIdle();
    for (const user of [STAFF, RESELLER, ENV_RESELLER]) expect(announcementsTo(user)).toHaveLength(0);
  });
});
