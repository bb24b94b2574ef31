import { I18n } from "@grammyjs/i18n";
import { fileURLToPath } from "node:url";
import type { Context } from "grammy";
import type { Lang } from "../orders/order.js";

export const LOCALES_DIR = fileURLToPath(new URL("../../locales", import.meta.url));

/** Indonesian for Telegram language `id` (and `id-…`), English for everyone else. */
export function languageOf(languageCode: string | undefined): Lang {
  return languageCode?.toLowerCase().split("-")[0] === "id" ? "id" : "en";
}

/**
 * The i18n plugin over `locales/*.ftl`. The language is the user's /language choice, read from
 * storage (so it also holds inside conversations, which have no session), else Telegram's.
 * Fluent's Unicode isolation marks are turned off: they would end up inside copied serial
 * numbers and player ids.
 */
export function createI18n<C extends Context>(
  languageFor: (userId: number, telegramCode?: string) => Promise<Lang> = async (_id, code) => languageOf(code),
): I18n<C> {
  return new I18n<C>({
    defaultLocale: "en",
    directory: LOCALES_DIR,
    useSession: false,
    fluentBundleOptions: { useIsolating: false },
    localeNegotiator: (ctx) => (ctx.from === undefined ? "en" : languageFor(ctx.from.id, ctx.from.language_code ?? "")),
  });
}
