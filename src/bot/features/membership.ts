import { defineFeature } from "../feature.js";

/**
 * The bot removed from a group (`my_chat_member`: left or kicked): the summaries shown there are
 * cancelled (nobody can confirm them any more) and the members' dialogues are dropped, so nothing
 * of that chat is left behind. For anyone: whoever removed the bot may be anyone.
 */
export const membershipFeature = defineFeature({
  name: "membership",
  needs: ["orders", "chatState"],
  setup(at) {
    at("anyone").on("my_chat_member", async (ctx) => {
      const status = ctx.myChatMember.new_chat_member.status;
      if (ctx.chat.type === "private" || (status !== "left" && status !== "kicked")) return;
      const chatId = ctx.chat.id;
      const drafts = await ctx.services.orders.cancelAllIn(chatId);
      const dialogues = await ctx.services.chatState.forget(chatId);
      ctx.log.info({ chatId, status, dialogues, drafts }, "removed from a group; its state dropped");
    });
  },
});
