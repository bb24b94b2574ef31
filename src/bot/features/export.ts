import { dayIn, monthBefore } from "../../calendar.js";
import { InlineKeyboard, InputFile } from "grammy";
import { adminOnly } from "../admin.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { FeatureContext } from "../context.js";
import { defineFeature } from "../feature.js";

/** `/export last month`, `/export bulan lalu` (and the words run together): the month before this one. */
const LAST_MONTH = /^(?:last\s*month|lastmonth|last|bulan\s*lalu)$/;

/** `/export xlsx …`, `/export excel …`: the same month as an Excel workbook. */
const XLSX_WORD = /^(?:xlsx|excel)\b\s*/;

/**
 * A month's orders as a CSV document (or, `xlsx`, an Excel workbook), or why there is none;
 * `offer`: a month to put a button for under the answer (the month before, after a plain /export).
 * Under a CSV, a button sends the same month as a workbook.
 */
async function sendMonth(
  ctx: FeatureContext<"reports" | "place">,
  month: string,
  offer?: string,
  xlsx = false,
): Promise<void> {
  const t = ctx.tr;
  const { reports, place } = ctx.services;
  const keyboard = new InlineKeyboard();
  if (!xlsx && /^[0-9]{4}-[0-9]{2}$/.test(month))
    keyboard.text(t("export-xlsx-button", { month }), Callback.exportXlsx.encode(month)).row();
  if (offer !== undefined)
    keyboard.text(t("export-month-button", { month: offer }), Callback.exportMonth.encode(offer));
  const other = keyboard.inline_keyboard.flat().length === 0 ? {} : { reply_markup: keyboard };
  const [found, deposits] = await Promise.all([
    xlsx ? reports.monthXlsx(month) : reports.monthExport(month),
    // The deposits go with the CSV; a workbook asked for after it does not repeat them.
    xlsx ? Promise.resolve({ kind: "empty" as const, month }) : reports.monthDeposits(month),
  ]);
  // The month's deposits go beside its orders: who was credited, for which request, approved by whom.
  const sendDeposits = async () => {
    if (deposits.kind !== "file") return;
    await ctx.replyWithDocument(new InputFile(deposits.content, deposits.filename), {
      caption: t("export-deposits-caption", {
        month: deposits.month,
        count: String(deposits.count),
        tz: place.timeZone,
      }),
    });
  };
  switch (found.kind) {
    case "bad-month":
      return void (await ctx.reply(t("export-usage")));
    case "empty":
      await ctx.reply(t("export-empty", { month: found.month }), other);
      return sendDeposits();
    case "too-many":
      return void (await ctx.reply(
        t(xlsx ? "export-xlsx-too-many" : "export-too-many", { month: found.month, count: String(found.count) }),
        other,
      ));
    case "file":
      // Only the "sending a file" hint: the file goes without it.
      await ctx.replyWithChatAction("upload_document").catch(() => undefined);
      await ctx.replyWithDocument(new InputFile(found.content, found.filename), {
        caption: t(found.gzip ? "export-caption-gzip" : "export-caption", {
          month: found.month,
          count: String(found.count),
          tz: place.timeZone,
        }),
        ...other,
      });
      return sendDeposits();
  }
}

/**
 * /export for admins: this month's orders (in the shop's time zone) as one CSV document with a
 * button for the same month as an Excel workbook and one for last month's; /export YYYY-MM (or
 * `last month`, `bulan lalu`) for another month; `/export xlsx [month]` the workbook at once. Old
 * months included (compacted orders are read like any other); gzipped when large, made a day at a
 * time as it uploads.
 */
export const exportFeature = defineFeature({
  name: "export",
  needs: ["reports", "place", "clock"],
  commands: [{ name: "export", menu: ["admin"], money: true, help: [{ key: "help-export", for: ["admin"] }] }],
  setup(at) {
    const composer = at("buyers");
    composer.command("export", adminOnly, async (ctx) => {
      const { place, clock } = ctx.services;
      const typed = ctx.match.trim().toLowerCase();
      const xlsx = XLSX_WORD.test(typed);
      const asked = typed.replace(XLSX_WORD, "");
      const thisMonth = dayIn(place.timeZone, clock()).slice(0, 7);
      if (asked === "") return sendMonth(ctx, thisMonth, monthBefore(thisMonth), xlsx);
      await sendMonth(ctx, LAST_MONTH.test(asked) ? monthBefore(thisMonth) : asked, undefined, xlsx);
    });

    onCallback(
      composer,
      Callback.exportXlsx,
      async (ctx, month) => {
        await answerQuery(ctx);
        await sendMonth(ctx, month, undefined, true);
      },
      adminOnly,
    );

    onCallback(
      composer,
      Callback.exportMonth,
      async (ctx, month) => {
        await answerQuery(ctx);
        await sendMonth(ctx, month);
      },
      adminOnly,
    );
  },
});
