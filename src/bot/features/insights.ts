import { InlineKeyboard } from "grammy";
import { isDay, type PeriodKind } from "../../calendar.js";
import type { HoursReport, MonthCompare, TopReport } from "../../reports/questions.js";
import { adminOnly } from "../admin.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback, type CallbackKind } from "../callback-data.js";
import type { FeatureContext } from "../context.js";
import { defineFeature } from "../feature.js";
import { formatMonth, formatNumber, formatRupiah } from "../format.js";
import { providerLine } from "../report-lines.js";

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

/** A period's title under a heading (`top`, `hours`): "… of 2026-03-12", "… of the week …", "… of March 2026". */
function periodTitle(ctx: Ctx, heading: "top" | "hours", period: TopReport["period"]): string {
  const { kind, from, to } = period;
  if (kind === "day") return ctx.tr(`${heading}-title-day`, { date: from });
  if (kind === "week") return ctx.tr(`${heading}-title-week`, { from, to });
  return ctx.tr(`${heading}-title-month`, { month: formatMonth(from.slice(0, 7), ctx.lang) });
}

type PeriodCallback = CallbackKind<{ kind: PeriodKind; day: string }>;

/** Buttons to switch between day, week and month, and to page to the period before and after. */
function periodKeyboard(ctx: Ctx, callback: PeriodCallback, report: Pick<TopReport, "period" | "before" | "after">) {
  const t = ctx.tr;
  const day = report.period.from;
  const keyboard = new InlineKeyboard();
  for (const kind of ["day", "week", "month"] as const) {
    const label = t(`top-button-${kind}`);
    keyboard.text(kind === report.period.kind ? `· ${label} ·` : label, callback.encode({ kind, day }));
  }
  keyboard.row().text(t("top-button-before"), callback.encode({ kind: report.period.kind, day: report.before }));
  if (report.after !== undefined)
    keyboard.text(t("top-button-after"), callback.encode({ kind: report.period.kind, day: report.after }));
  return keyboard;
}

/** The top lists as text, and buttons to switch between day, week and month and to page through them. */
function renderTop(ctx: Ctx, top: TopReport) {
  const t = ctx.tr;
  const rp = (n: number) => formatRupiah(n, ctx.lang);
  const { totals } = top;
  const lines = [periodTitle(ctx, "top", top.period)];
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
    // Only with several providers: each one's orders, cost and margin over the period.
    if (top.providers.length > 0) {
      const same = (text: string) => text;
      lines.push("", t("report-by-provider"), ...top.providers.map((l) => providerLine(t, l, rp, same)));
    }
  }
  return { text: lines.join("\n"), keyboard: periodKeyboard(ctx, Callback.top, top) };
}

/** The widest bar of the hours chart, in blocks. */
const BAR = 12;

const hourName = (hour: number) => `${String(hour).padStart(2, "0")}:00`;

/**
 * When orders came, as text: the busiest hours, what they cost at the provider, and a bar per
 * hour from the first hour with orders to the last.
 */
function renderHours(ctx: Ctx, report: HoursReport) {
  const t = ctx.tr;
  const rp = (n: number) => formatRupiah(n, ctx.lang);
  const lines = [periodTitle(ctx, "hours", report.period)];
  const sent = report.hours.reduce((sum, h) => sum + h.count, 0);
  if (sent === 0) lines.push(t("hours-none"));
  else {
    lines.push(t("hours-totals", { count: sent }), "", t("hours-busiest"));
    for (const h of report.busiest)
      lines.push(
        t("hours-busy-line", {
          from: hourName(h.hour),
          to: hourName((h.hour + 1) % 24),
          count: h.count,
          provider: rp(h.provider),
        }),
      );
    lines.push("", t("hours-advice", { hour: hourName(report.busiest[0]!.hour) }));
    const used = report.hours.filter((h) => h.count > 0);
    const most = Math.max(...used.map((h) => h.count));
    const chart = report.hours
      .slice(used[0]!.hour, used.at(-1)!.hour + 1)
      .map((h) =>
        `${String(h.hour).padStart(2, "0")} ${"▇".repeat(Math.ceil((h.count / most) * BAR))} ${h.count || ""}`.trimEnd(),
      );
    lines.push("", `<pre>${chart.join("\n")}</pre>`);
  }
  return { text: lines.join("\n"), keyboard: periodKeyboard(ctx, Callback.hours, report) };
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
 * week or a month (buttons switch and page through them, in the same message); /hours, the hours
 * of the day when orders come, so the owner knows when to keep the provider deposit full; and
 * /compare, this month so far against the same days of last month. The reports room adds them up from the
 * figures kept per day; this only renders them.
 */
export const insightsFeature = defineFeature({
  name: "insights",
  needs: ["reports"],
  commands: [
    { name: "top", menu: ["admin"], money: true, help: [{ key: "help-insights", for: ["admin"] }] },
    { name: "compare", menu: ["admin"], money: true },
    { name: "hours", menu: ["admin"], money: true },
  ],
  setup(at) {
    const composer = at("buyers");
    // /top and /hours: a period asked by name, then switched and paged with buttons in the same message.
    const periodQuestion = (
      command: "top" | "hours",
      callback: PeriodCallback,
      answer: (ctx: Ctx, kind: PeriodKind, day?: string) => Promise<{ text: string; keyboard: InlineKeyboard }>,
    ) => {
      composer.command(command, adminOnly, async (ctx) => {
        const kind = PERIOD_WORDS.get(ctx.match.trim().toLowerCase().replace(/\s+/g, " "));
        if (kind === undefined) return void (await ctx.reply(ctx.tr(`${command}-usage`)));
        const { text, keyboard } = await answer(ctx, kind);
        await ctx.reply(text, { reply_markup: keyboard });
      });
      onCallback(
        composer,
        callback,
        async (ctx, asked) => {
          if (!isDay(asked.day)) return answerQuery(ctx, { text: ctx.tr("callback-invalid") });
          await answerQuery(ctx);
          const { text, keyboard } = await answer(ctx, asked.kind, asked.day);
          // "message is not modified" after a double tap is harmless.
          await ctx
            .editMessageText(text, { reply_markup: keyboard })
            .catch((err: unknown) => ctx.log.debug({ err }, `${command} not edited`));
        },
        adminOnly,
      );
    };
    periodQuestion("top", Callback.top, async (ctx, kind, day) =>
      renderTop(ctx, await ctx.services.reports.questions.top(kind, day)),
    );
    periodQuestion("hours", Callback.hours, async (ctx, kind, day) =>
      renderHours(ctx, await ctx.services.reports.questions.hours(kind, day)),
    );

    composer.command("compare", adminOnly, async (ctx) => {
      await ctx.reply(renderCompare(ctx, await ctx.services.reports.questions.compareMonth()));
    });
  },
});
