import type { Partner } from "../../access/partners.js";
import { tiersOf, toCatalogJson } from "../../catalog/catalog.js";
import {
  currentAttempt,
  paidFromSaldo,
  providerPriceOf,
  showsProviders,
  viaApi,
  type OrderRecord,
} from "../../orders/order.js";
import type { Delivery } from "../../partners/deliveries.js";
import type { ShopState } from "../../shop/shop.js";
import type { Deposit } from "../../orders/wallet.js";

/**
 * What the Mini App's routes answer, as the page reads it: money is whole rupiah, times are ISO
 * strings, days are `YYYY-MM-DD` in the shop's time zone. The page takes these types from here (and
 * the rest from the routes through Hono's client), never a copy of its own.
 */

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

/** A product as the catalogue file holds it. */
export interface CatalogProduct {
  code: string;
  name: string;
  price?: number;
  prices?: Record<string, number>;
  disabled?: boolean;
  /** The providers it is sold through, in order, each under its own code (absent: every provider, under `code`). */
  routes?: Array<{ provider: string; code: string }>;
}

/** A game of the catalogue file, with the rule its player ids follow. */
export interface CatalogGame {
  name: string;
  destination?: { pattern: string; example: string };
  products: CatalogProduct[];
}

/** The catalogue as its file holds it: what the page edits. */
export interface CatalogFile {
  games: CatalogGame[];
}

/** The catalogue in use and which version it is (to edit against). */
export interface CatalogView {
  /** 0: the file CATALOG_FILE; N: the Nth edit in the chat or the page. */
  version: number;
  editedBy?: number;
  editedAt?: string;
  catalog: CatalogFile;
  tiers: string[];
  /** The configured providers (TOPUP_PROVIDERS), in order: what a route may name. */
  providers: string[];
  /** The codes (upper case) of products whose every route rests now: temporarily unavailable (absent: none). */
  resting?: string[];
}

/** An order as the page shows it (no provider trx id or balance for a reseller). */
export interface OrderView {
  refId: string;
  /** An H2H order's own ref_id at the partner (what their system asks about). */
  partnerRef?: string;
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
  /** A reseller's failed order: the price that went back to their saldo (what they are told instead of the provider's reason). */
  returned?: number;
  settledBy?: number;
  /** Ordered by a reseller's own system through the H2H API, not in a chat or this app. */
  viaApi?: true;
  /**
   * For admins, when the order names its providers (a shop with several): the provider that
   * fulfilled it (or holds it, or refused it last) and the ref id that provider knows it by.
   */
  provider?: { name: string; refId: string };
  /** For admins: the providers that refused it before, oldest first, each with its ref id and error code. */
  refusedBy?: Array<{ provider: string; refId: string; errorCode?: string }>;
}

/** A deposit or correction prepared for Confirm, with the saldo before and after it. */
export interface DepositView {
  id: string;
  resellerId: number;
  amount: number;
  note: string;
  state: "draft" | "done" | "cancelled";
  saldoBefore: number;
  saldoAfter: number;
}

/** A deposit for the page, given the reseller's saldo before it. */
export const depositView = (d: Deposit, saldoBefore: number): DepositView => ({
  id: d.id,
  resellerId: d.resellerId,
  amount: d.amount,
  note: d.note,
  state: d.state,
  saldoBefore,
  saldoAfter: d.saldoAfter ?? saldoBefore + d.amount,
});

/**
 * An order for the page: the provider's side (trx id, its price, the providers it went to when the
 * shop has several or the order names them) and who ordered only for an admin.
 */
