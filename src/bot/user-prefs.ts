import type { Lang } from "../orders/order.js";
import { createInvalidation } from "../storage/invalidation.js";
import { keyvStorageAdapter } from "../storage/storage-adapter.js";
import type { Storage } from "../storage/storage.js";
import { languageOf } from "./i18n.js";

/** Per-user preferences kept in storage: the chosen language, and the Telegram one last seen. */
export interface Prefs {
  language?: Lang;
  telegramLanguage?: Lang;
}

export interface UserPrefs {
  /**
   * The one way to learn a user's language: their /language choice, else the Telegram language of
   * the update at hand, else the one last seen at /start, else English.
   */
  languageFor(userId: number, telegramCode?: string): Promise<Lang>;
  setLanguage(userId: number, lang: Lang): Promise<void>;
  /** Remembers the Telegram language, for messages sent to this user outside their updates. */
  sawTelegramLanguage(userId: number, telegramCode: string | undefined): Promise<void>;
  /** The cache is in use: the subscription that keeps it right is up (always, with the memory store). */
  listening(): boolean;
  /** Closes the subscription that keeps the cache right (before the storage closes). */
  close(): Promise<void>;
}

/**
 * Preferences are read for every update (the language of each answer) and in every conversation
 * replay; a cache of 2 seconds saves those reads. A change clears it at once in every process:
 * the writer publishes the user id (storage/invalidation.ts) and each process drops that user's
 * entry; while that subscription is down nothing is cached (every read asks the store). Entries
 * leave the cache when they are older than 2 s, so it holds only the users of the last seconds.
 */
const CACHE_MS = 2000;
const HALF_YEAR = 183 * 24 * 60 * 60 * 1000;

export function createUserPrefs(
  storage: Storage,
  onError: (err: unknown) => void,
  opts: { cacheMs?: number } = {},
): UserPrefs {
  const cacheMs = opts.cacheMs ?? CACHE_MS;
  const adapter = keyvStorageAdapter<Prefs>(storage, "session", HALF_YEAR);
  const cache = new Map<number, { at: number; prefs: Promise<Prefs | undefined> }>();
  const changes = createInvalidation(storage, "prefs", {
    onMessage: (userId) => void cache.delete(Number(userId)),
    onLost: () => cache.clear(),
  });
  let lastSweep = performance.now();

  const read = (userId: number) => {
    const t = performance.now();
    const hit = cache.get(userId);
    if (hit !== undefined && t - hit.at < cacheMs) return hit.prefs;
    if (t - lastSweep > cacheMs) {
      lastSweep = t;
      for (const [id, entry] of cache) if (t - entry.at >= cacheMs) cache.delete(id);
    }
    // A store outage must not silence the bot: it then speaks the Telegram language.
    const prefs = Promise.resolve(adapter.read(String(userId))).catch((err: unknown) => {
      onError(err);
      return undefined;
    });
    if (changes.listening()) cache.set(userId, { at: t, prefs });
    return prefs;
  };

  const update = async (userId: number, change: (p: Prefs) => boolean) => {
    const current = (await adapter.read(String(userId))) ?? {};
    if (!change(current)) return;
    cache.delete(userId);
    await adapter.write(String(userId), current);
    // The other processes drop what they kept of this user. (A message that cannot be sent means
    // Redis is down for them too: their subscription drops, and with it their whole cache.)
    await changes.publish(String(userId)).catch(onError);
  };

  return {
    async languageFor(userId, telegramCode) {
      const prefs = await read(userId);
      if (prefs?.language !== undefined) return prefs.language;
      if (telegramCode !== undefined) return languageOf(telegramCode);
      return prefs?.telegramLanguage ?? "en";
    },
    setLanguage: (userId, lang) =>
      update(userId, (p) => {
        p.language = lang;
        return true;
      }),
    async sawTelegramLanguage(userId, telegramCode) {
      const seen = languageOf(telegramCode);
      if ((await read(userId))?.telegramLanguage === seen) return;
      await update(userId, (p) => {
        if (p.telegramLanguage === seen) return false;
        p.telegramLanguage = seen;
        return true;
      });
    },
    listening: () => changes.listening(),
    close: () => changes.close(),
  };
}
