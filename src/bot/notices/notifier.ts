import { GrammyError, InlineKeyboard, type Api } from "grammy";
import type { Message } from "grammy/types";
import type { Texts } from "../i18n.js";
import type { Logger } from "../../logger.js";
import type { Lang, OrderRecord } from "../../orders/order.js";
import type { Delivery, DepositEvents, FinishedHow, OrderEvents, OutcomeHeading } from "../../orders/events.js";
import { paidFromSaldo, viaApi } from "../../orders/order.js";
import type { ApiSales, ApiSalesLine } from "../../partners/api-sales.js";
import { saleMargin } from "../../reports/figures.js";
import type { Deposit } from "../../orders/wallet.js";
import { formatRupiah } from "../format.js";
import { translator, type Translate } from "../i18n.js";
import { outcomeText, renderState, renderSummaryAfter } from "../order/messages.js";
import { resultKeyboard } from "../order/receipt.js";
import { createTaskTracker } from "../../tasks.js";
import type { UserPrefs } from "../user-prefs.js";
import type { People, Person } from "../../access/people.js";
import { nameBefore } from "../people.js";
import type { PendingMessages } from "./pending-messages.js";
import { adminChatTopic, type AdminChat } from "../chats.js";
import { Callback } from "../callback-data.js";

export interface NotifierDeps {
  api: Api;
  texts: Texts;
  prefs: UserPrefs;
  adminIds: readonly number[];
  /** ADMIN_CHAT_ID: the admins' notices go there, once, instead of to each admin. */
  adminChat?: AdminChat | undefined;
  logger: Logger;
  lowBalanceThreshold: number | undefined;
  /** How long a provider call may take before the summary says it is being processed. */
  processingNoticeMs?: number;
  /** Orders go to the built-in sandbox provider: every result and notice says it was a trial. */
  sandbox?: boolean;
  /** People's names, for the admins' notices. */
  people?: Pick<People, "get">;
  /** The /pending messages that show an order, whose buttons go once it is settled. */
  pendingMessages?: PendingMessages;
  /** The H2H API's sales and failures go here, told in one notice per period (unknown ones at once). */
  apiSales?: Pick<ApiSales, "add">;
  now?: () => Date;
}

export interface Notifier extends OrderEvents, DepositEvents {
  /** The H2H API's sales of the last `minutes`, in one notice. */
  apiSales(lines: readonly ApiSalesLine[], minutes: number): Promise<void>;
  /** Resolves when every notice started so far has gone out (shutdown waits for it). */
  idle(): Promise<void>;
}

/** A provider call slower than this: the summary says "processing" (and loses its buttons) meanwhile. */
const PROCESSING_NOTICE_MS = 1000;

/**
 * Sends to one chat. A chat that never started the bot or blocked it (403/400) is logged and
 * skipped, and says which; anything else failed for now.
 */
async function deliver(api: Api, logger: Logger, chatId: number, text: string): Promise<Delivery> {
  try {
    await api.sendMessage(chatId, text);
    return "told";
  } catch (err) {
    logger.warn(
      {
        chatId,
        code: err instanceof GrammyError ? err.error_code : undefined,
        err: err instanceof GrammyError ? err.description : err,
      },
      "notice not delivered",
    );
    if (!(err instanceof GrammyError)) return "failed";
    if (err.error_code === 403 && /blocked/i.test(err.description)) return "blocked";
    return err.error_code === 403 || (err.error_code === 400 && /chat not found/i.test(err.description))
      ? "not-started"
      : "failed";
  }
}

