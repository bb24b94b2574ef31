import type { Context, NextFunction } from "grammy";
import { answerQuery } from "./answer.js";
import type { BaseContext } from "./context.js";
import { escapeHtml } from "./format.js";

/** A group or supergroup (channels never reach the handlers that use this). */
export const isGroup = (ctx: Pick<Context, "chat">): boolean =>
  ctx.chat?.type === "group" || ctx.chat?.type === "supergroup";

/** `/order@other_bot …`: a command addressed to another bot in the chat. */
export function commandForOtherBot(text: string | undefined, botUsername: string): boolean {
  const m = /^\/[A-Za-z0-9_]+@([A-Za-z0-9_]+)/.exec(text ?? "");
  return m !== null && m[1]!.toLowerCase() !== botUsername.toLowerCase();
}

/** The message (new or edited) of an update. */
const messageOf = (ctx: Context) => ctx.message ?? ctx.editedMessage;

/**
 * Whether a group message is for the bot: a command (for it), a reply to one of its messages, or a
 * mention of it. Telegram's privacy mode (on by default) delivers only these; with it off the bot
 * gets all the chatter too, and treats the rest as if it had never seen it.
 */
export function addressedToBot(ctx: Context, bot: { id: number; username: string }): boolean {
  const message = messageOf(ctx);
  if (message === undefined) return true;
  const text = message.text ?? message.caption ?? "";
  if (text.startsWith("/")) return !commandForOtherBot(text, bot.username);
  // A reply to the bot's message (Telegram names its author; a reply whose author is not given
  // is taken too: it cannot be told apart, and dropping an answer is worse than reading chatter).
  const replied = message.reply_to_message;
  if (replied !== undefined && (replied.from === undefined || replied.from.id === bot.id)) return true;
  return text.toLowerCase().includes(`@${bot.username.toLowerCase()}`);
}

/**
 * First in the chain after sequentialize: commands for another bot are dropped everywhere; in
 * groups, so is every message not addressed to the bot (the chatter of a group with privacy mode
 * off), new or edited.
 */
export function groupFilter() {
  return async (ctx: BaseContext, next: NextFunction) => {
    const message = messageOf(ctx);
    if (message !== undefined) {
      const me = ctx.me;
      if (commandForOtherBot(message.text, me.username)) return;
      if (isGroup(ctx) && !addressedToBot(ctx, me)) return;
    }
    await next();
  };
}

/** The suffix of a button that only its owner may press: `g:1~12345`. */
const OWNER = /~([1-9][0-9]{0,15})$/;

/** The callback data of a button only `owner` may press (in a group; elsewhere unchanged). */
export function owned(data: string, owner: number | undefined): string {
  return owner === undefined ? data : `${data}~${owner}`;
}

/**
 * Buttons of a member's menu in a group carry their owner: another member's tap changes nothing
 * and is told so; the owner's tap goes on without the suffix, as in a private chat.
 */
export function ownedButtons() {
  return async (ctx: BaseContext, next: NextFunction) => {
    const query = ctx.callbackQuery;
    const m = query?.data === undefined ? null : OWNER.exec(query.data);
    if (query !== undefined && m !== null) {
      if (Number(m[1]) !== query.from.id) {
        await answerQuery(ctx, { text: ctx.tr("callback-not-your-menu"), show_alert: true });
        return;
      }
      query.data = query.data!.slice(0, m.index);
    }
    await next();
  };
}

/** The owner to put on a menu's buttons: the member, in a group; nobody in a private chat. */
export const menuOwner = (ctx: Pick<Context, "chat" | "from">): number | undefined =>
  isGroup(ctx) ? ctx.from?.id : undefined;

/** `<a href="tg://user?id=…">Name</a>`: names the member a group message is for. */
export function mention(user: { id: number; first_name: string }): string {
  return `<a href="tg://user?id=${user.id}">${escapeHtml(user.first_name)}</a>`;
}

/**
 * Commands whose answer shows the shop's money or a saldo (the features mark them: `money: true`)
 * answer only where nobody else reads along: a private chat or the admin chat. In any other group
 * the member is told to ask in a private chat; nothing is shown.
 */
export function moneyInPrivate(moneyCommands: ReadonlySet<string>, mayShowMoney: (ctx: BaseContext) => boolean) {
  return async (ctx: BaseContext, next: NextFunction) => {
    const command = /^\/([A-Za-z0-9_]+)/.exec(ctx.message?.text ?? "")?.[1]?.toLowerCase();
    if (command === undefined || !moneyCommands.has(command) || mayShowMoney(ctx)) return next();
    await ctx.reply(ctx.tr("private-only", { command, bot: ctx.me.username }), {
      reply_parameters: { message_id: ctx.message!.message_id, allow_sending_without_reply: true },
    });
  };
}
