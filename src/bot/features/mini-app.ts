import { InlineKeyboard } from "grammy";
import { isPrivate } from "../chats.js";
import { defineFeature } from "../feature.js";

/**
 * /app for admins and resellers: a button that opens the shop's Mini App in
 * the chat, when WEBAPP_URL is set. Telegram opens such a button only in a private chat; in a group
 * the member is sent there. Admins also get it as the chat's menu button (command-menus.ts).
 */
export const miniAppFeature = defineFeature({
  name: "mini app",
  needs: ["miniApp"],
  availableWith: (config) => config.webApp !== undefined,
  commands: [
    {
      name: "app",
      menu: ["reseller", "admin"],
      help: [
        { key: "help-app", for: ["admin"] },
        { key: "help-app-reseller", for: ["reseller"] },
      ],
    },
  ],
  setup(at) {
    at("buyers").command("app", async (ctx) => {
      const t = ctx.tr;
      const miniApp = ctx.services.miniApp;
      const role = ctx.buyer?.role;
      if (miniApp === undefined || (role !== "admin" && role !== "reseller"))
        return void (await ctx.reply(t("app-not-for-you")));
      if (!isPrivate(ctx)) return void (await ctx.reply(t("app-private-only", { bot: ctx.me.username })));
      await ctx.reply(t(role === "admin" ? "app-open-admin" : "app-open-reseller"), {
        reply_markup: new InlineKeyboard().webApp(t("app-button"), miniApp.url),
      });
    });
  },
});
