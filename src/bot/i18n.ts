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
 * The i18n plugin over `locales/*.ftl`. Fluent's Unicode isolation marks are turned off: they
 * would end up inside copied serial numbers and player ids.
 */
export function createI18n<C extends Context>(): I18n<C> {
  return new I18n<C>({
    defaultLocale: "en",
    directory: LOCALES_DIR,
    useSession: false,
    fluentBundleOptions: { useIsolating: false },
    localeNegotiator: (ctx) => languageOf(ctx.from?.language_code),
  });
}
