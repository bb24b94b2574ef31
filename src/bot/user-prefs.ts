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
  /** Forgets the cached preferences of a user whose choice just changed. */
  invalidate(userId: number): void;
}

/**
 * The preferences are read for every update (the language of each answer) and inside every
 * conversation replay; a 2-second cache saves those reads. A /language change in this process
 * clears it at once; another process sees it within 2 s.
 */
const CACHE_MS = 2000;

const HALF_YEAR = 183 * 24 * 60 * 60 * 1000;

export function createUserPrefs(store: Store): UserPrefs {
  const adapter = keyvStorageAdapter<SessionData>(store, "session", HALF_YEAR);
  const cache = new Map<number, { at: number; prefs: Promise<SessionData | undefined> }>();
  const read = (userId: number) => {
    const hit = cache.get(userId);
    if (hit !== undefined && Date.now() - hit.at < CACHE_MS) return hit.prefs;
    // A store outage must not silence the bot: it then speaks the Telegram language.
    const prefs = Promise.resolve(adapter.read(String(userId))).catch(() => undefined);
    if (cache.size > 10_000) cache.clear();
    cache.set(userId, { at: Date.now(), prefs });
    return prefs;
  };
  return {
    adapter,
    invalidate: (userId) => void cache.delete(userId),
    async languageFor(userId, telegramCode) {
      const prefs = await read(userId);
      if (prefs?.language !== undefined) return prefs.language;
      if (telegramCode !== undefined) return languageOf(telegramCode);
      return prefs?.telegramLanguage ?? "en";
    },
  };
}
