import { conversations } from "@grammyjs/conversations";
import { limit } from "@grammyjs/ratelimiter";
import { sequentialize } from "@grammyjs/runner";
import { Bot, GrammyError, HttpError, type BotError } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Logger } from "../logger.js";
import { revisionedStorageAdapter, StaleStateError } from "../storage/storage-adapter.js";
import type { Storage } from "../storage/storage.js";
import type { TaskTracker } from "../tasks.js";
import { answerQuery } from "./answer.js";
import { configureApi } from "./api.js";
import { accessGuard, resolveBuyer } from "./buyer.js";
import type { BaseContext, BotContext, InnerContext, TextsFlavor } from "./context.js";
import { checkFeatures, moneyCommands, STAGES, type Feature, type Stage } from "./feature.js";
import { groupFilter, moneyInPrivate, ownedButtons } from "./groups.js";
import { translator, type Translate } from "./i18n.js";
import { provideServices, type Services } from "./services.js";

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
  services: Services;
  features: readonly Feature[];
  /** Where the dialogues' state lives. */
  storage: Storage;
  logger: Logger;
  /** Every update being handled, polling or webhook: shutdown waits for them. */
  updates: TaskTracker;
  /** The flood limit's window (AppOptions.floodWindowMs); 2 s by default. */
  floodWindowMs?: number;
}

const DAY = 24 * 60 * 60 * 1000;
/** Bump only together with a change of the dialogues' steps (stored dialogues become inactive). */
const DIALOGUE_VERSION = 3;
/** The namespace of the dialogues' keys (`<prefix>dialogue:<chat>:<user>`). */
export const DIALOGUE_STATE = "dialogue";

/**
 * Installs the bot's middleware in one visible order: the bot's own steps, and between them the
 * features by stage (feature.ts: STAGES). Nothing here reads the environment or listens: app.ts
 * builds and starts it, tests build it the same way.
 */
export function installBot(bot: Bot<BotContext>, deps: BotDeps): void {
  const { services, features, logger } = deps;
  checkFeatures(features, services);
  const translators = { en: translator(services.texts, "en"), id: translator(services.texts, "id") };
  const withServices = provideServices(services);
  /** The logger, and the texts of one update: its user's language and the translate helper. */
  const texts = async (ctx: (BotContext | InnerContext) & Partial<TextsFlavor>, next: () => Promise<void>) => {
    ctx.log = logger;
    ctx.lang =
      ctx.from === undefined ? "en" : await services.prefs.languageFor(ctx.from.id, ctx.from.language_code ?? "");
    ctx.tr = translators[ctx.lang];
    await next();
  };
  const buyer = resolveBuyer(services.access);
  /** Contexts inside a dialogue are fresh objects: the Api configuration, services, texts and buyer again. */
  const inner = async (ctx: InnerContext, next: () => Promise<void>) => {
    configureApi(ctx.api);
    await withServices(ctx, () => texts(ctx, () => buyer(ctx, next)));
  };

  /**
   * The one error boundary, for polling and webhook alike: log with the stack, tell the user to try
   * again. A dialogue state another process changed meanwhile is not the user's business: it goes
   * through, the update is handed back and handled again on the newer state (updates/consumer.ts).
   */
  const failed = async (err: BotError<BotContext>) => {
    const ctx = err.ctx;
    const cause = err.error;
    if (cause instanceof StaleStateError) throw cause;
    logger.error({ updateId: ctx.update.update_id, err: cause }, "update failed");
    const t: Translate = (ctx as Partial<BaseContext>).tr ?? translators.en;
    const infrastructure = !(cause instanceof GrammyError) && !(cause instanceof HttpError);
    const text = t(infrastructure ? "error-unavailable" : "error-generic");
    try {
      if (ctx.callbackQuery !== undefined) await answerQuery(ctx, { text, show_alert: true });
      else if (ctx.chat !== undefined) await ctx.reply(text);
    } catch (replyErr) {
      logger.warn({ err: replyErr, updateId: ctx.update.update_id }, "could not tell the user about a failed update");
    }
  };

  // Every update is tracked (shutdown lets it finish) and logged in one line, with its time.
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
  const chain = bot.errorBoundary(failed);
  // Updates of one member of a chat run one after the other (a double tap waits for the first
  // tap), other chats and members side by side: in a group, one member's Confirm waiting on the
  // provider does not hold up the others. Before anything that reads state.
  chain.use(
    sequentialize((ctx) => (ctx.chat === undefined ? ctx.from?.id.toString() : `${ctx.chat.id}:${ctx.from?.id ?? ""}`)),
  );
  // In groups only what is addressed to the bot; nowhere a command for another bot.
  chain.use(groupFilter());
  // A flood of messages (more than 30 in 2 s from one user: no person types that fast, but a
  // script that waits for each answer stays below it) is answered once, then ignored. Button
  // taps are never limited: they come from our own buttons, and a Confirm must never be dropped.
  chain.use(
    limit<BotContext, never>({
      timeFrame: deps.floodWindowMs ?? 2_000,
      limit: 30,
      keyGenerator: (ctx) => (ctx.callbackQuery !== undefined ? undefined : ctx.from?.id.toString()),
      onLimitExceeded: (ctx) => {
        if (ctx.chat === undefined || ctx.from === undefined) return;
        const notice = async (userId: number, telegramCode: string | undefined) => {
          const t = translators[await services.prefs.languageFor(userId, telegramCode)];
          await ctx.reply(t("rate-limited"));
        };
        notice(ctx.from.id, ctx.from.language_code).catch((err: unknown) =>
          logger.debug({ err }, "flood notice not sent"),
        );
      },
    }),
  );
  // The services, the user's language and role.
  chain.use(withServices);
  chain.use(texts);
  chain.use(buyer);

  /** The bot's own step before each stage of the features. */
  const before: Partial<Record<Stage, () => void>> = {
    // A member's menu buttons in a group are theirs alone.
    anyone: () => chain.use(ownedButtons()),
    // Everything from here is for those who may order; the shop's money stays out of ordinary groups.
    buyers: () => {
      chain.use(accessGuard);
      chain.use(moneyInPrivate(moneyCommands(features), (ctx) => services.chats.mayShowShopMoney(ctx)));
    },
    // The dialogues, their state in storage per chat and user for a day.
    dialogues: () =>
      chain.use(
        conversations<BotContext, InnerContext>({
          storage: {
            type: "key",
            version: DIALOGUE_VERSION,
            getStorageKey: (ctx) =>
              ctx.chat === undefined || ctx.from === undefined ? undefined : `${ctx.chat.id}:${ctx.from.id}`,
            // With Redis, a write over a state another process changed meanwhile is refused (a retry).
            adapter: revisionedStorageAdapter(deps.storage, DIALOGUE_STATE, DAY),
          },
          plugins: [inner],
        }),
      ),
  };
  for (const stage of STAGES) {
    before[stage]?.();
    for (const feature of features) {
      const part = feature.parts.get(stage);
      if (part !== undefined) chain.use(part);
    }
  }

  // Only what the boundary's own handler throws gets here (the user could not be told): logged.
  bot.catch((err) => logger.error({ updateId: err.ctx.update.update_id, err: err.error }, "update failed"));
}
