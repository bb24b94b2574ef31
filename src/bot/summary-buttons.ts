import { InlineKeyboard, type Composer, type Filter, type NextFunction } from "grammy";
import { answerQuery } from "./answer.js";
import { onCallback, type CallbackKind } from "./callback-data.js";
import type { BaseContext } from "./context.js";
import type { Translate } from "./i18n.js";

/** What a tap on a summary's Confirm or Cancel comes to, as the tapper sees it. */
export interface TapAnswer {
  /** A short answer at the top of the chat. */
  toast?: string;
  /** An answer the user must dismiss: for what did not happen (plain text; markup is dropped). */
  alert?: string;
  /** The summary's text from now on, without its buttons. */
  summary?: string;
  /** A message below it in the chat. */
  reply?: string;
  /** What to start once all of that is shown (the sending of a broadcast: its loop edits the summary). */
  after?: () => void;
  /** The summary keeps its text and loses its buttons (what they acted on is gone: expired). */
  dropButtons?: boolean;
}

/** Telegram shows at most 200 characters of a callback query's answer. */
const MAX_ANSWER = 200;

const plain = (text: string) => {
  const stripped = text.replace(/<[^>]+>/g, "");
  return stripped.length > MAX_ANSWER ? `${stripped.slice(0, MAX_ANSWER - 1)}…` : stripped;
};

/** The two buttons under a summary, bound to what it is about. */
export function summaryKeyboard<T>(
  t: Translate,
  kinds: { confirm: CallbackKind<T>; cancel: CallbackKind<T> },
  id: T,
  confirmKey = "button-confirm",
) {
  return new InlineKeyboard()
    .text(t(confirmKey), kinds.confirm.encode(id))
    .text(t("button-cancel"), kinds.cancel.encode(id));
}

/**
 * Confirm and Cancel under a summary (an order, a deposit, an edited catalogue, a broadcast). The
 * buttons carry the id of what they act on; the handler asks the service, which decides once what
 * a tap means however often it comes, and says what to show. Here the tap is answered (unless the
 * handler already did), the summary loses its buttons (cosmetic: a failed edit is only logged),
 * and a message follows where one is due. `guard` runs first (e.g. `adminOnly`).
 */
export function summaryButtons<C extends BaseContext, T>(
  composer: Composer<C>,
  opts: {
    confirm: CallbackKind<T>;
    cancel: CallbackKind<T>;
    guard?: (ctx: C, next: NextFunction) => Promise<void>;
    onConfirm(ctx: Filter<C, "callback_query:data">, id: T): Promise<TapAnswer>;
    onCancel(ctx: Filter<C, "callback_query:data">, id: T): Promise<TapAnswer>;
  },
): void {
  const show = async (ctx: Filter<C, "callback_query:data">, answer: TapAnswer) => {
    if (answer.alert !== undefined) await answerQuery(ctx, { text: plain(answer.alert), show_alert: true });
    else if (answer.toast !== undefined) await answerQuery(ctx, { text: plain(answer.toast) });
    if (answer.summary !== undefined) {
      await ctx
        .editMessageText(answer.summary, { link_preview_options: { is_disabled: true } })
        .catch((err: unknown) => ctx.log.debug({ err }, "summary not edited"));
    } else if (answer.dropButtons === true) {
      await ctx.editMessageReplyMarkup().catch((err: unknown) => ctx.log.debug({ err }, "buttons not removed"));
    }
    if (answer.reply !== undefined) await ctx.reply(answer.reply);
    answer.after?.();
  };
  onCallback(composer, opts.confirm, async (ctx, id) => show(ctx, await opts.onConfirm(ctx, id)), opts.guard);
  onCallback(composer, opts.cancel, async (ctx, id) => show(ctx, await opts.onCancel(ctx, id)), opts.guard);
}
