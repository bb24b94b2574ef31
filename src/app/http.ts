import { dayIn } from "../calendar.js";
import { InputFile, type Bot } from "grammy";
import { apiKeySender, h2hSettings } from "../bot/api-key-notice.js";
import type { BotContext } from "../bot/context.js";
import { translator } from "../bot/i18n.js";
import { receiptPicture } from "../bot/order/receipt.js";
import type { ByteDownloader } from "../bot/files.js";
import type { Services } from "../bot/services.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { OrderLedger } from "../orders/ledger.js";
import type { TaskTracker } from "../tasks.js";
import type { PartnerCallbacks } from "../partners/callbacks-owed.js";
import type { Deliveries } from "../partners/deliveries.js";
import type { PartnerOrders } from "../partners/partner-orders.js";
import type { TestOrders } from "../partners/test-orders.js";
import { createHttpServer, type HttpServer } from "../server/http-server.js";
import type { Storage } from "../storage/storage.js";
import type { Intake } from "./intake.js";

/** What the HTTP server serves: /healthz, the webhook of the intake, the Mini App's API. */
export interface AppHttpDeps extends Pick<
  Services,
  | "orders"
  | "reports"
  | "shop"
  | "access"
  | "people"
  | "wallets"
  | "deposits"
  | "depositRequests"
  | "payInfo"
  | "prefs"
  | "partners"
  | "apiKeys"
  | "texts"
> {
  /** The H2H API's orders, and the callbacks owed to partners. */
  partnerOrders: PartnerOrders;
  /** Test keys' orders (they order nothing). */
  testOrders: TestOrders;
  /** The H2H orders in flight, which a stop waits for. */
  partnerWork: TaskTracker;
  partnerCallbacks: Pick<PartnerCallbacks, "owe">;
  /** The orders a partner's books list (the H2H API's transactions and mutations). */
  ledger: Pick<OrderLedger, "findOrders" | "getMany" | "partnerRefOf">;
  /** Each partner's last callback attempts (the Resellers page shows them). */
  deliveries: Pick<Deliveries, "last">;
  config: Config;
  storage: Storage;
  intake: Intake;
  bot: Bot<BotContext>;
  now: () => Date;
  logger: Logger;
  /** How the server fetches a file users sent (a proof shown on the Mini App's page). */
  downloadBytes: ByteDownloader;
}

/**
 * The bot's HTTP server when PORT is set or the intake takes Telegram's POSTs: /healthz, the
 * webhook, and the Mini App's API when WEBAPP_URL is set (its code, and its init data checks, are
 * loaded only then). Undefined when there is nothing to serve.
 */
export async function createAppHttp(deps: AppHttpDeps): Promise<HttpServer | undefined> {
  const { config, intake, bot, prefs, now, logger } = deps;
  if (intake.webhook === undefined && config.port === undefined) return undefined;
  const miniApp =
    config.webApp === undefined
      ? undefined
      : (await import("../server/mini-app/mini-app.js")).createMiniApp({
          botToken: config.botToken,
          orders: deps.orders,
          reports: deps.reports,
          shop: deps.shop,
          providerNames: config.providers.map((p) => p.name),
          access: deps.access,
          people: deps.people,
          wallets: deps.wallets,
          deposits: deps.deposits,
          depositRequests: deps.depositRequests,
          payInfo: deps.payInfo,
          partners: deps.partners,
          h2hEnabled: config.h2h.enabled,
          // The chat's own /apikey message, sent by the bot to the admin's private chat.
          sendApiKey: apiKeySender({ api: bot.api, texts: deps.texts, h2h: h2hSettings(config) }),
          apiKeys: deps.apiKeys,
          deliveries: deps.deliveries,
          sendCallbackAgain: (refId) => deps.partnerCallbacks.owe(refId, now().getTime()),
          downloadFile: deps.downloadBytes,
          sendProof: async (chatId, file) => {
            const input = new InputFile(file.bytes, file.filename);
            const kept =
              file.kind === "photo"
                ? (await bot.api.sendPhoto(chatId, input, { caption: file.caption })).photo.at(-1)
                : (await bot.api.sendDocument(chatId, input, { caption: file.caption })).document;
            if (kept === undefined) throw new Error("Telegram kept no file for the proof");
            return { fileId: kept.file_id, fileUniqueId: kept.file_unique_id };
          },
          languageOf: (userId, telegramCode) => prefs.languageFor(userId, telegramCode),
          timeZone: config.timeZone,
          today: () => dayIn(config.timeZone, now()),
          shopName: () => config.shopName ?? bot.botInfo.first_name,
          // The chat's own receipt, drawn: the same fields in the reader's language.
          receiptPng: async (order, lang) =>
            (await import("../pictures/receipt-picture.js")).receiptPng(
              receiptPicture(translator(deps.texts, lang), order, {
                lang,
                shopName: config.shopName ?? bot.botInfo.first_name,
                timeZone: config.timeZone,
              }),
            ),
          logger,
        });
  const h2h = config.h2h.enabled ? await h2hApi(deps) : undefined;
  return createHttpServer({
    health: () => deps.storage.ping(),
    serving: () => intake.serving(),
    logger,
    routes: [
      ...(miniApp === undefined ? [] : [{ path: "/app", app: miniApp }]),
      ...(h2h === undefined ? [] : [{ path: "/v1", app: h2h }]),
    ],
    ...(intake.webhook === undefined ? {} : { webhook: intake.webhook }),
  });
}

/** The H2H API under /v1 (its code is loaded only when H2H_ENABLED is true). */
async function h2hApi(deps: AppHttpDeps) {
  const { config, now, logger } = deps;
  const [{ h2hRoutes }, { createRateLimit }, { createWrongKeys }] = await Promise.all([
    import("../server/h2h/h2h.js"),
    import("../server/h2h/rate-limit.js"),
    import("../server/h2h/wrong-keys.js"),
  ]);
  const [{ createReconcile }, { trxIdOf }] = await Promise.all([
    import("../partners/reconcile.js"),
    import("../server/h2h/answers.js"),
  ]);
  logger.info(
    { perSecond: config.h2h.ratePerSecond },
    "H2H API on: resellers' systems order at /v1/transaction/partner",
  );
  return h2hRoutes({
    partners: deps.partners,
    access: deps.access,
    people: deps.people,
    partnerOrders: deps.partnerOrders,
    testOrders: deps.testOrders,
    rateLimit: createRateLimit(deps.storage, config.h2h.ratePerSecond),
    wrongKeys: createWrongKeys(deps.storage),
    trustedProxies: new Set(config.h2h.trustedProxies),
    reconcile: createReconcile({
      ledger: deps.ledger,
      wallets: deps.wallets,
      timeZone: config.timeZone,
      trxIdOf: (order) => trxIdOf(order, config.refIdPrefix),
    }),
    owe: (refId) => deps.partnerCallbacks.owe(refId, now().getTime()),
    track: (work) => deps.partnerWork.track(work),
    refIdPrefix: config.refIdPrefix,
    now,
    logger,
  });
}
