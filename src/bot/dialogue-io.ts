import type { Api, Context } from "grammy";
import type { BotConversation, InnerContext } from "./context.js";

/** Text the user typed as an answer (not a command). */
export function typedText(ctx: Context): string | undefined {
  const text = ctx.message?.text;
  return text === undefined || text.startsWith("/") ? undefined : text;
}

/** Commands and buttons that are not for this dialogue go to their own handlers; the dialogue waits on. */
export async function passOn(conversation: BotConversation, ctx: Context): Promise<void> {
  if (ctx.callbackQuery !== undefined || ctx.message?.text?.startsWith("/") === true)
    await conversation.skip({ next: true });
}

/**
 * Bot API calls of a dialogue, each run once in `conversation.external` through the bot's own Api
 * (with its retries and parse mode), recording only the message id in the conversation's state.
 */
export function dialogueIo(conversation: BotConversation, ctx: InnerContext, api: Api) {
  const chatId = ctx.chat!.id;
  return {
    say: (text: string, other: Parameters<Api["sendMessage"]>[2] = {}) =>
      conversation.external(async () => (await api.sendMessage(chatId, text, other)).message_id),
    /** A message built from what is read now (the catalogue): built and sent once, never on replay. */
    sayBuilt: (build: () => Promise<{ text: string; other?: Parameters<Api["sendMessage"]>[2] }>) =>
      conversation.external(async () => {
        const { text, other } = await build();
        return (await api.sendMessage(chatId, text, other ?? {})).message_id;
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
