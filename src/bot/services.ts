import type { Api } from "grammy";
import type { Update } from "grammy/types";
import type { Access, Role } from "../access/access.js";
import type { ApiKeys } from "../access/api-keys.js";
import type { PartnerStore } from "../access/partners.js";
import type { People } from "../access/people.js";
import type { Audience } from "../broadcast/audience.js";
import type { BroadcastStore } from "../broadcast/broadcast-store.js";
import type { DepositRequests } from "../deposits/request-service.js";
import type { Deposits } from "../deposits/admin-deposits.js";
import type { PayInfoStore } from "../shop/pay-info.js";
import type { OrderService } from "../orders/order-service.js";
import type { Wallets } from "../orders/wallet.js";
import type { Reports } from "../reports/reports.js";
import type { Shop } from "../shop/shop.js";
import type { CatalogUploads, PriceChanges } from "../shop/uploads.js";
import type { Origins } from "../storage/origins.js";
import type { ChatPolicy } from "./chats.js";
import type { H2hSettings } from "./api-key-notice.js";
import type { Texts } from "./i18n.js";
import type { PendingMessages } from "./notices/pending-messages.js";
import type { UserPrefs } from "./user-prefs.js";

/**
 * Everything the bot's handlers work with, built once by app/services.ts and handed to every update as
 * `ctx.services` (one middleware, first in the chain). A feature names the services it needs
 * (`defineFeature({ needs: [...] })`) and its handlers see only those. The rules live in the
 * services; the handlers ask them and render the answer.
 */
export interface Services {
  /** Orders with their rules: open or paused, for sale, price, Confirm once, settle once, told once. */
  orders: OrderService;
  /** What the owner reads: every figure and list of the back office, computed once for every screen. */
  reports: Reports;
  /** The catalogue in use, its edits, the pause. */
  shop: Shop;
  /** Roles, tiers and the allow list. */
  access: Access;
  /** Each user's name and @username as last seen: people are named, not only numbered. */
  people: People;
  /** Resellers' saldos and statements. */
  wallets: Wallets;
  /** Deposits and corrections, credited once. */
  deposits: Deposits;
  /** Resellers' requests to deposit by transfer: a unique amount, a proof, decided once. */
  depositRequests: DepositRequests;
  /** The shop's payment instructions for deposits. */
  payInfo: PayInfoStore;
  /** Resellers with API access (the H2H API): their keys and callbacks. */
  partners: PartnerStore;
  /** An admin's changes to a reseller's API access: a key made once per request, off, the callback. */
  apiKeys: ApiKeys;
  /** Catalogue documents waiting for Confirm. */
  uploads: CatalogUploads;
  /** Price changes that need a second look, waiting for Confirm. */
  priceChanges: PriceChanges;
  /** The /pending messages that show each unknown order (their buttons go once it is settled). */
  pendingMessages: PendingMessages;
  /** What each update (or Mini App request) made for a later Confirm, and whether its message went out. */
  origins: Origins;
  /** Broadcasts: drafts and their state, who has started the bot, the sending. */
  broadcasts: { store: BroadcastStore; audience: Audience; start: (id: string) => void };
  /** Each user's language. */
  prefs: UserPrefs;
  texts: Texts;
  /** The command menus (derived from the features). */
  menus: CommandMenus;
  /** Downloads a file a user sent, at most `maxBytes` (TooLargeError beyond). */
  download: (fileId: string, maxBytes: number) => Promise<string>;
  /** Which chats may see what (ADMIN_CHAT_ID). */
  chats: ChatPolicy;
  /** Per-chat state kept outside the ledger (the members' open dialogues). */
  chatState: { forget(chatId: number): Promise<number> };
  /** The bot's own Api (retries, parse mode): for dialogues, which must not record whole messages. */
  telegram: Api;
  /** The shop as its customers and staff see it: its time zone (TZ) and name on receipts (SHOP_NAME). */
  place: { timeZone: string; shopName: string | undefined };
  /** The configured providers (TOPUP_PROVIDERS) in order: the names a catalogue's routes may use. Default: main alone. */
  providerNames?: readonly string[];
  /** The Mini App's page (WEBAPP_URL), when there is one. */
  miniApp: { url: string } | undefined;
  /** The shop's API for resellers (H2H_ENABLED, the address it is served at), as /apikey tells an admin about it. */
  h2h: H2hSettings;
  clock: () => Date;
  /**
   * Whether this update is handled again because its handling was cut short: its process died in
   * the middle (the update stream hands it to another process, or to the restart), or it failed.
   */
  handledAgain: (update: Update) => boolean;
}

export type ServiceName = keyof Services;

/** The command menus Telegram shows, and the command list of /start and /help (command-menus.ts). */
export interface CommandMenus {
  /** Everyone's menu; each admin's and reseller's own (in their private chat, and the admin chat). */
  setAll(people: {
    admins: readonly number[];
    resellers: readonly number[];
    adminChat?: number | undefined;
  }): Promise<void>;
  /**
   * A reseller's private chat gets their menu and the shop app's menu button (at once when they
   * become one, and at their /start: Telegram refuses both for a chat that was never opened).
   */
  reseller(userId: number): Promise<void>;
  /**
   * An admin's private chat gets the admin menu and the Mini App's menu button (at their /start:
   * Telegram refuses both for a chat that was never opened, as at a start before it).
   */
  admin(userId: number): Promise<void>;
  /** The locale keys of the command list a reader of this role sees (`undefined`: may not order). */
  helpLines(role: Role | undefined): { everyone: string[]; admin: string[] };
}

/** `ctx.services`: the services a feature declared it needs (all of them, outside features). */
export interface ServicesFlavor<N extends ServiceName = ServiceName> {
  services: Pick<Services, N>;
}

/** The one middleware that hands the services to every update (and to every replayed dialogue step). */
export function provideServices(services: Services) {
  return (ctx: Partial<ServicesFlavor>, next: () => Promise<void>): Promise<void> => {
    ctx.services = services;
    return next();
  };
}
