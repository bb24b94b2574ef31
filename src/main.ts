import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { run, type RunnerHandle } from "@grammyjs/runner";
import { config as loadDotenv } from "dotenv";
import type { Update } from "grammy/types";
import { GrammyError, HttpError } from "grammy";
import { createBot } from "./bot/create-bot.js";
import { loadCatalog } from "./catalog/catalog.js";
import { parseConfig } from "./config.js";
import { createLogger } from "./logger.js";
import type { OrderRecord } from "./orders/order.js";
import { createAccess } from "./orders/access.js";
import { createOrderService, type FinishedHow } from "./orders/order-service.js";
import { createHttpServer } from "./server/http-server.js";
import { createStore, StoreUnavailableError, type Store } from "./storage/store.js";
import { createTopupClient, redactUrl } from "./topup/client.js";
import { createSandboxProvider, SANDBOX_MITRA_ID, SANDBOX_SECRET_KEY, type SandboxProvider } from "./topup/sandbox.js";

/** Stops at start with a short message and exit code 1: no stack trace for an operator's mistake. */
function fail(title: string, lines: string[]): never {
  process.stderr.write(`${title}\n${lines.map((l) => `  - ${l}`).join("\n")}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  loadDotenv({ quiet: true });
  const parsed = parseConfig(process.env);
  if (!parsed.ok) fail("Configuration error: the bot cannot start.", parsed.errors);
  const config = parsed.config;
  const logger = createLogger(config.logLevel);

  const catalogResult = await loadCatalog(config.catalogFile);
  if (!catalogResult.ok) fail(`CATALOG_FILE ${config.catalogFile} is not valid:`, catalogResult.errors);
  const catalog = catalogResult.catalog;

  let sandbox: SandboxProvider | undefined;
  let provider: { baseUrl: string; mitraId: string; secretKey: string };
  if (config.topup === undefined) {
    sandbox = createSandboxProvider({
      mitraId: SANDBOX_MITRA_ID,
      secretKey: SANDBOX_SECRET_KEY,
      products: catalog.games.flatMap((g) => g.products.map((p) => ({ code: p.code, name: p.name, priceRp: p.price ?? 10_000 }))),
    });
    const url = await sandbox.listen(0, "127.0.0.1");
    provider = { baseUrl: url, mitraId: SANDBOX_MITRA_ID, secretKey: SANDBOX_SECRET_KEY };
    process.stderr.write("*** sandbox: no real orders. TOPUP_BASE_URL is not set, orders go to the built-in sandbox provider. ***\n");
    logger.warn({ sandbox: url }, "sandbox: no real orders (TOPUP_BASE_URL is not set)");
  } else {
    provider = config.topup;
    logger.info({ provider: redactUrl(config.topup.baseUrl) }, "provider configured");
  }

  let store: Store;
  try {
    store = await createStore({
      redisUrl: config.redisUrl,
      keyPrefix: config.redisKeyPrefix,
      onError: (err) => logger.error({ err: String(err) }, "redis error"),
    });
  } catch (err) {
    if (err instanceof StoreUnavailableError) fail("REDIS_URL cannot be used:", [err.message]);
    throw err;
  }
  if (store.kind === "memory") {
    logger.warn("REDIS_URL is not set: using an in-process memory store; conversations and the order ledger are lost at restart");
  }

  const topup = createTopupClient({ ...provider, timeoutMs: config.topupTimeoutMs });
  const hooks: { finished?: (order: OrderRecord, how: FinishedHow) => Promise<void> } = {};
  const orders = createOrderService({
    store,
    topup,
    refIdPrefix: config.refIdPrefix,
    timeoutMs: config.topupTimeoutMs,
    logger,
    onFinished: (order, how) => hooks.finished?.(order, how),
  });
  const access = createAccess({ store, adminIds: config.adminIds, allowedUserIds: config.allowedUserIds });
  const { bot, notifier, inFlight, setCommands } = createBot({
    token: config.botToken,
    apiRoot: config.botApiRoot,
    catalog,
    orders,
    store,
    access,
    logger,
    adminIds: config.adminIds,
    timeZone: config.timeZone,
    lowBalanceThreshold: config.lowBalanceThreshold,
  });
  hooks.finished = notifier.orderFinished;

  try {
    await bot.init();
  } catch (err) {
    if (err instanceof GrammyError && err.error_code === 401) fail("BOT_TOKEN was rejected by Telegram:", ["401 Unauthorized: check the token from @BotFather"]);
    if (err instanceof HttpError) fail("Telegram cannot be reached:", [`${config.botApiRoot}: ${err.message.replace(config.botToken, "***")}`]);
    throw err;
  }

  // Orders left `submitting` by a crash: settle them as unknown once they cannot be in flight.
  const recover = () =>
    orders.recoverInterrupted().catch((err: unknown) => logger.error({ err: String(err) }, "recovery of interrupted orders failed"));
  // Tell the users of orders that were in flight when the bot stopped: no silence after a crash.
  for (const order of await orders.inFlight().catch(() => [])) await notifier.interrupted(order);
  await recover();
  const recoveryTimer = setInterval(recover, Math.max(1000, Math.min(config.topupTimeoutMs / 2, 30_000)));
  await setCommands();

  // Webhook updates are acknowledged at once and handled here, counted for shutdown.
  let webhookInFlight = 0;
  const handleWebhookUpdate = (update: Update) => {
    webhookInFlight++;
    bot
      .handleUpdate(update)
      .catch((err: unknown) => logger.error({ err: String(err), updateId: update.update_id }, "update failed"))
      .finally(() => webhookInFlight--);
  };

  const webhook = config.webhook;
  // Without WEBHOOK_SECRET a fresh one per start: setWebhook hands it to Telegram each time.
  const webhookSecret = webhook?.secret ?? randomBytes(32).toString("hex");
  const http =
    webhook !== undefined || config.port !== undefined
      ? createHttpServer({
          health: () => store.ping(),
          logger,
          ...(webhook === undefined
            ? {}
            : { webhook: { path: new URL(webhook.url).pathname, secret: webhookSecret, onUpdate: handleWebhookUpdate } }),
        })
      : undefined;
  if (http !== undefined) {
    const port = await http.listen(config.port!);
    logger.info({ port }, webhook === undefined ? "health endpoint listening" : "webhook and health endpoint listening");
  }

  let runner: RunnerHandle | undefined;
  if (webhook !== undefined) {
    await bot.api.setWebhook(webhook.url, { secret_token: webhookSecret, allowed_updates: ALLOWED_UPDATES });
    logger.info({ bot: bot.botInfo.username, store: store.kind, sandbox: sandbox !== undefined, mode: "webhook" }, "bot started (webhook)");
  } else {
    // A webhook left over from webhook mode would stop getUpdates; a refusal here is not fatal.
    await bot.api.deleteWebhook().catch((err: unknown) => logger.warn({ err: String(err) }, "deleteWebhook failed"));
    runner = run(bot, { runner: { fetch: { allowed_updates: ALLOWED_UPDATES } } });
    logger.info({ bot: bot.botInfo.username, store: store.kind, sandbox: sandbox !== undefined, mode: "polling" }, "bot started (long polling)");
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: no new updates, finishing the ones in flight");
    const force = setTimeout(() => {
      logger.error("shutdown took longer than 10 s, forcing exit");
      process.exit(1);
    }, 10_000);
    force.unref();
    clearInterval(recoveryTimer);
    http?.stopIntake();
    // runner.stop() waits for the updates it is handling; webhook updates are counted here.
    if (runner?.isRunning()) await runner.stop().catch(() => undefined);
    while (webhookInFlight > 0 || inFlight() > 0) await new Promise((r) => setTimeout(r, 50));
    await http?.close();
    await store.close();
    await sandbox?.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  // Started through `npm start`, the bot runs under npm (and a shell): if npm is killed outright
  // (SIGKILL), no signal reaches us and we would keep polling beside the next instance.
  watchLaunchers(() => void shutdown("launcher process gone"));
}

/** The parent pid of a process, from /proc (Linux); undefined elsewhere or when it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** Calls `onGone` when the process that started us, or the one that started it, goes away. */
function watchLaunchers(onGone: () => void): void {
  const parent = process.ppid;
  if (parent <= 1) return; // run directly by init, systemd or Docker: nothing to watch
  const grandparent = parentOf(parent);
  setInterval(() => {
    if (process.ppid !== parent) return onGone();
    if (grandparent !== undefined && grandparent > 1 && parentOf(parent) !== grandparent) onGone();
  }, 500).unref();
}

const ALLOWED_UPDATES = ["message", "edited_message", "callback_query", "my_chat_member"] as const;

main().catch((err: unknown) => {
  // A bug or an infrastructure failure at start: name it in one line, no stack, no secrets.
  process.stderr.write(`The bot stopped: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n`);
  process.exit(1);
});
