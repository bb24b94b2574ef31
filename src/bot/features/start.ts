import { commandListText } from "../command-list.js";
import { defineFeature } from "../feature.js";
import { pausedText } from "../order/gate.js";

/** /start answers anyone: a greeting and what this user may do; a refused user learns their id. */
export const startFeature = defineFeature({
  name: "start",
  needs: ["shop", "prefs", "menus", "deposits"],
  commands: [{ name: "start", menu: ["everyone"] }],
  setup(at) {
    at("anyone").command("start", async (ctx) => {
      const { shop, prefs, menus } = ctx.services;
      const userId = ctx.from?.id ?? 0;
      const greeting = ctx.tr("start-greeting", { name: ctx.from?.first_name ?? "" });
      let menu = ctx.tr("access-refused", { userId: String(userId) });
      if (ctx.buyer !== undefined) {
        const state = await shop.state();
        // While orders are paused, the menu says so too.
        const paused = state.pause === undefined ? "" : `\n\n${pausedText(ctx.tr, state.pause)}`;
        menu = `${commandListText(ctx, menus, state)}${paused}`;
      }
      // Remember the Telegram language: messages sent to this user later (an admin's notices) use it.
      if (ctx.from !== undefined) await prefs.sawTelegramLanguage(ctx.from.id, ctx.from.language_code);
      await ctx.reply(`${greeting}\n\n${menu}`);
      // An admin or a reseller who opens the bot for the first time gets their menu and the shop
      // app's button now; a reseller also hears of deposits credited before they ever wrote.
      if (ctx.chat?.type === "private" && ctx.buyer?.role === "admin") await menus.admin(ctx.chat.id);
      if (ctx.chat?.type === "private" && ctx.buyer?.role === "reseller") {
        await menus.reseller(ctx.chat.id);
        await ctx.services.deposits.tellUntoldOf(ctx.chat.id);
      }
    });
  },
});
