import { createServer, request as httpRequest, type Server } from "node:http";
import { testLookup } from "../helpers/callback-lookup.js";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { expect } from "vitest";
import { buildApp, type App, type AppOptions } from "../../src/app.js";
import { loadCatalog } from "../../src/catalog/catalog.js";
import { parseConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { createSandboxProvider, type SandboxProvider } from "../../src/topup/sandbox.js";
import { deleteByPrefix, REDIS_URL, uniquePrefix } from "../helpers/redis.js";
import { startBot, type BotProcess } from "./bot-process.js";
import { createFakeBotApi, type FakeUser, type SentMessage } from "./fake-bot-api.js";

export const SECRET = "sk-live-DO-NOT-LEAK-8f3a91";

/** The two users most tests start from: an admin who reads English, staff who read Indonesian. */
export const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
export const STAFF: FakeUser = { id: 1002, first_name: "Sari", language_code: "id" };
export const MITRA = "M-e2e";

/** The callback data of the first button whose text or data matches. */
export function button(message: SentMessage, match: RegExp): string {
  const rows: Array<Array<{ text: string; callback_data?: string }>> = message.reply_markup?.inline_keyboard ?? [];
  for (const b of rows.flat()) if (match.test(b.text) || match.test(b.callback_data ?? "")) return b.callback_data!;
  throw new Error(`no button ${match} on message: ${message.text} ${JSON.stringify(message.reply_markup)}`);
}

/** A bot the test started: in this process (built by buildApp) or as a process (`node dist/main.js`). */
export interface RunningBot {
  /** Everything it logged so far (and, for a process, printed). */
  output(): string;
  /** In process: a graceful stop. A process: the signal (SIGKILL by default). */
  kill(signal?: NodeJS.Signals): Promise<unknown>;
  /** The app, when it runs in this process. */
  app?: App;
  /** The child, when it runs as a process. */
  process?: BotProcess;
}

/**
 * Everything a bot test needs, each piece its own: a fake Telegram (over loopback HTTP), the
 * sandbox provider (prices 500 below the catalogue's selling prices), a Redis key prefix, and
 * bots: in this process by default (fast: the real app from buildApp, the real runner polling
 * the fake), or as processes where a test needs one (signals, SIGKILL, start-up errors).
 */
export async function createWorld(options: { initialBalance?: number; latencyMs?: number } = {}) {
  const fake = createFakeBotApi();
  await fake.start();
  const catalog = await loadCatalog("catalog.json");
  if (!catalog.ok) throw new Error(catalog.errors.join("\n"));
  const sandbox: SandboxProvider = createSandboxProvider({
    mitraId: MITRA,
    secretKey: SECRET,
    products: catalog.catalog.games.flatMap((g) =>
      g.products.map((p) => ({ code: p.code, name: p.name, priceRp: (p.price ?? 10000) - 500 })),
    ),
    ...(options.initialBalance === undefined ? {} : { initialBalance: options.initialBalance }),
    ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
  });
  await sandbox.listen(0, "127.0.0.1");
  const prefix = uniquePrefix("e2e");
  const bots: RunningBot[] = [];
  const env: Record<string, string> = {
    BOT_TOKEN: fake.token,
    BOT_API_ROOT: fake.url,
    TOPUP_BASE_URL: sandbox.url,
    TOPUP_MITRA_ID: MITRA,
    TOPUP_SECRET_KEY: SECRET,
    TOPUP_TIMEOUT_MS: "3000",
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    LOG_LEVEL: "debug",
  };
  const servers: Server[] = [];
  const extraCleanups: Array<() => Promise<void>> = [];

  const world = {
    fake,
    sandbox,
    env,
    prefix,
    bots,
    /** The bot in this process, built from `env` and `extra` exactly as main.ts builds it. */
    async run(extra: Record<string, string> = {}, options: Partial<AppOptions> = {}): Promise<RunningBot> {
      const parsed = parseConfig({ ...env, ...extra });
      if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
      let logs = "";
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          logs += chunk.toString("utf8");
          done();
        },
      });
      const app = await buildApp(parsed.config, {
        logger: createLogger(parsed.config.logLevel, sink),
        telegramRetryDelaysMs: [50, 50],
        // Partners' callback hosts resolve without the real DNS (test/helpers/callback-lookup.ts).
        callbackLookup: testLookup,
        ...options,
      });
      const bot: RunningBot = { app, output: () => logs, kill: () => app.stop() };
      bots.push(bot);
      await app.start();
      return bot;
    },
    /** The bot as an operator starts it (`node dist/main.js`), waiting until it polls. */
    async runProcess(extra: Record<string, string> = {}): Promise<RunningBot> {
      const child = await startBot({ ...env, ...extra });
      const bot: RunningBot = { process: child, output: () => child.output(), kill: (signal) => child.kill(signal) };
      bots.push(bot);
      return bot;
    },
    /** Adds a process the test started itself, so cleanup stops it and checks its output. */
    adopt(child: BotProcess): RunningBot {
      const bot: RunningBot = { process: child, output: () => child.output(), kill: (signal) => child.kill(signal) };
      bots.push(bot);
      return bot;
    },
    waitText: (user: FakeUser, pattern: RegExp, timeoutMs?: number) =>
      fake.waitForMessage(user.id, (m) => pattern.test(m.text), timeoutMs),
    /** Quick order up to the summary; returns the summary message. */
    async summaryFor(user: FakeUser, code: string, playerId: string) {
      const before = fake.messagesTo(user.id).length;
      fake.sendText(user, `/order ${code} ${playerId}`);
      return fake.waitForMessage(
        user.id,
        (m) => /Order ref|Ref pesanan/.test(m.text) && fake.messagesTo(user.id).indexOf(m) >= before,
      );
    },
    /** Quick order and Confirm; resolves with the result message. */
    async order(user: FakeUser, code: string, playerId: string) {
      const summary = await world.summaryFor(user, code, playerId);
      const refId = /(?:Order ref|Ref pesanan): <code>([A-Z0-9]+)<\/code>/.exec(summary.text)?.[1] ?? "";
      fake.tapButton(user, summary, button(summary, /^c:/));
      return fake.waitForMessage(
        user.id,
        (m) => m.text.includes(`<code>${refId}</code>`) && m.message_id !== summary.message_id,
        15_000,
      );
    },
    /**
     * A provider in front of the sandbox that answers an HTML 502 for player ids starting with
     * 777 (result unknown) and passes everything else through.
     */
    async flakyProvider(): Promise<string> {
      const server = createServer((req, res) => {
        const url = new URL(req.url ?? "/", "http://x");
        if ((url.searchParams.get("destination") ?? "").startsWith("777")) {
          res.writeHead(502, { "content-type": "text/html" });
          res.end("<html>502 Bad Gateway</html>");
          return;
        }
        const upstream = new URL(sandbox.url);
        const forward = httpRequest(
          { host: upstream.hostname, port: upstream.port, path: req.url, method: "GET" },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.end();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    /** A sandbox selling ML86 (provider price 19,500) whose answers take `latencyMs`: things can happen meanwhile. */
    async slowSandbox(latencyMs: number): Promise<SandboxProvider> {
      const slow = createSandboxProvider({
        mitraId: MITRA,
        secretKey: SECRET,
        products: [{ code: "ML86", name: "86 Diamonds", priceRp: 19500 }],
        latencyMs,
      });
      await slow.listen(0, "127.0.0.1");
      extraCleanups.push(() => slow.close());
      return slow;
    },
    /** Something the test started itself, stopped after the bots. */
    onCleanup(fn: () => Promise<void>) {
      extraCleanups.push(fn);
    },
    async cleanup() {
      for (const bot of bots) await bot.kill();
      for (const fn of extraCleanups) await fn();
      if (process.env.E2E_DEBUG !== undefined) for (const bot of bots) console.log(bot.output());
      // Whatever happened in the test, the secret never reached Telegram or the logs.
      expect(fake.allOutgoingText()).not.toContain(SECRET);
      for (const bot of bots) expect(bot.output()).not.toContain(SECRET);
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      await fake.stop();
      await sandbox.close();
      await deleteByPrefix(prefix);
    },
  };
  return world;
}

export type World = Awaited<ReturnType<typeof createWorld>>;

/** A world where ADMIN is an admin and STAFF may order (what most order tests start from). */
export async function staffWorld(options: Parameters<typeof createWorld>[0] = {}): Promise<World> {
  const world = await createWorld(options);
  Object.assign(world.env, { ADMIN_IDS: String(ADMIN.id), ALLOWED_USER_IDS: String(STAFF.id) });
  return world;
}