/** What the admins read about a finished order: its outcome, why it failed, the reseller's price and margin, who settled it. */
function orderNoticeText(t: Translate, lang: Lang, order: OrderRecord, settler: Person | undefined): string {
  const r = order.result ?? {};
  const heading = t(
    `notice-heading-${order.state === "success" ? "success" : order.state === "failed" ? "failed" : "unknown"}`,
    {
      user: order.userName,
      userId: String(order.userId),
    },
  );
  let text = `${heading}\n${t("notice-order", {
    code: order.productCode,
    product: order.productName,
    playerName: r.destinationName ?? t("value-none"),
    playerId: order.playerId,
    price: order.price === null ? t("order-price-none") : formatRupiah(order.price, lang),
    outcome: renderState(t, order),
    sn: r.sn ?? t("value-none"),
    balance: r.lastBalance === undefined ? t("value-none") : formatRupiah(r.lastBalance, lang),
    refId: order.refId,
  })}`;
  // Why it failed, as the user is told: the provider's code and message (or the admin's reason).
  if (order.state === "failed") {
    if (r.reason === "settled") text += `\n${t("line-reason", { reason: r.errorMsg ?? t("value-none") })}`;
    else if (r.reason === "not-sent") text += `\n${t("notice-not-sent")}`;
    else {
      text += `\n${t("line-error-code", { errorCode: r.errorCode ?? t("value-none") })}`;
      text += `\n${t("line-error-msg", { errorMsg: r.errorMsg ?? t("order-failed-no-message") })}`;
    }
  }
  if (paidFromSaldo(order)) {
    // The reseller's price and what became of it; on a sale, what the shop made on it (once
    // the provider price is known).
    const sale = saleMargin(order);
    const key =
      order.state === "failed"
        ? "notice-reseller-released"
        : order.state === "unknown"
          ? "notice-reseller-held"
          : sale === undefined
            ? "notice-reseller"
            : "notice-reseller-margin";
    text += `\n${t(key, {
      tier: order.tier ?? "",
      price: formatRupiah(order.price!, lang),
      cost: sale === undefined ? "" : formatRupiah(sale.cost, lang),
      margin: sale === undefined ? "" : formatRupiah(sale.margin, lang),
    })}`;
  }
  // A sale below what the provider charged for it is a loss, whoever bought it: said plainly.
  const sold = saleMargin(order);
  if (sold !== undefined && sold.margin < 0)
    text += `\n${t("notice-loss", { price: formatRupiah(order.price!, lang), cost: formatRupiah(sold.cost, lang), loss: formatRupiah(-sold.margin, lang) })}`;
  if (order.settledBy === 0) text += `\n${t("notice-settled-by-provider")}`;
  else if (order.settledBy !== undefined)
    text += `\n${t("notice-settled", { adminId: String(order.settledBy), adminName: nameBefore(settler) })}`;
  if (viaApi(order)) text += `\n${t("notice-via-api")}`;
  return text;
}

/** /pending's buttons for an order whose result is unknown: settle it as a success or as failed. */
export const settleButtons = (t: Translate, refId: string) =>
  new InlineKeyboard()
    .text(t("button-settle-success"), Callback.settle.encode({ outcome: "success", refId }))
    .text(t("button-settle-failed"), Callback.settle.encode({ outcome: "failed", refId }));

/** What the notices share: the deps, a translator per language, the sandbox's line, sending to one chat. */
function noticeBasics(deps: NotifierDeps) {
  const tFor = (lang: Lang): Translate => translator(deps.texts, lang);
  return {
    tFor,
    /** The line that says a result came from the built-in sandbox (a trial, nothing topped up). */
    sandboxLine: (t: Translate) => (deps.sandbox === true ? `\n\n${t("sandbox-note")}` : ""),
    deliver: (chatId: number, text: string) => deliver(deps.api, deps.logger, chatId, text),
    sendTo: async (chatId: number, text: string) => (await deliver(deps.api, deps.logger, chatId, text)) === "told",
  };
}

/**
 * The admins' notices of finished orders and the alerts (low balance, the provider's deposit run
 * out); a settled order's /pending messages lose their buttons.
 */
