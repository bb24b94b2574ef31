import { GrammyError, type Api } from "grammy";
import type { Logger } from "../../logger.js";
import type { Delivery } from "../../orders/events.js";
import type { Lang } from "../../orders/order.js";
import { adminChatTopic, type AdminChat } from "../chats.js";
import type { UserPrefs } from "../user-prefs.js";

/** What a send came to: the message Telegram made, or why it reached no one. */
export type Sent<M> = { delivery: "told"; message: M } | { delivery: Exclude<Delivery, "told"> };

/**
 * Why a send failed, as a delivery: a chat that never started the bot (403, or 400 "chat not
 * found") or blocked it is not tried again soon; anything else failed for now.
 */
function deliveryOf(err: unknown): Exclude<Delivery, "told"> {
  if (!(err instanceof GrammyError)) return "failed";
  if (err.error_code === 403 && /blocked/i.test(err.description)) return "blocked";
  return err.error_code === 403 || (err.error_code === 400 && /chat not found/i.test(err.description))
    ? "not-started"
    : "failed";
}

/** What a failed send is logged with: Telegram's code and words, or the error itself. */
const failure = (err: unknown) => ({
  code: err instanceof GrammyError ? err.error_code : undefined,
  err: err instanceof GrammyError ? err.description : err,
});

/**
 * Sends one notice to one chat with `send`, and says how it went. A failure is logged here, once,
 * the same way for every kind of news (`notice` names the kind); callers only read the delivery.
 */
export async function sendNotice<M>(
  logger: Logger,
  chatId: number,
  notice: string,
  send: () => Promise<M>,
): Promise<Sent<M>> {
  try {
    return { delivery: "told", message: await send() };
  } catch (err) {
    logger.warn({ chatId, notice, ...failure(err) }, "notice not delivered");
    return { delivery: deliveryOf(err) };
  }
}

/** A text message to one chat: how it went. */
export async function sendText(api: Api, logger: Logger, chatId: number, notice: string, text: string) {
  return (await sendNotice(logger, chatId, notice, () => api.sendMessage(chatId, text))).delivery;
}

export interface AdminFanOutDeps {
  api: Api;
  prefs: Pick<UserPrefs, "languageFor">;
  adminIds: readonly number[];
  /** ADMIN_CHAT_ID: the admins' notices go there, once, instead of to each admin. */
  adminChat?: AdminChat | undefined;
  logger: Logger;
}

/** Where a notice goes: the chat, its language, and (in the admin room) its forum topic. */
export interface NoticeTarget {
  chatId: number;
  lang: Lang;
  topic: { message_thread_id?: number };
}

export interface AdminFanOut {
  /**
   * A notice for the admins: once to ADMIN_CHAT_ID (in its topic) when it is set, in the language
   * of the first admin of ADMIN_IDS; otherwise, or when the admin room refuses it (the bot was
   * removed from the group, the topic was deleted), to each admin's private chat in their own
   * language, so nothing is lost. `except` is an admin who needs no copy (they read it already);
   * `sent` hears of each message that went out (to remember where it is); it logs its own failures
   * and never throws (the notice went out either way).
   */
  toAdmins<M>(
    notice: string,
    send: (to: NoticeTarget) => Promise<M>,
    opts?: { except?: number | undefined; sent?: (message: M, to: NoticeTarget) => Promise<void> },
  ): Promise<void>;
  /** The language a chat of the admins' notices reads: the admin room's is its first admin's. */
  languageOf(chatId: number): Promise<Lang>;
}

/** The one way a notice reaches the admins (the admin room first, else each admin). */
export function createAdminFanOut(deps: AdminFanOutDeps): AdminFanOut {
  const { logger } = deps;
  const roomLanguage = async (): Promise<Lang> => {
    const first = deps.adminIds[0];
    return first === undefined ? "en" : await deps.prefs.languageFor(first);
  };

  return {
    async toAdmins(notice, send, opts = {}) {
      const room = deps.adminChat;
      if (room !== undefined) {
        const to = { chatId: room.chatId, lang: await roomLanguage(), topic: adminChatTopic(room) };
        let shown: { message: Awaited<ReturnType<typeof send>> } | undefined;
        try {
          shown = { message: await send(to) };
        } catch (err) {
          logger.error(
            { chatId: room.chatId, threadId: room.threadId, notice, ...failure(err) },
            "notice not delivered to ADMIN_CHAT_ID (is the bot a member of that group?); sending it to each admin instead",
          );
        }
        if (shown !== undefined) {
          await opts.sent?.(shown.message, to);
          return;
        }
      }
      for (const adminId of deps.adminIds) {
        if (adminId === opts.except) continue;
        const to = { chatId: adminId, lang: await deps.prefs.languageFor(adminId), topic: {} };
        const sent = await sendNotice(logger, adminId, notice, () => send(to));
        if (sent.delivery === "told") await opts.sent?.(sent.message, to);
      }
    },
    async languageOf(chatId) {
      if (deps.adminChat !== undefined && chatId === deps.adminChat.chatId) return roomLanguage();
      return deps.prefs.languageFor(chatId);
    },
  };
}
