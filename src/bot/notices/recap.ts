import { InputFile, type Api } from "grammy";
import type { Lang } from "../../orders/order.js";
import { recapPicture } from "../../pictures/recap-picture.js";
import type { RecapFigures } from "../../reports/recap.js";
import type { DueRecap } from "../../reports/recap-schedule.js";
import { formatNumber, formatRupiah } from "../format.js";
import { translator, type Texts, type Translate } from "../i18n.js";
import type { AdminFanOut } from "./fan-out.js";

/** Telegram's longest photo caption (characters as the user reads them). */
const CAPTION_MAX = 1024;

const LOCALES: Record<Lang, string> = { en: "en-GB", id: "id-ID" };

/** A day `YYYY-MM-DD` as people read it: "Thu, 12 Mar 2026" (read at noon UTC: the same day everywhere). */
const longDay = (day: string, lang: Lang) =>
  new Intl.DateTimeFormat(LOCALES[lang], {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${day}T12:00:00Z`));

const weekday = (day: string, lang: Lang) =>
  new Intl.DateTimeFormat(LOCALES[lang], { weekday: "short", timeZone: "UTC" }).format(new Date(`${day}T12:00:00Z`));

/** Rupiah short enough for a bar's label: 86.5K (en), 86,5 rb (id). */
const shortRupiah = (amount: number, lang: Lang) =>
  new Intl.NumberFormat(LOCALES[lang], { notation: "compact", maximumFractionDigits: 1 }).format(amount);

/** The recap as the admins read it (Telegram HTML), in one language. */
export function recapText(t: Translate, lang: Lang, r: RecapFigures, due: DueRecap): string {
  const rp = (n: number) => formatRupiah(n, lang);
  const lines = [t("recap-title", { date: longDay(r.day, lang) })];
  if (due.late !== undefined) lines.push(t("recap-late", { time: due.late.dueAt }));
  lines.push(
    "",
    t("recap-orders", {
      total: r.orders.total,
      success: r.orders.success,
      failed: r.orders.failed,
      unknown: r.orders.unknown,
      submitting: r.orders.submitting,
    }),
    t("recap-revenue", { selling: rp(r.selling) }),
    t("recap-margin", { margin: rp(r.margin) }),
  );
  if (r.unpriced.count > 0)
    lines.push(t("recap-unpriced", { count: r.unpriced.count, selling: rp(r.unpriced.selling) }));
  lines.push(
    t("recap-deposits", { amount: rp(r.deposits) }),
    t("recap-owed", { total: rp(r.owed.total), saldo: rp(r.owed.saldo), held: rp(r.owed.held) }),
  );
  const several = r.balances.length > 1;
  for (const b of r.balances) {
    const balance = b.balance === undefined ? t("recap-balance-unseen") : rp(b.balance.balance);
    lines.push(several ? t("recap-balance-at", { provider: b.provider, balance }) : t("recap-balance", { balance }));
  }
  lines.push(
    r.pending.count === 0
      ? t("recap-pending-none")
      : t("recap-pending", {
          count: r.pending.count,
          refs: r.pending.oldest.map((p) => p.refId).join(", "),
        }),
  );
  return lines.join("\n");
}

/** The recap's picture in one language: the day's figures and the week's bars. */
export function drawRecap(
  t: Translate,
  lang: Lang,
  r: RecapFigures,
  due: DueRecap,
  shopName?: string,
): Promise<Buffer> {
  const title = t("recap-picture-title");
  const bar = (day: string) => ({ label: weekday(day, lang), sublabel: String(Number(day.slice(8, 10))) });
  return recapPicture({
    title: shopName === undefined ? title : `${title} · ${shopName}`,
    subtitle: longDay(r.day, lang),
    badge: due.late === undefined ? undefined : t("recap-picture-late", { time: due.late.dueAt }),
    figures: [
      { label: t("recap-picture-sales"), value: formatNumber(r.orders.success, lang) },
      { label: t("recap-picture-revenue"), value: formatRupiah(r.selling, lang) },
      { label: t("recap-picture-margin"), value: formatRupiah(r.margin, lang) },
    ],
    charts: [
      {
        title: t("recap-picture-sales-chart"),
        bars: r.week.map((p) => ({ ...bar(p.day), value: p.sales, shown: formatNumber(p.sales, lang) })),
      },
      {
        title: t("recap-picture-margin-chart"),
        bars: r.week.map((p) => ({ ...bar(p.day), value: p.margin, shown: shortRupiah(p.margin, lang) })),
      },
    ],
  });
}

/** What the caption's length is counted on: the text as the reader sees it, tags and entities read. */
const plainLength = (html: string) =>
  Array.from(html.replace(/<[^>]+>/g, "").replace(/&(lt|gt|amp|quot);/g, "_")).length;

export interface RecapNoticeDeps {
  api: Api;
  texts: Texts;
  fanOut: AdminFanOut;
  /** The shop's name at the top of the picture (SHOP_NAME); absent: none. */
  shopName?: string | undefined;
}

/**
 * The evening recap to the admins (the admin room, or each admin), the way their other notices go:
 * one photo whose caption is the recap when it fits Telegram's 1024 characters, else the photo and
 * then the text. The picture is drawn once per language. When it is due and that it is sent once
 * is the schedule's (reports/recap-schedule.ts).
 */
export function createRecapNotice(deps: RecapNoticeDeps) {
  return async (figures: RecapFigures, due: DueRecap): Promise<void> => {
    const pictures = new Map<Lang, Promise<Buffer>>();
    await deps.fanOut.toAdmins("daily recap", async (to) => {
      const t = translator(deps.texts, to.lang);
      const text = recapText(t, to.lang, figures, due);
      let png = pictures.get(to.lang);
      if (png === undefined) pictures.set(to.lang, (png = drawRecap(t, to.lang, figures, due, deps.shopName)));
      const photo = new InputFile(await png, `recap-${figures.day}.png`);
      if (plainLength(text) <= CAPTION_MAX)
        return deps.api.sendPhoto(to.chatId, photo, { caption: text, parse_mode: "HTML", ...to.topic });
      await deps.api.sendPhoto(to.chatId, photo, to.topic);
      return deps.api.sendMessage(to.chatId, text, { parse_mode: "HTML", ...to.topic });
    });
  };
}
