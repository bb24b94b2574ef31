import { answerQuery } from "../answer.js";
import { isOurCallback } from "../callback-data.js";
import type { FeatureContext } from "../context.js";
import { defineFeature } from "../feature.js";

/** Whether the user has a summary open in this chat (a draft nobody confirmed or cancelled). */
async function hasOpenDraft(
  ctx: FeatureContext<"orders" | "reports">,
  chatId: number,
  userId: number,
): Promise<boolean> {
  const draftRef = await ctx.services.orders.openDraftOf(chatId, userId);
  return draftRef !== undefined && (await ctx.services.reports.orders.get(draftRef))?.state === "draft";
}

/** Last in the chain: whatever nothing else took gets an answer, never silence or a spinning button. */
export const fallbackFeature = defineFeature({
  name: "fallback",
  needs: ["orders", "reports"],
  setup(at) {
    const composer = at("fallback");
    composer.on("callback_query", async (ctx) => {
      const ours = isOurCallback(ctx.callbackQuery.data);
      await answerQuery(ctx, { text: ctx.tr(ours ? "order-menu-closed" : "callback-invalid"), show_alert: !ours });
    });

    // An edit of a message the bot already acted on changes nothing: say so, rather than nothing.
    composer.on("edited_message:text", async (ctx) => {
      const open = await hasOpenDraft(ctx, ctx.chat.id, ctx.from.id);
      await ctx.reply(ctx.tr(open ? "edit-not-read-draft" : "edit-not-read"), {
        reply_parameters: { message_id: ctx.editedMessage.message_id, allow_sending_without_reply: true },
      });
    });

    composer.on("message", async (ctx) => {
      if (ctx.message.text?.startsWith("/")) return void (await ctx.reply(ctx.tr("unknown-command")));
      if (ctx.chat.type !== "private") return;
      const open = await hasOpenDraft(ctx, ctx.chat.id, ctx.from.id);
      await ctx.reply(ctx.tr(open ? "order-open-draft" : "fallback"));
    });
  },
});
