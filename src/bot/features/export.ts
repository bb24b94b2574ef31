import { InputFile } from "grammy";
import { exportMonth } from "../../orders/export.js";
import { adminOnly } from "../admin.js";
import { defineFeature } from "../feature.js";

/**
 * /export YYYY-MM for admins: a month's orders as one CSV document (gzipped when large), old
 * months included (compacted orders are read like any other), made a day at a time as it uploads.
 */
export const exportFeature = defineFeature({
  name: "export",
  needs: ["orders", "place"],
  commands: [{ name: "export", menu: ["admin"], money: true, help: [{ key: "help-export", for: ["admin"] }] }],
  setup(at) {
    at("buyers").command("export", adminOnly, async (ctx) => {
      const t = ctx.tr;
      const { orders, place } = ctx.services;
      const month = ctx.match.trim();
      const found = await exportMonth({ orders, timeZone: place.timeZone }, month);
      switch (found.kind) {
        case "bad-month":
          return void (await ctx.reply(t("export-usage")));
        case "empty":
          return void (await ctx.reply(t("export-empty", { month: found.month })));
        case "too-many":
          return void (await ctx.reply(t("export-too-many", { month: found.month, count: String(found.count) })));
        case "file":
          await ctx.replyWithChatAction("upload_document").catch(() => undefined);
          await ctx.replyWithDocument(new InputFile(found.content, found.filename), {
            caption: t(found.gzip ? "export-caption-gzip" : "export-caption", {
              month: found.month,
              count: String(found.count),
              tz: place.timeZone,
            }),
          });
      }
    });
  },
});
