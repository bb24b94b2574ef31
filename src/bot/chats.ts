import type { Context } from "grammy";

/** ADMIN_CHAT_ID parsed: a group or supergroup, and the topic of a forum when one was given. */
export interface AdminChat {
  chatId: number;
  threadId?: number;
}

type ChatOf = Pick<Context, "chat">;

/** A private chat with the bot (one user, nobody else reads along). */
export const isPrivate = (ctx: ChatOf): boolean => ctx.chat?.type === "private";

/**
 * The update comes from the chat of ADMIN_CHAT_ID (any of its topics): the chat id matches. Who
 * may do what there is still decided by the sender's role (`isAdmin`), never by the chat.
 */
export const isAdminChat = (ctx: ChatOf, adminChat: AdminChat | undefined): boolean =>
  adminChat !== undefined && ctx.chat !== undefined && ctx.chat.id === adminChat.chatId;

/** Which chats may see what: one object built from ADMIN_CHAT_ID, handed to the features. */
export interface ChatPolicy {
  readonly adminChat: AdminChat | undefined;
  isPrivate(ctx: ChatOf): boolean;
  isAdminChat(ctx: ChatOf): boolean;
  /**
   * The shop's money (provider balance, saldo, reports) may be shown here: a private chat, or the
   * admin chat. Not in an ordinary group, where every member reads along.
   */
  mayShowShopMoney(ctx: ChatOf): boolean;
}

export function chatPolicy(adminChat: AdminChat | undefined): ChatPolicy {
  return {
    adminChat,
    isPrivate,
    isAdminChat: (ctx) => isAdminChat(ctx, adminChat),
    mayShowShopMoney: (ctx) => isPrivate(ctx) || isAdminChat(ctx, adminChat),
  };
}

/** The `message_thread_id` to send to the admin chat with (its topic), or nothing. */
export const adminChatTopic = (adminChat: AdminChat): { message_thread_id?: number } =>
  adminChat.threadId === undefined ? {} : { message_thread_id: adminChat.threadId };

/**
 * For messages sent with the Api rather than `ctx.reply` (dialogues): the topic of the forum the
 * update came from, so the answer stays in it. `ctx.reply` does this by itself (grammY 1.x).
 */
export function topicOf(ctx: Pick<Context, "msg">): { message_thread_id?: number } {
  const msg = ctx.msg;
  return msg?.is_topic_message === true && msg.message_thread_id !== undefined
    ? { message_thread_id: msg.message_thread_id }
    : {};
}
