import { conversations, createConversation } from "@grammyjs/conversations";
import type { Texts } from "./i18n.js";
import { limit } from "@grammyjs/ratelimiter";
import { sequentialize } from "@grammyjs/runner";
import { Bot, GrammyError, HttpError } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Access } from "../access/access.js";
import type { Audience } from "../broadcast/audience.js";
import type { BroadcastStore } from "../broadcast/broadcast-store.js";
import type { Broadcaster } from "../broadcast/sender.js";
import type { Logger } from "../logger.js";
import type { Deposits } from "../orders/deposits.js";
import type { OrderService } from "../orders/order-service.js";
import type { Wallets } from "../orders/wallet.js";
import type { Shop } from "../shop/shop.js";
import type { CatalogUploads } from "../shop/uploads.js";
import { keyvStorageAdapter } from "../storage/storage-adapter.js";
import type { TaskTracker } from "../tasks.js";
import type { Storage } from "../storage/storage.js";
import { answerQuery } from "./answer.js";
import { configureApi } from "./api.js";
import type { CommandMenus } from "./commands.js";
import type { BotContext, InnerContext, TextsFlavor } from "./context.js";
import { accessGuard, resolveBuyer } from "./features/access.js";
import { balanceFeature } from "./features/balance.js";
import { broadcastFeature, rememberStarted } from "./features/broadcast.js";
import { fallbackFeature } from "./features/fallback.js";
import { historyFeature } from "./features/history.js";
import { languageFeature } from "./features/language.js";
import { membershipFeature } from "./features/membership.js";
import { pendingFeature } from "./features/pending/pending.js";
import { createSettleDialogue, SETTLE_DIALOGUE } from "./features/pending/settle-dialogue.js";
import { reportFeature } from "./features/report.js";
import { resellersFeature } from "./features/resellers.js";
import { shopFeature } from "./features/shop.js";
import { startFeature } from "./features/start.js";
import { statusFeature } from "./features/status.js";
import { usersFeature } from "./features/users.js";
import { chatPolicy } from "./chats.js";
import { groupFilter, moneyInPrivate, ownedButtons } from "./groups.js";
import { translator, type Translate } from "./i18n.js";
import type { Notifier } from "./notifier.js";
import { orderCommands } from "./order/command.js";
import { confirmButtons } from "./order/confirm.js";
import { createOrderDialogue, ORDER_DIALOGUE } from "./order/dialogue.js";
import { orderMenu } from "./order/menu.js";
import type { UserPrefs } from "./user-prefs.js";
import type { AdminChat } from "./chats.js";

/** The Bot object with its Api configured (retries, parse mode) and no middleware yet. */
export function createTelegramBot(opts: { token: string; apiRoot: string; botInfo?: UserFromGetMe }): Bot<BotContext> {
  const bot = new Bot<BotContext>(opts.token, {
    client: { apiRoot: opts.apiRoot },
    ...(opts.botInfo === undefined ? {} : { botInfo: opts.botInfo }),
  });
  configureApi(bot.api);
  return bot;
}

export interface BotDeps {
  shop: Shop;
  uploads: CatalogUploads;
  /** Downloads a file a user sent, at most `maxBytes` (throws TooLargeError beyond). */
  download: (fileId: string, maxBytes: number) => Promise<string>;
  orders: OrderService;
  wallets: Wallets;
  deposits: Deposits;
  menus: CommandMenus;
  access: Access;
  prefs: UserPrefs;
  texts: Texts;
  notifier: Notifier;
  storage: Storage;
  logger: Logger;
  timeZone: string;
  /** ADMIN_CHAT_ID: the group (or forum topic) of the admins' notices; `chatPolicy` in chats.ts reads it. */
  adminChat: AdminChat | undefined;
  /** SHOP_NAME for customer receipts; unset: the bot's first_name from getMe. */
  shopName?: string | undefined;
  /** Every update being handled, polling or webhook: shutdown waits for them. */
  updates: TaskTracker;
  /** /broadcast: the drafts and sends, who has started the bot, the sending loop. */
  broadcasts: { store: BroadcastStore; audience: Audience; broadcaster: Pick<Broadcaster, "start"> };
}

const DAY = 24 * 60 * 60 * 1000;
/** Bump only together with a change of the dialogues' steps (stored dialogues become inactive). */
const DIALOGUE_VERSION = 3;

/**
 * Installs the bot's middleware in one visible order. Nothing here reads the environment or
 * listens: app.ts builds and starts it, tests build it the same way.
 */