export function orderView(o: OrderRecord, forAdmin: boolean, severalProviders = false): OrderView {
  const r = o.result ?? {};
  const view: OrderView = {
    refId: o.refId,
    state: o.state,
    createdAt: o.createdAt,
    gameName: o.gameName,
    productCode: o.productCode,
    productName: o.productName,
    playerId: o.playerId,
    price: o.price,
  };
  if (o.submittedAt !== undefined) view.submittedAt = o.submittedAt;
  if (viaApi(o)) view.viaApi = true;
  if (o.finishedAt !== undefined || o.settledAt !== undefined) view.finishedAt = o.settledAt ?? o.finishedAt!;
  if (r.destinationName !== undefined) view.playerName = r.destinationName;
  if (o.state === "success" && r.sn !== undefined) view.sn = r.sn;
  if (o.state === "failed" && !forAdmin && paidFromSaldo(o)) {
    // The shop's word: it failed and the price came back. The provider's code and message (or an
    // admin's reason) are for admins; "saldo tidak cukup" would read as the reseller's own saldo.
    if (r.reason === "not-sent") view.reason = "not-sent";
    view.returned = o.price!;
  } else if (o.state === "failed" || o.state === "unknown") {
    view.reason = r.reason ?? "interrupted";
    if (forAdmin && r.errorCode !== undefined) view.errorCode = r.errorCode;
    if (forAdmin && r.errorMsg !== undefined) view.errorMessage = r.errorMsg;
  }
  if (forAdmin) {
    view.userId = o.userId;
    view.userName = o.userName;
    view.role = o.role ?? "staff";
    if (r.trxId !== undefined) view.trxId = r.trxId;
    const providerPrice = providerPriceOf(o);
    if (providerPrice !== undefined) view.providerPrice = providerPrice;
    if (o.settledBy !== undefined) view.settledBy = o.settledBy;
    if (showsProviders(o, severalProviders)) {
      const at = currentAttempt(o);
      view.provider = { name: at.provider, refId: at.refId };
      if (o.refused !== undefined && o.refused.length > 0)
        view.refusedBy = o.refused.map((r) => ({
          provider: r.provider,
          refId: r.refId,
          ...(r.errorCode === undefined ? {} : { errorCode: r.errorCode }),
        }));
    }
  }
  return view;
}

/**
 * The catalogue in use as the page edits it: the file's shape and the version it was read at, and
 * which of its products rest now (every route's provider resting).
 */
export function catalogView(
  state: ShopState,
  providerNames: readonly string[],
  resting: ReadonlySet<string> = new Set(),
): CatalogView {
  const source = state.source;
  return {
    version: source.kind === "file" ? 0 : source.version,
    ...(source.kind === "chat" ? { editedBy: source.by, editedAt: source.at } : {}),
    catalog: toCatalogJson(state.catalog) as CatalogFile,
    tiers: [...tiersOf(state.catalog)].sort(),
    providers: [...providerNames],
    ...(resting.size === 0 ? {} : { resting: [...resting] }),
  };
}

/** A reseller's access to the shop's API as the page shows it: never the key, which only the admin's chat gets. */
export interface ApiAccessView {
  mitraId: string;
  on: boolean;
  callbackUrl: string | null;
}

/** Built field by field, so that nothing else of the partner's record can reach the page. */
export const apiAccessView = (p: Partner | undefined): ApiAccessView | null =>
  p === undefined ? null : { mitraId: p.mitraId, on: p.on, callbackUrl: p.callbackUrl ?? null };

/** A callback attempt as the Resellers page shows it: when, which order, what the partner's system answered. */
export const deliveryView = (d: Delivery) => ({
  at: new Date(d.at).toISOString(),
  refId: d.refId,
  shopRefId: d.shopRefId,
  attempt: d.attempt,
  /** The HTTP status; 0 when the partner's system was not reached. */
  status: d.status,
  ok: d.ok,
  error: d.error ?? null,
  test: d.test === true,
});

/** The views with each H2H order's partner ref_id beside the shop's (one read per H2H order). */
export async function withPartnerRefs(
  views: OrderView[],
  partnerRefOf: (refId: string) => Promise<string | undefined>,
): Promise<OrderView[]> {
  await Promise.all(
    views.map(async (v) => {
      if (v.viaApi !== true) return;
      const ref = await partnerRefOf(v.refId);
      if (ref !== undefined) v.partnerRef = ref;
    }),
  );
  return views;
}
