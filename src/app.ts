import { run, type RunnerHandle } from "@grammyjs/runner";
import { Api, GrammyError, HttpError, type Bot } from "grammy";
import type { Update, UserFromGetMe } from "grammy/types";
import { createAccess } from "./access/access.js";
import { createAudience } from "./broadcast/audience.js";
import { createBroadcastStore } from "./broadcast/broadcast-store.js";
import { BROADCAST_LEASE_MS, createBroadcastApi, createBroadcaster } from "./broadcast/sender.js";
import { createUserList } from "./access/user-list.js";
import { createPeople } from "./access/people.js";
import { broadcastTexts } from "./bot/broadcast-texts.js";
import { chatPolicy } from "./bot/chats.js";
import { commandMenus } from "./bot/commands.js";
import type { BotContext } from "./bot/context.js";
import { createTelegramBot, DIALOGUE_STATE, installBot } from "./bot/create-bot.js";
import { FEATURES } from "./bot/all-features.js";
import type { Feature } from "./bot/feature.js";
import { loadTexts } from "./bot/i18n.js";
import { createNotifier, type Notifier } from "./bot/notifier.js";
import { createPendingMessages } from "./bot/pending-messages.js";
import type { Services } from "./bot/services.js";
import { createUnavailableNotice } from "./bot/unavailable-notice.js";
import { createUserPrefs } from "./bot/user-prefs.js";
import { findProduct, loadCatalog, type Catalog } from "./catalog/catalog.js";
import { createDownloader } from "./bot/files.js";
import { createShop, type Shop } from "./shop/shop.js";
import { createCatalogUploads, createPriceChanges } from "./shop/uploads.js";
import type { Config } from "./config.js";
import type { Logger } from "./logger.js";
import { COMPACTION_LEASE_MS, createCompaction, type Compaction } from "./orders/compaction.js";
import { createLedger } from "./orders/create-ledger.js";
import { createDeposits } from "./orders/deposits.js";
import type { OrderLedger } from "./orders/ledger.js";
import type { Wallets } from "./orders/wallet.js";
import { createOrderService, type OrderService } from "./orders/order-service.js";
import { dayIn } from "./calendar.js";
import { createReports } from "./reports/reports.js";
import { createHttpServer, type HttpServer } from "./server/http-server.js";
import { createChatState } from "./storage/chat-state.js";
import { createOrigins } from "./storage/origins.js";
import { createClaims } from "./storage/claims.js";
import { createLease, keepLease, processOwner, whileHeld, type LeaseKeeper } from "./storage/leases.js";
import { createLiveness } from "./storage/liveness.js";
import { StoreUnavailableError } from "./storage/redis.js";
import { createStorage, type Storage } from "./storage/storage.js";
import { createTopupClient, providerOrigin } from "./topup/client.js";
import { createSandboxProvider, SANDBOX_MITRA_ID, SANDBOX_SECRET_KEY, type SandboxProvider } from "./topup/sandbox.js";
import type { TopupClient } from "./topup/types.js";
import { createTaskTracker } from "./tasks.js";
import { createDirectIntake } from "./updates/direct.js";
import { createUpdatePipeline, type ReplicaTimings, type UpdatePipeline } from "./updates/pipeline.js";
import {
  forgetWebhookRegistration,
  freshWebhookSecret,
  registerWebhookOnce,
  sharedWebhookSecret,
} from "./updates/webhook-setup.js";

/** A start-up failure an operator can fix: a title and one line per problem, never a stack trace. */
export class StartupError extends Error {
  override name = "StartupError";
  constructor(
    readonly title: string,
    readonly lines: string[],
  ) {
    super(`${title} ${lines.join("; ")}`);
  }
}

