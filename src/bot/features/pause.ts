import { adminOnly } from "../admin.js";
import { defineFeature } from "../feature.js";
import { formatTime } from "../format.js";
import { nameBefore } from "../people.js";

/** /pause [REASON] and /resume for admins: nobody starts or confirms an order meanwhile; survives a restart. */
export const pauseFeature = defineFeature({
  name: "pause",
  needs: ["shop", "place", "clock", "people"],
  commands: [
    { name: "pause", menu: ["admin"], help: [{ key: "help-pause", for: ["admin"] }] },
    { name: "resume", menu: ["admin"] },
  ],
  setup(at) {
    const composer = at("buyers");
    composer.command("pause", adminOnly, async (ctx) => {
      const t = ctx.tr;
      const reason = ctx.match.trim();
      if (reason.length > 200) return void (await ctx.reply(t("pause-reason-too-long")));
      // /pause alone while paused shows the pause and changes nothing: the reason users are told stays.
      const current = reason === "" ? (await ctx.services.shop.state()).pause : undefined;
      if (current !== undefined) {
        const by = (await ctx.services.people.get([current.by])).get(current.by);
        return void (await ctx.reply(
          t("pause-still", {
            reason: current.reason === "" ? t("pause-no-reason") : current.reason,
            time: formatTime(current.at, ctx.lang, ctx.services.place.timeZone),
            by: String(current.by),
            byName: nameBefore(by),
          }),
        ));
      }
      const before = await ctx.services.shop.pause({
        reason,
        by: ctx.from!.id,
        at: ctx.services.clock().toISOString(),
      });
      await ctx.reply(
        t(before === undefined ? "pause-done" : "pause-changed", {
          reason: reason === "" ? t("pause-no-reason") : reason,
        }),
      );
    });

    composer.command("resume", adminOnly, async (ctx) => {
      const t = ctx.tr;
      const ended = await ctx.services.shop.resume();
      if (ended === undefined) return void (await ctx.reply(t("resume-not-paused")));
      const by = (await ctx.services.people.get([ended.by])).get(ended.by);
      await ctx.reply(
        t("resume-done", {
          time: formatTime(ended.at, ctx.lang, ctx.services.place.timeZone),
          by: String(ended.by),
          byName: nameBefore(by),
        }),
      );
    });
  },
});
