import { readFile } from "node:fs/promises";
import type { Update } from "grammy/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiCall, FakeUser, SentMessage } from "./fake-bot-api.js";
import { ADMIN, button, createWorld, STAFF, type RunningBot, type World } from "./world.js";
import { keysOf } from "../helpers/redis.js";

const RESELLER: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };

/** The ids a message's buttons act on, by callback prefix (`c:TG…` → TG…). */
const idsOn = (m: SentMessage, prefix: string) =>
  JSON.stringify(m.reply_markup ?? {})
    .match(new RegExp(`"${prefix}:([A-Za-z0-9]+)"`))
    ?.slice(1) ?? [];

/**
 * The bot as operators run it (`node dist/main.js`), SIGKILLed in the moment after Telegram took
 * the message that shows what an update made (Telegram has it, the bot never learns that it went
 * out), then started again: the update is handled a second time by the new process. Whatever the
 * user then sees carries the same id, and acting on all of it acts once.
 */
describe("once per update across a kill: the process dies right after it replied, another handles the update again", () => {
  let world: World;
  beforeEach(async () => {
    world = await createWorld({ initialBalance: 1_000_000 });
    Object.assign(world.env, {
      ADMIN_IDS: String(ADMIN.id),
      ALLOWED_USER_IDS: String(STAFF.id),
      RESELLER_IDS: String(RESELLER.id),
      LOG_LEVEL: "info",
    });
  });
  afterEach(() => world.cleanup());

  /**
   * Runs `act` against a bot process that is killed as soon as it sends a message `shows`, then
   * starts the next process, which handles the update again; resolves once it has (its "update
   * handled" line for that update), with the messages to `user` that `shows`, oldest first.
   */
  async function killedAfterReply(
    user: FakeUser,
    shows: (call: ApiCall) => boolean,
    act: () => Update,
    extra: Record<string, string> = {},
  ): Promise<{ shown: SentMessage[]; next: RunningBot }> {
    const first = await world.runProcess(extra);
    let killed: Promise<unknown> | undefined;
    const stop = world.fake.beforeAnswer(async (call) => {
      if (killed !== undefined || call.method !== "sendMessage" || !shows(call)) return;
      killed = first.kill("SIGKILL");
      await killed;
    });
    const update = act();
    await world.fake.waitFor(() => killed !== undefined, 20_000);
    await killed;
    stop();
    const next = await world.runProcess(extra);
    await world.fake.waitFor(
      () => new RegExp(`"updateId":${update.update_id},[^\\n]*"msg":"update handled"`).test(next.output()),
      20_000,
    );
    const sent = world.fake.calls.filter((c) => c.method === "sendMessage" && shows(c) && c.answer?.ok === true);
    const ids = new Set(sent.map((c) => (c.answer as { result: { message_id: number } }).result.message_id));
    return { shown: world.fake.messagesTo(user.id).filter((m) => ids.has(m.message_id)), next };
  }

  const hasButton = (prefix: string) => (call: ApiCall) =>
    JSON.stringify(call.payload.reply_markup ?? {}).includes(`"${prefix}:`);

  it("when /order CODE PLAYER_ID is handled again after the kill, then the user sees one ref id, and Confirm on both summaries orders once", async () => {
    const { shown } = await killedAfterReply(STAFF, hasButton("c"), () =>
      world.fake.sendText(STAFF, "/order ML86 12345678(1234)"),
    );
    expect(shown).toHaveLength(2);
    const refs = new Set(shown.flatMap((m) => idsOn(m, "c")));
    expect(refs.size).toBe(1);
    expect(await keysOf(world.prefix, "o:*")).toHaveLength(1);
    for (const summary of shown) world.fake.tapButton(STAFF, summary, button(summary, /^c:/));
    await world.waitText(STAFF, /Top-up berhasil/);
    await world.fake.waitFor(() => world.fake.callbackAnswers.length >= 2);
    await world.fake.waitForIdle();
    expect(world.sandbox.calls.map((c) => c.refId)).toEqual([...refs]);
  });

  it("when the dialogue's last step is handled again after the kill, then it is the same draft, and Confirm on both summaries orders once", async () => {
    const { shown } = await killedAfterReply(ADMIN, hasButton("c"), () => {
      // Typed after the question arrives (the kill only takes the summary's send).
      world.fake.sendText(ADMIN, "/order ML86");
      return world.fake.sendText(ADMIN, "12345678(1234)");
    });
    expect(shown).toHaveLength(2);
    const refs = new Set(shown.flatMap((m) => idsOn(m, "c")));
    expect(refs.size).toBe(1);
    expect(await keysOf(world.prefix, "o:*")).toHaveLength(1);
    for (const summary of shown) world.fake.tapButton(ADMIN, summary, button(summary, /^c:/));
    await world.waitText(ADMIN, /Top-up successful/);
    await world.fake.waitFor(() => world.fake.callbackAnswers.length >= 2);
    await world.fake.waitForIdle();
    expect(world.sandbox.calls).toHaveLength(1);
  });

  it("when /deposit is handled again after the kill, then both summaries are one deposit, credited once", async () => {
    const { shown } = await killedAfterReply(ADMIN, hasButton("dc"), () =>
      world.fake.sendText(ADMIN, "/deposit 5005 50000"),
    );
    expect(shown).toHaveLength(2);
    expect(new Set(shown.flatMap((m) => idsOn(m, "dc"))).size).toBe(1);
    for (const summary of shown) world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    await world.fake.waitFor(() => world.fake.callbackAnswers.length >= 2);
    world.fake.sendText(RESELLER, "/saldo");
    await world.waitText(RESELLER, /Rp 50,000/);
    expect(await keysOf(world.prefix, "dep:*")).toHaveLength(1);
    expect(world.fake.callbackAnswers.some((a) => /already/i.test(a.text ?? ""))).toBe(true);
  });

  it("when /broadcast is handled again after the kill, then both previews are one broadcast, sent once to each", async () => {
    world.fake.sendText(STAFF, "/start"); // handled by the first process before the broadcast
    const { shown } = await killedAfterReply(ADMIN, hasButton("bc"), () =>
      world.fake.sendText(ADMIN, "/broadcast Promo hari ini"),
    );
    expect(shown).toHaveLength(2);
    expect(new Set(shown.flatMap((m) => idsOn(m, "bc"))).size).toBe(1);
    for (const preview of shown) world.fake.tapButton(ADMIN, preview, button(preview, /^bc:/));
    await world.waitText(ADMIN, /Broadcast finished/);
    await world.fake.waitForIdle();
    expect(world.fake.messagesTo(STAFF.id).filter((m) => /Promo hari ini/.test(m.text))).toHaveLength(1);
    expect(new Set((await keysOf(world.prefix, "bc:*")).map((k) => k.split(":")[1]))).toHaveLength(1);
  });

  it("when a catalogue document is handled again after the kill, then both diffs are one change, applied once", async () => {
    const catalog = JSON.parse(await readFile("catalog.json", "utf8"));
    catalog.games[0].products[0].price = 20500;
    const { shown } = await killedAfterReply(ADMIN, hasButton("kc"), () =>
      world.fake.sendDocument(ADMIN, { fileName: "catalog.json", content: JSON.stringify(catalog) }),
    );
    expect(shown).toHaveLength(2);
    expect(new Set(shown.flatMap((m) => idsOn(m, "kc"))).size).toBe(1);
    for (const diff of shown) world.fake.tapButton(ADMIN, diff, button(diff, /^kc:/));
    await world.fake.waitFor(() => world.fake.callbackAnswers.length >= 2);
    world.fake.sendText(ADMIN, "/catalog");
    const file = await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendDocument");
    expect(file.text).toMatch(/version 1\b/);
  });

  it("when /price is handled again after the kill, then the price is changed once and the answer is the same", async () => {
    const { shown } = await killedAfterReply(
      ADMIN,
      (call) => /→/.test(String(call.payload.text)),
      () => world.fake.sendText(ADMIN, "/price ML86 21000"),
    );
    expect(shown.map((m) => m.text)).toEqual([shown[0]!.text, shown[0]!.text]);
    expect(shown[0]!.text).toMatch(/Rp 20,000 → <b>Rp 21,000<\/b>/);
    world.fake.sendText(ADMIN, "/catalog");
    const file = await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendDocument");
    expect(file.text).toMatch(/version 1\b/);
  });

  it("when /settle is handled again after the kill, then the order is settled once and its user told once", async () => {
    const flaky = await world.flakyProvider();
    const before = await world.runProcess({ TOPUP_BASE_URL: flaky });
    const summary = await world.summaryFor(STAFF, "ML86", "77712345(1234)");
    const refId = idsOn(summary, "c")[0]!;
    world.fake.tapButton(STAFF, summary, button(summary, /^c:/));
    await world.waitText(STAFF, /Hasil belum diketahui/);
    await before.kill("SIGTERM");
    const { shown } = await killedAfterReply(
      ADMIN,
      (call) => /is settled as/.test(String(call.payload.text)),
      () => world.fake.sendText(ADMIN, `/settle ${refId} success 5566778899`),
      { TOPUP_BASE_URL: flaky },
    );
    expect(shown).toHaveLength(2);
    expect(shown[1]!.text).toBe(shown[0]!.text);
    await world.fake.waitForIdle();
    const told = world.fake.messagesTo(STAFF.id).filter((m) => m.message_id !== summary.message_id);
    expect(told.filter((m) => m.text.includes("5566778899"))).toHaveLength(1);
  });
});
