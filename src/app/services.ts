import { createHash } from "node:crypto";
import type { Bot } from "grammy";
import type { Update } from "grammy/types";
import { createAccess } from "../access/access.js";
import { createApiKeys } from "../access/api-keys.js";
import { createPartnerStore } from "../access/partners.js";
import { createPeople, type People } from "../access/people.js";
import { createUserList } from "../access/user-list.js";
import { createAudience } from "../broadcast/audience.js";
import { createBroadcastStore } from "../broadcast/broadcast-store.js";
import { createBroadcastApi, createBroadcaster } from "../broadcast/sender.js";
import { FEATURES } from "../bot/all-features.js";
import { h2hSettings } from "../bot/api-key-notice.js";
import { broadcastTexts } from "../bot/broadcast-texts.js";
import { chatPolicy } from "../bot/chats.js";
import { commandMenus } from "../bot/command-menus.js";
import type { BotContext } from "../bot/context.js";
import { DIALOGUE_STATE } from "../bot/create-bot.js";
import type { Feature } from "../bot/feature.js";
import { asText, createByteDownloader, type ByteDownloader } from "../bot/files.js";
import { loadTexts } from "../bot/i18n.js";
import { createNotifier } from "../bot/notices/notifier.js";
import { createPendingMessages } from "../bot/notices/pending-messages.js";
import type { Services } from "../bot/services.js";
import { createUserPrefs } from "../bot/user-prefs.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { COMPACTION_LEASE_MS, createCompaction } from "../ledger/compaction.js";
import { createLedger } from "../ledger/create-ledger.js";
import { createDeposits } from "../deposits/admin-deposits.js";
import {
  createDepositRequests,
  type DepositRequestEvents,
  type DepositRequests,
  MAX_PROOF_BYTES,
} from "../deposits/request-service.js";
import { createDepositRequestStore } from "../deposits/request-store.js";
import { proofType } from "../deposits/proof-file.js";
import { createPayInfoStore, type PayInfoStore } from "../shop/pay-info.js";
import { createDepositRequestNotices } from "../bot/notices/request-notices.js";
import { createLowSaldoWatch } from "../orders/low-saldo.js";
import { createOrderService } from "../orders/order-service.js";
import { createApiSales } from "../partners/api-sales.js";
import { checkCallbackTarget, type LookupFn } from "../partners/callback-target.js";
import { createPartnerCallbacks, withPartnerCallbacks } from "../partners/callbacks-owed.js";
import { createDeliveries } from "../partners/deliveries.js";
import { createPartnerOrders } from "../partners/partner-orders.js";
import { createTestOrders } from "../partners/test-orders.js";
import { createUpstreamCheck } from "../partners/upstream-check.js";
import { createCallbackSender } from "../server/h2h/callbacks.js";
import { createWrongKeys, logWrongKeys } from "../server/h2h/wrong-keys.js";
import { testStatusBody } from "../server/h2h/test-answers.js";
import { recapFigures } from "../reports/recap.js";
import { createRecapSchedule } from "../reports/recap-schedule.js";
import { createReports } from "../reports/reports.js";
import type { Shop } from "../shop/shop.js";
import { createCatalogUploads, createPriceChanges } from "../shop/uploads.js";
import { createChatState } from "../storage/chat-state.js";
import { createClaims } from "../storage/claims.js";
import { createRecentOrders } from "../storage/recent-orders.js";
import { createLease, type Lease } from "../storage/leases.js";
import type { Liveness } from "../storage/liveness.js";
import { createOrigins } from "../storage/origins.js";
import type { Storage } from "../storage/storage.js";
import type { Provider } from "./provider.js";
import { createResting } from "../providers/resting.js";
import { createSupply } from "../providers/supply.js";

/** What the services are built from: the store, the shop, the provider, the bot's Api. */
export interface ServiceDeps {
  config: Config;
  storage: Storage;
  owner: string;
  liveness: Liveness;
  logger: Logger;
  now: () => Date;
  shop: Shop;
  /** The providers orders go to (their clients and settings). */
  provider: Provider;
  bot: Bot<BotContext>;
  /** The bot's features before the configuration's filter (default: all of bot/all-features.ts). */
  features: readonly Feature[] | undefined;
  /** A lease per broadcast when another process could send it too (the runtime's). */
  broadcastLease: ((id: string) => Lease) | undefined;
  /** Whether the update stream handed this update out again (its handling was cut short before). */
  handledAgain: (update: Update) => boolean;
  /** How partners' callback hosts are resolved (default: the system's resolver; tests choose addresses). */
  callbackLookup?: LookupFn | undefined;
}

