import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freePort, ownRedis } from "../../helpers/redis.js";
import { postToWebhook } from "../../helpers/webhook.js";
import type { FakeUser } from "../fake-bot-api.js";
import { button, createWorld, SECRET, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };

describe("running it: webhook, health, retries, Redis trouble, logs (the app in process)", () => {
  let world: World;
  beforeEach(async () => {
    world = await createWorld();
    Object.assign(world.env, { ADMIN_IDS: String(ADMIN.id) });
  });
  afterEach(() => world.cleanup());

  const slowSandbox = (latencyMs: number) => world.slowSandbox(latencyMs);

  const post = (port: number, body: unknown, secret?: string) =>
    postToWebhook(`http://127.0.0.1:${port}/tg/hook`, JSON.stringify(body), secret);

  it("when WEBHOOK_URL is set, then the bot registers it with its secret and takes only POSTs that carry it", async () => {
    const port = await freePort();
    const slow = await slowSandbox(1500);
    await world.run({
      WEBHOOK_URL: "https://bot.example.com/tg/hook",
      WEBHOOK_SECRET: "hook-secret_123",
      PORT: String(port),
      TOPUP_BASE_URL: slow.url,
    });
    const setWebhook = world.fake.calls.find((c) => c.method === "setWebhook");
    expect(setWebhook?.payload).toMatchObject({
      url: "https://bot.example.com/tg/hook",
      secret_token: "hook-secret_123",
    });

    const start = world.fake.sendText(ADMIN, "/start");
    expect((await post(port, start)).status).toBe(401);
    expect((await post(port, start, "wrong")).status).toBe(401);
    expect(world.fake.messagesTo(ADMIN.id)).toHaveLength(0);
    expect((await post(port, start, "hook-secret_123")).status).toBe(200);
    await world.waitText(ADMIN, /Hi Admin/);

    // A provider call longer than Telegram's patience: the POST is answered at once, and a
    // redelivery of the same update (or a second tap) does not order again.
    const order = world.fake.sendText(ADMIN, "/order ML86 12345678(1234)");
    await post(port, order, "hook-secret_123");
    const summary = await world.waitText(ADMIN, /Please check your order/);
    const tap = world.fake.tapButton(ADMIN, summary, button(summary, /^c:/));
    const answered = await post(port, tap, "hook-secret_123");
    expect(answered.status).toBe(200);
    expect(world.fake.messagesTo(ADMIN.id).some((m) => /Top-up successful/.test(m.text))).toBe(false);
    // Telegram sends an update again only after the bot answered its query (or gave up on it).
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /Processing/.test(a.text ?? "")));
    await post(port, tap, "hook-secret_123");
    await post(port, world.fake.redeliver(tap), "hook-secret_123");
    await world.waitText(ADMIN, /Top-up successful/);
    // The repeated POST of the same update is dropped; the redelivery (a new update id) is answered
    // with the recorded outcome instead of a second order.
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => /Already ordered: success/.test(a.text ?? "")),
    );
    expect(world.fake.callbackAnswers).toHaveLength(2);
    expect(slow.calls).toHaveLength(1);
    expect(world.fake.messagesTo(ADMIN.id).filter((m) => /Top-up successful/.test(m.text))).toHaveLength(1);

    const health = await request(`http://127.0.0.1:${port}/healthz`);
    expect(health.statusCode).toBe(200);
    expect(await health.body.json()).toEqual({ status: "ok", redis: "up", serving: "ready" });
  });

  it("when Redis stops and comes back, then /healthz says 503 and then 200 again", async () => {
    const redis = await ownRedis();
    world.onCleanup(() => redis.stop());
    const port = await freePort();
    await world.run({ REDIS_URL: redis.url, PORT: String(port) });
    const health = async () => {
      const res = await request(`http://127.0.0.1:${port}/healthz`);
      return { status: res.statusCode, body: (await res.body.json()) as object };
    };
    expect(await health()).toEqual({ status: 200, body: { status: "ok", redis: "up", serving: "ready" } });
    await redis.stop();
    expect(await health()).toEqual({ status: 503, body: { status: "unavailable", redis: "down", serving: "ready" } });
    await redis.start();
    await world.fake.waitFor(() => false, 0).catch(() => undefined);
    for (let i = 0; i < 60 && (await health()).status !== 200; i++) await new Promise((r) => setTimeout(r, 250));
    expect(await health()).toEqual({ status: 200, body: { status: "ok", redis: "up", serving: "ready" } });
  });

  /** The notices "temporarily unavailable" a user got: messages and button alerts. */
  const notices = (user: FakeUser) => ({
    messages: world.fake.messagesTo(user.id).filter((m) => /temporarily unavailable\. Please try again/.test(m.text)),
    alerts: world.fake.callbackAnswers.filter(
      (a) => /temporarily unavailable\. Please try again/.test(a.text ?? "") && a.show_alert === true,
    ),
  });

  it("when Redis stops in the middle of an order, then the user is told once to try again, what they sent stays with Telegram, and it is handled once Redis is back", async () => {
    const redis = await ownRedis();
    world.onCleanup(() => redis.stop());
    const bot = await world.run({ REDIS_URL: redis.url });
    world.fake.sendText(ADMIN, "/order");
    const menu = await world.waitText(ADMIN, /Choose a game/);
    world.fake.tapButton(ADMIN, menu, button(menu, /Mobile Legends/));
    await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === menu.message_id && /86 Diamonds/.test(JSON.stringify(m.reply_markup)),
    );
    await world.fake.waitForIdle();
    await redis.stop();
    // Choosing a product while Redis is down: the poller fetches it but cannot store it, so it
    // does not confirm it to Telegram; the user hears at once that the bot is unavailable.
    world.fake.sendText(ADMIN, "ML86");
    await world.waitText(ADMIN, /temporarily unavailable\. Please try again/);
    const polls = world.fake.calls.filter((c) => c.method === "getUpdates").length;
    // The poller tries to store that batch again and again, waiting longer each time, and asks
    // Telegram for nothing meanwhile: the user is not told again.
    await world.fake.waitFor(() => (bot.output().match(/polling: updates still not stored/g) ?? []).length >= 3);
    expect(world.fake.calls.filter((c) => c.method === "getUpdates")).toHaveLength(polls);
    expect(world.fake.pendingUpdates()).toBe(1);
    expect(notices(ADMIN).messages).toHaveLength(1);
    expect(world.fake.messagesTo(ADMIN.id).some((m) => /Send the player id/.test(m.text))).toBe(false);

    await redis.start();
    // The client reconnects by itself; the step sent meanwhile is handled once, and the order goes on.
    await world.waitText(ADMIN, /Send the player id/, 30_000);
    world.fake.sendText(ADMIN, "12345678(1234)");
    await world.waitText(ADMIN, /Please check your order/);
    expect(world.fake.messagesTo(ADMIN.id).filter((m) => /Send the player id/.test(m.text))).toHaveLength(1);
    expect(notices(ADMIN).messages).toHaveLength(1);
  });

  it("when Redis stops in the middle of an order in webhook mode, then a tap gets 503 and one alert to try again however often Telegram posts it, and it is handled once Redis is back", async () => {
    const redis = await ownRedis();
    world.onCleanup(() => redis.stop());
    const port = await freePort();
    await world.run({
      REDIS_URL: redis.url,
      WEBHOOK_URL: "https://bot.example.com/tg/hook",
      WEBHOOK_SECRET: "hook-secret_123",
      PORT: String(port),
    });
    const send = async (update: unknown) => (await post(port, update, "hook-secret_123")).status;
    expect(await send(world.fake.sendText(ADMIN, "/order"))).toBe(200);
    const menu = await world.waitText(ADMIN, /Choose a game/);
    expect(await send(world.fake.tapButton(ADMIN, menu, button(menu, /Mobile Legends/)))).toBe(200);
    const products = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === menu.message_id && /86 Diamonds/.test(JSON.stringify(m.reply_markup)),
    );
    await redis.stop();
    // Not stored, so not acknowledged: Telegram keeps the update and posts it again later. The
    // tap's spinner stops with an alert that says to try again.
    const chosen = world.fake.tapButton(ADMIN, products, button(products, /^p:ML86/));
    expect(await send(chosen)).toBe(503);
    await world.fake.waitFor(() => notices(ADMIN).alerts.length === 1);
    const health = await request(`http://127.0.0.1:${port}/healthz`);
    expect(health.statusCode).toBe(503);
    expect(await health.body.json()).toEqual({ status: "unavailable", redis: "down", serving: "ready" });
    // Telegram's retries while Redis is still down: 503 again, and no second alert.
    expect(await send(chosen)).toBe(503);
    expect(await send(chosen)).toBe(503);
    expect(notices(ADMIN).alerts).toHaveLength(1);

    await redis.start();
    // Telegram's next try: stored now (the client reconnects by itself), answered 200, handled
    // once (its query was answered already: that changes nothing), and the order goes on.
    let status = await send(chosen);
    for (let attempt = 1; status !== 200; attempt++) {
      expect(attempt).toBeLessThan(100);
      // Telegram posts it again a moment later.
      await new Promise((r) => setTimeout(r, 100));
      status = await send(chosen);
    }
    await world.waitText(ADMIN, /Send the player id/);
    expect(await send(world.fake.sendText(ADMIN, "12345678(1234)"))).toBe(200);
    await world.waitText(ADMIN, /Please check your order/);
    expect(world.fake.messagesTo(ADMIN.id).filter((m) => /Send the player id/.test(m.text))).toHaveLength(1);
    expect(notices(ADMIN)).toEqual({
      messages: [],
      alerts: [expect.objectContaining({ callback_query_id: chosen.callback_query!.id })],
    });
  });

  it("when setWebhook fails for now at start, then it is tried again and logged without the URL's path; a refusal stops the start", async () => {
    const port = await freePort();
    const hook = { WEBHOOK_URL: "https://bot.example.com/tg/hook-7f3a", WEBHOOK_SECRET: "hook-secret_123" };
    world.fake.failNext("setWebhook", { error_code: 502, description: "Bad Gateway" });
    world.fake.failNext("setWebhook", { error_code: 429, description: "Too Many Requests: retry after 1" });
    world.fake.failNext("setWebhook", { error_code: 500, description: "Internal Server Error" });
    const bot = await world.run({ ...hook, PORT: String(port) }, { webhookRetryDelaysMs: [10, 10, 10] });
    expect(world.fake.calls.filter((c) => c.method === "setWebhook")).toHaveLength(4);
    const health = await request(`http://127.0.0.1:${port}/healthz`);
    expect(health.statusCode).toBe(200);
    await health.body.text();
    const retried = bot
      .output()
      .split("\n")
      .filter((line) => line.includes("setWebhook failed for now"));
    expect(retried).toHaveLength(3);
    expect(retried[0]).toContain("https://bot.example.com/[redacted]");
    expect(bot.output()).not.toContain("hook-7f3a");

    // Telegram refuses the URL itself: no waiting, the start fails and says why.
    await bot.kill();
    world.fake.failNext("setWebhook", {
      error_code: 400,
      description: "Bad Request: bad webhook: Failed to resolve host",
    });
    const calls = world.fake.calls.filter((c) => c.method === "setWebhook").length;
    await expect(
      world.run(
        { ...hook, WEBHOOK_URL: "https://bot.example.com/tg/moved", PORT: String(await freePort()) },
        { webhookRetryDelaysMs: [10, 10, 10] },
      ),
    ).rejects.toThrow(
      /setWebhook for WEBHOOK_URL \(https:\/\/bot\.example\.com\/\[redacted\]\) failed: Telegram refused it \(400 Bad Request: bad webhook/,
    );
    expect(world.fake.calls.filter((c) => c.method === "setWebhook")).toHaveLength(calls + 1);
  });

  it("when Telegram answers 429 with retry_after, then the message is sent again and arrives, in a conversation too", async () => {
    await world.run();
    world.fake.failNext("sendMessage", {
      error_code: 429,
      description: "Too Many Requests: retry after 1",
      parameters: { retry_after: 1 },
    });
    world.fake.sendText(ADMIN, "/help");
    await world.waitText(ADMIN, /How to order/);
    world.fake.failNext("sendMessage", {
      error_code: 429,
      description: "Too Many Requests: retry after 1",
      parameters: { retry_after: 1 },
    });
    world.fake.sendText(ADMIN, "/order ML86");
    await world.waitText(ADMIN, /Send the player id, for example/);
    const sends = world.fake.calls.filter((c) => c.method === "sendMessage");
    expect(sends.length).toBeGreaterThanOrEqual(4);
  });

  it("when LOG_LEVEL is warn, then the per-update lines are gone; at info each update and order change is one JSON line without secrets", async () => {
    const quiet = await world.run({ LOG_LEVEL: "warn" });
    await world.order(ADMIN, "ML86", "12345678(1234)");
    expect(quiet.output()).not.toMatch(/update handled/);
    await quiet.kill();

    const bot = await world.run({ LOG_LEVEL: "info" });
    await world.order(ADMIN, "FF70", "123456789");
    const lines = bot
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"));
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const parsed = lines.map((l) => JSON.parse(l) as { msg: string; ms?: number; refId?: string; state?: string });
    expect(parsed.filter((l) => l.msg === "update handled").every((l) => typeof l.ms === "number")).toBe(true);
    expect(parsed.filter((l) => l.msg === "order state changed").map((l) => l.state)).toEqual([
      "draft",
      "submitting",
      "success",
    ]);
    expect(bot.output()).not.toContain(SECRET);
    expect(bot.output()).not.toContain(world.env.BOT_TOKEN!);
    expect(bot.output()).not.toContain("/v1/transaction/partner?");
  });
});
