import { InlineKeyboard, InputFile } from "grammy";
import { dayIn, dayRange, marginOf, reportCsv, type ReportLine } from "../../orders/report.js";
import { adminOnly } from "../admin.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import { defineFeature } from "../feature.js";
import { formatRupiah } from "../format.js";

/** /report [YYYY-MM-DD] for admins: the day's sales from the ledger, and its orders as CSV. */
export const reportFeature = defineFeature({
  name: "report",
  needs: ["orders", "place", "clock"],
  commands: [{ name: "report", menu: ["admin"], money: true, help: [{ key: "help-report", for: ["admin"] }] }],
  setup(at) {
    const composer = at("buyers");
    composer.command("report", adminOnly, async (ctx) => {
      const t = ctx.tr;
      const { orders, place, clock } = ctx.services;
      const day = ctx.match.trim() === "" ? dayIn(place.timeZone, clock()) : ctx.match.trim();
      if (dayRange(day, place.timeZone) === undefined) return void (await ctx.reply(t("report-usage")));
      // The day's figures as the ledger keeps them: no order is read, however many there were.
      const report = await orders.dayFigures(day);
      const title = t("report-title", { date: day, tz: place.timeZone });
      if (report.total === 0 && report.byReseller.length === 0)
        return void (await ctx.reply(`${title}\n${t("report-empty", { date: day })}`));
      const rp = (n: number) => formatRupiah(n, ctx.lang);
      // A sale whose provider price nobody knows is shown apart and left out of the margin.
      const line = (l: ReportLine) =>
        t(l.unpriced === 0 ? "report-line" : "report-line-unpriced", {
          name: l.name,
          count: String(l.count),
          selling: rp(l.selling - l.unpriced),
          provider: rp(l.provider),
          margin: rp(marginOf(l)),
          unpriced: rp(l.unpriced),
        });
      const text = [
        title,
        t("report-counts", {
          total: String(report.total),
          success: String(report.byState.success),
          failed: String(report.byState.failed),
          unknown: String(report.byState.unknown),
          submitting: String(report.byState.submitting),
        }),
        t("report-totals", {
          selling: rp(report.selling),
          provider: rp(report.provider),
          margin: rp(marginOf(report)),
        }),
        ...(report.unpricedCount === 0
          ? []
          : [t("report-unpriced", { count: report.unpricedCount, selling: rp(report.unpriced) })]),
        ...(report.byProduct.length === 0 ? [] : ["", t("report-by-product"), ...report.byProduct.map(line)]),
        ...(report.byUser.length === 0 ? [] : ["", t("report-by-user"), ...report.byUser.map(line)]),
        ...(report.byReseller.length === 0
          ? []
          : [
              "",
              t("report-by-reseller"),
              ...report.byReseller.map((r) =>
                t("report-reseller-line", {
                  name: `${r.name} (${r.userId})`,
                  tier: r.tier === "" ? "–" : r.tier,
                  count: String(r.count),
                  sales: rp(r.sales),
                  profit: rp(marginOf({ selling: r.sales, provider: r.provider, unpriced: r.unpriced })),
                  deposits: rp(r.deposits),
                }),
              ),
            ]),
      ].join("\n");
      await ctx.reply(text, {
        reply_markup: new InlineKeyboard().text(t("report-csv-button", { date: day }), Callback.reportCsv.encode(day)),
      });
    });

    onCallback(
      composer,
      Callback.reportCsv,
      async (ctx, day) => {
        const { timeZone } = ctx.services.place;
        const range = dayRange(day, timeZone);
        if (range === undefined) return answerQuery(ctx, { text: ctx.tr("callback-invalid") });
        await answerQuery(ctx);
        const orders = (await ctx.services.orders.submittedBetween(range.fromMs, range.toMs)).filter(
          (o) => o.state !== "draft" && o.state !== "cancelled",
        );
        await ctx.replyWithDocument(
          new InputFile(Buffer.from(reportCsv(orders, timeZone), "utf8"), `orders-${day}.csv`),
          {
            caption: ctx.tr("report-csv-caption", { date: day, count: String(orders.length) }),
          },
        );
      },
      adminOnly,
    );
  },
});