function createAdminNotices(deps: NotifierDeps) {
  const { api, logger } = deps;
  const { tFor, sandboxLine, sendTo } = noticeBasics(deps);

  /**
   * A notice for the admins: once to ADMIN_CHAT_ID (in its topic) when it is set, in the language
   * of the first admin of ADMIN_IDS; otherwise, or when the admin chat refuses it (the bot was
   * removed from the group, the topic was deleted: 403/400), to each admin's private chat in their
   * own language, so nothing is lost.
   */
  async function toAdmins(
    build: (lang: Lang) => string,
    opts: { except?: number; buttons?: (t: Translate) => InlineKeyboard; sent?: (m: Message) => Promise<void> } = {},
  ): Promise<void> {
    const markup = (lang: Lang) => (opts.buttons === undefined ? {} : { reply_markup: opts.buttons(tFor(lang)) });
    const chat = deps.adminChat;
    if (chat !== undefined) {
      const first = deps.adminIds[0];
      const lang = first === undefined ? "en" : await deps.prefs.languageFor(first);
      try {
        const m = await api.sendMessage(chat.chatId, build(lang), { ...adminChatTopic(chat), ...markup(lang) });
        await opts.sent?.(m);
        return;
      } catch (err) {
        logger.error(
          {
            chatId: chat.chatId,
            threadId: chat.threadId,
            code: err instanceof GrammyError ? err.error_code : undefined,
            err: err instanceof GrammyError ? err.description : err,
          },
          "notice not delivered to ADMIN_CHAT_ID (is the bot a member of that group?); sending it to each admin instead",
        );
      }
    }
    for (const adminId of deps.adminIds) {
      // An admin who made the sale has its result already: no second message about it.
      if (adminId === opts.except) continue;
      const lang = await deps.prefs.languageFor(adminId);
      if (opts.buttons === undefined) {
        await sendTo(adminId, build(lang));
        continue;
      }
      try {
        await opts.sent?.(await api.sendMessage(adminId, build(lang), markup(lang)));
      } catch (err) {
        logger.warn(
          { chatId: adminId, err: err instanceof GrammyError ? err.description : err },
          "notice not delivered",
        );
      }
    }
  }

  async function noticeAdmins(order: OrderRecord): Promise<void> {
    // Sales by someone else: an admin's own order is told to them once, as its result (unless the
    // notices go to the admin room, which keeps the shop's record of every sale).
    const except = deps.adminIds.includes(order.userId) ? order.userId : undefined;
    const settler =
      order.settledBy === undefined ? undefined : (await deps.people?.get([order.settledBy]))?.get(order.settledBy);
    // An unknown result waits for an admin: the notice has /pending's Success / Failed, and is
    // remembered so that its buttons go once the order is settled (from anywhere).
    const settle =
      order.state === "unknown"
        ? {
            buttons: (t: Translate) => settleButtons(t, order.refId),
            sent: (m: Message) =>
              deps.pendingMessages?.add(order.refId, { chatId: m.chat.id, messageId: m.message_id }) ??
              Promise.resolve(),
          }
        : {};
    await toAdmins(
      (lang) => {
        const t = tFor(lang);
        return `${orderNoticeText(t, lang, order, settler)}${sandboxLine(t)}`;
      },
      { ...(except === undefined ? {} : { except }), ...settle },
    );
  }

  /** The shop's own deposit with the provider ran out: an order was refused for it (once per crossing). */
  async function alertProviderEmpty(order: OrderRecord): Promise<void> {
    const r = order.result ?? {};
    await toAdmins((lang) =>
      tFor(lang)("provider-empty-alert", {
        errorCode: r.errorCode ?? tFor(lang)("value-none"),
        errorMsg: r.errorMsg ?? tFor(lang)("order-failed-no-message"),
        refId: order.refId,
      }),
    );
  }

  async function alertLowBalance(order: OrderRecord): Promise<void> {
    const balance = order.result?.lastBalance;
    const threshold = deps.lowBalanceThreshold;
    if (balance === undefined || threshold === undefined) return;
    await toAdmins((lang) =>
      tFor(lang)("low-balance-alert", {
        balance: formatRupiah(balance, lang),
        refId: order.refId,
        threshold: formatRupiah(threshold, lang),
      }),
    );
  }

  /** A settled order's /pending messages lose their buttons (a tap there would only be refused). */
  async function retirePendingButtons(order: OrderRecord): Promise<void> {
    for (const at of (await deps.pendingMessages?.take(order.refId)) ?? []) {
      await api
        .editMessageReplyMarkup(at.chatId, at.messageId)
        .catch((err: unknown) => logger.debug({ err, refId: order.refId }, "pending buttons not removed"));
    }
  }

  /** The API's sales of a period: one line per partner. */
  async function apiSalesNotice(lines: readonly ApiSalesLine[], minutes: number): Promise<void> {
    if (lines.length === 0) return;
    await toAdmins((lang) => {
      const t = tFor(lang);
      const rows = lines.map((l) =>
        t("api-sales-line", {
          user: l.name,
          userId: String(l.userId),
          sold: l.sold,
          revenue: formatRupiah(l.revenue, lang),
          failed: l.failed,
        }),
      );
      return `${t("api-sales-heading", { minutes })}\n${rows.join("\n")}${sandboxLine(t)}`;
    });
  }

  return { apiSalesNotice, finished };

  /** What follows a finished order: the pending buttons (settled), the admins' notice, the alerts it crossed. */
  async function finished(
    order: OrderRecord,
    how: FinishedHow,
    facts: { lowBalance: boolean; providerEmpty?: boolean },
  ): Promise<void> {
    if (how === "settled")
      await retirePendingButtons(order).catch((err: unknown) =>
        logger.warn({ err, refId: order.refId }, "pending messages not brought up to date"),
      );
    // The API's sales and failures as they come go into the period's one notice; an unknown one,
    // or one an admin settled, is told at once (someone must act on it, or did).
    if (viaApi(order) && how === "confirmed" && order.state !== "unknown" && deps.apiSales !== undefined)
      await deps.apiSales
        .add(order, (deps.now ?? (() => new Date()))().getTime())
        .catch((err: unknown) => logger.error({ err, refId: order.refId }, "API sale not counted for its notice"));
    else await noticeAdmins(order);
    if (facts.lowBalance) await alertLowBalance(order);
    if (facts.providerEmpty === true) await alertProviderEmpty(order);
  }
}

