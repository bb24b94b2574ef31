import type { StorageAdapter } from "grammy";
import type { Lang } from "../orders/order.js";
import { keyvStorageAdapter } from "../storage/storage-adapter.js";
import type { Store } from "../storage/store.js";
import type { SessionData } from "./context.js";
import { languageOf } from "./i18n.js";

export interface UserPrefs {
  /** The session storage (per user id); also read directly where no session exists. */
  adapter: StorageAdapter<SessionData>;
  /**
   * The language to speak to a user in: their /language choice, else the Telegram language of
   * this update, else the one last seen at /start, else English.
   */
  languageFor(userId: number, telegramCode?: string): Promise<Lang>;
}

const HALF_YEAR = 183 * 24 * 60 * 60 * 1000;

export function createUserPrefs(store: Store): UserPrefs {
  const adapter = keyvStorageAdapter<SessionData>(store, "session", HALF_YEAR);
  return {
    adapter,
    async languageFor(userId, telegramCode) {
      // A store outage must not silence the bot: it then speaks the Telegram language.
      const prefs = await Promise.resolve(adapter.read(String(userId))).catch(() => undefined);
      if (prefs?.language !== undefined) return prefs.language;
      if (telegramCode !== undefined) return languageOf(telegramCode);
      return prefs?.telegramLanguage ?? "en";
    },
  };
}
