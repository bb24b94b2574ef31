import type { Conversation, ConversationFlavor } from "@grammyjs/conversations";
import type { Context } from "grammy";
import type { Buyer } from "../catalog/catalog.js";
import type { Logger } from "../logger.js";
import type { Lang } from "../orders/order.js";
import type { Translate } from "./i18n.js";

/** Set for every update by the texts middleware, inside conversations too. */
export interface TextsFlavor {
  /** The logger, with this update's id. */
  log: Logger;
  /** The language to answer this user in. */
  lang: Lang;
  /** Translate in that language, variables escaped for HTML. */
  tr: Translate;
}

/**
 * Set for every update by the access middleware: the user's role (and a reseller's price tier),
 * undefined for someone who may not order.
 */
export interface BuyerFlavor {
  buyer: Buyer | undefined;
}

/** The context inside conversations: fresh objects, with the texts installed again via `plugins`. */
export type InnerContext = Context & TextsFlavor & BuyerFlavor;

/** The one context type of the outside middleware tree. */
export type BotContext = ConversationFlavor<Context & TextsFlavor & BuyerFlavor>;

export type BotConversation = Conversation<BotContext, InnerContext>;