/**
 * The books and who may use them: the ledger with its compaction, the order service, roles,
 * reports and deposits. `events` hears what orders and deposits do (the notifier).
 */
function buildBooks(deps: ServiceDeps, events: ReturnType<typeof createNotifier>, people: People) {
  const { config, storage, owner, liveness, logger, now, shop } = deps;
  const books = createLedger(storage, { timeZone: config.timeZone });
  const { orders: ledger, wallets } = books;
  const supply = createSupply({
    lines: deps.provider.lines,
    resting: createResting(storage, now),
    catalog: () => shop.cachedCatalog(),
    tell: (change) => events.providerHealth(change),
    logger,
    now,
  });
  const origins = createOrigins(storage);
  const partnerCallbacks = createPartnerCallbacks(storage);
  const deliveries = createDeliveries(storage);
  const compaction = createCompaction({
    ledger: books,
    lease: createLease(storage, "compact", { ttlMs: COMPACTION_LEASE_MS, owner, liveness }),
    hotDays: config.ledger.hotDays,
    everyMs: config.ledger.compactEveryMs,
    logger,
    now,
  });
  const orders = createOrderService({
    ledger,
    shop,
    wallets,
    origins,
    recent: createRecentOrders(storage),
    supply,
    refIdPrefix: config.refIdPrefix,
    timeoutMs: config.topupTimeoutMs,
    lowBalanceThreshold: config.lowBalanceThreshold,
    logger,
    // An H2H order an admin settled owes its partner a callback.
    events: withPartnerCallbacks(events, partnerCallbacks, now, logger),
    interruptedTold: createClaims(storage, "order-interrupted-told"),
    now,
  });
  const partnerOrders = createPartnerOrders({
    orders,
    ledger,
    wallets,
    shop,
    callbacks: partnerCallbacks,
    // The answer waits for the provider up to its timeout; past that and a minute, it is not coming.
    // (Every provider in turn, at worst: a failover goes on only after a refusal, which comes fast.)
    answerWithinMs: deps.provider.lines.reduce((sum, line) => sum + line.timeoutMs, 0) + 60_000,
    now,
  });
  // Test keys' orders: apart from the ledger, owing their callbacks as real ones do.
  const testOrders = createTestOrders({ storage, shop, callbacks: partnerCallbacks, bodyOf: testStatusBody, now });
  const access = createAccess({
    users: createUserList(storage),
    adminIds: config.adminIds,
    allowedUserIds: config.allowedUserIds,
    resellerIds: config.resellerIds,
    now,
  });
  const requestStore = createDepositRequestStore(storage);
  const partners = createPartnerStore(storage);
  const reports = createReports({
    ledger,
    partnerUsers: async () => (await partners.list()).map((p) => p.userId),
    wallets,
    requests: requestStore,
    access,
    people,
    shop,
    timeZone: config.timeZone,
    refIdPrefix: config.refIdPrefix,
    providers: config.providers.map((p) => p.name),
    now,
  });
  const apiKeys = createApiKeys({
    partners,
    access,
    origins,
    now,
    checkTarget: (url) =>
      checkCallbackTarget(url, { allowPrivate: config.h2h.callbackAllowPrivate, lookup: deps.callbackLookup }),
  });
  const deposits = createDeposits({
    wallets,
    buyerOf: (userId) => access.buyerOf(userId),
    logger,
    events,
    origins,
    claims: createClaims(storage, "deposit-notice", { owner, liveness }),
    undeliveredOnce: createClaims(storage, "deposit-undelivered"),
    now,
  });
  return {
    books,
    supply,
    ledger,
    wallets,
    origins,
    compaction,
    orders,
    access,
    reports,
    deposits,
    requestStore,
    partners,
    apiKeys,
    partnerOrders,
    partnerCallbacks,
    deliveries,
    testOrders,
  };
}

