import type { Api, InlineKeyboard } from "grammy";
import type { Logger } from "../../logger.js";
import type { OutcomeHeading } from "../../orders/events.js";
import type { Lang, OrderRecord } from "../../orders/order.js";
import { translator, type Texts, type Translate } from "../i18n.js";
import { outcomeText, renderSummaryAfter } from "../order/messages.js";
import { resultKeyboard } from "../order/receipt.js";
import type { UserPrefs } from "../user-prefs.js";

/**
 * What the user who ordered hears of the outcome: its message (`outcomeMessage`), told by
 * `createOutcomeTelling`.
 */

/** A provider call slower than this: the summary says "processing" (and loses its buttons) meanwhile. */
const PROCESSING_NOTICE_MS = 1000;

/** The line that says a result came from the built-in sandbox (a trial, nothing topped up). */
export const sandboxLine = (t: Translate, sandbox: boolean | undefined) =>
  sandbox === true ? `\n\n${t("sandbox-note")}` : "";

/** The outcome's message: its text (with the sandbox's line) and, for a success, Receipt and a button that copies the SN. */
export function outcomeMessage(
  t: Translate,
  order: OrderRecord,
  heading: "already" | "settled" | undefined,
  lang: Lang,
  sandbox: boolean | undefined,
): { text: string; keyboard: InlineKeyboard | undefined } {
  return {
    text: `${outcomeText(t, order, heading, lang)}${sandboxLine(t, sandbox)}`,
    keyboard: resultKeyboard(t, order),
  };
}

export interface OutcomeTellingDeps {
  api: Api;
  texts: Texts;
  prefs: Pick<UserPrefs, "languageFor">;
  logger: Logger;
  /** How long a provider call may take before the summary says it is being processed. */
  processingNoticeMs?: number | undefined;
  sandbox?: boolean | undefined;
}

/**
 * The user's side of an outcome: the summary says "processing" while a slow call runs, then the
 * outcome replies to the summary (or, in a group, to the member's message) and the summary is
 * brought up to date.
 */
export function createOutcomeTelling(deps: OutcomeTellingDeps) {
  const { api, logger } = deps;
  const tFor = (lang: Lang): Translate => translator(deps.texts, lang);
  /** Summaries that will say "processing" if their order's call is slow; the edit once it was started. */
  const processing = new Map<string, { timer: NodeJS.Timeout; shown: Promise<void> }>();

  /** The summary says the order is being processed, if the call takes longer than a moment. */
  function claimed(order: OrderRecord): void {
    const messageId = order.summaryMessageId;
    if (messageId === undefined) return;
    const entry = { timer: undefined as unknown as NodeJS.Timeout, shown: Promise.resolve() };
    entry.timer = setTimeout(() => {
      entry.shown = (async () => {
        const t = tFor(await deps.prefs.languageFor(order.userId, order.lang));
        await api
          .editMessageText(order.chatId, messageId, renderSummaryAfter(t, order))
          .catch((err: unknown) => logger.debug({ err, refId: order.refId }, "summary not edited"));
      })().finally(() => {
        // Shown: an outcome told from now on need not wait for it (nor is it kept if none comes).
        if (processing.get(order.refId) === entry) processing.delete(order.refId);
      });
    }, deps.processingNoticeMs ?? PROCESSING_NOTICE_MS);
    processing.set(order.refId, entry);
  }

  async function tellOutcome(order: OrderRecord, heading?: OutcomeHeading) {
    // The "processing" edit of the summary, if it started, comes before the outcome's own.
    const pending = processing.get(order.refId);
    if (pending !== undefined) {
      processing.delete(order.refId);
      clearTimeout(pending.timer);
      await pending.shown;
    }
    const lang = await deps.prefs.languageFor(order.userId, order.lang);
    const t = tFor(lang);
    // In a group the result replies to the member's own message (Telegram tells them); in a
    // private chat to the summary.
    const target = order.chatId < 0 ? (order.requestMessageId ?? order.summaryMessageId) : order.summaryMessageId;
    const replyTo =
      target === undefined ? {} : { reply_parameters: { message_id: target, allow_sending_without_reply: true } };
    // "told": the user already read this outcome; only the summary is brought up to date.
    if (heading !== "told") {
      const { text, keyboard } = outcomeMessage(t, order, heading, lang, deps.sandbox);
      await api.sendMessage(order.chatId, text, {
        ...replyTo,
        ...(keyboard === undefined ? {} : { reply_markup: keyboard }),
      });
    }
    if (order.summaryMessageId !== undefined) {
      await api
        .editMessageText(order.chatId, order.summaryMessageId, renderSummaryAfter(t, order))
        .catch((err: unknown) => logger.debug({ err, refId: order.refId }, "summary not brought up to date"));
    }
  }

  return { claimed, tellOutcome };
}
