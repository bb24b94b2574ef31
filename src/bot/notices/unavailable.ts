import { Context, type Api } from "grammy";
import type { Update, UserFromGetMe } from "grammy/types";
import type { Logger } from "../../logger.js";
import { createTaskTracker } from "../../tasks.js";
import { addressedToBot, commandForOtherBot, isGroup } from "../groups.js";
import { languageOf, type Texts } from "../i18n.js";

/** Update ids told about, per process (older ones are forgotten first). */
const REMEMBERED = 10_000;

export interface UnavailableNotice {
  /** Tells the update's user, once per update id, that the bot is unavailable for a moment (in the background). */
  tell(update: Update): void;
  /** Resolves once the notices being sent are out (or failed). */
  idle(): Promise<void>;
}

/**
 * What a user hears when their update cannot be stored because Redis does not answer (the
 * webhook's POST answered 503, or a polled batch not stored): "temporarily unavailable, please
 * try again" (`error-unavailable`), sent straight through the Bot API, so it needs no Redis. A
 * button tap gets it as an alert (its spinner stops); a message for the bot gets it as a reply in
 * its chat (in a group, only what the bot would have answered: a command for it, a reply to it,
 * a mention). The language is the user's Telegram language (their choice in /language lives in
 * Redis), else English.
 *
 * Once per update id in this process: Telegram posts the same update again, and the poller tries
 * the same batch again, while Redis is down; neither repeats the notice. The update itself is not
 * lost: it stays with Telegram and is handled once Redis is back (a callback query answered here
 * cannot be answered again then; bot/answer.ts lets that pass).
 */
export function createUnavailableNotice(deps: {
  api: Api;
  /** The bot, as getMe answered (known once the bot started). */
  me: () => UserFromGetMe;
  texts: Texts;
  logger: Logger;
}): UnavailableNotice {
  const told = new Set<number>();
  const sending = createTaskTracker();

  async function send(update: Update): Promise<void> {
    const ctx = new Context(update, deps.api, deps.me());
    const text = deps.texts.t(languageOf(ctx.from?.language_code), "error-unavailable");
    if (ctx.callbackQuery !== undefined) {
      await ctx.answerCallbackQuery({ text, show_alert: true });
      return;
    }
    const message = ctx.message ?? ctx.editedMessage;
    if (message === undefined || ctx.chat === undefined) return;
    if (commandForOtherBot(message.text, ctx.me.username)) return;
    if (isGroup(ctx)) {
      if (!addressedToBot(ctx, ctx.me)) return;
      await ctx.reply(text, {
        reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true },
      });
      return;
    }
    await ctx.reply(text);
  }

  return {
    tell(update) {
      if (told.has(update.update_id)) return;
      told.add(update.update_id);
      if (told.size > REMEMBERED) told.delete(told.values().next().value!);
      void sending.track(
        send(update).then(
          () => deps.logger.info({ updateId: update.update_id }, "told the user the bot is unavailable for a moment"),
          (err: unknown) => deps.logger.warn({ err, updateId: update.update_id }, "unavailable notice not sent"),
        ),
      );
    },
    idle: () => sending.idle(),
  };
}
