import type { Update } from "grammy/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPartnerStore, hmacHex, type PartnerStore } from "../../../src/access/partners.js";
import { createStorage, type Storage } from "../../../src/storage/storage.js";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";
import { ADMIN, createWorld, STAFF, type RunningBot, type World } from "../world.js";
import { freePort, REDIS_URL } from "../../helpers/redis.js";

const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };
const GROUP = -100777;

/** The credentials a key's message shows (a test key's mitra_id starts with T). */
function credentials(message: SentMessage): { mitraId: string; secretKey: string; signingSecret: string } {
  const mitraId = /mitra_id: <code>([PT][0-9A-Z]{10})<\/code>/.exec(message.text)?.[1];
  const secretKey = /secret_key: <code>([A-Za-z0-9_-]{40,})<\/code>/.exec(message.text)?.[1];
  const signingSecret = /signing_secret: <code>([A-Za-z0-9_-]{40,})<\/code>/.exec(message.text)?.[1];
  if (mitraId === undefined || secretKey === undefined || signingSecret === undefined)
    throw new Error(`no key in: ${message.text}`);
  return { mitraId, secretKey, signingSecret };
}

describe("/apikey: an admin makes a reseller's key for the shop's API, shown once, in a private chat only", () => {
  let world: World;
  let bot: RunningBot;
  let storage: Storage;
  /** The bot's partners, read from its Redis as another process would. */
  let partners: PartnerStore;

  beforeEach(async () => {
    world = await createWorld();
    Object.assign(world.env, {
      ADMIN_IDS: String(ADMIN.id),
      ALLOWED_USER_IDS: String(STAFF.id),
      RESELLER_IDS: String(BUDI.id),
    });
    storage = await createStorage({ redisUrl: REDIS_URL, prefix: world.prefix });
    partners = createPartnerStore(storage);
  });
  afterEach(async () => {
    await storage.close();
    await world.cleanup();
  });

  /** What `user` is sent after `send()`, the first one matching. */
  async function answer(user: FakeUser, send: () => void, pattern: RegExp, chatId = user.id): Promise<SentMessage> {
    const before = world.fake.messagesTo(chatId).length;
    send();
    return world.fake.waitForMessage(
      chatId,
      (m) => pattern.test(m.text) && world.fake.messagesTo(chatId).indexOf(m) >= before,
    );
  }
  const apikey = (args: string, pattern: RegExp) =>
    answer(ADMIN, () => world.fake.sendText(ADMIN, `/apikey ${args}`.trim()), pattern);

  /** The sendMessage call that sent this message. */
  const callOf = (message: SentMessage) =>
    world.fake.calls.find(
      (c) =>
        c.method === "sendMessage" &&
        (c.answer as { result?: { message_id?: number; chat?: { id: number } } } | undefined)?.result?.message_id ===
          message.message_id &&
        Number(c.payload.chat_id) === message.chat_id,
    );

  /** Waits until the bot has handled this update to the end (its "update handled" line). */
  const handled = (update: Update) =>
    world.fake.waitFor(() =>
      bot
        .output()
        .split("\n")
        .some((l) => l.includes('"msg":"update handled"') && l.includes(`"updateId":${update.update_id},`)),
    );

  it("when an admin sends /apikey in private, then the key comes once with protect_content and works; again, the key is new and the old one refused", async () => {
    bot = await world.run();
    const shown = await apikey(`${BUDI.id}`, /API key/);
    const first = credentials(shown);
    expect([true, "true"]).toContain(callOf(shown)?.payload.protect_content);
    expect(shown.text).toMatch(/shown only this once/);
    expect(shown.text).toContain("/v1/transaction/partner");
    // H2H_ENABLED is not set: the answer says the API is off until it is.
    expect(shown.text).toMatch(/off until H2H_ENABLED=true/);
    expect(await partners.authenticate(first.mitraId, first.secretKey)).toMatchObject({ userId: BUDI.id, on: true });
    // The signing secret shown is the one callbacks are signed with, and it is not the key.
    expect(first.signingSecret).not.toBe(first.secretKey);
    expect(await partners.sign(BUDI.id, '{"a":1}')).toBe(hmacHex(first.signingSecret, '{"a":1}'));

    const rotated = await apikey(`${BUDI.id}`, /New API key/);
    const second = credentials(rotated);
    expect(second.mitraId).toBe(first.mitraId);
    expect(second.secretKey).not.toBe(first.secretKey);
    expect(second.signingSecret).not.toBe(first.signingSecret);
    expect(await partners.sign(BUDI.id, "{}")).toBe(hmacHex(second.signingSecret, "{}"));
    expect(await partners.authenticate(first.mitraId, first.secretKey)).toBeUndefined();
    expect(await partners.authenticate(second.mitraId, second.secretKey)).toMatchObject({ userId: BUDI.id });

    // Status shows mitra_id, on/off and the callback, never the key.
    const status = await apikey(`${BUDI.id} status`, /access <b>on<\/b>/);
    expect(status.text).toContain(first.mitraId);
    expect(status.text).not.toContain(second.secretKey);
    const listed = await apikey("", /Resellers with an API key/);
    expect(listed.text).toContain(first.mitraId);
    expect(listed.text).not.toContain(second.secretKey);
    // The key went nowhere but that one message, and never to a log line.
    await world.fake.waitForIdle();
    expect(world.fake.allOutgoingText().split(second.secretKey)).toHaveLength(2);
    expect(world.fake.allOutgoingText().split(second.signingSecret)).toHaveLength(2);
    expect(bot.output()).not.toContain(first.secretKey);
    expect(bot.output()).not.toContain(second.secretKey);
    expect(bot.output()).not.toContain(second.signingSecret);
  });

  it("when an admin sends /apikey ID test in private, then a test key comes once with its own T mitra_id, secret and signing secret, and its callback is set apart", async () => {
    bot = await world.run();
    await apikey(`${BUDI.id} test callback https://t.example/cb`, /has no test key/);
    const refused = await answer(
      ADMIN,
      () => world.fake.sendText(ADMIN, `/apikey ${BUDI.id} test`, GROUP),
      /only in your private chat/,
      GROUP,
    );
    expect(refused.text).not.toMatch(/secret_key/);
    expect(await partners.get(BUDI.id)).toBeUndefined();

    const shown = await apikey(`${BUDI.id} test`, /Test key/);
    const test = credentials(shown);
    expect(test.mitraId).toMatch(/^T/);
    expect(test.signingSecret).not.toBe(test.secretKey);
    expect([true, "true"]).toContain(callOf(shown)?.payload.protect_content);
    expect(shown.text).toMatch(/<code>FAIL<\/code> fails/);
    expect(shown.text).toMatch(/<code>PEND<\/code> is answered pending/);
    expect(shown.text).toMatch(/shown only this once/);
    expect(await partners.authenticate(test.mitraId, test.secretKey)).toMatchObject({
      userId: BUDI.id,
      testKey: true,
    });
    expect(await partners.sign(BUDI.id, "{}", true)).toBe(hmacHex(test.signingSecret, "{}"));

    const set = await apikey(`${BUDI.id} test callback https://t.example/cb`, /Test key: .*Callback of/s);
    expect(set.text).toContain("https://t.example/cb");
    expect(await partners.get(BUDI.id)).toMatchObject({
      test: { mitraId: test.mitraId, callbackUrl: "https://t.example/cb" },
    });
    expect((await partners.get(BUDI.id))?.callbackUrl).toBeUndefined();
    const status = await apikey(`${BUDI.id} status`, /test key: mitra_id/);
    expect(status.text).toContain(test.mitraId);
    expect(status.text).toContain("https://t.example/cb");
    await apikey(`${BUDI.id} test callback none`, /Test key: .*removed/s);
    expect((await partners.get(BUDI.id))?.test?.callbackUrl).toBeUndefined();

    // A new one: same T mitra_id, the old test key refused.
    const again = credentials(await apikey(`${BUDI.id} test`, /New test key/));
    expect(again.mitraId).toBe(test.mitraId);
    expect(await partners.authenticate(test.mitraId, test.secretKey)).toBeUndefined();
    // Turned off, the test key is refused too, and a new test key says so.
    await apikey(`${BUDI.id} off`, /is off/);
    expect(await partners.authenticate(again.mitraId, again.secretKey)).toBeUndefined();
    const whileOff = await apikey(`${BUDI.id} test`, /New test key/);
    expect(whileOff.text).toMatch(/test key is refused too until/);
    await world.fake.waitForIdle();
    for (const secret of [test.secretKey, test.signingSecret, again.secretKey]) {
      expect(world.fake.allOutgoingText().split(secret)).toHaveLength(2);
      expect(bot.output()).not.toContain(secret);
    }
  });

  it("when /apikey is sent in a group, then nothing is made and no key is shown; off, status and callback work there", async () => {
    bot = await world.run();
    const refused = await answer(
      ADMIN,
      () => world.fake.sendText(ADMIN, `/apikey ${BUDI.id}`, GROUP),
      /only in your private chat/,
      GROUP,
    );
    expect(refused.text).toContain("Nothing was created");
    expect(refused.text).not.toMatch(/secret_key/);
    expect(await partners.get(BUDI.id)).toBeUndefined();
    const none = await answer(
      ADMIN,
      () => world.fake.sendText(ADMIN, `/apikey ${BUDI.id} off`, GROUP),
      /has no API key/,
      GROUP,
    );
    expect(none.text).toContain(String(BUDI.id));

    const key = credentials(await apikey(`${BUDI.id}`, /API key/));
    await answer(ADMIN, () => world.fake.sendText(ADMIN, `/apikey ${BUDI.id} off`, GROUP), /is off/, GROUP);
    expect(await partners.authenticate(key.mitraId, key.secretKey)).toBeUndefined();
    const status = await answer(
      ADMIN,
      () => world.fake.sendText(ADMIN, `/apikey ${BUDI.id} status`, GROUP),
      /access <b>off<\/b>/,
      GROUP,
    );
    expect(status.text).not.toContain(key.secretKey);
    expect(world.fake.messagesTo(GROUP).some((m) => /secret_key/.test(m.text))).toBe(false);
  });

  it("when access is turned off, then the key is refused; /apikey again turns it on with a new key and the same mitra_id", async () => {
    bot = await world.run();
    const first = credentials(await apikey(`${BUDI.id}`, /API key/));
    const off = await apikey(`${BUDI.id} off`, /is off/);
    expect(off.text).toMatch(/refused from now on/);
    expect(await partners.authenticate(first.mitraId, first.secretKey)).toBeUndefined();
    const again = credentials(await apikey(`${BUDI.id}`, /New API key/));
    expect(again.mitraId).toBe(first.mitraId);
    expect(await partners.authenticate(again.mitraId, again.secretKey)).toMatchObject({ on: true });
    expect(await partners.authenticate(first.mitraId, first.secretKey)).toBeUndefined();
  });

  it("when a callback is set, refused or removed, then the reseller's record says so and a bad URL changes nothing", async () => {
    bot = await world.run();
    await apikey(`${BUDI.id} callback https://example.com/cb`, /has no API key/);
    await apikey(`${BUDI.id}`, /API key/);
    await apikey(`${BUDI.id} callback`, /callback none/);
    const set = await apikey(`${BUDI.id} callback https://reseller.example.com/topup/cb?x=1`, /Callback of/);
    expect(set.text).toContain("https://reseller.example.com/topup/cb?x=1");
    expect((await partners.get(BUDI.id))?.callbackUrl).toBe("https://reseller.example.com/topup/cb?x=1");
    for (const bad of ["ftp://example.com/cb", "example.com/cb", `https://example.com/${"a".repeat(500)}`]) {
      const refused = await apikey(`${BUDI.id} callback ${bad}`, /is not a callback address/);
      expect(refused.text).toMatch(/at most 500 characters/);
    }
    expect((await partners.get(BUDI.id))?.callbackUrl).toBe("https://reseller.example.com/topup/cb?x=1");
    // Addresses inside a private network, and names without an address, are refused too (names resolve
    // through test/helpers/callback-lookup.ts).
    for (const inside of [
      "http://127.0.0.1:8080/cb",
      "https://hooks.private.example/cb",
      "http://[::ffff:10.0.0.1]/cb",
    ])
      await apikey(`${BUDI.id} callback ${inside}`, /leads into a private network/);
    await apikey(`${BUDI.id} callback https://nowhere.example/cb`, /has no address/);
    expect((await partners.get(BUDI.id))?.callbackUrl).toBe("https://reseller.example.com/topup/cb?x=1");
    await apikey(`${BUDI.id} callback none`, /removed/);
    expect((await partners.get(BUDI.id))?.callbackUrl).toBeUndefined();
    await apikey(`${BUDI.id} status`, /callback: none/);
  });

  it("when someone who is not an admin sends /apikey, or the user is not a reseller, then it is refused and nothing is made", async () => {
    bot = await world.run();
    for (const user of [STAFF, BUDI]) {
      const refused = await answer(
        user,
        () => world.fake.sendText(user, `/apikey ${BUDI.id}`),
        /for admins|khusus admin/,
      );
      expect(refused.text).not.toMatch(/secret_key/);
    }
    expect(await partners.get(BUDI.id)).toBeUndefined();
    const staff = await apikey(`${STAFF.id}`, /for resellers only/);
    expect(staff.text).toMatch(/is staff/);
    await apikey("6666", /is not a reseller/);
    await apikey(`${ADMIN.id}`, /is an admin/);
    expect(await partners.list()).toEqual([]);
    await apikey("", /Use <code>\/apikey USER_ID<\/code>/);
    await apikey("abc", /Use <code>\/apikey USER_ID<\/code>/);
    await apikey(`${BUDI.id} sideways`, /Use <code>\/apikey USER_ID<\/code>/);
  });

  it("when the same /apikey update is handled twice, then the key is made once and the second handling shows none", async () => {
    bot = await world.run();
    const before = world.fake.messagesTo(ADMIN.id).length;
    const update = world.fake.sendText(ADMIN, `/apikey ${BUDI.id}`);
    const shown = await world.waitText(ADMIN, /API key/);
    const key = credentials(shown);
    await handled(update);
    const second = world.fake.redeliver(update);
    await handled(second);
    const sent = world.fake.messagesTo(ADMIN.id).slice(before);
    expect(sent.filter((m) => /secret_key/.test(m.text))).toHaveLength(1);
    expect(sent.at(-1)?.text).toMatch(/handled already/);
    expect(await partners.authenticate(key.mitraId, key.secretKey)).toMatchObject({ userId: BUDI.id });
    expect((await partners.get(BUDI.id))?.keyAt).toBe((await partners.authenticate(key.mitraId, key.secretKey))?.keyAt);
  });

  it("when H2H_ENABLED is true and the shop has a public address, then the key's message names the address and no line says the API is off", async () => {
    bot = await world.run({
      H2H_ENABLED: "true",
      PORT: String(await freePort()),
      WEBAPP_URL: "https://shop.example.com/toko",
    });
    const shown = await apikey(`${BUDI.id}`, /API key/);
    expect(shown.text).toContain("https://shop.example.com/toko/v1/transaction/partner?destination=");
    expect(shown.text).not.toMatch(/H2H_ENABLED/);
    const off = await apikey(`${BUDI.id} off`, /is off/);
    expect(off.text).not.toMatch(/H2H_ENABLED/);
  });
});
