import type { Bot } from "grammy";
import type { Update } from "grammy/types";
import type { BotContext } from "./bot/context.js";
import { createTelegramBot, installBot } from "./bot/create-bot.js";
import type { Feature } from "./bot/feature.js";
import type { Notifier } from "./bot/notices/notifier.js";
import { createUnavailableNotice } from "./bot/notices/unavailable.js";
import type { Catalog } from "./catalog/catalog.js";
import type { PartnerStore } from "./access/partners.js";
import type { Config } from "./config.js";
import type { Logger } from "./logger.js";
import type { Compaction } from "./ledger/compaction.js";
import type { OrderLedger } from "./orders/ledger.js";
import type { OrderService } from "./orders/order-service.js";
import type { LookupFn } from "./partners/callback-target.js";
import type { PartnerCallbacks } from "./partners/callbacks-owed.js";
import type { PartnerOrders } from "./partners/partner-orders.js";
import type { TestOrders } from "./partners/test-orders.js";
import type { Wallets } from "./orders/wallet.js";
import type { HttpServer } from "./server/http-server.js";
import { createShop, type Shop } from "./shop/shop.js";
import { processOwner } from "./storage/leases.js";
import { createLiveness } from "./storage/liveness.js";
import type { Storage } from "./storage/storage.js";
import { createTaskTracker } from "./tasks.js";
import type { SandboxProvider } from "./topup/sandbox.js";
import type { UpdatePipeline } from "./updates/pipeline.js";
import { createAppHttp } from "./app/http.js";
import { createLifecycle } from "./app/lifecycle.js";
import { createProvider } from "./app/provider.js";
import { chooseRuntime, type ReplicaOptions } from "./app/runtime.js";
import { buildServices } from "./app/services.js";
import { openStorage, readCatalog, TELEGRAM_RETRY_DELAYS_MS } from "./app/startup.js";

export interface AppOptions {
  logger: Logger;
  now?: () => Date;
  /** Waits between attempts to reach Telegram at start; after the last one the start fails. */
  telegramRetryDelaysMs?: readonly number[];
  /** Waits between attempts at setWebhook at start (webhook mode); after the last one the start fails. */
  webhookRetryDelaysMs?: readonly number[];
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
  replicas?: ReplicaOptions;
  /** How partners' callback hosts are resolved (default: the system's resolver; tests choose the addresses). */
  callbackLookup?: LookupFn;
}

export interface App {
  config: Config;
  bot: Bot<BotContext>;
  storage: Storage;
  ledger: OrderLedger;
  wallets: Wallets;
  orders: OrderService;
  /** Resellers with API access (the H2H API): their keys and callbacks. */
  partners: PartnerStore;
  /** The H2H API's orders (what a partner's request makes), and the callbacks owed to partners. */
  partnerOrders: PartnerOrders;
  partnerCallbacks: PartnerCallbacks;
  /** Test keys' orders (they order nothing; their callbacks are owed as real ones). */
  testOrders: TestOrders;
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

/**
 * Builds the whole bot from a parsed configuration: storage, provider client (or the sandbox),
 * order service, notifier, bot and HTTP server. Nothing listens and nothing is fetched from
 * Telegram until start(). main.ts calls this; so do the in-process tests.
 *
 * How the bot runs (one process in memory or several on Redis; long polling or the webhook) is
 * chosen once, by chooseRuntime (app/runtime.ts); the parts below take what it gives.
 */
export async function buildApp(config: Config, options: AppOptions): Promise<App> {
  const { logger } = options;
  const now = options.now ?? (() => new Date());
  const catalog = await readCatalog(config);
  // This process's name among the others: its leases, its consumer in the update stream, and
  // the name its Redis connections carry (so the others see at once when it is gone).
  const owner = processOwner();
  const storage = await openStorage(config, owner, logger);
  const liveness = createLiveness(storage, logger);
  const runtime = chooseRuntime(config, storage, { owner, liveness, logger, replicas: options.replicas });

  const shop = createShop({ storage, fileCatalog: catalog, now });
  const provider = createProvider(config, catalog, shop, logger);
  const { sandbox } = provider;
  const bot = createTelegramBot({ token: config.botToken, apiRoot: config.botApiRoot });
  /** Updates the update stream hands out again after their handling was cut short (services.handledAgain). */
  const handledAgain = new WeakSet<Update>();
  const parts = buildServices({
    config,
    storage,
    owner,
    liveness,
    logger,
    now,
    shop,
    provider,
    bot,
    features: options.features,
    broadcastLease: runtime.broadcastLease,
    handledAgain: (update) => handledAgain.has(update),
    callbackLookup: options.callbackLookup,
  });
  const updates = createTaskTracker();
  installBot(bot, {
    services: parts.services,
    features: parts.features,
    storage,
    logger,
    updates,
    ...(options.floodWindowMs === undefined ? {} : { floodWindowMs: options.floodWindowMs }),
  });
  // An update that cannot be stored (Redis does not answer) is not acknowledged: Telegram keeps it.
  // Its user hears that the bot is unavailable for a moment, once, straight through the Bot API.
  const unavailable = createUnavailableNotice({ api: bot.api, me: () => bot.botInfo, texts: parts.texts, logger });
  /** An update handled in this process: the bot's first middleware tracks it (shutdown waits for it). */
  const handle = (update: Update, info?: { attempt: number }) => {
    if ((info?.attempt ?? 1) > 1) handledAgain.add(update);
    return bot.handleUpdate(update);
  };
  const { ready, intake, background } = await runtime.build({
    config,
    bot,
    handle,
    unavailable,
    logger,
    webhookRetryDelaysMs: options.webhookRetryDelaysMs,
    orders: parts.orders,
    deposits: parts.deposits,
    depositRequests: parts.depositRequests,
    broadcaster: parts.broadcaster,
    setMenus: parts.setMenus,
    chores: parts.chores,
    everyMs: options.recoveryIntervalMs ?? Math.max(1000, Math.min(config.topupTimeoutMs / 2, 30_000)),
  });
  /** H2H orders in flight in this process (a stop waits for them, as for updates). */
  const partnerWork = createTaskTracker();
  const http = await createAppHttp({ ...parts, config, storage, intake, bot, shop, now, logger, partnerWork });
  const { start, stop } = createLifecycle({
    ...parts,
    config,
    logger,
    owner,
    storage,
    liveness,
    bot,
    shop,
    sandbox,
    http,
    ready,
    intake,
    background,
    unavailable,
    updates,
    partnerWork,
    telegramRetryDelaysMs: options.telegramRetryDelaysMs ?? TELEGRAM_RETRY_DELAYS_MS,
  });

  return {
    config,
    bot,
    storage,
    ledger: parts.ledger,
    wallets: parts.wallets,
    orders: parts.orders,
    partners: parts.partners,
    partnerOrders: parts.partnerOrders,
    partnerCallbacks: parts.partnerCallbacks,
    testOrders: parts.testOrders,
    notifier: parts.notifier,
    catalog,
    shop,
    sandbox,
    http,
    compaction: parts.compaction,
    updates: intake.pipeline,
    owner,
    start,
    stop,
  };
}
