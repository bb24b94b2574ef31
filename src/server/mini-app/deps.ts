import type { Access } from "../../access/access.js";
import type { ApiKeys } from "../../access/api-keys.js";
import type { IssuedKey, PartnerStore } from "../../access/partners.js";
import type { People, Person } from "../../access/people.js";
import type { Deliveries } from "../../partners/deliveries.js";
import type { Logger } from "../../logger.js";
import type { DepositRequests } from "../../deposits/request-service.js";
import type { Deposits } from "../../deposits/admin-deposits.js";
import type { PayInfoStore } from "../../shop/pay-info.js";
import type { OrderService } from "../../orders/order-service.js";
import type { OrderRecord } from "../../orders/order.js";
import type { Wallets } from "../../orders/wallet.js";
import type { Reports } from "../../reports/reports.js";
import type { Shop } from "../../shop/shop.js";

/** What the Mini App's routes use: the chat's own services, so the page and the chat always agree. */
export interface MiniAppDeps {
  botToken: string;
  orders: OrderService;
  /** Every figure and list the pages show, as the chat shows them. */
  reports: Reports;
  shop: Shop;
  /** The configured providers (TOPUP_PROVIDERS) in order: the names a catalogue's routes may use. Default: main alone. */
  providerNames?: readonly string[];
  access: Access;
  /** People's names as last seen in the chat. */
  people: People;
  wallets: Wallets;
  deposits: Deposits;
  /** Resellers' deposit requests and the payment instructions they are shown. */
  depositRequests: DepositRequests;
  payInfo: PayInfoStore;
  /** Resellers with API access (the H2H API): their keys and callbacks. */
  partners: PartnerStore;
  /** H2H_ENABLED: whether the shop's API answers (keys can be made before it does; the page says so). */
  h2hEnabled: boolean;
  /**
   * A new key, sent by the bot to the admin's own private chat with `protect_content`, in the chat's
   * own /apikey message: the page never gets it.
   */
  sendApiKey: (
    adminId: number,
    lang: "en" | "id",
    key: IssuedKey,
    reseller: { userId: number; person?: Person | undefined },
  ) => Promise<void>;
  /** An admin's changes to a reseller's API access, as `/apikey` makes them: a key once per request. */
  apiKeys: ApiKeys;
  /** Each partner's last callback attempts (the H2H API's callbacks). */
  deliveries: Pick<Deliveries, "last">;
  /** Owes an order's callback to its partner again, now (the Resellers page's "Send again"). */
  sendCallbackAgain: (shopRefId: string) => Promise<void>;
  /** A file a user sent, fetched by the server (its URL holds the bot token), at most `maxBytes`. */
  downloadFile: (fileId: string, maxBytes: number) => Promise<Buffer>;
  /**
   * A proof uploaded in the page, sent to the reseller's own chat (Telegram keeps it, as a proof
   * sent in the chat): the file's ids.
   */
  sendProof: (
    chatId: number,
    file: { bytes: Buffer; kind: "photo" | "document"; filename: string; caption: string },
  ) => Promise<{ fileId: string; fileUniqueId: string }>;
  /** The reader's language: their /language choice, else Telegram's. */
  languageOf: (userId: number, telegramCode: string | undefined) => Promise<"en" | "id">;
  timeZone: string;
  /** Today in the shop's time zone. */
  today: () => string;
  /** SHOP_NAME, else the bot's name. */
  shopName: () => string;
  /** A successful order's receipt as the chat's Receipt button sends it: a PNG, in `lang`. */
  receiptPng: (order: OrderRecord, lang: "en" | "id") => Promise<Buffer>;
  logger: Logger;
  webDir?: string;
  localesDir?: string;
}
