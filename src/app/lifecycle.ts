import type { Bot } from "grammy";
import type { PartnerStore } from "../access/partners.js";
import type { BotContext } from "../bot/context.js";
import type { Notifier } from "../bot/notices/notifier.js";
import type { UnavailableNotice } from "../bot/notices/unavailable.js";
import type { Broadcaster } from "../broadcast/sender.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { Compaction } from "../ledger/compaction.js";
import type { Ledger } from "../orders/ledger.js";
import type { HttpServer } from "../server/http-server.js";
import type { Shop } from "../shop/shop.js";
import type { Liveness } from "../storage/liveness.js";
import type { Storage } from "../storage/storage.js";
import type { TaskTracker } from "../tasks.js";
import type { SandboxProvider } from "../topup/sandbox.js";
import type { UserPrefs } from "../bot/user-prefs.js";
import type { RuntimeParts } from "./runtime.js";
import { announceCatalog, reachTelegram, upgradeOnce, upgradePartnerKeys } from "./startup.js";

/** Everything start() brings up and stop() closes, in their order. */
export interface LifecycleDeps extends RuntimeParts {
  config: Config;
  logger: Logger;
  owner: string;
  storage: Storage;
  liveness: Liveness;
  bot: Bot<BotContext>;
  books: Pick<Ledger, "upgrade">;
  partners: Pick<PartnerStore, "upgradeOldKeys">;
  shop: Shop;
  sandbox: SandboxProvider | undefined;
  http: HttpServer | undefined;
  compaction: Compaction;
  broadcaster: Pick<Broadcaster, "stop">;
  notifier: Pick<Notifier, "idle">;
  unavailable: Pick<UnavailableNotice, "idle">;
  prefs: Pick<UserPrefs, "close">;
  /** The updates being handled in this process (the bot's first middleware tracks them). */
  updates: TaskTracker;
  /** The H2H orders being carried out in this process (their provider call and its record). */
  partnerWork: TaskTracker;
  telegramRetryDelaysMs: readonly number[];
}

/**
 * start(): the sandbox listens, Telegram is reached, the HTTP server listens, the store is made
 * ready and upgraded, then updates are taken and, beside them, the compaction and the background
 * work run. stop(): once, no new updates, the ones in flight finish and are recorded, then
 * everything closes.
 */
export function createLifecycle(deps: LifecycleDeps): { start: () => Promise<void>; stop: () => Promise<void> } {
  const { config, logger, bot, intake, background, sandbox, http } = deps;
  let stopping: Promise<void> | undefined;

  async function start(): Promise<void> {
    if (sandbox !== undefined) {
      const url = await sandbox.listen(0, "127.0.0.1");
      process.stderr.write(
        "*** sandbox: no real orders. TOPUP_BASE_URL is not set, orders go to the built-in sandbox provider. ***\n",
      );
      logger.warn({ sandbox: url }, "sandbox: no real orders (TOPUP_BASE_URL is not set)");
    }
    bot.botInfo = await reachTelegram(config, logger, deps.telegramRetryDelaysMs);
    if (http !== undefined) {
      const port = await http.listen(config.port!);
      logger.info(
        { port },
        intake.webhook === undefined ? "health endpoint listening" : "webhook and health endpoint listening",
      );
    }
    await deps.ready();
    // Data of an older version gets this version's layout before anything reads it (once,
    // among every process: the others wait for the one holding the lease `upgrade`).
    await upgradeOnce(deps);
    await upgradePartnerKeys(deps);
    await background.beforeUpdates();
    const catalog = await announceCatalog(config, deps.shop, logger);
    await intake.start({
      bot: bot.botInfo.username,
      store: deps.storage.kind,
      sandbox: sandbox !== undefined,
      catalog,
      process: deps.owner,
    });
    // Old orders leave memory, not the books: a pass now, then every LEDGER_COMPACT_EVERY_MS, in
    // one process at a time (the compaction's own lease).
    deps.compaction.start();
    background.start();
  }

  function stop(): Promise<void> {
    stopping ??= (async () => {
      background.halt();
      http?.stopIntake();
      // No new updates; the ones being handled (polling or webhook) finish, the rest is handed
      // to the other processes (with Redis).
      await intake.stop();
      await deps.updates.idle();
      // A long broadcast stops after the message in flight; another process, or the next
      // start, goes on with it.
      await deps.broadcaster.stop();
      await deps.compaction.stop();
      await background.stop();
      await deps.notifier.idle();
      await deps.unavailable.idle();
      await http?.close();
      // An H2H order whose partner's connection was just closed still gets its outcome recorded.
      await deps.partnerWork.idle();
      await deps.shop.close();
      await deps.prefs.close();
      await deps.storage.close();
      await sandbox?.close();
    })();
    return stopping;
  }

  return { start, stop };
}
