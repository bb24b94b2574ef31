import { conversations, createConversation } from "@grammyjs/conversations";
import { autoRetry } from "@grammyjs/auto-retry";
import { limit } from "@grammyjs/ratelimiter";
import { sequentialize } from "@grammyjs/runner";
import { Bot, GrammyError, HttpError, lazySession } from "grammy";
import type { Catalog } from "../catalog/catalog.js";
import type { Logger } from "../logger.js";
import type { Access } from "../orders/access.js";
import { createLowBalanceWatch } from "../orders/low-balance.js";
import type { OrderService } from "../orders/order-service.js";
import { keyvStorageAdapter } from "../storage/storage-adapter.js";
import type { Store } from "../storage/store.js";
import { answerQuery } from "./answer.js";
import type { BotContext, InnerContext, SessionData } from "./context.js";
import { createOrderConversation, ORDER_CONVERSATION } from "./conversations/order-conversation.js";
import { accessGuard } from "./features/access.js";
import { accessAdminFeature } from "./features/access-admin.js";
import { balanceFeature } from "./features/balance.js";
import { fallbackFeature } from "./features/fallback.js";
import { historyFeature } from "./features/history.js";
import { languageFeature } from "./features/language.js";
import { orderEntry, orderFeature } from "./features/order.js";
import { createSettleConversation, pendingFeature, SETTLE_CONVERSATION } from "./features/pending.js";
import { reportFeature } from "./features/report.js";
import { startFeature } from "./features/start.js";
import { createI18n, languageOf } from "./i18n.js";
import { createNotifier, type Notifier } from "./notifier.js";
import { setCommandMenus } from "./commands.js";
import { safeTranslate } from "./text.js";
import { createUserPrefs } from "./user-prefs.js";

export interface BotDeps {
  token: string;
  apiRoot: string;
  catalog: Catalog;
  orders: OrderService;
  store: Store;
  access: Access;
  logger: Logger;
  adminIds: readonly number[];
  timeZone: string;
  lowBalanceThreshold: number | undefined;
}

const DAY = 24 * 60 * 60 * 1000;
/** Bounded retries of Bot API calls: a few attempts, never waiting more than 15 s. */
const RETRY = { maxRetryAttempts: 3, maxDelaySeconds: 15, rethrowInternalServerErrors: false };

/**
 * Contexts inside a conversation get a fresh Api without bot.api's transformers: install the
 * retry again there. It wraps the plugin's own recording, so a replay repeats a recorded wait.
 */
const retryInsideConversations = async (ctx: InnerContext, next: () => Promise<void>) => {
  ctx.api.config.use(autoRetry(RETRY));
  await next();
};
/** Bump only together with a change of the conversations' steps (stored dialogues become inactive). */
const CONVERSATION_VERSION = 1;

export interface BotApp {
  bot: Bot<BotContext>;
  notifier: Notifier;
  /** Updates being handled right now (shutdown waits for them). */
  inFlight(): number;
  /** Sets the command menus (per language, admins' own); failures are logged. */
  setCommands(): Promise<void>;
}

/**
 * Builds the bot with all its plugins in one visible order. Nothing here reads the environment
 * or listens: main.ts starts it, tests build it the same way.
 */
