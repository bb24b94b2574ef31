import { dayIn, dayPlus, dayRange } from "../../calendar.js";
import { InlineKeyboard, InputFile } from "grammy";
import type { MoneyLine } from "../../reports/figures.js";
import { adminOnly } from "../admin.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { FeatureContext } from "../context.js";
import { defineFeature } from "../feature.js";
import { formatRupiah } from "../format.js";
import { providerLine } from "../report-lines.js";

/** Days asked for by name (any case), as days from today. */
const DAY_WORDS = new Map([
  ["today", 0],
  ["hari ini", 0],
  ["yesterday", -1],
  ["kemarin", -1],
]);

/** The day `/report …` asks for (`YYYY-MM-DD`, `yesterday`, `kemarin`, `today`, `hari ini`, or nothing: today). */
function dayAsked(asked: string, today: string, timeZone: string): string | undefined {
  const words = asked.trim().toLowerCase().replace(/\s+/g, " ");
  if (words === "") return today;
  const shift = DAY_WORDS.get(words);
  if (shift !== undefined) return dayPlus(today, shift);
  return dayRange(words, timeZone) === undefined ? undefined : words;
}

/**
 * A day's report and its buttons: ◀ the day before and ▶ the day after (none past today), and the
 * day's CSV when it has orders.
 */
async function renderReport(ctx: FeatureContext<"reports" | "place">, day: string, today: string) {
  const t = ctx.tr;
  const { reports, place } = ctx.services;
  const days = (keyboard: InlineKeyboard) => {
    const before = dayPlus(day, -1);
    const after = dayPlus(day, 1);
    if (dayRange(before, place.timeZone) !== undefined)
      keyboard.text(t("report-day-before", { date: before }), Callback.reportDay.encode(before));
    if (after <= today) keyboard.text(t("report-day-after", { date: after }), Callback.reportDay.encode(after));
    return keyboard;
  };
  // The day's figures as the ledger keeps them: no order is read, however many there were.
  const report = (await reports.day(day))!;
  const title = t("report-title", { date: day, tz: place.timeZone });
  const q = report.requests;
  const requestsLine =
    q.asked.count + q.approved.count + q.rejected.count + q.expired.count === 0
      ? []
      : [
          "",
          t("report-requests", {
            asked: String(q.asked.count),
            askedAmount: formatRupiah(q.asked.amount, ctx.lang),
            approved: String(q.approved.count),
            approvedAmount: formatRupiah(q.approved.amount, ctx.lang),
            rejected: String(q.rejected.count),
            expired: String(q.expired.count),
          }),
        ];
  if (report.orders.total === 0 && report.byReseller.length === 0 && requestsLine.length === 0)
    return { text: `${title}\n${t("report-empty", { date: day })}`, keyboard: days(new InlineKeyboard()) };
  const rp = (n: number) => formatRupiah(n, ctx.lang);
  // A sale whose provider price nobody knows is shown apart and left out of the margin.
  // A line sold below its provider price (a negative margin) is marked as a loss.
  const loss = (text: string, margin: number) => (margin < 0 ? t("report-loss", { line: text }) : text);
  const line = (l: MoneyLine) =>
    loss(
      t(
        l.unpriced === 0
          ? "report-line"
          : l.unpriced === l.selling
            ? "report-line-all-unpriced"
            : "report-line-unpriced",
        {
          name: l.name,
          count: String(l.count),
          selling: rp(l.selling - l.unpriced),
          provider: rp(l.provider),
          margin: rp(l.margin),
          unpriced: rp(l.unpriced),
        },
      ),
      l.margin,
    );
  const text = [
    title,
    t("report-counts", {
      total: String(report.orders.total),
      success: String(report.orders.success),
      failed: String(report.orders.failed),
      unknown: String(report.orders.unknown),
      submitting: String(report.orders.submitting),
    }),
    loss(
      t("report-totals", {
        selling: rp(report.selling),
        provider: rp(report.provider),
        margin: rp(report.margin),
      }),
      report.margin,
    ),
    ...(report.unpriced.count === 0
      ? []
      : [t("report-unpriced", { count: report.unpriced.count, selling: rp(report.unpriced.selling) })]),
    // The H2H API's part only on a day a reseller's system ordered through it.
    ...(report.api.orders === 0
      ? []
      : [t("report-api", { sold: report.api.sold, revenue: rp(report.api.revenue), failed: report.api.failed })]),
    // Only with several providers: each one's orders, cost and margin (a one-provider shop has none).
    ...(report.byProvider.length === 0
      ? []
      : ["", t("report-by-provider"), ...report.byProvider.map((l) => providerLine(t, l, rp, loss))]),
    ...(report.byProduct.length === 0 ? [] : ["", t("report-by-product"), ...report.byProduct.map(line)]),
    ...(report.byUser.length === 0 ? [] : ["", t("report-by-user"), ...report.byUser.map(line)]),
    ...(report.byReseller.length === 0
      ? []
      : [
          "",
          t("report-by-reseller"),
          ...report.byReseller.map((r) =>
            loss(
              t("report-reseller-line", {
                name: `${r.name} (${r.userId})`,
                tier: r.tier === "" ? "–" : r.tier,
                count: String(r.count),
                sales: rp(r.sales),
                profit: rp(r.profit),
                deposits: rp(r.deposits),
              }),
              r.profit,
            ),
          ),
        ]),
    ...requestsLine,
  ].join("\n");
  const csv = new InlineKeyboard()
    .text(t("report-csv-button", { date: day }), Callback.reportCsv.encode(day))
    .text(t("report-xlsx-button"), Callback.reportXlsx.encode(day))
    .row();
  return { text, keyboard: days(csv) };
}

