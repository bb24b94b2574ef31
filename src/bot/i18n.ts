import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { FluentBundle, FluentNumber, FluentResource } from "@fluent/bundle";
import type { Lang } from "../orders/order.js";
import { escapeHtml, quoteTyped } from "./format.js";

export const LOCALES_DIR = fileURLToPath(new URL("../../locales", import.meta.url));

/** Translates a key with variables; every variable is escaped for HTML. */
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** The bot's texts: a message of `locales/<lang>.ftl` with its variables. */
export interface Texts {
  t(lang: Lang, key: string, vars?: Record<string, string | FluentNumber>): string;
}

/** Indonesian for Telegram language `id` (and `id-…`), English for everyone else. */
export function languageOf(languageCode: string | undefined): Lang {
  return languageCode?.toLowerCase().split("-")[0] === "id" ? "id" : "en";
}

/**
 * The texts of `locales/*.ftl`, loaded once into Fluent bundles (@fluent/bundle, the library the
 * grammY i18n plugin is built on; the bot resolves the language itself, per update, so the
 * plugin's middleware and its Deno shims are not needed). A message missing in Indonesian falls
 * back to English; a key missing in both shows as `{key}`. Fluent's Unicode isolation marks are
 * turned off: they would end up inside copied serial numbers and player ids.
 */
export function loadTexts(dir = LOCALES_DIR): Texts {
  const bundles = new Map<Lang, FluentBundle>();
  for (const lang of ["en", "id"] as const) {
    const bundle = new FluentBundle(lang === "en" ? "en-US" : "id-ID", { useIsolating: false });
    const errors = bundle.addResource(new FluentResource(readFileSync(`${dir}/${lang}.ftl`, "utf8")));
    if (errors.length > 0) throw new Error(`locales/${lang}.ftl: ${errors.map((e) => e.message).join("; ")}`);
    bundles.set(lang, bundle);
  }
  const format = (bundle: FluentBundle, key: string, vars?: Record<string, string | FluentNumber>) => {
    const message = bundle.getMessage(key);
    return message?.value === undefined || message.value === null
      ? undefined
      : bundle.formatPattern(message.value, vars);
  };
  return {
    t: (lang, key, vars) =>
      format(bundles.get(lang)!, key, vars) ?? format(bundles.get("en")!, key, vars) ?? `{${key}}`,
  };
}

/**
 * The one translate helper. No user or provider text can inject HTML. A number stays a number, so
 * that a text can say "1 order" and "2 orders" (Fluent's plural forms), written without grouping
 * (a user id must not become "123,456"; money is formatted by the caller). Texts without variables
 * are formatted once.
 */
export function translator(texts: Texts, lang: Lang): Translate {
  const fixed = new Map<string, string>();
  return (key, vars) => {
    if (vars === undefined) {
      let text = fixed.get(key);
      if (text === undefined) fixed.set(key, (text = texts.t(lang, key)));
      return text;
    }
    const safe: Record<string, string | FluentNumber> = {};
    for (const [k, v] of Object.entries(vars))
      safe[k] =
        typeof v === "number"
          ? new FluentNumber(v, { useGrouping: false })
          : // `typed` is always what someone typed, quoted back: a short part of it is enough.
            escapeHtml(k === "typed" ? quoteTyped(String(v)) : String(v));
    return texts.t(lang, key, safe);
  };
}