export function createBot(deps: BotDeps): BotApp {
  const { catalog, orders, store, logger, access } = deps;
  const bot = new Bot<BotContext>(deps.token, { client: { apiRoot: deps.apiRoot } });
  // Telegram's flood limits (429 with retry_after) and its hiccups (5xx) are waited out, but
  // boundedly: a few attempts, never more than 15 s each. Contexts inside conversations use
  // this same Api configuration, so it holds there too.
  bot.api.config.use(autoRetry(RETRY));
  const prefs = createUserPrefs(store);
  const i18n = createI18n<BotContext>(prefs.languageFor);
  const innerI18n = createI18n<InnerContext>(prefs.languageFor);
  const notifier = createNotifier({
    api: bot.api,
    i18n,
    orders,
    prefs,
    adminIds: deps.adminIds,
    logger,
    lowBalance: createLowBalanceWatch(store, deps.lowBalanceThreshold),
    lowBalanceThreshold: deps.lowBalanceThreshold,
  });

  // 1. One log line per update, with its time; the count of updates in flight.
  let inFlight = 0;
  bot.use(async (ctx, next) => {
    const started = performance.now();
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
      logger.info(
        { updateId: ctx.update.update_id, chatId: ctx.chat?.id, userId: ctx.from?.id, ms: Math.round(performance.now() - started) },
        "update handled",
      );
    }
  });
  // 2. Updates of one chat run one after the other (a double tap waits for the first tap),
  //    different chats run side by side. Before sessions and conversations, which read state.
  bot.use(sequentialize((ctx) => ctx.chat?.id.toString() ?? ctx.from?.id.toString()));
  // 3. A flood of messages (more than 30 in 2 s from one user: no person types that fast, but
  //    a script that waits for each answer stays below it) is answered once and then ignored.
  //    Button taps are never limited: they only come from our own buttons, and a Confirm in
  //    the middle of an order must never be dropped.
  bot.use(
    limit<BotContext, never>({
      timeFrame: 2_000,
      limit: 30,
      keyGenerator: (ctx) => (ctx.callbackQuery !== undefined ? undefined : ctx.from?.id.toString()),
      onLimitExceeded: async (ctx) => {
        const t = safeTranslate(i18n.t.bind(i18n, languageOf(ctx.from?.language_code)));
        if (ctx.callbackQuery !== undefined) await answerQuery(ctx, { text: t("rate-limited") });
        else if (ctx.chat !== undefined) await ctx.reply(t("rate-limited")).catch(() => undefined);
      },
    }),
  );
  // 4. Language (the user's choice, else Telegram's), then the per-user session (lazy).
  bot.use(i18n);
  bot.use(
    lazySession<SessionData, BotContext>({
      initial: () => ({}),
      getSessionKey: (ctx) => ctx.from?.id.toString(),
      storage: prefs.adapter,
    }),
  );
  // 5. Open to anyone.
  bot.use(startFeature({ catalog, mayOrder: access.mayOrder }));
  bot.use(languageFeature({ i18n, onChange: prefs.invalidate }));
  // 6. Everything below is for those who may order.
  bot.use(accessGuard(access.mayOrder));
  // 7. Conversations keep their state in storage, per chat and user, for a day.
  bot.use(
    conversations<BotContext, InnerContext>({
      storage: {
        type: "key",
        version: CONVERSATION_VERSION,
        getStorageKey: (ctx) => (ctx.chat === undefined || ctx.from === undefined ? undefined : `${ctx.chat.id}:${ctx.from.id}`),
        adapter: keyvStorageAdapter(store, "conversation", DAY),
      },
    }),
  );
  // 8. /order, /cancel, Confirm and Cancel before the dialogues, so a waiting step never swallows them.
  bot.use(orderFeature({ catalog, orders, logger, deliverOutcome: notifier.deliverOutcome }));
  bot.use(createConversation(createOrderConversation({ catalog, orders }), { id: ORDER_CONVERSATION, plugins: [innerI18n, retryInsideConversations] }));
  bot.use(createConversation(createSettleConversation({ orders }), { id: SETTLE_CONVERSATION, plugins: [innerI18n, retryInsideConversations] }));
  // 9. Features that may enter a dialogue, and everything a dialogue passes on.
  bot.use(orderEntry({ catalog }));
  bot.use(balanceFeature({ orders, timeZone: deps.timeZone }));
  bot.use(historyFeature({ orders, access, timeZone: deps.timeZone }));
  bot.use(reportFeature({ orders, access, timeZone: deps.timeZone }));
  bot.use(pendingFeature({ orders, access, timeZone: deps.timeZone }));
  bot.use(accessAdminFeature({ access, timeZone: deps.timeZone }));
  // 10. Whatever is left gets an answer.
  bot.use(fallbackFeature({ orders }));

  // The one error boundary: log, tell the user to try again, never crash the polling loop.
  bot.catch(async (err) => {
    const ctx = err.ctx;
    const cause = err.error;
    const infrastructure = !(cause instanceof GrammyError) && !(cause instanceof HttpError);
    logger.error(
      { updateId: ctx.update.update_id, err: cause instanceof Error ? { name: cause.name, message: cause.message } : String(cause) },
      "update failed",
    );
    const t = safeTranslate(ctx.t?.bind(ctx) ?? ((key: string) => i18n.t("en", key)));
    const text = t(infrastructure ? "error-unavailable" : "error-generic");
    try {
      if (ctx.callbackQuery !== undefined) await answerQuery(ctx, { text, show_alert: true });
      else if (ctx.chat !== undefined) await ctx.reply(text);
    } catch {
      // Telegram itself is the problem: the log line above is what is left.
    }
  });

  return {
    bot,
    notifier,
    inFlight: () => inFlight,
    setCommands: () => setCommandMenus(bot.api, i18n, deps.adminIds, logger),
  };
}