/** Resellers' deposit requests and the payment instructions they are shown. */
function buildDepositRequests(
  deps: ServiceDeps,
  b: ReturnType<typeof buildBooks>,
  events: DepositRequestEvents,
  download: ByteDownloader,
): { depositRequests: DepositRequests; payInfo: PayInfoStore } {
  const { config, storage, owner, liveness, logger, now } = deps;
  const payInfo = createPayInfoStore(storage);
  const depositRequests = createDepositRequests({
    store: b.requestStore,
    payInfo,
    wallets: b.wallets,
    deposits: b.deposits,
    buyerOf: (userId) => b.access.buyerOf(userId),
    origins: b.origins,
    events,
    logger,
    limits: config.depositRequests,
    timeZone: config.timeZone,
    claims: createClaims(storage, "request-notice", { owner, liveness }),
    fingerprint: async (fileId) => {
      const bytes = await download(fileId, MAX_PROOF_BYTES);
      return { sha256: createHash("sha256").update(bytes).digest("hex"), type: proofType(bytes)?.type };
    },
    now,
  });
  return { depositRequests, payInfo };
}

/**
 * Everything the bot's handlers work with (`ctx.services`), and the parts the app starts and stops
 * beside them: the notifier, the compaction, the broadcaster, the preferences.
 */
export function buildServices(deps: ServiceDeps) {
  const { config, storage, logger, now, bot } = deps;
  const texts = loadTexts();
  const prefs = createUserPrefs(storage, (err) => logger.warn({ err }, "preferences not read"));
  const people = createPeople(storage);
  const pendingMessages = createPendingMessages(storage);
  const apiSales = createApiSales(storage);
  // The ledger is built with the books, after the notifier that tells of its orders.
  const late: { partnerRefOf?: (refId: string) => Promise<string | undefined> } = {};
  const notifier = createNotifier({
    partnerRefOf: async (refId) => late.partnerRefOf?.(refId),
    api: bot.api,
    texts,
    prefs,
    adminIds: config.adminIds,
    adminChat: config.adminChat,
    logger,
    lowBalanceThreshold: config.lowBalanceThreshold,
    providers: config.providers,
    sandbox: config.topup === undefined,
    people,
    pendingMessages,
    apiSales,
    timeZone: config.timeZone,
    shopName: config.shopName,
    lowSaldo:
      config.resellerLowSaldo === undefined
        ? undefined
        : { threshold: config.resellerLowSaldo, watch: createLowSaldoWatch(storage, config.resellerLowSaldo) },
    now,
  });
  const b = buildBooks(deps, notifier, people);
  late.partnerRefOf = (refId) => b.ledger.partnerRefOf(refId);
  // One way to fetch a file users sent (catalogue documents, proofs of transfer, the page's proofs).
  const downloadBytes = createByteDownloader({ api: bot.api, apiRoot: config.botApiRoot, token: config.botToken });
  const { depositRequests, payInfo } = buildDepositRequests(
    deps,
    b,
    createDepositRequestNotices({
      api: bot.api,
      texts,
      prefs,
      adminIds: config.adminIds,
      adminChat: config.adminChat,
      people,
      logger,
      timeZone: config.timeZone,
      messages: createPendingMessages(storage, "request-msgs"),
      now,
    }),
    downloadBytes,
  );
  const features = (deps.features ?? FEATURES).filter((f) => f.availableWith(config));
  const miniAppUrl = config.webApp?.url;
  const menus = commandMenus(
    bot.api,
    texts,
    logger,
    features,
    miniAppUrl === undefined ? undefined : { url: miniAppUrl, languageOf: (userId) => prefs.languageFor(userId) },
  );
  const broadcastStore = createBroadcastStore(storage);
  const broadcaster = createBroadcaster({
    store: broadcastStore,
    api: bot.api,
    sendApi: createBroadcastApi(config.botToken, config.botApiRoot),
    texts: broadcastTexts(texts, prefs),
    logger,
    intervalMs: config.broadcastIntervalMs,
    now,
    ...(deps.broadcastLease === undefined ? {} : { lease: deps.broadcastLease }),
  });
  const services: Services = {
    orders: b.orders,
    reports: b.reports,
    shop: deps.shop,
    access: b.access,
    people,
    wallets: b.wallets,
    deposits: b.deposits,
    depositRequests,
    payInfo,
    partners: b.partners,
    apiKeys: b.apiKeys,
    uploads: createCatalogUploads(storage),
    priceChanges: createPriceChanges(storage),
    pendingMessages,
    origins: b.origins,
    broadcasts: {
      store: broadcastStore,
      audience: createAudience({ store: broadcastStore, access: b.access }),
      start: (id) => broadcaster.start(id),
    },
    prefs,
    texts,
    menus,
    download: asText(downloadBytes),
    chats: chatPolicy(config.adminChat),
    chatState: createChatState(storage, [DIALOGUE_STATE]),
    telegram: bot.api,
    place: { timeZone: config.timeZone, shopName: config.shopName },
    providerNames: config.providers.map((p) => p.name),
    miniApp: config.webApp,
    h2h: h2hSettings(config),
    clock: now,
    handledAgain: deps.handledAgain,
  };
  /** Sets the command menus of admins, resellers and the admin chat. */
  const setMenus = async () => {
    const resellers = (await b.access.list()).filter((e) => e.role === "reseller").map((e) => e.userId);
    await menus.setAll({ admins: config.adminIds, resellers, adminChat: config.adminChat?.chatId });
  };
  return {
    ...b,
    chores: [...upstreamAndH2hChores(deps, b, notifier, apiSales), ...recapChores(deps, b, notifier)],
    depositRequests,
    payInfo,
    downloadBytes,
    people,
    services,
    features,
    texts,
    prefs,
    notifier,
    broadcaster,
    setMenus,
  };
}