export interface AppOptions {
  logger: Logger;
  now?: () => Date;
  /** Waits between attempts to reach Telegram at start; after the last one the start fails. */
  telegramRetryDelaysMs?: readonly number[];
  /** How often orders left in flight by a crash are looked for. */
  recoveryIntervalMs?: number;
  /**
   * The window of the flood limit (more than 30 messages of one user in it), 2 s by default. Its
   * windows follow one another from the bot's start and count updates as they are handled: a test
   * that sends a flood widens it, so that the flood is one however slowly the machine handles it.
   */
  floodWindowMs?: number;
  /** The bot's features (default: all of bot/all-features.ts). */
  features?: readonly Feature[];
  /** Several processes on one Redis: how long locks and leases last (tests shorten them). */
  replicas?: Partial<ReplicaTimings> & {
    /** The lease of the shared background work (recovery, broadcasts, notices). */
    maintenanceLeaseMs?: number;
    maintenanceRetryMs?: number;
    broadcastLeaseMs?: number;
  };
}

export interface App {
  config: Config;
  bot: Bot<BotContext>;
  storage: Storage;
  ledger: OrderLedger;
  wallets: Wallets;
  orders: OrderService;
  notifier: Notifier;
  /** The catalogue of CATALOG_FILE (the one in use until an admin edits one in the chat: `shop`). */
  catalog: Catalog;
  /** The catalogue in use and the pause, as admins change them in the chat. */
  shop: Shop;
  /** The built-in provider when TOPUP_BASE_URL is unset. */
  sandbox: SandboxProvider | undefined;
  /** /healthz (and the webhook) when PORT or WEBHOOK_URL is set. */
  http: HttpServer | undefined;
  /** The ledger's compaction (started by start(); `runOnce` runs a pass now). */
  compaction: Compaction;
  /** With Redis: the update stream every update goes through (several processes, nothing lost). */
  updates: UpdatePipeline | undefined;
  /** This process's name among the others (leases, the stream's consumer group). */
  owner: string;
  /**
   * Reaches Telegram (retrying with a log line per attempt), then takes updates (long polling or
   * the webhook) and, beside them, recovers orders a crash left in flight. Throws StartupError.
   */
  start(): Promise<void>;
  /** Stops taking updates, lets the ones in flight finish and be recorded, then closes everything. Once. */
  stop(): Promise<void>;
}

const ALLOWED_UPDATES = ["message", "edited_message", "callback_query", "my_chat_member"] as const;
const TELEGRAM_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000, 15_000, 15_000];
/** The shared background work's lease: another process takes it over this long after its holder died. */
const MAINTENANCE_LEASE_MS = 15_000;
const MAINTENANCE_RETRY_MS = 2_000;
/** The ledger upgrade's lease, renewed every third of it while the upgrade runs. */
const UPGRADE_LEASE_MS = 15_000;
/** Consumers of the update stream with nothing pending, idle this long, are processes gone for good. */
const GONE_CONSUMER_MS = 60 * 60 * 1000;

/**
 * Builds the whole bot from a parsed configuration: storage, provider client (or the sandbox),
 * order service, notifier, bot and HTTP server. Nothing listens and nothing is fetched from
 * Telegram until start(). main.ts calls this; so do the in-process tests.
 */
