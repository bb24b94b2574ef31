import type { Conversation, ConversationFlavor } from "@grammyjs/conversations";
import type { Context } from "grammy";
import type { Buyer } from "../catalog/catalog.js";
import type { Logger } from "../logger.js";
import type { Lang } from "../orders/order.js";
import type { Translate } from "./i18n.js";
import type { ServiceName, ServicesFlavor } from "./services.js";

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

/** The context without the services: what helpers that work on any update may rely on. */
export type BaseContext = ConversationFlavor<Context & TextsFlavor & BuyerFlavor>;

/** The one context type of the middleware tree: every service in `ctx.services`. */
export type BotContext = BaseContext & ServicesFlavor;

/** A feature's context: the services it declared, and nothing else. */
export type FeatureContext<N extends ServiceName> = BaseContext & ServicesFlavor<N>;

/** The context inside conversations: fresh objects, with texts, buyer and services installed again via `plugins`. */
export type InnerContext = Context & TextsFlavor & BuyerFlavor & ServicesFlavor;

/** A dialogue, as the conversations plugin runs it (outside: any context of the chain; inside: InnerContext). */
export type BotConversation = Conversation<BaseContext, InnerContext>;
