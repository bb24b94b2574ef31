import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@keyv/redis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";
import { REDIS_URL } from "../../helpers/redis.js";
import { button, createWorld, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const SARI: FakeUser = { id: 1002, first_name: "Sari", language_code: "en" };
const BUDI: FakeUser = { id: 1003, first_name: "Budi", language_code: "en" };
const DEWI: FakeUser = { id: 5006, first_name: "Dewi", language_code: "en" };
const STRANGER: FakeUser = { id: 6666, first_name: "Eve", language_code: "en" };
const GROUP = -100500;
const BOT = "topup_test_bot";

describe("orders in a group: each member their own order, replies with force_reply, nothing of the shop's money shown", () => {
  let world: World;
  const env = {
    ADMIN_IDS: String(ADMIN.id),
    ALLOWED_USER_IDS: `${SARI.id},${BUDI.id}`,
    RESELLER_IDS: String(DEWI.id),
  };
  beforeEach(async () => {
    world = await createWorld();
  });
  afterEach(() => world.cleanup());

  const inGroup = () => world.fake.messagesTo(GROUP);
  /** The first new bot message in the group that matches, after `before` messages. */
  const groupWait = (pattern: RegExp, before = 0) =>
    world.fake.waitForMessage(GROUP, (m) => pattern.test(m.text) && inGroup().indexOf(m) >= before);
  const mentions = (m: SentMessage, user: FakeUser) => m.text.includes(`tg://user?id=${user.id}`);

  it("when two members order at once, then each has their own menu, question and summary, and neither can use the other's buttons", async () => {
    await world.run(env);
    const sariOrder = world.fake.sendText(SARI, `/order@${BOT}`, GROUP);
    const sariMenu = await world.fake.waitForMessage(GROUP, (m) => /Choose a game/.test(m.text) && mentions(m, SARI));
    const budiOrder = world.fake.sendText(BUDI, "/order", GROUP);
    const budiMenu = await world.fake.waitForMessage(GROUP, (m) => /Choose a game/.test(m.text) && mentions(m, BUDI));
    // Each menu replies to its member's command.
    expect(sariMenu.reply_to_message_id).toBe((sariOrder as any).message.message_id);
    expect(budiMenu.reply_to_message_id).toBe((budiOrder as any).message.message_id);

    // Budi taps a game on Sari's menu: refused, Sari's menu is unchanged.
    world.fake.tapButton(BUDI, sariMenu, button(sariMenu, /Mobile Legends/));
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => /belongs to someone else/.test(a.text ?? "")),
    );
    expect(sariMenu.edits).toHaveLength(0);

    // Sari: game, product; the question is a selective force_reply to her.
    world.fake.tapButton(SARI, sariMenu, button(sariMenu, /Mobile Legends/));
    const products = await world.fake.waitForMessage(
      GROUP,
      (m) => m.message_id === sariMenu.message_id && /ML86/.test(JSON.stringify(m.reply_markup)),
    );
    // Budi cannot pick a product from it either.
    world.fake.tapButton(BUDI, products, button(products, /ML86/));
    await world.fake.waitFor(
      () => world.fake.callbackAnswers.filter((a) => /belongs to someone else/.test(a.text ?? "")).length === 2,
    );
    world.fake.tapButton(SARI, products, button(products, /ML86/));
    const question = await world.fake.waitForMessage(
      GROUP,
      (m) => /Send the player id/.test(m.text) && mentions(m, SARI),
    );
    expect(question.reply_markup).toEqual({ force_reply: true, selective: true });

    // Chatter in the middle of her order (privacy mode off: the bot sees it) is not an answer.
    const before = inGroup().length;
    world.fake.sendText(SARI, "ok wait, let me ask the customer", GROUP);
    world.fake.sendText(BUDI, "sure", GROUP);
    // Budi, meanwhile, orders in one line; his summary comes, and nothing answered the chatter.
    const budiLine = world.fake.sendText(BUDI, "/order FF70 123456789", GROUP);
    const budiSummary = await groupWait(/Please check your order/, before);
    expect(mentions(budiSummary, BUDI)).toBe(true);
    expect(
      inGroup()
        .slice(before)
        .filter((m) => m !== budiSummary),
    ).toHaveLength(0);

    // Sari answers by replying to the question (as her client does with force_reply).
    const answer = world.fake.replyText(SARI, "12345678 (1234)", question);
    const sariSummary = await world.fake.waitForMessage(
      GROUP,
      (m) => /Please check your order/.test(m.text) && mentions(m, SARI),
    );
    expect(sariSummary.text).toContain("Player id: <code>12345678(1234)</code>");

    // Budi taps Sari's Confirm: nothing is ordered.
    world.fake.tapButton(BUDI, sariSummary, button(sariSummary, /^c:/));
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /someone else's order/.test(a.text ?? "")));
    expect(world.sandbox.calls).toHaveLength(0);

    world.fake.tapButton(SARI, sariSummary, button(sariSummary, /^c:/));
    const result = await world.fake.waitForMessage(GROUP, (m) => /Top-up successful/.test(m.text) && mentions(m, SARI));
    // The result replies to her own message (Telegram notifies her), and her summary shows the outcome.
    expect(result.reply_to_message_id).toBe((answer as any).message.message_id);
    await world.fake.waitForMessage(GROUP, (m) => m.message_id === sariSummary.message_id && /SN <code>/.test(m.text));
    expect(result.text).not.toMatch(/Balance|Saldo/);
    expect(world.sandbox.calls).toHaveLength(1);
    world.fake.tapButton(BUDI, budiSummary, button(budiSummary, /^c:/));
    const budiResult = await world.fake.waitForMessage(
      GROUP,
      (m) => /Top-up successful/.test(m.text) && mentions(m, BUDI),
    );
    expect(budiResult.reply_to_message_id).toBe((budiLine as any).message.message_id);
    expect(world.sandbox.calls.map((c) => c.itemCode).sort()).toEqual(["FF70", "ML86"]);
  });

  /** A provider in front of the sandbox that holds every call until `release()`. */
  async function holdingProvider() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    const server = createServer((req, res) => {
      held += 1;
      void released.then(() => {
        const upstream = new URL(world.sandbox.url);
        httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: "GET" }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    world.onCleanup(async () => {
      release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, release, held: () => held };
  }

  it("when one member's order waits on the provider, then the other members of the group are answered meanwhile", async () => {
    const provider = await holdingProvider();
    await world.run({ ...env, TOPUP_BASE_URL: provider.url, TOPUP_TIMEOUT_MS: "30000" });
    world.fake.sendText(SARI, "/order ML86 12345678(1234)", GROUP);
    const summary = await world.fake.waitForMessage(
      GROUP,
      (m) => /Please check your order/.test(m.text) && mentions(m, SARI),
    );
    world.fake.tapButton(SARI, summary, button(summary, /^c:/));
    await world.fake.waitFor(() => provider.held() === 1);
    // Sari's order is at the provider (held): Budi still gets his menu and his summary.
    world.fake.sendText(BUDI, "/order FF70 123456789", GROUP);
    await world.fake.waitForMessage(GROUP, (m) => /Please check your order/.test(m.text) && mentions(m, BUDI));
    expect(inGroup().some((m) => /Top-up successful/.test(m.text))).toBe(false);
    provider.release();
    await world.fake.waitForMessage(GROUP, (m) => /Top-up successful/.test(m.text) && mentions(m, SARI));
  });

  it("when a command is for another bot, chatter is not for the bot, or a stranger writes, then the bot keeps quiet or refuses as in a private chat", async () => {
    await world.run(env);
    world.fake.sendText(SARI, "/order@other_bot", GROUP);
    world.fake.sendText(SARI, "/start@other_bot", GROUP);
    world.fake.sendText(STRANGER, "anyone selling diamonds?", GROUP);
    world.fake.sendText(STRANGER, `/order@${BOT}`, GROUP);
    const refused = await groupWait(/may not order/);
    expect(refused.text).toContain("<code>6666</code>");
    world.fake.sendText(SARI, `/help@${BOT}`, GROUP);
    await groupWait(/How to order/);
    await world.fake.waitForIdle();
    expect(inGroup()).toHaveLength(2); // the refusal and the help: nothing for the other bot's commands or chatter
    expect(world.sandbox.calls).toHaveLength(0);
  });

  it("when /balance, /saldo or /report is sent in a group, then it is not shown there and the member is sent to a private chat", async () => {
    await world.run(env);
    await world.order(SARI, "ML86", "12345678(1234)"); // a sale in her private chat: a balance is known
    for (const [user, command] of [
      [SARI, "/balance"],
      [DEWI, "/saldo"],
      [ADMIN, `/report@${BOT}`],
    ] as const) {
      const before = inGroup().length;
      world.fake.sendText(user, command, GROUP);
      const answer = await groupWait(/private chat/, before);
      expect(answer.text).toContain(`@${BOT}`);
      expect(answer.text).not.toMatch(/[0-9]{3},[0-9]{3}|Rp/);
    }
    // In a private chat: as always.
    world.fake.sendText(SARI, "/balance");
    await world.waitText(SARI, /Balance/);
  });

  it("when a user corrects a player id by editing their message, then the correction counts while the bot waits, and is answered after", async () => {
    await world.run(env);
    world.fake.sendText(SARI, "/order ML86");
    await world.waitText(SARI, /Send the player id/);
    const typo = world.fake.sendText(SARI, "12345(1234)");
    await world.waitText(SARI, /is not a valid player id/);
    world.fake.editText(SARI, typo, "12345678(1234)");
    const summary = await world.waitText(SARI, /Please check your order/);
    expect(summary.text).toContain("<code>12345678(1234)</code>");
    world.fake.editText(SARI, typo, "87654321(4321)");
    await world.waitText(SARI, /editing one changes nothing\. The summary above still has what you first sent/);
  });

  it("when a Mobile Legends id is written the usual ways, then it is recognised and shown in the game's form", async () => {
    await world.run(env);
    for (const written of ["12345678 1234", "12345678 (1234)", "12345678/1234"]) {
      const summary = await world.summaryFor(SARI, "ML86", written);
      expect(summary.text).toContain("Player id: <code>12345678(1234)</code>");
    }
    world.fake.sendText(SARI, "/order ML86");
    await world.waitText(SARI, /Send the player id/);
    world.fake.sendText(SARI, "12345678 1234");
    const summary = await world.fake.waitForMessage(
      SARI.id,
      (m) =>
        /Please check your order/.test(m.text) && /\(ML86/.test(m.text) === false && m.text.includes("12345678(1234)"),
    );
    expect(summary.text).toContain("Player id: <code>12345678(1234)</code>");
  });

  it("when users /start, then each sees what they may do: their account commands, and an admin the admin commands", async () => {
    await world.run(env);
    world.fake.sendText(SARI, "/start");
    const staff = await world.waitText(SARI, /What you can do/);
    for (const command of ["/order", "/pricelist", "/balance", "/history", "/status", "/language", "/help"])
      expect(staff.text).toContain(command);
    expect(staff.text).not.toContain("/report");
    world.fake.sendText(DEWI, "/start");
    const reseller = await world.waitText(DEWI, /What you can do/);
    expect(reseller.text).toContain("/saldo");
    expect(reseller.text).not.toContain("/balance");
    world.fake.sendText(ADMIN, "/start");
    const admin = await world.waitText(ADMIN, /What you can do/);
    for (const command of ["/report", "/pending", "/allow", "/deposit", "/price", "/pause", "/broadcast"])
      expect(admin.text).toContain(command);
    world.fake.sendText(SARI, "/help");
    const help = await world.waitText(SARI, /How to order/);
    for (const command of ["/balance", "/history", "/language"]) expect(help.text).toContain(command);
  });

  it("when the bot is removed from a group, then the summaries shown there are cancelled and the members' dialogues are gone", async () => {
    const bot = await world.run(env);
    world.fake.sendText(SARI, "/order FF70 123456789", GROUP);
    const summary = await world.fake.waitForMessage(GROUP, (m) => /Please check your order/.test(m.text));
    world.fake.sendText(BUDI, "/order", GROUP);
    await world.fake.waitForMessage(GROUP, (m) => /Choose a game/.test(m.text) && mentions(m, BUDI));
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    try {
      const keysOfGroup = async () =>
        [
          ...(await redis.keys(`${world.prefix}dialogue:${GROUP}:*`)),
          ...(await redis.keys(`${world.prefix}open-draft:${GROUP}:*`)),
        ].length;
      expect(await keysOfGroup()).toBeGreaterThan(0);
      world.fake.enqueueRaw({
        my_chat_member: {
          chat: { id: GROUP, type: "supergroup", title: "Shop group" },
          from: { id: ADMIN.id, is_bot: false, first_name: "Admin" },
          date: Math.floor(Date.now() / 1000),
          old_chat_member: { status: "member", user: { id: 999000, is_bot: true, first_name: "TopupTestBot" } },
          new_chat_member: {
            status: "kicked",
            until_date: 0,
            user: { id: 999000, is_bot: true, first_name: "TopupTestBot" },
          },
        },
      });
      await world.fake.waitFor(() => /removed from a group/.test(bot.output()));
      expect(await keysOfGroup()).toBe(0);
      const refId = /Order ref: <code>([A-Z0-9]+)<\/code>/.exec(summary.text)![1]!;
      expect((await bot.app!.ledger.get(refId))?.state).toBe("cancelled");
    } finally {
      await redis.quit();
    }
  });
});
