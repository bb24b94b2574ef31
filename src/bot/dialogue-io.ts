import type { Api, Context } from "grammy";
import type { BotConversation, InnerContext } from "./context.js";
import { topicOf } from "./chats.js";
import { isGroup, mention } from "./groups.js";

/**
 * Text the user typed as an answer (not a command): a new message, or an edit of one (a user who
 * corrects a typo expects the correction to count). A leading @mention of the bot is dropped.
 */
export function typedText(ctx: Context): string | undefined {
  const text = (ctx.message ?? ctx.editedMessage)?.text;
  if (text === undefined || text.startsWith("/")) return undefined;
  const me = `@${ctx.me.username}`.toLowerCase();
  return text.trimStart().toLowerCase().startsWith(me) ? text.trimStart().slice(me.length) : text;
}

/** The id of the user's message in this update (new or edited), to reply to. */
export const messageIdOf = (ctx: Context): number | undefined => (ctx.message ?? ctx.editedMessage)?.message_id;

/** Commands and buttons that are not for this dialogue go to their own handlers; the dialogue waits on. */
export async function passOn(conversation: BotConversation, ctx: Context): Promise<void> {
  if (ctx.callbackQuery !== undefined || (ctx.message ?? ctx.editedMessage)?.text?.startsWith("/") === true)
    await conversation.skip({ next: true });
}

/**
 * Bot API calls of a dialogue, each run once in `conversation.external` through the bot's own Api
 * (with its retries and parse mode), recording only the message id in the conversation's state.
 *
 * Why not the usual way (`ctx.reply` outside `external`, which the plugin also replays once): the
 * plugin then records the whole answer of each call, a Message object with the chat, the sender,
 * the text and the keyboard, in the dialogue's state, which is kept per member per chat for a day.
 * Measured on a chat waiting at the player-id question (a menu sent, then edited into the
 * question): 1.7 kB of JSON and 728 B of Redis (MEMORY USAGE, deflated) this way, 2.4 kB and 856 B
 * with both answers recorded whole. Replay safety is the same both ways: a call is made once and
 * its result replayed; a crash between the call and the state's save repeats a question either
 * way, never an order (orders are claimed in the ledger, outside the dialogue). The bot's Api is
 * used because the dialogue's own context Api records every call it makes.
 */
export function dialogueIo(conversation: BotConversation, ctx: InnerContext) {
  const api = ctx.services.telegram;
  const chatId = ctx.chat!.id;
  // In a forum, the dialogue's messages stay in the topic it started in (ctx.reply does that itself).
  const topic = topicOf(ctx);
  const group = isGroup(ctx);
  const who = ctx.from === undefined ? "" : `${mention(ctx.from)}\n`;
  /** In a group: names the member and replies to their message, so the chat sees whose it is. */
  const inGroup = (text: string, replyTo: number | undefined) =>
    group
      ? {
          text: `${who}${text}`,
          other:
            replyTo === undefined
              ? {}
              : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } },
        }
      : { text, other: {} };
  return {
    /**
     * A question the user answers by typing. In a group: to that member, as a reply to their
     * message, with a selective force_reply, so the answer reaches the bot with privacy mode on.
     */
    ask: (text: string, replyTo?: number) =>
      conversation.external(async () => {
        const shaped = inGroup(text, replyTo);
        const force = group ? { reply_markup: { force_reply: true as const, selective: true } } : {};
        return (await api.sendMessage(chatId, shaped.text, { ...topic, ...shaped.other, ...force })).message_id;
      }),
    /** A menu of buttons; in a group it names the member and replies to their message. */
    menu: (build: () => Promise<{ text: string; other: Parameters<Api["sendMessage"]>[2] }>, replyTo?: number) =>
      conversation.external(async () => {
        const { text, other } = await build();
        const shaped = inGroup(text, replyTo);
        return (await api.sendMessage(chatId, shaped.text, { ...topic, ...other, ...shaped.other })).message_id;
      }),
    /** True in a group: a menu cannot turn into a force_reply question there. */
    group,
    say: (text: string, other: Parameters<Api["sendMessage"]>[2] = {}) =>
      conversation.external(async () => (await api.sendMessage(chatId, text, { ...topic, ...other })).message_id),
    /** Sends at once, outside `external`: for a step that is inside one already. The message id. */
    send: async (text: string, other: Parameters<Api["sendMessage"]>[2] = {}) =>
      (await api.sendMessage(chatId, text, { ...topic, ...other })).message_id,
    /** A message built from what is read now (the catalogue): built and sent once, never on replay. */
    sayBuilt: (build: () => Promise<{ text: string; other?: Parameters<Api["sendMessage"]>[2] }>) =>
      conversation.external(async () => {
        const { text, other } = await build();
        return (await api.sendMessage(chatId, text, { ...topic, ...other })).message_id;
      }),
    edit: (messageId: number, text: string, other: Parameters<Api["editMessageText"]>[3] = {}) =>
      conversation.external(async () => {
        // "message is not modified" after a double tap, or a menu deleted by the user: harmless.
        await api
          .editMessageText(chatId, messageId, text, other)
          .catch((err: unknown) => ctx.log.debug({ err }, "dialogue message not edited"));
      }),
    answer: (queryId: string, text?: string) =>
      conversation.external(async () => {
        await api
          .answerCallbackQuery(queryId, text === undefined ? {} : { text })
          .catch((err: unknown) => ctx.log.debug({ err }, "callback query not answered"));
      }),
  };
}
