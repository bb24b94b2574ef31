/**
 * The Mini App's interface under /app/api/, as the page sees it: what each call answers. The page
 * (src/web/) imports these types and nothing else of the bot. Money is whole rupiah; times are ISO
 * strings; days are `YYYY-MM-DD` in the shop's time zone.
 */
import type { MoneyLine } from "../../reports/figures.js";
import type { TodayReport } from "../../reports/reports.js";
import type { ResellerList, StatementPage } from "../../reports/resellers.js";
import type { StatementLine } from "../../orders/statement.js";

/** Who opened the page: an admin or a reseller (anyone else gets 403 from every call). */
export interface Session {
  userId: number;
  firstName: string;
  role: "admin" | "reseller";
  /** A reseller's price tier. */
  tier?: string;
  /** The language of the chat: their /language choice, else Telegram's. */
  lang: "en" | "id";
  shopName: string;
  timeZone: string;
  /** Today in the shop's time zone. */
  today: string;
}

export type { OrderCounts } from "../../reports/figures.js";

export type { DayPoint } from "../../reports/figures.js";

/** A product's (or a buyer's) sales with their margin. */
export type FigureLine = MoneyLine;

/** GET /app/api/admin/today */
export type Today = TodayReport;

/** A product as the catalogue file holds it. */
export interface CatalogProduct {
  code: string;
  name: string;
  price?: number;
  prices?: Record<string, number>;
  disabled?: boolean;
}

export interface CatalogGame {
  name: string;
  destination?: { pattern: string; example: string };
  products: CatalogProduct[];
}

export interface CatalogFile {
  games: CatalogGame[];
}

/** GET /app/api/admin/catalog: the catalogue in use and which version it is (to edit against). */
export interface CatalogView {
  /** 0: the file CATALOG_FILE; N: the Nth edit in the chat or the page. */
  version: number;
  editedBy?: number;
  editedAt?: string;
  catalog: CatalogFile;
  tiers: string[];
}

/** A change a new catalogue makes (catalog/diff.ts). */
export type CatalogChange =
  | { kind: "added"; code: string; name: string; game: string; price: number | undefined }
  | { kind: "removed"; code: string; name: string; game: string }
  | { kind: "price"; code: string; tier?: string; from: number | undefined; to: number | undefined }
  | { kind: "renamed"; code: string; from: string; to: string }
  | { kind: "moved"; code: string; from: string; to: string }
  | { kind: "disabled"; code: string }
  | { kind: "enabled"; code: string }
  | { kind: "player-id-rule"; game: string };

/**
 * Why a new price needs a second look (shop/price-check.ts): it is below what the provider charged
 * last time (every sale loses `loss`), or far from the price it replaces (a typo?).
 */
export type PriceWarning =
  { kind: "below-cost"; providerPrice: number; loss: number } | { kind: "far"; from: number; percent: number };

/** A warning for one price change of the diff: the selling price (no `tier`) or a tier's price. */
export type CatalogWarning = PriceWarning & { code: string; tier?: string };

/** POST /app/api/admin/catalog/check: the changes it would make (422: the issues; 409: changed meanwhile). */
export interface CatalogCheck {
  changes: CatalogChange[];
  /** The price changes that need a second look before Confirm. */
  warnings: CatalogWarning[];
}

/** POST /app/api/admin/catalog/apply */
export interface CatalogApplied {
  outcome: "applied" | "already";
  view: CatalogView;
}

/** An answer that refuses a request: a code for the page, the fields at fault, and what to show instead. */
export interface ApiError {
  error:
    | "unauthorized"
    | "forbidden"
    | "not-found"
    | "invalid"
    | "stale"
    | "not-pending"
    | "taken"
    | "short"
    | "not-reseller"
    | "internal";
  /**
   * `invalid`: each bad field (or catalogue path) and what is wrong with it; for a catalogue, also
   * where a person finds it (`Mobile Legends › ML86`).
   */
  issues?: Array<{ path: string; message: string; where?: string }>;
  /** `stale`: the catalogue as it is now. */
  current?: CatalogView;
}

/** An order as the page shows it (no provider trx id or balance for a reseller). */
export interface OrderView {
  refId: string;
  state: "draft" | "cancelled" | "submitting" | "success" | "failed" | "unknown";
  createdAt: string;
  submittedAt?: string;
  finishedAt?: string;
  gameName: string;
  productCode: string;
  productName: string;
  playerId: string;
  playerName?: string;
  sn?: string;
  price: number | null;
  /** For admins: who ordered, and the provider's side. */
  userId?: number;
  userName?: string;
  role?: "admin" | "staff" | "reseller";
  trxId?: string;
  providerPrice?: number;
  /** Why it failed or is unknown, as the provider said or as the bot saw it. */
  reason?: string;
  errorCode?: string;
  errorMessage?: string;
  settledBy?: number;
}

/** A page of orders. */
export interface OrderPage {
  orders: OrderView[];
  page: number;
  hasMore: boolean;
}

/** POST /app/api/admin/pending/:refId/settle */
export interface Settled {
  order: OrderView;
}

/** A statement line as people read it (one line per order; `amount` signed, `saldo` after it). */
export type Movement = StatementLine;

export type { ResellerRow } from "../../reports/resellers.js";

/** GET /app/api/admin/resellers */
export type Resellers = ResellerList;

/** GET /app/api/admin/resellers/:id and GET /app/api/reseller/statement: a statement a page at a time. */
export type Statement = StatementPage;

/** A deposit or correction prepared for Confirm. */
export interface DepositView {
  id: string;
  resellerId: number;
  amount: number;
  note: string;
  state: "draft" | "done" | "cancelled";
  saldoBefore: number;
  saldoAfter: number;
}

/** POST /app/api/admin/deposits/:id/confirm (409 `taken` when it was credited or cancelled before). */
export interface DepositDone {
  deposit: DepositView;
  saldo: number;
}

/** GET /app/api/reseller/prices */
export interface PriceList {
  tier: string;
  games: Array<{ name: string; products: Array<{ code: string; name: string; price: number }> }>;
}

/** GET /app/api/reseller/wallet */
export interface WalletView {
  saldo: number;
  held: number;
  tier: string;
}
