import type { Context } from "grammy";

/**
 * Answers a callback query, ignoring Telegram's refusal: a redelivered update (after a restart)
 * carries a query that was already answered or is too old, and that must not stop the handler
 * from telling the user what happened.
 */
export async function answerQuery(ctx: Context, options: { text?: string; show_alert?: boolean } = {}): Promise<void> {
  try {
    await ctx.answerCallbackQuery(options);
  } catch {
    // "query is too old and response timeout expired or query ID is invalid"
  }
}
