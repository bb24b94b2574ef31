import type { Conversation, ConversationFlavor } from "@grammyjs/conversations";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { Context, LazySessionFlavor } from "grammy";
import type { Lang } from "../orders/order.js";

/** Per-user preferences kept in storage: the chosen language, and the Telegram one last seen. */
export interface SessionData {
  language?: Lang;
  telegramLanguage?: Lang;
}

/** The context inside conversations: fresh objects, with i18n installed again via `plugins`. */
export type InnerContext = Context & I18nFlavor;

/** The one context type of the outside middleware tree. */
export type BotContext = ConversationFlavor<Context & I18nFlavor & LazySessionFlavor<SessionData>>;

export type OrderConversation = Conversation<BotContext, InnerContext>;
