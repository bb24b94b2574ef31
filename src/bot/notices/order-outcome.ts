import type { Api, InlineKeyboard } from "grammy";
import type { Logger } from "../../logger.js";
import type { OutcomeHeading } from "../../orders/events.js";
import type { CancelOutcome, ConfirmOutcome } from "../../orders/order-service.js";
import { paidFromSaldo, type Lang, type OrderRecord } from "../../orders/order.js";
import { formatRupiah } from "../format.js";
import { translator, type Texts, type Translate } from "../i18n.js";
import { pausedAlert, pausedText } from "../order/gate.js";
import { outcomeText, renderSummaryAfter } from "../order/messages.js";
import { resultKeyboard } from "../order/receipt.js";
import type { TapAnswer } from "../summary-buttons.js";
import type { UserPrefs } from "../user-prefs.js";

/**
 * What the user who ordered hears, all of it here: what a tap on Confirm shows when it sent
 * nothing (`confirmAnswer`), and the outcome's own message when it did (`outcomeMessage`, told by
 * `createOutcomeTelling`); what a tap on Cancel shows (`cancelAnswer`).
 */

/** A provider call slower than this: the summary says "processing" (and loses its buttons) meanwhile. */
const PROCESSING_NOTICE_MS = 1000;

/** The line that says a result came from the built-in sandbox (a trial, nothing topped up). */
export const sandboxLine = (t: Translate, sandbox: boolean | undefined) =>
  sandbox === true ? `\n\n${t("sandbox-note")}` : "";

/** A short line for a callback answer (at most 200 characters) about an order that already ran. */
export function renderOutcomeToast(t: Translate, order: OrderRecord): string {
  if (order.state === "success") {
    return order.result?.sn === undefined
      ? t("callback-already-success-no-sn")
      : t("callback-already-success", { sn: order.result.sn });
  }
  // A reseller is not given the provider's code (see renderOutcome).
  if (order.state === "failed" && paidFromSaldo(order))
    return t("callback-already-failed-returned", { price: formatRupiah(order.price!, order.lang) });
  if (order.state === "failed")
    return t("callback-already-failed", { errorCode: order.result?.errorCode ?? order.result?.reason ?? "–" });
  return t("callback-already-unknown");
}

/** What confirm.ts learnt besides the outcome, for the answers that depend on it. */
export interface ConfirmFacts {
  /** in-progress: this very tap, handled again after a restart (its user was just told "unknown"). */
  handledAgain?: boolean;
  /** short: the shop takes deposit requests, within these limits (else the admin tops up). */
  depositLimits?: { min: number; max: number } | undefined;
  /** not-offered: the order as this tap closed it (its summary says so). */
  closed?: OrderRecord | undefined;
}

/**
 * Every answer a tap on Confirm can get in the chat. A tap that sent the order shows nothing here:
 * it was answered "processing" when claimed, and its outcome follows as `outcomeMessage`.
 */
export function confirmAnswer(t: Translate, lang: Lang, outcome: ConfirmOutcome, facts: ConfirmFacts = {}): TapAnswer {
  switch (outcome.kind) {
    case "submitted":
      return {};
    case "already":
      return { alert: renderOutcomeToast(t, outcome.order) };
    case "in-progress":
      // This very Confirm again, after the process handling it died at the provider: the user
      // learns the result is unknown (once per order, whoever sees the restart first), not that a
      // second tap is being processed.
      if (facts.handledAgain === true) return { alert: t("callback-in-progress") };
      return { alert: t("callback-in-progress"), reply: t("order-in-progress", { refId: outcome.order.refId }) };
    case "cancelled":
      return { alert: t("callback-cancelled") };
    case "paused":
      return { alert: pausedAlert(t, outcome.pause), reply: pausedText(t, outcome.pause) };
    case "short": {
      // Nothing was held and nothing sent; the summary keeps its buttons for after a deposit.
      const price = outcome.order.price ?? 0;
      const vars = { saldo: formatRupiah(outcome.saldo, lang), price: formatRupiah(price, lang) };
      // How to top up: a deposit request of what is missing (at least the smallest one) where the
      // shop takes them, else the admin.
      const limits = facts.depositLimits;
      const reply =
        limits === undefined
          ? t("order-saldo-short", vars)
          : t("order-saldo-short-deposit", {
              ...vars,
              amount: String(Math.min(Math.max(price - outcome.saldo, limits.min), limits.max)),
            });
      return { alert: t("callback-saldo-short", vars), reply };
    }
    case "not-offered": {
      // Hidden or removed since the summary was shown: nothing was held or sent; it is closed.
      const vars = { code: outcome.order.productCode, product: outcome.order.productName };
      return {
        alert: t("callback-product-gone", vars),
        ...(facts.closed === undefined ? {} : { summary: renderSummaryAfter(t, facts.closed) }),
        reply: t("order-product-gone", vars),
      };
    }
    case "unavailable": {
      // Every provider of the product rests for a few minutes: nothing was held or sent; the
      // summary keeps its buttons, so the same Confirm works once one of them is back.
      const vars = { code: outcome.order.productCode, product: outcome.order.productName };
      return { alert: t("callback-product-resting", vars), reply: t("order-product-resting", vars) };
    }
    case "not-yours":
      return { alert: t("callback-not-yours") };
    // "used" answers only an order of the H2H API (a partner's ref id); a chat's never has one.
    case "used":
    case "not-found":
      return { alert: t("callback-expired"), dropButtons: true };
  }
}

/** Every answer a tap on the summary's Cancel can get. */
export function cancelAnswer(t: Translate, outcome: CancelOutcome): TapAnswer {
  switch (outcome.kind) {
    case "cancelled":
      return { toast: t("order-cancelled"), summary: renderSummaryAfter(t, outcome.order) };
    case "too-late":
      return { alert: t("order-cancel-too-late") };
    case "not-yours":
      return { alert: t("callback-not-yours") };
    case "not-found":
      return { alert: t("callback-expired"), dropButtons: true };
  }
}

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