/**
 * The user's side of an outcome: the summary says "processing" while a slow call runs, then the
 * outcome replies to the summary (or, in a group, to the member's message) and the summary is
 * brought up to date.
 */
function createOutcomeTelling(deps: NotifierDeps) {
  const { api, logger } = deps;
  const { tFor, sandboxLine } = noticeBasics(deps);
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
    // A success gets Receipt and a button that copies the SN.
    const keyboard = resultKeyboard(t, order);
    // "told": the user already read this outcome; only the summary is brought up to date.
    if (heading !== "told")
      await api.sendMessage(order.chatId, `${outcomeText(t, order, heading, lang)}${sandboxLine(t)}`, {
        ...replyTo,
        ...(keyboard === undefined ? {} : { reply_markup: keyboard }),
      });
    if (order.summaryMessageId !== undefined) {
      await api
        .editMessageText(order.chatId, order.summaryMessageId, renderSummaryAfter(t, order))
        .catch((err: unknown) => logger.debug({ err, refId: order.refId }, "summary not brought up to date"));
    }
  }

  return { claimed, tellOutcome };
}

/**
 * Says what the order and deposit services report, in Telegram: the outcome to the user who
 * ordered (a reply to the summary, which is brought up to date), every outcome to the admins (with
 * a low-balance alert when a sale took the balance below the threshold: in ADMIN_CHAT_ID when it is
 * set, else in each admin's private chat), a credited deposit to its reseller. The services decide
 * what is due and record that it was said; this only says it.
 */
export function createNotifier(deps: NotifierDeps): Notifier {
  const { tFor, deliver, sendTo } = noticeBasics(deps);
  const tasks = createTaskTracker();
  const track = <T>(work: Promise<T>): Promise<T> => tasks.track(work);
  const { claimed, tellOutcome } = createOutcomeTelling(deps);
  const { finished, apiSalesNotice } = createAdminNotices(deps);

  return {
    claimed,
    // An order of the H2H API is told by its HTTP answer, the status query and the callback.
    tellOutcome: (order, heading) => (viaApi(order) ? Promise.resolve() : track(tellOutcome(order, heading))),
    finished: (order, how: FinishedHow, facts) => track(finished(order, how, facts)),
    apiSales: (lines, minutes) => track(apiSalesNotice(lines, minutes)),
    // Said as the outcome "unknown, the bot was restarted" (what recovery records once the call
    // must be over, which then only brings the summary up to date).
    async interrupted(order) {
      if (viaApi(order)) return;
      const unknown: OrderRecord = { ...order, state: "unknown", result: { reason: "interrupted" } };
      await track(
        tellOutcome(unknown).catch((err: unknown) =>
          deps.logger.warn({ err, refId: order.refId }, "interrupted order: its user was not told"),
        ),
      );
    },
    idle: () => tasks.idle(),
    /** The reseller learns of a deposit or a correction of their saldo. */
    credited: (deposit: Deposit, saldo: number) =>
      track(
        (async () => {
          const lang = await deps.prefs.languageFor(deposit.resellerId);
          const t = tFor(lang);
          const key = deposit.amount >= 0 ? "deposit-credited" : "deposit-corrected";
          const note = deposit.note === "" ? "" : `\n${t("deposit-note", { note: deposit.note })}`;
          const text = t(key, {
            amount: formatRupiah(Math.abs(deposit.amount), lang),
            saldo: formatRupiah(saldo, lang),
            id: deposit.id,
          });
          return deliver(deposit.resellerId, `${text}${note}`);
        })(),
      ),
    /** The admin who credited it (in the chat the summary was in) learns the reseller was not told. */
    undelivered: (deposit: Deposit, why: "not-started" | "blocked") =>
      track(
        (async () => {
          const t = tFor(await deps.prefs.languageFor(deposit.adminId));
          const person = (await deps.people?.get([deposit.resellerId]))?.get(deposit.resellerId);
          const text = t(why === "blocked" ? "deposit-undelivered-blocked" : "deposit-undelivered-not-started", {
            userId: String(deposit.resellerId),
            name: nameBefore(person),
            id: deposit.id,
          });
          await sendTo(deposit.chatId, text);
        })(),
      ),
  };
}
