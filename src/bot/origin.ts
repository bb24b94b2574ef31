import type { Context } from "grammy";
import type { Logger } from "../logger.js";
import type { Origins } from "../storage/origins.js";

/**
 * The name of what this update is, for storage/origins.ts: the same for every handling of one
 * update, different for every other update. A message is named by its chat and message id (a
 * chat's message ids never repeat), an edit of it by the edit's time as well (an edit is a new
 * request), a button tap by the callback query's id (Telegram's, unique). `update_id` is not used:
 * Telegram may number updates from the start again after a week without any.
 */
export function originOf(ctx: Context): string | undefined {
  const message = ctx.message ?? ctx.editedMessage;
  if (message !== undefined) {
    const edit = ctx.editedMessage?.edit_date;
    return `m:${message.chat.id}:${message.message_id}${edit === undefined ? "" : `:${edit}`}`;
  }
  if (ctx.callbackQuery !== undefined) return `q:${ctx.callbackQuery.id}`;
  return undefined;
}

/**
 * Sends what an update made for a later Confirm (a summary, a preview) unless an earlier handling
 * of the same update already did (`shownAs`), and records it as shown. A failed record is only
 * logged: the user has the message, and a later handling would at worst send it once more, with
 * the same id on it.
 */
export async function showOnce(
  ctx: { services: { origins: Origins }; log: Logger },
  made: { origin: string | undefined; shownAs?: number | undefined },
  send: () => Promise<number>,
): Promise<void> {
  if (made.shownAs !== undefined) return;
  const messageId = await send();
  if (made.origin === undefined) return;
  await ctx.services.origins
    .shown(made.origin, messageId)
    .catch((err: unknown) => ctx.log.warn({ err, origin: made.origin }, "summary sent, not recorded as shown"));
}