export function installBot(bot: Bot<BotContext>, deps: BotDeps): void {
  const { shop, orders, logger } = deps;
  const translators = { en: translator(deps.texts, "en"), id: translator(deps.texts, "id") };
  /** The texts of one update: its user's language, the translate helper, the logger. */
  const texts = async (ctx: (BotContext | InnerContext) & Partial<TextsFlavor>, next: () => Promise<void>) => {
    ctx.log = logger;
    ctx.lang = ctx.from === undefined ? "en" : await deps.prefs.languageFor(ctx.from.id, ctx.from.language_code ?? "");
    ctx.tr = translators[ctx.lang];
    await next();
  };
  /** Contexts inside a dialogue are fresh objects: the Api configuration, texts and buyer again. */
  const buyer = resolveBuyer(deps.access);
  const inner = async (ctx: InnerContext, next: () => Promise<void>) => {
    configureApi(ctx.api);
    await texts(ctx, () => buyer(ctx, next));
  };

  // 1. Every update is tracked (shutdown lets it finish) and logged in one line, with its time.
  bot.use(async (ctx, next) => {
    const started = performance.now();
    try {
      await deps.updates.track(next());
    } finally {
      logger.info(
        {
          updateId: ctx.update.update_id,
          chatId: ctx.chat?.id,
          userId: ctx.from?.id,
          ms: Math.round(performance.now() - started),
        },
        "update handled",
      );
    }
  });
  // 2. Updates of one chat run one after the other (a double tap waits for the first tap),
  //    different chats run side by side. Before anything that reads state.
  //    Per member of a chat: in a group, one member's Confirm waiting on the provider does not
  //    hold up the others (their dialogues, drafts and taps are theirs; the ledger settles races).
  bot.use(
    sequentialize((ctx) => (ctx.chat === undefined ? ctx.from?.id.toString() : `${ctx.chat.id}:${ctx.from?.id ?? ""}`)),
  );
  //    In groups only what is addressed to the bot; nowhere a command for another bot.
  bot.use(groupFilter());
  // 3. A flood of messages (more than 30 in 2 s from one user: no person types that fast, but a
  //    script that waits for each answer stays below it) is answered once, then ignored. Button
  //    taps are never limited: they come from our own buttons, and a Confirm must never be dropped.
  bot.use(
    limit<BotContext, never>({
      timeFrame: 2_000,
      limit: 30,
      keyGenerator: (ctx) => (ctx.callbackQuery !== undefined ? undefined : ctx.from?.id.toString()),
      onLimitExceeded: (ctx) => {
        if (ctx.chat === undefined || ctx.from === undefined) return;
        const notice = async (userId: number, telegramCode: string | undefined) => {
          const t: Translate = translators[await deps.prefs.languageFor(userId, telegramCode)];
          await ctx.reply(t("rate-limited"));
        };
        notice(ctx.from.id, ctx.from.language_code).catch((err: unknown) =>
          logger.debug({ err }, "flood notice not sent"),
        );
      },
    }),
  );
  // 4. The user's language and role.
  bot.use(texts);
  bot.use(resolveBuyer(deps.access));
  bot.use(rememberStarted(deps.broadcasts.audience));
  //    A member's menu buttons in a group are theirs alone.
  bot.use(ownedButtons());
  // 5. Open to anyone.
  bot.use(startFeature({ shop, prefs: deps.prefs }));
  bot.use(languageFeature({ texts: deps.texts, prefs: deps.prefs }));
  bot.use(membershipFeature({ orders, storage: deps.storage }));
  // 6. Everything below is for those who may order.
  bot.use(accessGuard());
  //    The shop's balance, saldos and reports stay out of ordinary groups.
  const chats = chatPolicy(deps.adminChat);
  bot.use(moneyInPrivate((ctx) => chats.mayShowShopMoney(ctx)));
  // 7. What needs no dialogue state: Confirm and Cancel above all, so no waiting step can hold them.
  bot.use(confirmButtons({ orders, notifier: deps.notifier, shop }));
  bot.use(orderMenu({ shop }));
  bot.use(
    resellersFeature({
      access: deps.access,
      wallets: deps.wallets,
      deposits: deps.deposits,
      notifier: deps.notifier,
      shop,
      timeZone: deps.timeZone,
    }),
  );
  bot.use(
    shopFeature({
      shop,
      uploads: deps.uploads,
      download: deps.download,
      logger,
      timeZone: deps.timeZone,
    }),
  );
  bot.use(balanceFeature({ orders, timeZone: deps.timeZone }));
  bot.use(historyFeature({ orders, timeZone: deps.timeZone }));
  bot.use(statusFeature({ orders, timeZone: deps.timeZone, shopName: deps.shopName }));
  bot.use(reportFeature({ orders, wallets: deps.wallets, timeZone: deps.timeZone }));
  bot.use(usersFeature({ access: deps.access, wallets: deps.wallets, menus: deps.menus, timeZone: deps.timeZone }));
  bot.use(broadcastFeature(deps.broadcasts));
  // 8. The dialogues, their state in storage per chat and user for a day.
  bot.use(
    conversations<BotContext, InnerContext>({
      storage: {
        type: "key",
        version: DIALOGUE_VERSION,
        getStorageKey: (ctx) =>
          ctx.chat === undefined || ctx.from === undefined ? undefined : `${ctx.chat.id}:${ctx.from.id}`,
        adapter: keyvStorageAdapter(deps.storage, "dialogue", DAY, { packed: true }),
      },
      plugins: [inner],
    }),
  );
  bot.use(
    createConversation(createOrderDialogue({ shop, orders, wallets: deps.wallets, api: bot.api }), {
      id: ORDER_DIALOGUE,
    }),
  );
  bot.use(createConversation(createSettleDialogue({ orders, api: bot.api }), { id: SETTLE_DIALOGUE }));
  // 9. What enters or leaves a dialogue: commands a waiting step passed on arrive here.
  bot.use(orderCommands({ shop, orders, wallets: deps.wallets }));
  bot.use(pendingFeature({ orders, timeZone: deps.timeZone }));
  // 10. Whatever is left gets an answer.
  bot.use(fallbackFeature({ orders }));

  // The one error boundary: log with the stack, tell the user to try again, never stop polling.
  bot.catch(async (err) => {
    const ctx = err.ctx;
    const cause = err.error;
    logger.error({ updateId: ctx.update.update_id, err: cause }, "update failed");
    const t = ctx.tr ?? translators.en;
    const infrastructure = !(cause instanceof GrammyError) && !(cause instanceof HttpError);
    const text = t(infrastructure ? "error-unavailable" : "error-generic");
    try {
      if (ctx.callbackQuery !== undefined) await answerQuery(ctx, { text, show_alert: true });
      else if (ctx.chat !== undefined) await ctx.reply(text);
    } catch (replyErr) {
      logger.warn({ err: replyErr, updateId: ctx.update.update_id }, "could not tell the user about a failed update");
    }
  });
}