/**
 * /report for admins: a day's sales from the ledger (today; `yesterday` or `kemarin`; or a date),
 * ◀ ▶ to the day before and after in the same message, and the day's orders as CSV or Excel.
 */
export const reportFeature = defineFeature({
  name: "report",
  needs: ["reports", "place", "clock"],
  commands: [{ name: "report", menu: ["admin"], money: true, help: [{ key: "help-report", for: ["admin"] }] }],
  setup(at) {
    const composer = at("buyers");
    composer.command("report", adminOnly, async (ctx) => {
      const { place, clock } = ctx.services;
      const today = dayIn(place.timeZone, clock());
      const day = dayAsked(ctx.match, today, place.timeZone);
      if (day === undefined) return void (await ctx.reply(ctx.tr("report-usage")));
      const { text, keyboard } = await renderReport(ctx, day, today);
      await ctx.reply(text, { reply_markup: keyboard });
    });

    onCallback(
      composer,
      Callback.reportDay,
      async (ctx, day) => {
        const { place, clock } = ctx.services;
        const today = dayIn(place.timeZone, clock());
        // No report of a day to come (a button made before midnight still goes up to today).
        if (day > today || dayRange(day, place.timeZone) === undefined)
          return answerQuery(ctx, { text: ctx.tr("callback-invalid") });
        await answerQuery(ctx);
        const { text, keyboard } = await renderReport(ctx, day, today);
        // "message is not modified" after a double tap is harmless.
        await ctx
          .editMessageText(text, { reply_markup: keyboard })
          .catch((err: unknown) => ctx.log.debug({ err }, "report not edited"));
      },
      adminOnly,
    );

    // The day's orders as a file: CSV, or an Excel workbook.
    for (const [kind, make] of [
      [Callback.reportCsv, "csv"],
      [Callback.reportXlsx, "xlsx"],
    ] as const) {
      onCallback(
        composer,
        kind,
        async (ctx, day) => {
          if (dayRange(day, ctx.services.place.timeZone) === undefined)
            return answerQuery(ctx, { text: ctx.tr("callback-invalid") });
          const { reports } = ctx.services;
          // The tap is answered (its spinner stops) while the file is made.
          const [file] = await Promise.all([
            make === "csv"
              ? reports.dayCsv(day).then((f) => f && { bytes: f.csv, count: f.count })
              : reports.dayXlsx(day).then((f) => f && { bytes: f.xlsx, count: f.count }),
            answerQuery(ctx),
          ]);
          if (file === undefined) return;
          await ctx.replyWithDocument(new InputFile(file.bytes, `orders-${day}.${make}`), {
            caption: ctx.tr("report-csv-caption", { date: day, count: String(file.count) }),
          });
        },
        adminOnly,
      );
    }
  },
});
