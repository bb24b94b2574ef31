import { autoRetry } from "@grammyjs/auto-retry";
import type { Api, Transformer } from "grammy";

/** Bounded retries of Bot API calls: Telegram's 429s and hiccups are waited out, a few times, never over 15 s. */
const RETRY = { maxRetryAttempts: 3, maxDelaySeconds: 15, rethrowInternalServerErrors: false };

/** Methods whose text or caption is ours: every text of the bot is HTML (locales/*.ftl). */
const FORMATTED = new Set(["sendMessage", "editMessageText", "sendDocument", "sendPhoto", "editMessageCaption"]);

/** Sets parse_mode HTML once, for every call that carries our text, unless a call says otherwise. */
const htmlParseMode: Transformer = (prev, method, payload, signal) =>
  prev(
    method,
    FORMATTED.has(method) && !("parse_mode" in payload) ? { ...payload, parse_mode: "HTML" } : payload,
    signal,
  );

/**
 * Installs what every Api object of the bot needs: bot.api, and the fresh Api objects that the
 * conversations plugin gives the contexts inside a conversation (it does not copy transformers).
 */
export function configureApi(api: Api): void {
  api.config.use(autoRetry(RETRY), htmlParseMode);
}
