import { FluentBundle, FluentResource } from "@fluent/bundle";

export type Lang = "en" | "id";

/**
 * Translates a key of locales/<lang>.ftl (the chat's own texts; the page's keys start with `page-`).
 * A number is formatted for the language (counts); ids go in as strings, never grouped.
 */
export type T = (key: string, vars?: Record<string, string | number>) => string;

/** The page's words and numbers in one language. */
export interface Words {
  lang: Lang;
  t: T;
  /** `Rp 20.000` (id) or `Rp 20,000` (en). */
  rp: (amount: number) => string;
  /** `+ Rp 50.000` / `− Rp 5.000`. */
  signed: (amount: number) => string;
  number: (n: number) => string;
  /** A time as the shop reads it: its time zone, day and minute. */
  time: (iso: string) => string;
  /** A day `YYYY-MM-DD` as `24 Nov`. */
  day: (day: string) => string;
  /** The month a day `YYYY-MM-DD` is in, as `November 2026`. */
  month: (day: string) => string;
}

const LOCALE: Record<Lang, string> = { en: "en-US", id: "id-ID" };

/** Loads the texts the chat uses (served by the bot beside the page) and the formats of the language. */
export async function loadWords(lang: Lang, timeZone: string): Promise<Words> {
  const res = await fetch(`locales/${lang}.ftl`);
  if (!res.ok) throw new Error(`locales/${lang}.ftl: ${res.status}`);
  const bundle = new FluentBundle(LOCALE[lang], { useIsolating: false });
  bundle.addResource(new FluentResource(await res.text()));
  const t: T = (key, vars) => {
    const message = bundle.getMessage(key);
    if (message?.value === undefined || message.value === null) return key;
    return bundle.formatPattern(message.value, vars);
  };
  const num = new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 0 });
  const times = new Intl.DateTimeFormat(LOCALE[lang], {
    timeZone,
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  const days = new Intl.DateTimeFormat(LOCALE[lang], { timeZone: "UTC", month: "short", day: "numeric" });
  const months = new Intl.DateTimeFormat(LOCALE[lang], { timeZone: "UTC", month: "long", year: "numeric" });
  const rp = (amount: number) => `Rp ${num.format(amount)}`;
  return {
    lang,
    t,
    rp,
    signed: (amount) => `${amount < 0 ? "−" : "+"} ${rp(Math.abs(amount))}`,
    number: (n) => num.format(n),
    time: (iso) => times.format(new Date(iso)),
    day: (day) => days.format(new Date(`${day}T00:00:00Z`)),
    month: (day) => months.format(new Date(`${day}T00:00:00Z`)),
  };
}
