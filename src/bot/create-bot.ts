import { conversations, createConversation } from "@grammyjs/conversations";
import { Bot, GrammyError, HttpError, lazySession } from "grammy";
import type { Catalog } from "../catalog/catalog.js";
import type { Logger } from "../logger.js";
import type { Lang, OrderRecord } from "../orders/order.js";
import type { OrderService } from "../orders/order-service.js";
import { keyvStorageAdapter } from "../storage/storage-adapter.js";
import type { Store } from "../storage/store.js";
import type { BotContext, InnerContext, SessionData } from "./context.js";
import { createOrderConversation, ORDER_CONVERSATION } from "./conversations/order-conversation.js";
import { answerQuery } from "./answer.js";
import { accessGuard } from "./features/access.js";
import { fallbackFeature } from "./features/fallback.js";
import { orderEntry, orderFeature, outcomeText } from "./features/order.js";
import { startFeature } from "./features/start.js";
import { createI18n } from "./i18n.js";
import { safeTranslate, type Translate } from "./text.js";

export interface BotDeps {
  token: string;
  apiRoot: string;
  catalog: Catalog;
  orders: OrderService;
  store: Store;
  logger: Logger;
  adminIds: readonly number[];
  allowedUserIds: readonly number[];
}

const DAY = 24 * 60 * 60 * 1000;
/** Bump only together with a change of the conversation's steps (stored dialogues become inactive). */
const CONVERSATION_VERSION = 1;

export interface BotApp {
  bot: Bot<BotContext>;
  /** Sends an order's outcome to the chat it came from, in its language, and records that. */
  deliverOutcome(order: OrderRecord, heading?: "already"): Promise<void>;
  /** Updates being handled right now (shutdown waits for them). */
  inFlight(): number;
}

/**
 * Builds the bot with all its plugins in one visible order. Nothing here reads the environment
 * or listens: main.ts starts it, tests build it the same way.
 */
export function createBot(deps: BotDeps): BotApp {
  const { catalog, orders, store, logger } = deps;
  const bot = new Bot<BotContext>(deps.token, { client: { apiRoot: deps.apiRoot } });
  const i18n = createI18n<BotContext>();
  const innerI18n = createI18n<InnerContext>();
  const admins = new Set(deps.adminIds);
  const allowed = new Set(deps.allowedUserIds);
  const mayOrder = (userId: number) => admins.has(userId) || allowed.has(userId);
  const tFor = (lang: Lang): Translate => safeTranslate((key, vars) => i18n.t(lang, key, vars));

  async function deliverOutcome(order: OrderRecord, heading?: "already") {
    await bot.api.sendMessage(order.chatId, outcomeText(tFor(order.lang), order, heading), { parse_mode: "HTML" });
    await orders.markNotified(order.refId);
  }

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
  // 2. Language, then the per-user session (read from storage only when touched).
  bot.use(i18n);
  bot.use(
    lazySession<SessionData, BotContext>({
      initial: () => ({}),
      getSessionKey: (ctx) => ctx.from?.id.toString(),
      storage: keyvStorageAdapter<SessionData>(store, "session", 180 * DAY),
    }),
  );
  // 3. Open to anyone.
  bot.use(startFeature({ catalog, mayOrder }));
  // 4. Everything below is for those who may order.
  bot.use(accessGuard(mayOrder));
  // 5. Conversations keep their state in storage, per chat and user, for a day.
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
  // 6. Commands and Confirm/Cancel before the conversation, so a waiting step never swallows them.
  bot.use(orderFeature({ catalog, orders, logger, deliverOutcome }));
  bot.use(
    createConversation(createOrderConversation({ catalog, orders }), {
      id: ORDER_CONVERSATION,
      plugins: [innerI18n],
    }),
  );
  bot.use(orderEntry({ catalog }));
  // 7. Whatever is left gets an answer.
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
      // Already answered, or Telegram itself is the problem: the log line above is what is left.
    }
  });

  return { bot, deliverOutcome, inFlight: () => inFlight };
}
