import type { Lang } from "../orders/order.js";

/** Escapes text for Telegram's HTML parse mode: player ids and names come from users and the provider. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The longest part of what someone typed that an answer quotes back to them. */
export const QUOTE_MAX = 40;

/**
 * What someone typed, as an answer quotes it: at most `max` characters (whole ones, an emoji is
 * not cut in half), then "…". A 5,000-character argument never makes an answer Telegram refuses.
 */
export function quoteTyped(text: string, max = QUOTE_MAX): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max).join("")}…`;
}

const LOCALES: Record<Lang, string> = { en: "en-US", id: "id-ID" };

// Intl formatters are costly to build and safe to share: one per language (and time zone), each
// built the first time it is needed (a bot that has not answered anyone has not loaded the data).
const numberFormats = new Map<Lang, Intl.NumberFormat>();
const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** Whole numbers grouped per language: `20.000` in Indonesian, `20,000` in English. */
export function formatNumber(amount: number, lang: Lang): string {
  let format = numberFormats.get(lang);
  if (format === undefined) {
    format = new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: 0 });
    numberFormats.set(lang, format);
  }
  return format.format(amount);
}

/** Rupiah at the edge only: `Rp 20.000` (id) or `Rp 20,000` (en). */
export function formatRupiah(amount: number, lang: Lang): string {
  return `Rp ${formatNumber(amount, lang)}`;
}

/** A time as the shop reads it: in its time zone, day and minute, in the user's language. */
export function formatTime(iso: string, lang: Lang, timeZone: string): string {
  const key = `${lang} ${timeZone}`;
  let format = timeFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(LOCALES[lang], {
      timeZone,
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    timeFormats.set(key, format);
  }
  return format.format(new Date(iso));
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** The hour and minute of a time in the shop's time zone (`14:05`): for what happened minutes ago. */
export function formatClock(iso: string, lang: Lang, timeZone: string): string {
  const key = `${lang} ${timeZone}`;
  let format = clockFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(LOCALES[lang], { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    clockFormats.set(key, format);
  }
  return format.format(new Date(iso)).replace(".", ":");
}

const monthFormats = new Map<Lang, Intl.DateTimeFormat>();

/** A month written `YYYY-MM` as people name it: `March 2026`, `Maret 2026`. */
export function formatMonth(month: string, lang: Lang): string {
  let format = monthFormats.get(lang);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(LOCALES[lang], { timeZone: "UTC", year: "numeric", month: "long" });
    monthFormats.set(lang, format);
  }
  return format.format(new Date(`${month}-15T00:00:00Z`));
}
