import type { Role } from "../access/access.js";
import type { ProductDetail, UnknownReason } from "../topup/types.js";

export type OrderState = "draft" | "cancelled" | "submitting" | "success" | "failed" | "unknown";
export type FinalState = "success" | "failed" | "unknown";
export type Lang = "en" | "id";

/** What the provider told us (or why we do not know); plain JSON, stored as is. */
export interface OrderResult {
  trxId?: string;
  destinationName?: string;
  sn?: string;
  lastBalance?: number;
  message?: string;
  productDetail?: ProductDetail;
  errorCode?: string;
  errorMsg?: string;
  /** For `failed`: provider-error | not-sent | settled. For `unknown`: an UnknownReason or "interrupted". */
  reason?: "provider-error" | "not-sent" | UnknownReason | "interrupted" | "settled";
  detail?: string;
}

/** What is fixed when the draft is written and never changes afterwards. */
export interface DraftFields {
  refId: string;
  chatId: number;
  userId: number;
  userName: string;
  lang: Lang;
  gameName: string;
  productCode: string;
  productName: string;
  /**
   * What the buyer pays, in rupiah: a reseller their tier's price (held from their saldo at
   * Confirm), staff the shop's selling price (`null` when the catalogue has none).
   */
  price: number | null;
  playerId: string;
  createdAt: string;
  /** The buyer's role when the draft was made; orders written before roles existed are staff. */
  role?: Role;
  /** A reseller's price tier. */
  tier?: string;
  /** In a group: the member's message the order came from; its result replies to it. */
  requestMessageId?: number;
}

/** A reseller's order: the price is paid from their saldo. */
export const paidFromSaldo = (order: Pick<DraftFields, "role" | "price">): boolean =>
  order.role === "reseller" && order.price !== null;

/**
 * One ledger entry. Times are ISO strings: the ledger stores plain JSON, and a Date would come
 * back as a string anyway.
 */
export interface OrderRecord extends DraftFields {
  state: OrderState;
  submittedAt?: string;
  finishedAt?: string;
  /** When the user was sent the outcome; a later tap on Confirm then only gets a short answer. */
  notifiedAt?: string;
  /** The summary message Confirm was tapped on, brought up to date with the outcome. */
  summaryMessageId?: number;
  /** A reseller's saldo after this order's last movement (hold, spend or release). */
  saldoAfter?: number;
  /** An admin who settled an `unknown` order after checking with the provider. */
  settledBy?: number;
  settledAt?: string;
  result?: OrderResult;
}

export const FINAL_STATES: ReadonlySet<OrderState> = new Set(["success", "failed", "unknown"]);

/** The partner balance the provider reported after a successful sale. */
export interface BalanceSeen {
  balance: number;
  at: string;
  refId: string;
}
