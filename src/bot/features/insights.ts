import { InlineKeyboard } from "grammy";
import { isDay, type PeriodKind } from "../../calendar.js";
import type { MonthCompare, TopReport } from "../../reports/questions.js";
import { adminOnly } from "../admin.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { FeatureContext } from "../context.js";
import { defineFeature } from "../feature.js";
import { formatMonth, formatNumber, formatRupiah } from "../format.js";

/** The period `/top …` asks for, by name in either language (nothing: this month). */
const PERIOD_WORDS = new Map<string, PeriodKind>([
  ["", "month"],
  ["today", "day"],
  ["day", "day"],
  ["hari ini", "day"],
  ["hari", "day"],
  ["week", "week"],
  ["this week", "week"],
  ["minggu", "week"],
  ["minggu ini", "week"],
  ["month", "month"],
  ["this month", "month"],
  ["bulan", "month"],
  ["bulan ini", "month"],
]);

type Ctx = FeatureContext<"reports">;

function topTitle(ctx: Ctx, top: TopReport): string {
  const { kind, from, to } = top.period;
  if (kind === "day") return ctx.tr("top-title-day", { date: from });
  if (kind === "week") return ctx.tr("top-title-week", { from, to });
  return ctx.tr("top-title-month", { month: formatMonth(from.slice(0, 7), ctx.lang) });
}

/** The top lists as text, and buttons to switch between day, week and month and to page through them. */
function renderTop(ctx: Ctx, top: TopReport) {
  const t = ctx.tr;
  const rp = (n: number) => formatRupiah(n, ctx.lang);
  const { totals } = top;
  const lines = [topTitle(ctx, top)];
  if (totals.orders.success === 0) lines.push(t("top-none"));
  else {
    lines.push(
      t("top-totals", { count: totals.orders.success, selling: rp(totals.selling), margin: rp(totals.margin) }),
    );
    if (totals.unpriced.count > 0)
      lines.push(t("top-unpriced", { count: totals.unpriced.count, selling: rp(totals.unpriced.selling) }));
    lines.push("", t("top-products"));
    top.products.forEach((p, i) =>
      lines.push(
        t("top-product-line", {
          rank: String(i + 1),
          name: p.name,
          count: formatNumber(p.count, ctx.lang),
          selling: rp(p.selling),
          margin: rp(p.margin),
        }),
      ),
    );
    lines.push("", t("top-resellers"));
    if (top.resellers.length === 0) lines.push(t("top-no-resellers"));
    top.resellers.forEach((r, i) =>
      lines.push(
        t("top-reseller-line", {
          rank: String(i + 1),
          name: r.name === String(r.userId) ? "" : `${r.name} · `,
          userId: String(r.userId),
          count: formatNumber(r.count, ctx.lang),
          sales: rp(r.sales),
          profit: rp(r.profit),
        }),
      ),
    );
  }
  const day = top.period.from;
  const keyboard = new InlineKeyboard();
  for (const kind of ["day", "week", "month"] as const) {
    const label = t(`top-button-${kind}`);
    keyboard.text(kind === top.period.kind ? `· ${label} ·` : label, Callback.top.encode({ kind, day }));
  }
  keyboard.row().text(t("top-button-before"), Callback.top.encode({ kind: top.period.kind, day: top.before }));
  if (top.after !== undefined)
    keyboard.text(t("top-button-after"), Callback.top.encode({ kind: top.period.kind, day: top.after }));
  return { text: lines.join("\n"), keyboard };
}

function renderCompare(ctx: Ctx, compare: MonthCompare): string {
  const t = ctx.tr;
  const rp = (n: number) => formatRupiah(n, ctx.lang);
  const change = (percent: number | null) =>
    percent === null
      ? t("compare-none")
      : percent > 0
        ? t("compare-up", { percent: formatNumber(percent, ctx.lang) })
        : percent < 0
          ? t("compare-down", { percent: formatNumber(-percent, ctx.lang) })
          : t("compare-same");
  const { now, before } = compare;
  const lines = [
    t("compare-title", {
      month: formatMonth(now.from.slice(0, 7), ctx.lang),
      before: formatMonth(before.from.slice(0, 7), ctx.lang),
      days: String(now.days),
    }),
    t("compare-sales", {
      now: formatNumber(now.orders.success, ctx.lang),
      before: formatNumber(before.orders.success, ctx.lang),
      change: change(compare.change.sales),
    }),
    t("compare-selling", { now: rp(now.selling), before: rp(before.selling), change: change(compare.change.selling) }),
    t("compare-margin", { now: rp(now.margin), before: rp(before.margin), change: change(compare.change.margin) }),
  ];
  if (now.unpriced.count + before.unpriced.count > 0) lines.push(t("compare-unpriced"));
  return lines.join("\n");
}

/**
 * The owner's questions in the chat: /top, the best-selling products and resellers of a day, a
 * week or a month (buttons switch and page through them, in the same message), and /compare, this
 * month so far against the same days of last month. The reports room adds them up from the
 * figures kept per day; this only renders them.
 */
export const insightsFeature = defineFeature({
  name: "insights",
  needs: ["reports"],
  commands: [
    { name: "top", menu: ["admin"], money: true, help: [{ key: "help-insights", for: ["admin"] }] },
    { name: "compare", menu: ["admin"], money: true },
  ],
  setup(at) {
    const composer = at("buyers");
    composer.command("top", adminOnly, async (ctx) => {
      const kind = PERIOD_WORDS.get(ctx.match.trim().toLowerCase().replace(/\s+/g, " "));
      if (kind === undefined) return void (await ctx.reply(ctx.tr("top-usage")));
      const { text, keyboard } = renderTop(ctx, await ctx.services.reports.questions.top(kind));
      await ctx.reply(text, { reply_markup: keyboard });
    });

    onCallback(
      composer,
      Callback.top,
      async (ctx, asked) => {
        if (!isDay(asked.day)) return answerQuery(ctx, { text: ctx.tr("callback-invalid") });
        await answerQuery(ctx);
        const { text, keyboard } = renderTop(ctx, await ctx.services.reports.questions.top(asked.kind, asked.day));
        // "message is not modified" after a double tap is harmless.
        await ctx
          .editMessageText(text, { reply_markup: keyboard })
          .catch((err: unknown) => ctx.log.debug({ err }, "top not edited"));
      },
      adminOnly,
    );

    composer.command("compare", adminOnly, async (ctx) => {
      await ctx.reply(renderCompare(ctx, await ctx.services.reports.questions.compareMonth()));
    });
  },
});
