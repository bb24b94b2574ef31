import { Api } from "grammy";
import type { Update } from "grammy/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadTexts } from "../../../src/bot/i18n.js";
import { createUnavailableNotice, type UnavailableNotice } from "../../../src/bot/notices/unavailable.js";
import { createLogger } from "../../../src/logger.js";
import { createFakeBotApi, type FakeBotApi, type FakeUser } from "../../e2e/fake-bot-api.js";

const RINA: FakeUser = { id: 4242, first_name: "Rina", language_code: "id" };
const JOHN: FakeUser = { id: 4343, first_name: "John", language_code: "en-GB" };
const NOBODY: FakeUser = { id: 4444, first_name: "N" };
const GROUP = -100777;

const EN = /The bot is temporarily unavailable\. Please try again in a moment\./;
const ID = /Bot sedang tidak tersedia untuk sementara\. Silakan coba lagi sebentar lagi\./;

describe("the notice of an update Redis could not take: told once, straight through the Bot API", () => {
  let fake: FakeBotApi;
  let notice: UnavailableNotice;

  beforeEach(async () => {
    fake = createFakeBotApi();
    await fake.start();
    notice = createUnavailableNotice({
      api: new Api(fake.token, { apiRoot: fake.url }),
      me: () => fake.botUser,
      texts: loadTexts(),
      logger: createLogger("silent"),
    });
  });
  afterEach(async () => {
    await notice.idle();
    await fake.stop();
  });

  /** Tells about `update` as often as given, then waits until what was sent is out. */
  async function tell(update: Update, times = 1): Promise<void> {
    for (let i = 0; i < times; i++) notice.tell(update);
    await notice.idle();
  }

  it("when a message cannot be stored, then its user is told once in their Telegram language (English when unknown), however often it comes", async () => {
    await tell(fake.sendText(RINA, "ML86"), 3);
    await tell(fake.sendText(JOHN, "/order"), 2);
    await tell(fake.sendText(NOBODY, "/start"));
    expect(fake.messagesTo(RINA.id).map((m) => m.text)).toEqual([expect.stringMatching(ID)]);
    expect(fake.messagesTo(JOHN.id).map((m) => m.text)).toEqual([expect.stringMatching(EN)]);
    expect(fake.messagesTo(NOBODY.id).map((m) => m.text)).toEqual([expect.stringMatching(EN)]);
    // A new update (the user tries again) is a new notice.
    await tell(fake.sendText(RINA, "ML86"));
    expect(fake.messagesTo(RINA.id)).toHaveLength(2);
  });

  it("when a button tap cannot be stored, then its spinner stops with an alert that says so, once", async () => {
    const tap = fake.tapButton(JOHN, 1, "c:TG1");
    await tell(tap, 2);
    expect(fake.callbackAnswers).toEqual([
      expect.objectContaining({
        callback_query_id: tap.callback_query!.id,
        show_alert: true,
        text: expect.stringMatching(EN),
      }),
    ]);
    expect(fake.messagesTo(JOHN.id)).toEqual([]);
  });

  it("when the message is in a group, then only what was for the bot gets an answer, as a reply to its member", async () => {
    const forUs = fake.sendText(JOHN, "/order", GROUP);
    await tell(forUs);
    await tell(fake.sendText(JOHN, "/order@other_bot", GROUP));
    await tell(fake.sendText(JOHN, "lunch anyone?", GROUP));
    await tell(fake.sendText(JOHN, "/order@other_bot"));
    await tell(fake.enqueueRaw({ my_chat_member: { chat: { id: GROUP, type: "supergroup" }, from: { id: JOHN.id } } }));
    const sent = fake.messagesTo(GROUP);
    expect(sent.map((m) => m.text)).toEqual([expect.stringMatching(EN)]);
    expect(sent[0]!.reply_to_message_id).toBe(forUs.message!.message_id);
    expect(fake.messagesTo(JOHN.id)).toEqual([]);
  });
});
