import { readFile } from "node:fs/promises";
import { createClient } from "@keyv/redis";
import type { Update } from "grammy/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";
import { ADMIN, button, createWorld, STAFF, type RunningBot, type World } from "../world.js";
import { keysOf, REDIS_URL } from "../../helpers/redis.js";

const RESELLER: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };

/**
 * An update handled a second time (its process died after it replied, before the update was
 * marked done; here: the same update delivered again under a new update_id, which the update
 * stream takes as new) finds what its first handling made: one draft, one ref id, one summary.
 */
describe("once per update: an update handled twice never makes a second draft or shows a second summary", () => {
  let world: World;
  let bot: RunningBot;
  beforeEach(async () => {
    world = await createWorld({ initialBalance: 1_000_000 });
    Object.assign(world.env, {
      ADMIN_IDS: String(ADMIN.id),
      ALLOWED_USER_IDS: String(STAFF.id),
      RESELLER_IDS: String(RESELLER.id),
    });
    bot = await world.run();
  });
  afterEach(() => world.cleanup());

  /** Waits until the bot has handled this update to the end (its "update handled" line). */
  const handled = (update: Update) =>
    world.fake.waitFor(() =>
      bot
        .output()
        .split("\n")
        .some((l) => l.includes('"msg":"update handled"') && l.includes(`"updateId":${update.update_id},`)),
    );

  /** The same update again, handled to the end; the messages the user got meanwhile. */
  async function again(user: FakeUser, update: Update): Promise<SentMessage[]> {
    const before = world.fake.messagesTo(user.id).length;
    await handled(update);
    const second = world.fake.redeliver(update);
    await handled(second);
    return world.fake.messagesTo(user.id).slice(before);
  }

  /** The bot's messages to a user that carry a button with callback data of this prefix (summaries). */
  const withButton = (user: FakeUser, prefix: string) =>
    world.fake.messagesTo(user.id).filter((m) => JSON.stringify(m.reply_markup ?? {}).includes(`"${prefix}`));

  const refIds = (messages: SentMessage[]) =>
    new Set(messages.flatMap((m) => [...(/Order ref: <code>([A-Z0-9]+)<\/code>/.exec(m.text)?.slice(1) ?? [])]));

  it("when /order CODE PLAYER_ID is handled twice, then there is one draft and one summary, and its Confirm orders once", async () => {
    const order = world.fake.sendText(STAFF, "/order ML86 12345678(1234)");
    await world.waitText(STAFF, /Periksa pesanan Anda/);
    expect(await again(STAFF, order)).toHaveLength(0);
    expect(await keysOf(world.prefix, "o:*")).toHaveLength(1);
    const summaries = withButton(STAFF, "c:");
    expect(summaries).toHaveLength(1);

    world.fake.tapButton(STAFF, summaries[0]!, button(summaries[0]!, /^c:/));
    await world.waitText(STAFF, /Top-up berhasil/);
    // Handled again after the order went through: still nothing new, nothing ordered again.
    expect(await again(STAFF, order)).toHaveLength(0);
    expect(world.sandbox.calls).toHaveLength(1);
    expect(await keysOf(world.prefix, "o:*")).toHaveLength(1);
  });

  it("when the dialogue's last step is handled again with the state it had before (its process died after the summary), then it shows the same draft, and both summaries order once", async () => {
    await handled(world.fake.sendText(ADMIN, "/order ML86"));
    const stateKey = `${world.prefix}dialogue:${ADMIN.id}:${ADMIN.id}`;
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    world.onCleanup(async () => void (await redis.close()));
    const waiting = await redis.get(stateKey);
    expect(waiting).not.toBeNull();

    const answer = world.fake.sendText(ADMIN, "12345678(1234)");
    const first = await world.waitText(ADMIN, /Please check your order/);
    await handled(answer);
    // The process "died" after the summary went out and before the dialogue's state was saved:
    // the update comes back to the dialogue as it was, waiting for the player id.
    await redis.set(stateKey, waiting!, { PX: 60_000 });
    expect(await again(ADMIN, answer)).toHaveLength(0);
    expect(await keysOf(world.prefix, "o:*")).toHaveLength(1);

    // Died a moment earlier still, before the summary was recorded as sent: the user sees it twice,
    // with the same ref id, and Confirm on both orders once.
    const origin = (await keysOf(world.prefix, "origin:*"))[0]!;
    await redis.hDel(`${world.prefix}${origin}`, "m");
    await redis.set(stateKey, waiting!, { PX: 60_000 });
    const shown = await again(ADMIN, answer);
    expect(shown).toHaveLength(1);
    expect(refIds([first, ...shown]).size).toBe(1);
    expect(await keysOf(world.prefix, "o:*")).toHaveLength(1);
    for (const summary of [first, shown[0]!]) world.fake.tapButton(ADMIN, summary, button(summary, /^c:/));
    await world.waitText(ADMIN, /Top-up successful/);
    await world.fake.waitFor(() => world.fake.callbackAnswers.length >= 2);
    await world.fake.waitForIdle();
    expect(world.sandbox.calls).toHaveLength(1);
  });

  it("when /deposit is handled twice, then there is one deposit and one summary, credited once", async () => {
    const command = world.fake.sendText(ADMIN, "/deposit 5005 75000 BCA");
    await world.waitText(ADMIN, /Confirm/);
    expect(await again(ADMIN, command)).toHaveLength(0);
    expect(await keysOf(world.prefix, "dep:*")).toHaveLength(1);
    const summary = withButton(ADMIN, "dc:")[0]!;
    world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    await world.fake.waitForMessage(ADMIN.id, (m) => m.message_id === summary.message_id && /Credited/.test(m.text));
    expect(await again(ADMIN, command)).toHaveLength(0);
    world.fake.sendText(RESELLER, "/saldo");
    await world.waitText(RESELLER, /Rp 75,000/);
    expect(await keysOf(world.prefix, "dep:*")).toHaveLength(1);
  });

  it("when /price is handled again after another admin changed the price, then it is not put back, and nothing is said twice", async () => {
    const first = world.fake.sendText(ADMIN, "/price ML86 21000");
    await world.waitText(ADMIN, /Rp 20,000 → <b>Rp 21,000<\/b>/);
    world.fake.sendText(ADMIN, "/price ML86 22000");
    await world.waitText(ADMIN, /Rp 21,000 → <b>Rp 22,000<\/b>/);
    expect(await again(ADMIN, first)).toHaveLength(0);
    world.fake.sendText(STAFF, "/pricelist");
    await world.waitText(STAFF, /<code>ML86<\/code> 86 Diamonds: <b>Rp 22\.000<\/b>/);
  });

  it("when a catalogue document is handled twice, then there is one diff to confirm", async () => {
    const catalog = JSON.parse(await readFile("catalog.json", "utf8"));
    catalog.games[0].products[0].price = 20500;
    const doc = world.fake.sendDocument(ADMIN, { fileName: "catalog.json", content: JSON.stringify(catalog) });
    await world.waitText(ADMIN, /Check the new catalogue/);
    expect(await again(ADMIN, doc)).toHaveLength(0);
    expect(await keysOf(world.prefix, "catalog-upload:*")).toHaveLength(1);
    expect(withButton(ADMIN, "kc:")).toHaveLength(1);
  });

  it("when /broadcast is handled twice, then there is one preview and one broadcast", async () => {
    world.fake.sendText(STAFF, "/start");
    await world.waitText(STAFF, /Halo|Hello/);
    const command = world.fake.sendText(ADMIN, "/broadcast Promo hari ini");
    await world.waitText(ADMIN, /Broadcast preview/);
    expect(await again(ADMIN, command)).toHaveLength(0);
    expect(new Set((await keysOf(world.prefix, "bc:*")).map((k) => k.split(":")[1]))).toHaveLength(1);
    expect(withButton(ADMIN, "bc:")).toHaveLength(1);
  });

  it("when /settle is handled twice, then the order is settled once, the user told once, and the admin's answer is the same", async () => {
    await bot.kill();
    bot = await world.run({ TOPUP_BASE_URL: await world.flakyProvider() });
    const summary = await world.summaryFor(STAFF, "ML86", "77712345(1234)");
    const refId = /Ref pesanan: <code>([A-Z0-9]+)<\/code>/.exec(summary.text)![1]!;
    world.fake.tapButton(STAFF, summary, button(summary, /^c:/));
    await world.waitText(STAFF, /Hasil belum diketahui/);
    const settle = world.fake.sendText(ADMIN, `/settle ${refId} success 5566778899`);
    const done = await world.waitText(ADMIN, /is settled as/);
    const repeated = await again(ADMIN, settle);
    expect(repeated.map((m) => m.text)).toEqual([done.text]);
    await world.fake.waitForIdle();
    const told = world.fake.messagesTo(STAFF.id).filter((m) => m.message_id !== summary.message_id);
    expect(told.filter((m) => m.text.includes("5566778899"))).toHaveLength(1);
  });
  it("when a reseller's /deposit AMOUNT and their proof are handled twice, then there is one request, shown once, and the admins see the proof once", async () => {
    world.fake.sendText(ADMIN, "/payinfo BCA 1234567890");
    await world.waitText(ADMIN, /instructions set/);
    const ask = world.fake.sendText(RESELLER, "/deposit 100rb");
    const request = await world.waitText(RESELLER, /Deposit request/);
    expect(await again(RESELLER, ask)).toHaveLength(0);
    expect(await keysOf(world.prefix, "dr:DR*")).toHaveLength(1);
    expect(withButton(RESELLER, "rq:")).toHaveLength(1);

    const proof = world.fake.sendPhoto(RESELLER, undefined, { replyTo: request });
    await world.waitText(RESELLER, /Proof received/);
    await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendPhoto");
    // The reseller may read "Proof received" again (harmless); the admins get no second notice.
    const repeated = await again(RESELLER, proof);
    expect(repeated.every((m) => /Proof received/.test(m.text))).toBe(true);
    expect(world.fake.messagesTo(ADMIN.id).filter((m) => m.method === "sendPhoto")).toHaveLength(1);
  });
});
