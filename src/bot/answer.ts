import type { Context } from "grammy";
import type { Logger } from "../logger.js";

/**
 * Answers a callback query. Telegram refuses an answer to a query that was already answered or
 * is too old (a redelivered update after a restart); that must not stop the handler from telling
 * the user what happened, so the refusal is logged at debug level and the handler goes on.
 */
export async function answerQuery(
  ctx: Context & { log?: Logger },
  options: { text?: string; show_alert?: boolean } = {},
): Promise<void> {
  try {
    await ctx.answerCallbackQuery(options);
  } catch (err) {
    ctx.log?.debug({ err }, "callback query not answered");
  }
}