export async function buildApp(config: Config, options: AppOptions): Promise<App> {
  const { logger } = options;
  const now = options.now ?? (() => new Date());

  const catalogResult = await loadCatalog(config.catalogFile);
  if (!catalogResult.ok)
    throw new StartupError(`CATALOG_FILE ${config.catalogFile} is not valid:`, catalogResult.errors);
  const catalog = catalogResult.catalog;

  // This process's name among the others: its leases, its consumer in the update stream, and
  // the name its Redis connections carry (so the others see at once when it is gone).
  const owner = processOwner();
  let storage: Storage;
  try {
    storage = await createStorage({
      redisUrl: config.redisUrl,
      prefix: config.redisKeyPrefix,
      owner,
      onError: (err) => logger.error({ err }, "redis error"),
    });
  } catch (err) {
    if (err instanceof StoreUnavailableError) throw new StartupError("REDIS_URL cannot be used:", [err.message]);
    throw err;
  }
  if (storage.kind === "memory") {
    logger.warn(
      "REDIS_URL is not set: using an in-process memory store; conversations and the order ledger are lost at restart, " +
        "and it serves one bot process only: a second process would share nothing with this one (and this one cannot " +
        "see it), so run several processes only with REDIS_URL",
    );
  }
  const liveness = createLiveness(storage, logger);

  const shop = createShop({ storage, fileCatalog: catalog, now });

  // The sandbox gets its address when it starts listening (in start()); the client follows it.
  let sandbox: SandboxProvider | undefined;
  let topup: TopupClient;
  if (config.topup === undefined) {
    const sb = createSandboxProvider({
      mitraId: SANDBOX_MITRA_ID,
      secretKey: SANDBOX_SECRET_KEY,
      products: catalog.games.flatMap((g) =>
        g.products.map((p) => ({ code: p.code, name: p.name, priceRp: p.price ?? 10_000 })),
      ),
      lookup: (code) => {
        // Products an admin added in the chat, at their selling price.
        const match = findProduct(shop.cachedCatalog(), code);
        return match === undefined
          ? undefined
          : { code: match.product.code, name: match.product.name, priceRp: match.product.price ?? 10_000 };
      },
    });
    sandbox = sb;
    let client: TopupClient | undefined;
    topup = {
      order: (req) => {
        client ??= createTopupClient({
          baseUrl: sb.url,
          mitraId: SANDBOX_MITRA_ID,
          secretKey: SANDBOX_SECRET_KEY,
          timeoutMs: config.topupTimeoutMs,
        });
        return client.order(req);
      },
    };
  } else {
    topup = createTopupClient({ ...config.topup, timeoutMs: config.topupTimeoutMs });
    // Which provider, for the operator; its path, query and credentials stay out of the log.
    logger.info({ provider: providerOrigin(config.topup.baseUrl) }, "provider configured");
  }

  const texts = loadTexts();
  /** Updates the update stream hands out again after their handling was cut short (services.handledAgain). */
  const handledAgain = new WeakSet<Update>();
  const prefs = createUserPrefs(storage, (err) => logger.warn({ err }, "preferences not read"));
  const books = createLedger(storage, { timeZone: config.timeZone });
  const origins = createOrigins(storage);
  const { orders: ledger, wallets } = books;
  const compaction = createCompaction({
    ledger: books,
    lease: createLease(storage, "compact", { ttlMs: COMPACTION_LEASE_MS, owner, liveness }),
    hotDays: config.ledger.hotDays,
    everyMs: config.ledger.compactEveryMs,
    logger,
    now,
  });
  const bot = createTelegramBot({ token: config.botToken, apiRoot: config.botApiRoot });
  const people = createPeople(storage);
  const pendingMessages = createPendingMessages(storage);
  const notifier = createNotifier({
    api: bot.api,
    texts,
    prefs,
    adminIds: config.adminIds,
    adminChat: config.adminChat,
    logger,
    lowBalanceThreshold: config.lowBalanceThreshold,
    sandbox: config.topup === undefined,
    people,
    pendingMessages,
  });
  const orders = createOrderService({
    ledger,
    shop,
    wallets,
    origins,
    topup,
    refIdPrefix: config.refIdPrefix,
    timeoutMs: config.topupTimeoutMs,
    lowBalanceThreshold: config.lowBalanceThreshold,
    logger,
    events: notifier,
    now,
  });
  const access = createAccess({
    users: createUserList(storage),
    adminIds: config.adminIds,
    allowedUserIds: config.allowedUserIds,
    resellerIds: config.resellerIds,
    now,
  });
  const reports = createReports({
    ledger,
    wallets,
    access,
    people,
    shop,
    timeZone: config.timeZone,
    refIdPrefix: config.refIdPrefix,
    now,
  });
  const deposits = createDeposits({
    wallets,
    buyerOf: (userId) => access.buyerOf(userId),
    logger,
    events: notifier,
    origins,
    claims: createClaims(storage, "deposit-notice", { owner, liveness }),
    undeliveredOnce: createClaims(storage, "deposit-undelivered"),
    now,
  });
  const features = (options.features ?? FEATURES).filter((f) => f.availableWith(config));
  const miniAppUrl = config.webApp?.url;
  const menus = commandMenus(
    bot.api,
    texts,
    logger,
    features,
    miniAppUrl === undefined ? undefined : { url: miniAppUrl, languageOf: (userId) => prefs.languageFor(userId) },
  );
  const updates = createTaskTracker();
  const broadcastStore = createBroadcastStore(storage);
  const broadcaster = createBroadcaster({
    store: broadcastStore,
    api: bot.api,
    sendApi: createBroadcastApi(config.botToken, config.botApiRoot),
    texts: broadcastTexts(texts, prefs),
    logger,
    intervalMs: config.broadcastIntervalMs,
    now,
    ...(storage.kind === "redis"
      ? {
          lease: (id: string) =>
            createLease(storage, `broadcast:${id}`, {
              ttlMs: options.replicas?.broadcastLeaseMs ?? BROADCAST_LEASE_MS,
              owner,
              liveness,
            }),
        }
      : {}),
  });
  const services: Services = {
    orders,
    reports,
    shop,
    access,
    people,
    wallets,
    deposits,
    uploads: createCatalogUploads(storage),
    priceChanges: createPriceChanges(storage),
    pendingMessages,
    origins,
    broadcasts: {
      store: broadcastStore,
      audience: createAudience({ store: broadcastStore, access }),
      start: (id) => broadcaster.start(id),
    },
    prefs,
    texts,
    menus,
    download: createDownloader({ api: bot.api, apiRoot: config.botApiRoot, token: config.botToken }),
    chats: chatPolicy(config.adminChat),
    chatState: createChatState(storage, [DIALOGUE_STATE]),
    telegram: bot.api,
    place: { timeZone: config.timeZone, shopName: config.shopName },
    miniApp: config.webApp,
    clock: now,
    handledAgain: (update) => handledAgain.has(update),
  };
  installBot(bot, {
    services,
    features,
    storage,
    logger,
    updates,
    ...(options.floodWindowMs === undefined ? {} : { floodWindowMs: options.floodWindowMs }),
  });
  // An update that cannot be stored (Redis does not answer) is not acknowledged: Telegram keeps it.
  // Its user hears that the bot is unavailable for a moment, once, straight through the Bot API.
  const unavailable = createUnavailableNotice({ api: bot.api, me: () => bot.botInfo, texts, logger });

  const webhook = config.webhook;
  // Without WEBHOOK_SECRET: with Redis one shared by every process (kept there), in memory a fresh one per start.
  const webhookSecret =
    webhook === undefined
      ? ""
      : storage.kind === "redis"
        ? await sharedWebhookSecret(storage, webhook.secret)
        : (webhook.secret ?? freshWebhookSecret());
  /** An update handled in this process: the bot's first middleware tracks it (shutdown waits for it). */
  const handle = (update: Update, info?: { attempt: number }) => {
    if ((info?.attempt ?? 1) > 1) handledAgain.add(update);
    return bot.handleUpdate(update);
  };
  const pipeline: UpdatePipeline | undefined =
    storage.kind === "redis"
      ? createUpdatePipeline({
          storage,
          owner,
          liveness,
          handle,
          logger,
          ...(options.replicas === undefined ? {} : { timings: options.replicas }),
          ...(webhook !== undefined
            ? {}
            : {
                polling: {
                  // A plain Api (no auto-retry): a failed getUpdates is simply asked again.
                  api: new Api(config.botToken, { apiRoot: config.botApiRoot }),
                  allowedUpdates: ALLOWED_UPDATES,
                  onNotStored: (batch) => batch.forEach((update) => unavailable.tell(update)),
                  onTakeOver: async () => {
                    // A webhook left over from webhook mode would stop getUpdates.
                    await bot.api.deleteWebhook();
                    await forgetWebhookRegistration(storage);
                  },
                },
              }),
        })
      : undefined;
  // The Mini App's code (and its init data checks) is loaded only when WEBAPP_URL is set.
  const miniApp =
    config.webApp === undefined
      ? undefined
      : (await import("./server/mini-app/mini-app.js")).createMiniApp({
          botToken: config.botToken,
          orders,
          reports,
          shop,
          access,
          people,
          wallets,
          deposits,
          languageOf: (userId, telegramCode) => prefs.languageFor(userId, telegramCode),
          timeZone: config.timeZone,
          today: () => dayIn(config.timeZone, now()),
          shopName: () => config.shopName ?? bot.botInfo.first_name,
          logger,
        });
  const http =
    webhook !== undefined || config.port !== undefined
      ? createHttpServer({
          health: () => storage.ping(),
          serving: () => pipeline?.serving() ?? "ready",
          logger,
          routes: miniApp === undefined ? [] : [{ path: "/app", app: miniApp }],
          ...(webhook === undefined
            ? {}
            : {
                webhook: {
                  path: new URL(webhook.url).pathname,
                  secret: webhookSecret,
                  // With Redis: answered once stored in the update stream. In memory: handed on at once.
                  intake:
                    pipeline === undefined
                      ? createDirectIntake(
                          (update) =>
                            void handle(update).catch((err: unknown) =>
                              logger.error({ err, updateId: update.update_id }, "update failed"),
                            ),
                        )
                      : (update: Update, body: string) => pipeline.intake(update, body),
                  onNotStored: (update) => unavailable.tell(update),
                },
              }),
        })
      : undefined;

  let runner: RunnerHandle | undefined;
  let maintenance: LeaseKeeper | undefined;
  let recoveryTimer: NodeJS.Timeout | undefined;
  let background: Promise<void> = Promise.resolve();
  let stopping: Promise<void> | undefined;

  const recover = () =>
    orders.recoverInterrupted().then(
      () => undefined,
      (err: unknown) => logger.error({ err }, "recovery of interrupted orders failed"),
    );
  const setMenus = async () => {
    const resellers = (await access.list()).filter((e) => e.role === "reseller").map((e) => e.userId);
    await menus.setAll({ admins: config.adminIds, resellers, adminChat: config.adminChat?.chatId });
  };

  /**
   * What runs once among the processes, in the holder of the lease `maintenance`: broadcasts left
   * by a stopped process go on (each under its own lease, so never two senders), deposits credited
   * and not told are told (each under a claim), orders left in flight are settled once their call
   * must be over (each by one atomic step of the ledger); at the takeover, the command menus are
   * set and the stream forgets consumers long gone. Low-balance alerts need no lease: the ledger's
   * Lua step that records a sale decides, once per crossing, which sale's process sends it.
   */
  async function sharedWork(takeover: boolean): Promise<void> {
    if (stopping !== undefined) return;
    const step = async (what: string, work: () => Promise<unknown>) => {
      try {
        await work();
      } catch (err) {
        logger.error({ err }, `shared background work: ${what} failed`);
      }
    };
    await step("broadcasts", () => broadcaster.resume());
    await step("deposit notices", () => deposits.tellUntold());
    await recover();
    if (!takeover) return;
    await step("command menus", setMenus);
    await step("stream consumers", async () => {
      const gone = (await pipeline?.stream.forgetConsumers(GONE_CONSUMER_MS)) ?? 0;
      if (gone > 0) logger.info({ gone }, "update stream: consumers of processes long gone removed");
    });
  }

  /**
   * The ledger's upgrade, by one process at a time; the others wait for it, then find nothing to
   * do. Its lease is renewed while the upgrade runs; a process killed in the middle leaves it to the
   * next start (or another process) at once when it is seen gone, else once it ran out.
   */
  async function upgradeOnce(): ReturnType<typeof books.upgrade> {
    const lease = createLease(storage, "upgrade", { ttlMs: UPGRADE_LEASE_MS, owner, liveness });
    while (!(await lease.acquire())) await new Promise((resolve) => setTimeout(resolve, 500));
    let reported = 0;
    return whileHeld(
      lease,
      () =>
        books.upgrade({
          onProgress: (done) => {
            if (done - reported < 10_000) return;
            reported = done;
            logger.info({ done }, `ledger upgrade: ${done} orders rewritten so far`);
          },
        }),
      {
        onLost: () => logger.warn("ledger upgrade: its lease was lost; another process may run it too"),
        onRenewError: (err) => logger.warn({ err }, "ledger upgrade: lease not renewed"),
      },
    );
  }

  /** getMe, retried on network trouble with one line per attempt; a refused token stops at once. */
  async function reachTelegram(): Promise<UserFromGetMe> {
    // A plain Api, without the bot's auto-retry: every failed attempt is logged here.
    const api = new Api(config.botToken, { apiRoot: config.botApiRoot });
    const delays = options.telegramRetryDelaysMs ?? TELEGRAM_RETRY_DELAYS_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return await api.getMe();
      } catch (err) {
        if (err instanceof GrammyError && err.error_code === 401) {
          throw new StartupError("BOT_TOKEN was rejected by Telegram:", [
            "401 Unauthorized: check the token from @BotFather",
          ]);
        }
        // grammY's HttpError says which call failed; its `error` says why (refused, DNS, TLS…).
        const cause = err instanceof HttpError && err.error instanceof Error ? `: ${err.error.message}` : "";
        const why = `${err instanceof Error ? err.message : String(err)}${cause}`.replaceAll(config.botToken, "***");
        const delay = delays[attempt - 1];
        if (delay === undefined) {
          throw new StartupError("Telegram cannot be reached:", [
            `${config.botApiRoot}: ${why}`,
            `gave up after ${attempt} attempts`,
          ]);
        }
        logger.error(
          { botApiRoot: config.botApiRoot, attempt, retryInMs: delay, err: why },
          "Telegram cannot be reached; retrying",
        );
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  return {
    config,
    bot,
    storage,
    ledger,
    wallets,
    orders,
    notifier,
    catalog,
    shop,
    sandbox,
    http,
    compaction,
    updates: pipeline,
    owner,

    async start() {
      if (sandbox !== undefined) {
        const url = await sandbox.listen(0, "127.0.0.1");
        process.stderr.write(
          "*** sandbox: no real orders. TOPUP_BASE_URL is not set, orders go to the built-in sandbox provider. ***\n",
        );
        logger.warn({ sandbox: url }, "sandbox: no real orders (TOPUP_BASE_URL is not set)");
      }
      bot.botInfo = await reachTelegram();
      if (http !== undefined) {
        const port = await http.listen(config.port!);
        logger.info(
          { port },
          webhook === undefined ? "health endpoint listening" : "webhook and health endpoint listening",
        );
      }
      // Whether a process killed outright can be told from one that lives (says so when not).
      if (storage.kind === "redis") await liveness.probe();
      // Data of an older version gets this version's layout before anything reads it (once,
      // among every process: the others wait for the one holding the lease `upgrade`).
      const upgraded = await upgradeOnce();
      if (upgraded !== undefined) {
        logger.info(
          upgraded,
          `ledger upgraded from layout ${upgraded.from} to ${upgraded.to}: ${upgraded.orders} orders rewritten` +
            (upgraded.from < 2
              ? `, per-day figures built for ${upgraded.tallied.orders} orders and ${upgraded.tallied.deposits} deposits`
              : ""),
        );
      }
      // The memory store is one process: orders in flight were left by the previous run. With
      // Redis they may be another process's live orders; an order whose process died is told by
      // its Confirm, which the update stream hands to another process ("already being processed"),
      // and by recovery once its call must be over.
      const leftInFlight =
        pipeline !== undefined
          ? []
          : await orders.inFlight().catch((err: unknown) => {
              logger.error({ err }, "in-flight orders not read");
              return [];
            });
      const inUse = await shop.state().catch((err: unknown) => {
        logger.error({ err }, "catalogue in use not read");
        return undefined;
      });
      const catalogInUse =
        inUse === undefined || inUse.source.kind === "file"
          ? `file ${config.catalogFile}`
          : `edited in the chat (version ${inUse.source.version}, ${inUse.source.at} by ${inUse.source.by})`;
      logger.info(
        { catalog: catalogInUse, paused: inUse?.pause !== undefined },
        `catalogue in use: ${catalogInUse}${inUse?.pause === undefined ? "" : "; orders are paused"}`,
      );
      const started = {
        bot: bot.botInfo.username,
        store: storage.kind,
        sandbox: sandbox !== undefined,
        catalog: catalogInUse,
        process: owner,
      };
      // Updates stored by any process before this one started are handled from here on.
      await pipeline?.start();
      if (webhook !== undefined) {
        const register = async () =>
          void (await bot.api.setWebhook(webhook.url, {
            secret_token: webhookSecret,
            allowed_updates: ALLOWED_UPDATES,
          }));
        const registered =
          storage.kind === "redis"
            ? await registerWebhookOnce({
                storage,
                owner,
                parts: [webhook.url, webhookSecret, ALLOWED_UPDATES.join(",")],
                liveness,
                register,
              })
            : await register().then(() => "registered");
        if (registered === "already") logger.info("webhook already registered by another process");
        logger.info({ ...started, mode: "webhook" }, "bot started (webhook)");
      } else if (pipeline !== undefined) {
        logger.info(
          { ...started, mode: "polling" },
          "bot started (long polling: one process polls, the others stand by; all of them handle updates)",
        );
      } else {
        // A webhook left over from webhook mode would stop getUpdates; a refusal here is not fatal.
        await bot.api.deleteWebhook().catch((err: unknown) => logger.warn({ err }, "deleteWebhook failed"));
        runner = run(bot, { runner: { fetch: { allowed_updates: ALLOWED_UPDATES } } });
        logger.info({ ...started, mode: "polling" }, "bot started (long polling)");
      }
      // Old orders leave memory, not the books: a pass now, then every LEDGER_COMPACT_EVERY_MS, in
      // one process at a time (the compaction's own lease).
      compaction.start();
      const everyMs = options.recoveryIntervalMs ?? Math.max(1000, Math.min(config.topupTimeoutMs / 2, 30_000));
      if (storage.kind !== "redis") {
        // One process: beside the first updates, tell the users of orders a crash left in flight,
        // settle the ones whose call must be over, set the command menus; then look again now and then.
        background = (async () => {
          // Broadcasts a stop interrupted go on (nobody is sent one twice); stop() waits for them.
          await broadcaster.resume().catch((err: unknown) => logger.error({ err }, "broadcasts not resumed"));
          await orders.tellInterrupted(leftInFlight);
          // Deposits credited by a run that stopped before their reseller was told.
          await deposits.tellUntold();
          await recover();
          await setMenus();
        })();
        recoveryTimer = setInterval(() => void recover(), everyMs);
        recoveryTimer.unref();
        return;
      }
      // Several processes: the shared background work runs in the one process holding the lease
      // `maintenance`; another takes it over when that one stops or dies.
      maintenance = keepLease(
        createLease(storage, "maintenance", {
          ttlMs: options.replicas?.maintenanceLeaseMs ?? MAINTENANCE_LEASE_MS,
          owner,
          liveness,
        }),
        {
          retryMs: options.replicas?.maintenanceRetryMs ?? MAINTENANCE_RETRY_MS,
          onAcquired: () => {
            logger.info("this process runs the shared background work now (recovery, broadcasts, notices)");
            background = background.then(() => sharedWork(true));
          },
          onLost: () => logger.warn("shared background work: lease lost; another process goes on with it"),
          onError: (err) => logger.debug({ err }, "shared background work: lease not reached"),
        },
      );
      recoveryTimer = setInterval(() => {
        if (maintenance?.held() === true) background = background.then(() => sharedWork(false));
      }, everyMs);
      recoveryTimer.unref();
    },

    stop() {
      stopping ??= (async () => {
        clearInterval(recoveryTimer);
        http?.stopIntake();
        // No new updates; the ones being handled (polling or webhook) finish, the rest is handed
        // to the other processes (with Redis).
        if (runner?.isRunning()) await runner.stop();
        await pipeline?.stop();
        await updates.idle();
        // A long broadcast stops after the message in flight; another process, or the next
        // start, goes on with it.
        await broadcaster.stop();
        await compaction.stop();
        await background;
        await maintenance?.stop();
        await notifier.idle();
        await unavailable.idle();
        await http?.close();
        await shop.close();
        await prefs.close();
        await storage.close();
        await sandbox?.close();
      })();
      return stopping;
    },
  };
}
