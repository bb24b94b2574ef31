import { dayIn } from "../calendar.js";
import { InputFile, type Bot } from "grammy";
import type { BotContext } from "../bot/context.js";
import type { ByteDownloader } from "../bot/files.js";
import type { Services } from "../bot/services.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { createHttpServer, type HttpServer } from "../server/http-server.js";
import type { Storage } from "../storage/storage.js";
import type { Intake } from "./intake.js";

/** What the HTTP server serves: /healthz, the webhook of the intake, the Mini App's API. */
export interface AppHttpDeps extends Pick<
  Services,
  "orders" | "reports" | "shop" | "access" | "people" | "wallets" | "deposits" | "depositRequests" | "payInfo" | "prefs"
> {
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
          access: deps.access,
          people: deps.people,
          wallets: deps.wallets,
          deposits: deps.deposits,
          depositRequests: deps.depositRequests,
          payInfo: deps.payInfo,
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
          logger,
        });
  return createHttpServer({
    health: () => deps.storage.ping(),
    serving: () => intake.serving(),
    logger,
    routes: miniApp === undefined ? [] : [{ path: "/app", app: miniApp }],
    ...(intake.webhook === undefined ? {} : { webhook: intake.webhook }),
  });
}
