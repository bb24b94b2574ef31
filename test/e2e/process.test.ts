import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLedger } from "../../src/ledger/create-ledger.js";
import { createStorage } from "../../src/storage/storage.js";
import { createSandboxProvider } from "../../src/topup/sandbox.js";
import { freePort, lengthenHolds } from "../helpers/redis.js";
import { startBotProcess } from "./bot-process.js";
import { ADMIN, button, MITRA, SECRET, STAFF, staffWorld, type World } from "./world.js";

describe("the order across restarts and start-up errors: the bot as a process (`node dist/main.js`)", () => {
  let world: World;
  beforeEach(async () => (world = await staffWorld()));
  afterEach(() => world.cleanup());

  it("when the bot restarts in the middle of an order, then the conversation goes on from Redis", async () => {
    const first = await world.runProcess();
    world.fake.sendText(ADMIN, "/order");
    const menu = await world.waitText(ADMIN, /Choose a game/);
    world.fake.tapButton(ADMIN, menu, button(menu, /Free Fire/));
    await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === menu.message_id && /FF70/.test(JSON.stringify(m.reply_markup)),
    );
    await world.fake.waitForIdle();
    await first.kill("SIGKILL");

    await world.runProcess();
    const updated = world.fake.messagesTo(ADMIN.id).find((m) => m.message_id === menu.message_id)!;
    world.fake.tapButton(ADMIN, updated, button(updated, /^FF140/));
    await world.waitText(ADMIN, /Send the player id/);
    world.fake.sendText(ADMIN, "123456789");
    const summary = await world.waitText(ADMIN, /Please check your order/);
    expect(summary.text).toContain("FF140");
  });

  it("when the bot is killed during the provider call and restarted, then the redelivered Confirm does not order again and its user hears once that the result is unknown", async () => {
    // A provider that takes its time, so the kill lands while the call is in flight. Staff order
    // (in Bahasa Indonesia), so that the admin's notice shows when recovery has settled it.
    const sandbox = await world.slowSandbox(1500);
    const first = await world.runProcess({ TOPUP_BASE_URL: sandbox.url });
    const summary = await world.summaryFor(STAFF, "ML86", "12345678(1234)");
    const tap = world.fake.tapButton(STAFF, summary, button(summary, /^c:/));
    await world.fake.waitFor(() => sandbox.calls.length === 1);
    // The tap was answered before the provider was called, and the summary says it is processing.
    const answer = world.fake.callbackAnswers.find((a) => /Pesanan sedang diproses/.test(a.text ?? ""));
    expect(answer?.at).toBeLessThanOrEqual(sandbox.calls[0]!.at);
    await world.fake.waitForMessage(
      STAFF.id,
      (m) => m.message_id === summary.message_id && /Sedang diproses/.test(m.text),
    );
    await first.kill("SIGKILL");
    // Telegram hands the Confirm out again if the bot had not confirmed it yet; if it had, the
    // user's app sends the tap again. Either way it reaches the restarted bot: it must not order.
    if (world.fake.pendingUpdates() === 0) world.fake.redeliver(tap);

    // The restart reads the clock the test sets (see restartAt): the order is in flight for it
    // however long this machine took to get here.
    const restart = await restartAt(sandbox.calls[0]!.at, { TOPUP_BASE_URL: sandbox.url });
    // After the restart the user hears at once that the result is unknown (or that the tap sent
    // again is being processed); once the call must be over, the admins get the order to check.
    const notSummary = () => world.fake.messagesTo(STAFF.id).filter((m) => m.message_id !== summary.message_id);
    await world.fake.waitFor(() => notSummary().some((m) => /Hasil belum diketahui|sedang diproses/.test(m.text)));
    restart.timeoutPassed();
    await world.fake.waitForMessage(ADMIN.id, (m) => /Order with unknown result/.test(m.text), 20_000);
    await world.fake.waitForIdle();
    // The user is told the result is unknown once, whichever path saw the restart first.
    const unknown = notSummary().filter((m) => /belum diketahui/.test(m.text));
    expect(unknown).toHaveLength(1);
    expect(unknown[0]!.text).toContain("bot dimulai ulang saat pesanan sedang dikirim");
    expect(sandbox.calls).toHaveLength(1);
    expect(world.fake.messagesTo(STAFF.id).some((m) => /Top up berhasil|berhasil/i.test(m.text))).toBe(false);
  });

  /**
   * The bot started again after a kill, as main.ts builds it but in this process, with its clock
   * at `atMs` (when the provider got the killed run's call) until `timeoutPassed()` moves it past
   * the provider's timeout and its grace. Whether a restart finds the order still in flight (and
   * says the bot restarted) or long over (and settles it as unknown) is decided by that clock, not
   * by how long this machine took to kill the first process and start the next one.
   */
  async function restartAt(atMs: number, env: Record<string, string>) {
    let clock = atMs;
    const bot = await world.run(env, { now: () => new Date(clock) });
    return {
      bot,
      timeoutPassed() {
        clock += 10 * 60_000;
      },
    };
  }

  /**
   * A Confirm whose process is SIGKILLed while the provider has it, and a restart (restartAt) with
   * everything the killed one held in Redis (the poller's lease, the lanes' locks, the background
   * work's lease) made to last another minute: the restart takes them at once from the process
   * that is gone, so the redelivered Confirm and the next update are answered within the usual
   * wait, and the provider is called once.
   */
  async function killedDuringConfirmThenRestarted(extra: () => Promise<Record<string, string>>) {
    const sandbox = await world.slowSandbox(1500);
    const env = { TOPUP_BASE_URL: sandbox.url, ...(await extra()) };
    const first = await world.runProcess(env);
    // Staff order (in Bahasa Indonesia), so that the admin's notice shows when recovery settled it.
    const summary = await world.summaryFor(STAFF, "ML86", "12345678(1234)");
    const tap = world.fake.tapButton(STAFF, summary, button(summary, /^c:/));
    await world.fake.waitFor(() => sandbox.calls.length === 1);
    await first.kill("SIGKILL");
    const held = await lengthenHolds(world.prefix, 60_000);
    expect(held).toContain("lease:maintenance");
    expect(held.some((k) => k.startsWith("upd:lock:"))).toBe(true);
    // The user's app sends the tap again (a new update).
    world.fake.redeliver(tap);

    const restart = await restartAt(sandbox.calls[0]!.at, env);
    const restarted = restart.bot;
    world.fake.sendText(STAFF, "/help");
    // The Confirm the killed run was handling, handled again: its result is unknown, told as a
    // restart, as a single bot always told it; then the tap sent again, then /help, in order.
    await world.waitText(STAFF, /Cara memesan/);
    const notSummary = () => world.fake.messagesTo(STAFF.id).filter((m) => m.message_id !== summary.message_id);
    const texts = notSummary().map((m) => m.text);
    const told = (pattern: RegExp) => texts.findIndex((t) => pattern.test(t));
    expect(told(/Hasil belum diketahui/)).toBeGreaterThan(-1);
    expect(told(/Hasil belum diketahui/)).toBeLessThan(told(/sedang diproses/));
    expect(told(/sedang diproses/)).toBeLessThan(told(/Cara memesan/));
    restart.timeoutPassed();
    // Once the call must be over the admins get the order to check (after its user's summary is
    // brought up to date); the user, who already read that its result is unknown, is not told twice.
    await world.fake.waitForMessage(ADMIN.id, (m) => /Order with unknown result/.test(m.text));
    const unknown = notSummary().filter((m) => /belum diketahui/.test(m.text));
    expect(unknown).toHaveLength(1);
    expect(unknown[0]!.text).toContain("bot dimulai ulang saat pesanan sedang dikirim");
    expect(sandbox.calls).toHaveLength(1);
    expect(restarted.output()).toMatch(/taken over at once from a process that is gone/);
    return held;
  }

  it("when the polling bot is killed during a Confirm and restarted, then it answers at once: it does not wait for what the killed run held", async () => {
    const held = await killedDuringConfirmThenRestarted(async () => ({}));
    expect(held).toContain("lease:poller");
  });

  it("when the webhook bot is killed during a Confirm and restarted, then it answers at once: it does not wait for what the killed run held", async () => {
    const port = await freePort();
    world.fake.deliverWebhooks({ retryMs: 100 });
    await killedDuringConfirmThenRestarted(async () => ({
      WEBHOOK_URL: `http://127.0.0.1:${port}/tg/hook`,
      PORT: String(port),
    }));
  });

  it("when only BOT_TOKEN and ADMIN_IDS are set, then the bot runs on the sandbox and memory and completes an order", async () => {
    const bot = startBotProcess({
      BOT_TOKEN: world.fake.token,
      ADMIN_IDS: String(ADMIN.id),
      BOT_API_ROOT: world.fake.url,
    });
    world.adopt(bot);
    await bot.waitForOutput(/bot started/);
    expect(bot.output()).toContain("sandbox: no real orders");
    // The log says where the sandbox answers, as README's Configuration says.
    expect(bot.output()).toMatch(/"sandbox":"http:\/\/127\.0\.0\.1:\d+"/);
    expect(bot.output()).toMatch(/REDIS_URL is not set/);
    const summary = await world.summaryFor(ADMIN, "ML86", "12345678(1234)");
    world.fake.tapButton(ADMIN, summary, button(summary, /Confirm/));
    await world.waitText(ADMIN, /Top-up successful/);
  });

  it("when a provider is configured, then the start-up log names its origin and nothing of its path or credentials", async () => {
    const sandbox = new URL(world.sandbox.url);
    const baseUrl = `http://ops:pw-4711@${sandbox.host}/partner-api/`;
    const bot = await world.runProcess({ TOPUP_BASE_URL: baseUrl });
    const lines = bot.output().split("\n");
    const line = lines.find((l) => l.includes('"provider configured"'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ provider: `http://${sandbox.host}` });
    for (const hidden of [MITRA, SECRET, "partner-api", "pw-4711", "ops:"]) expect(line).not.toContain(hidden);
    expect(bot.output()).not.toContain("pw-4711");
  });

  it("when the configuration is bad, then the bot names each variable and exits non-zero without a stack trace", async () => {
    const bot = startBotProcess({ BOT_API_ROOT: world.fake.url, TOPUP_TIMEOUT_MS: "soon", ADMIN_IDS: "x" });
    world.adopt(bot);
    expect(await bot.exited).toBe(1);
    const out = bot.output();
    expect(out).toContain("BOT_TOKEN is required");
    expect(out).toContain("TOPUP_TIMEOUT_MS must be a whole number of milliseconds");
    expect(out).toContain('ADMIN_IDS "x" is not a Telegram user id');
    expect(out).not.toMatch(/\n\s+at /);
  });

  it("when BOT_TOKEN is missing and the provider has no credentials, then one run names all three and exits non-zero", async () => {
    const bot = startBotProcess({ BOT_API_ROOT: world.fake.url, TOPUP_BASE_URL: "https://provider.example.com" });
    world.adopt(bot);
    expect(await bot.exited).toBe(1);
    const out = bot.output();
    expect(out).toContain("Configuration error: the bot cannot start.");
    expect(out).toContain("BOT_TOKEN is required");
    expect(out).toContain("TOPUP_MITRA_ID is required when TOPUP_BASE_URL is set");
    expect(out).toContain("TOPUP_SECRET_KEY is required when TOPUP_BASE_URL is set");
    expect(out).not.toMatch(/\n\s+at /);
  });

  it("when the catalogue is bad, then the bot names the file and the entry and exits non-zero", async () => {
    const bot = startBotProcess({ ...world.env, CATALOG_FILE: "test/e2e/fixtures/bad-catalog.json" });
    world.adopt(bot);
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toContain("test/e2e/fixtures/bad-catalog.json: Free Fire › product 1: code is required");
    expect(bot.output()).not.toMatch(/\n\s+at /);
  });
  it("when SIGTERM arrives during a slow provider call, then the order is recorded and told, and the process exits 0", async () => {
    const slow = createSandboxProvider({
      mitraId: MITRA,
      secretKey: SECRET,
      products: [{ code: "ML86", name: "86 Diamonds", priceRp: 19500 }],
      latencyMs: 2000,
    });
    await slow.listen(0, "127.0.0.1");
    world.onCleanup(() => slow.close());
    const bot = (await world.runProcess({ TOPUP_BASE_URL: slow.url })).process!;
    const summary = await world.summaryFor(ADMIN, "ML86", "12345678(1234)");
    const refId = /<code>([A-Z0-9]+)<\/code>\n\n/.exec(summary.text)![1]!;
    world.fake.tapButton(ADMIN, summary, button(summary, /^c:/));
    await world.fake.waitFor(() => slow.calls.length === 1);
    bot.child.kill("SIGTERM");
    expect(await bot.exited).toBe(0);
    expect(world.fake.messagesTo(ADMIN.id).some((m) => /Top-up successful/.test(m.text))).toBe(true);
    const storage = await createStorage({ redisUrl: world.env.REDIS_URL!, prefix: world.env.REDIS_KEY_PREFIX! });
    try {
      const order = await createLedger(storage).orders.get(refId);
      expect(order?.state).toBe("success");
      expect(order?.result?.sn).toMatch(/^\d+$/);
    } finally {
      await storage.close();
    }
    expect(bot.output()).toMatch(/"msg":"stopped"/);
  });

  it("when the bot runs through `npm start` and npm is killed outright, then the bot stops polling too", async () => {
    const npm = spawn("npm", ["start"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...world.env, LOG_LEVEL: "warn" },
      stdio: "ignore",
    });
    try {
      await world.fake.waitFor(() => world.fake.isPolling(), 30_000);
      npm.kill("SIGKILL");
      // The fake holds a poll for at most 2 s; a bot still alive would be back within that.
      await world.fake.waitFor(() => !world.fake.isPolling(), 10_000);
      await new Promise((r) => setTimeout(r, 3000));
      expect(world.fake.isPolling()).toBe(false);
    } finally {
      npm.kill("SIGKILL");
    }
  });

  it("when Telegram cannot be reached, then the bot says so at once, names the address and says it is retrying", async () => {
    const closed = await freePort();
    const bot = world.adopt(startBotProcess({ ...world.env, BOT_API_ROOT: `http://127.0.0.1:${closed}` })).process!;
    await bot.waitForOutput(/Telegram cannot be reached; retrying/, 10_000);
    const line = JSON.parse(
      bot
        .output()
        .split("\n")
        .find((l) => l.includes("Telegram cannot be reached"))!,
    ) as Record<string, unknown>;
    expect(line).toMatchObject({ botApiRoot: `http://127.0.0.1:${closed}`, attempt: 1 });
    expect(String(line.err)).toMatch(/ECONNREFUSED/);
    expect(bot.output()).not.toContain(world.env.BOT_TOKEN!);
  });

  it("when Telegram refuses the token, then the bot stops at once with a clear message", async () => {
    const bot = world.adopt(startBotProcess({ ...world.env, BOT_TOKEN: "123456:not-the-right-token" })).process!;
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toContain("BOT_TOKEN was rejected by Telegram");
    expect(bot.output()).not.toMatch(/\n\s+at /);
  });
});
