import { I18n } from "@grammyjs/i18n";
import { fileURLToPath } from "node:url";
import type { Lang } from "../orders/order.js";
import { escapeHtml } from "./format.js";

export const LOCALES_DIR = fileURLToPath(new URL("../../locales", import.meta.url));

/** Translates a key with variables; every variable is escaped for HTML. */
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** Indonesian for Telegram language `id` (and `id-…`), English for everyone else. */
export function languageOf(languageCode: string | undefined): Lang {
  return languageCode?.toLowerCase().split("-")[0] === "id" ? "id" : "en";
}

/**
 * The texts of `locales/*.ftl`, loaded once. Fluent's Unicode isolation marks are turned off:
 * they would end up inside copied serial numbers and player ids.
 */
export function loadTexts(): I18n {
  return new I18n({
    defaultLocale: "en",
    directory: LOCALES_DIR,
    useSession: false,
    fluentBundleOptions: { useIsolating: false },
  });
}

/**
 * The one translate helper. Numbers are formatted by the caller on purpose (a user id must not
 * become "123,456"), and no user or provider text can inject HTML.
 */
export function translator(texts: I18n, lang: Lang): Translate {
  // A text without variables never changes: translated once (the plugin negotiates the language
  // on every call, a good part of the cost of a reply).
  const fixed = new Map<string, string>();
  return (key, vars) => {
    if (vars === undefined) {
      let text = fixed.get(key);
      if (text === undefined) fixed.set(key, (text = texts.t(lang, key)));
      return text;
    }
    const safe: Record<string, string> = {};
    for (const [k, v] of Object.entries(vars)) safe[k] = escapeHtml(String(v));
    return texts.t(lang, key, safe);
  };
}
