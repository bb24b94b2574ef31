import { Composer, InlineKeyboard, InputFile } from "grammy";
import type { Access } from "../../orders/access.js";
import type { OrderService } from "../../orders/order-service.js";
import { buildReport, dayIn, dayRange, reportCsv, type ReportLine } from "../../orders/report.js";
import { answerQuery } from "../answer.js";
import { encodeCallback, parseCallback } from "../callback-data.js";
import type { BotContext } from "../context.js";
import { languageOf } from "../i18n.js";
import { formatRupiah, safeTranslate } from "../text.js";

/** /report [YYYY-MM-DD] for admins: the day's sales from the ledger, and its orders as CSV. */
export function reportFeature(deps: { orders: OrderService; access: Access; timeZone: string; now?: () => Date }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const now = deps.now ?? (() => new Date());

  composer.command("report", async (ctx) => {
    const t = safeTranslate(ctx.t.bind(ctx));
    if (!deps.access.isAdmin(ctx.from!.id)) return void (await ctx.reply(t("admin-only"), { parse_mode: "HTML" }));
    const lang = languageOf(await ctx.i18n.getLocale());
    const day = ctx.match.trim() === "" ? dayIn(deps.timeZone, now()) : ctx.match.trim();
    const range = dayRange(day, deps.timeZone);
    if (range === undefined) return void (await ctx.reply(t("report-usage"), { parse_mode: "HTML" }));
    const orders = await deps.orders.submittedBetween(range.fromMs, range.toMs);
    const report = buildReport(orders);
    const title = t("report-title", { date: day, tz: deps.timeZone });
    if (report.total === 0) return void (await ctx.reply(`${title}\n${t("report-empty", { date: day })}`, { parse_mode: "HTML" }));
    const rp = (n: number) => formatRupiah(n, lang);
    const line = (l: ReportLine) =>
      t("report-line", { name: l.name, count: String(l.count), selling: rp(l.selling), provider: rp(l.provider), margin: rp(l.selling - l.provider) });
    const text = [
      title,
      t("report-counts", {
        total: String(report.total),
        success: String(report.byState.success),
        failed: String(report.byState.failed),
        unknown: String(report.byState.unknown),
        submitting: String(report.byState.submitting),
      }),
      t("report-totals", { selling: rp(report.selling), provider: rp(report.provider), margin: rp(report.selling - report.provider) }),
      ...(report.byProduct.length === 0 ? [] : ["", t("report-by-product"), ...report.byProduct.map(line)]),
      ...(report.byUser.length === 0 ? [] : ["", t("report-by-user"), ...report.byUser.map(line)]),
    ].join("\n");
    await ctx.reply(text, {
      parse_mode: "HTML",
      reply_markup: new InlineKeyboard().text(t("report-csv-button", { date: day }), encodeCallback({ type: "report-csv", day })),
    });
  });

  composer.on("callback_query:data", async (ctx, next) => {
    const data = parseCallback(ctx.callbackQuery.data);
    if (data?.type !== "report-csv") return next();
    const t = safeTranslate(ctx.t.bind(ctx));
    if (!deps.access.isAdmin(ctx.from.id)) return void (await answerQuery(ctx, { text: t("admin-only"), show_alert: true }));
    const range = dayRange(data.day, deps.timeZone);
    if (range === undefined) return void (await answerQuery(ctx, { text: t("callback-invalid") }));
    await answerQuery(ctx);
    const orders = (await deps.orders.submittedBetween(range.fromMs, range.toMs)).filter((o) => o.state !== "draft" && o.state !== "cancelled");
    const csv = reportCsv(orders, deps.timeZone);
    await ctx.replyWithDocument(new InputFile(Buffer.from(csv, "utf8"), `orders-${data.day}.csv`), {
      caption: t("report-csv-caption", { date: data.day, count: String(orders.length) }),
    });
  });
  return composer;
}
