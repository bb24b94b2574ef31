import { Bot, GrammyError, InlineKeyboard, InputFile } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeBotApi, type FakeBotApi, type FakeUser } from "./fake-bot-api.js";

const USER: FakeUser = { id: 4242, first_name: "Tester", language_code: "en" };

async function rawCall(fake: FakeBotApi, method: string, body: unknown = {}, signal?: AbortSignal) {
  const res = await fetch(`${fake.url}/bot${fake.token}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("fake Bot API with a grammY bot on long polling", () => {
  let fake: FakeBotApi;
  let bot: Bot;
  let running: Promise<void>;

  beforeAll(async () => {
    fake = createFakeBotApi();
    await fake.start();
    bot = new Bot(fake.token, { client: { apiRoot: fake.url } });
    bot.command("start", (ctx) =>
      ctx.reply("Hello <b>there</b> &amp; welcome", {
        parse_mode: "HTML",
        reply_markup: new InlineKeyboard().text("Tap me", "tap:1"),
      }),
    );
    bot.callbackQuery(/^tap:/, async (ctx) => {
      await ctx.answerCallbackQuery({ text: "Tapped" });
      await ctx.editMessageText("Tapped, thanks");
    });
    bot.catch((err) => console.error("bot error in self-test", err.error));
    running = bot.start();
    await fake.waitFor(() => fake.calls.some((c) => c.method === "getUpdates"));
  });

  afterAll(async () => {
    await bot.stop();
    await running;
    await fake.stop();
  });

  it("when a user sends /start, then the reply arrives as Telegram would show it and the update is confirmed", async () => {
    const update = fake.sendText(USER, "/start");
    expect(update.message?.entities).toEqual([{ type: "bot_command", offset: 0, length: 6 }]);

    const reply = await fake.waitForMessage(USER.id, (m) => /Hello/.test(m.text));

    expect(reply.text).toBe("Hello <b>there</b> &amp; welcome");
    expect(reply.plain_text).toBe("Hello there & welcome");
    expect(reply.entities).toEqual([{ type: "bold", offset: 6, length: 5 }]);
    expect(fake.lastMessageTo(USER.id)?.message_id).toBe(reply.message_id);
    expect(reply.message_id).toBeGreaterThan(update.message!.message_id); // one counter per chat
    await fake.waitFor(() => fake.pendingUpdates() === 0);
    expect(fake.confirmedOffset()).toBeGreaterThan(update.update_id);
  });

  it("when a button is tapped, then the callback query is answered and the message edited", async () => {
    fake.sendText(USER, "/start");
    const before = fake.messagesTo(USER.id).length;
    const menu = await fake
      .waitFor(() => fake.messagesTo(USER.id).length > before)
      .then(() => fake.lastMessageTo(USER.id)!);

    const tap = fake.tapButton(USER, menu, fake.buttonData(menu, /Tap/));

    const edited = await fake.waitForMessage(
      USER.id,
      (m) => m.message_id === menu.message_id && m.text === "Tapped, thanks",
    );
    expect(fake.callbackAnswers).toContainEqual(
      expect.objectContaining({ callback_query_id: tap.callback_query!.id, text: "Tapped" }),
    );
    expect(tap.callback_query?.message).toMatchObject({ message_id: menu.message_id, text: "Hello there & welcome" });
    expect(edited.reply_markup).toBeUndefined(); // an edit without reply_markup drops the keyboard
    expect(edited.edits).toEqual([{ text: "Tapped, thanks" }]);
  });

  it("when the bot edits a message to the same text and markup, then it gets Telegram's 400 message is not modified", async () => {
    const sent = await bot.api.sendMessage(USER.id, "Same", { reply_markup: new InlineKeyboard().text("A", "a") });

    const again = bot.api.editMessageText(USER.id, sent.message_id, "Same", {
      reply_markup: new InlineKeyboard().text("A", "a"),
    });

    await expect(again).rejects.toBeInstanceOf(GrammyError);
    await expect(again).rejects.toMatchObject({
      error_code: 400,
      description: expect.stringMatching(/^Bad Request: message is not modified/),
    });
    await expect(bot.api.editMessageText(USER.id, 99_999, "x")).rejects.toMatchObject({
      error_code: 400,
      description: "Bad Request: message to edit not found",
    });
  });

  it("when the bot sends HTML Telegram cannot parse or a callback_data over 64 bytes, then the call fails with 400", async () => {
    await expect(bot.api.sendMessage(USER.id, "1 < 2", { parse_mode: "HTML" })).rejects.toMatchObject({
      error_code: 400,
      description: expect.stringMatching(/^Bad Request: can't parse entities: Unsupported start tag/),
    });
    await expect(bot.api.sendMessage(USER.id, "<b>open", { parse_mode: "HTML" })).rejects.toMatchObject({
      error_code: 400,
    });
    await expect(
      bot.api.sendMessage(USER.id, "x", { reply_markup: new InlineKeyboard().text("Long", "x".repeat(65)) }),
    ).rejects.toMatchObject({
      description: "Bad Request: BUTTON_DATA_INVALID",
    });
  });

  it("when a failure is queued or the chat is blocked, then the call fails like Telegram and the next one succeeds", async () => {
    fake.failNext("sendMessage", {
      error_code: 429,
      description: "Too Many Requests: retry after 1",
      parameters: { retry_after: 1 },
    });
    await expect(bot.api.sendMessage(USER.id, "first")).rejects.toMatchObject({
      error_code: 429,
      parameters: { retry_after: 1 },
    });
    await expect(bot.api.sendMessage(USER.id, "second")).resolves.toMatchObject({ text: "second" });

    fake.blockChat(777);
    await expect(bot.api.sendMessage(777, "hi")).rejects.toMatchObject({
      error_code: 403,
      description: "Forbidden: bot was blocked by the user",
    });
    expect(fake.messagesTo(777)).toEqual([]);
  });

  it("when the bot uploads a document, then its name, content and caption are recorded", async () => {
    await bot.api.sendDocument(USER.id, new InputFile(Buffer.from("sn,balance\n1,2\n"), "report.csv"), {
      caption: "Your report",
    });

    const doc = fake.lastMessageTo(USER.id)!;
    expect(doc).toMatchObject({
      method: "sendDocument",
      text: "Your report",
      document: { filename: "report.csv", content: "sn,balance\n1,2\n" },
    });
    expect(fake.allOutgoingText()).toContain("sn,balance");
  });

  it("when a call uses another token, then it gets 401 Unauthorized", async () => {
    const res = await fetch(`${fake.url}/bot1:wrong/getMe`, { method: "POST" });

    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ ok: false, error_code: 401, description: "Unauthorized" });
  });
});

describe("fake Bot API getUpdates over raw HTTP", () => {
  let fake: FakeBotApi;

  beforeAll(async () => {
    fake = createFakeBotApi();
    await fake.start();
  });

  afterAll(async () => {
    await fake.stop();
  });

  it("when getUpdates is called again without a higher offset, then the same update comes back, and a higher offset drops it", async () => {
    const update = fake.sendText(USER, "hello");

    const first = await rawCall(fake, "getUpdates", { timeout: 0 });
    const second = await rawCall(fake, "getUpdates", { offset: update.update_id, timeout: 0 });
    const confirmed = await rawCall(fake, "getUpdates", { offset: update.update_id + 1, timeout: 0 });

    expect(first.body.result.map((u: any) => u.update_id)).toEqual([update.update_id]);
    expect(second.body.result).toEqual(first.body.result);
    expect(confirmed.body).toEqual({ ok: true, result: [] });
    expect(fake.pendingUpdates()).toBe(0);
    expect(fake.confirmedOffset()).toBe(update.update_id + 1);
  });

  it("when an update is redelivered, then the same content comes under a new update_id and its callback query is answerable again", async () => {
    const tap = fake.tapButton(USER, 1, "x:1");
    await rawCall(fake, "getUpdates", { offset: tap.update_id + 1, timeout: 0 });
    expect((await rawCall(fake, "answerCallbackQuery", { callback_query_id: tap.callback_query!.id })).status).toBe(
      200,
    );

    const again = fake.redeliver(tap);

    expect(again.update_id).toBeGreaterThan(tap.update_id);
    expect(again.callback_query).toEqual(tap.callback_query);
    expect((await rawCall(fake, "answerCallbackQuery", { callback_query_id: tap.callback_query!.id })).status).toBe(
      200,
    );
    expect(
      (await rawCall(fake, "answerCallbackQuery", { callback_query_id: tap.callback_query!.id })).body.description,
    ).toBe("Bad Request: query is too old and response timeout expired or query ID is invalid");
    await rawCall(fake, "getUpdates", { offset: again.update_id + 1, timeout: 0 });
  });

  it("when no update is waiting, then getUpdates is held and answered with the next update", async () => {
    const held = rawCall(fake, "getUpdates", { offset: fake.confirmedOffset(), timeout: 30 });
    await fake.waitFor(() => fake.isPolling());

    const update = fake.sendText(USER, "late");

    expect((await held).body.result.map((u: any) => u.update_id)).toEqual([update.update_id]);
    await rawCall(fake, "getUpdates", { offset: update.update_id + 1, timeout: 0 });
    expect(fake.pendingUpdates()).toBe(0);
  });

  it("when a second getUpdates arrives while one is held, then the held one ends with 409 Conflict", async () => {
    const held = rawCall(fake, "getUpdates", { offset: fake.confirmedOffset(), timeout: 30 });
    await fake.waitFor(() => fake.isPolling());

    const newer = await rawCall(fake, "getUpdates", { offset: fake.confirmedOffset(), timeout: 0 });

    expect(newer.body).toEqual({ ok: true, result: [] });
    expect(await held).toMatchObject({
      status: 409,
      body: {
        ok: false,
        error_code: 409,
        description: expect.stringMatching(/^Conflict: terminated by other getUpdates request/),
      },
    });
  });

  it("when the client goes away during a long poll, then the poll is released and the update stays for the next call", async () => {
    const abort = new AbortController();
    const held = rawCall(fake, "getUpdates", { offset: fake.confirmedOffset(), timeout: 30 }, abort.signal).catch(
      (err: unknown) => err,
    );
    await fake.waitFor(() => fake.isPolling());

    abort.abort();
    await held;
    await fake.waitFor(() => !fake.isPolling());
    const update = fake.sendText(USER, "after the disconnect");

    const next = await rawCall(fake, "getUpdates", { offset: fake.confirmedOffset(), timeout: 0 });
    expect(next.body.result.map((u: any) => u.update_id)).toEqual([update.update_id]);
  });
});