/**
 * RECAP_AT: the evening recap, looked at every background round (every half minute at most), sent
 * once a day among the processes by its schedule.
 */
function recapChores(
  deps: ServiceDeps,
  b: ReturnType<typeof buildBooks>,
  notifier: ReturnType<typeof createNotifier>,
): Array<{ what: string; run: () => Promise<void> }> {
  const { config, storage, owner, liveness, logger, now } = deps;
  if (config.recapAt === undefined) return [];
  const schedule = createRecapSchedule({
    storage,
    owner,
    liveness,
    timeZone: config.timeZone,
    recapAt: config.recapAt,
    send: async (due) => notifier.recap(await recapFigures({ reports: b.reports, ledger: b.ledger }, due.day), due),
    logger,
    now,
  });
  return [{ what: "daily recap", run: () => schedule.look() }];
}

/**
 * The background looks of a shop that may buy from a provider running this bot, or be one: the
 * provider's own status of unknown orders (with a provider configured); with the H2H API on, the
 * callbacks owed to partners and the admins' one notice of the API's sales per period.
 */
function upstreamAndH2hChores(
  deps: ServiceDeps,
  b: ReturnType<typeof buildBooks>,
  notifier: ReturnType<typeof createNotifier>,
  apiSales: ReturnType<typeof createApiSales>,
): Array<{ what: string; run: () => Promise<void> }> {
  const { config, logger, now } = deps;
  // The providers' own status of unknown orders (a shop running this bot answers it), each order at
  // the provider it was waiting for; the built-in sandbox offers no such operation, so it is not asked.
  const upstream = !deps.provider.lines.some((line) => line.client.status !== undefined)
    ? undefined
    : createUpstreamCheck({
        orders: b.ledger,
        settle: (req) => b.orders.settle(req),
        clientOf: (name) => b.supply.line(name)?.client,
        logger,
        now,
      });
  const asked =
    upstream === undefined ? [] : [{ what: "the provider's status of unknown orders", run: () => upstream.sweep() }];
  if (!config.h2h.enabled) return asked;
  const sender = createCallbackSender({
    callbacks: b.partnerCallbacks,
    partners: b.partners,
    ledger: b.ledger,
    partnerOrders: b.partnerOrders,
    deliveries: b.deliveries,
    testOrders: b.testOrders,
    allowPrivate: config.h2h.callbackAllowPrivate,
    lookup: deps.callbackLookup,
    refIdPrefix: config.refIdPrefix,
    now,
    logger,
  });
  const minutes = config.h2h.noticeMinutes;
  const wrongKeys = createWrongKeys(deps.storage);
  return [
    ...asked,
    { what: "partner callbacks", run: () => sender.sweep() },
    { what: "H2H wrong keys log", run: () => logWrongKeys(wrongKeys, now().getTime(), logger) },
    {
      what: "H2H sales notice",
      run: async () => {
        const lines = await apiSales.take(now().getTime(), minutes * 60_000);
        if (lines !== undefined) await notifier.apiSales(lines, minutes);
      },
    },
  ];
}
