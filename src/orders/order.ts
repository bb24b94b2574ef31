import type { Role } from "../access/access.js";
import { MAIN_PROVIDER, type ProductDetail, type UnknownReason } from "../topup/types.js";

export { MAIN_PROVIDER };

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
  /**
   * For an order an admin settled as a success (the provider never named its price): what it cost,
   * as the admin entered it or as last seen for the product before the order was sent.
   */
  providerPrice?: number;
  providerPriceFrom?: "admin" | "last-seen";
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

/**
 * An order a reseller's own system sent through the H2H API has no chat: its chat id is 0, an id
 * no Telegram chat has. Its outcome is the HTTP answer (and the partner's callback), never a message.
 */
export const API_CHAT_ID = 0;

/** Whether an order came through the H2H API (a partner's system), not a chat or the Mini App. */
export const viaApi = (order: Pick<DraftFields, "chatId">): boolean => order.chatId === API_CHAT_ID;

/** A reseller's order: the price is paid from their saldo. */
export const paidFromSaldo = (order: Pick<DraftFields, "role" | "price">): boolean =>
  order.role === "reseller" && order.price !== null;

/** One try of an order at one provider. */
export interface Attempt {
  /** The provider's name (`main`: TOPUP_*). */
  provider: string;
  /** That provider's item code the order was sent under. */
  code: string;
  /** The ref_id sent to that provider (the first attempt's is the order's refId). */
  refId: string;
  /** When the attempt began (ISO). */
  at: string;
}

/** An attempt that provider refused before anything was ordered; the order went on to the next route. */
export interface RefusedAttempt extends Attempt {
  reason: "provider-error" | "not-sent";
  errorCode?: string;
  errorMsg?: string;
}

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
  /**
   * While its result is unknown: the provider price last seen for the product when the order was
   * sent (the cost a settlement as a success gives it, unless the admin enters one).
   */
  lastProviderPrice?: number;
  /** An admin who settled an `unknown` order after checking with the provider. */
  settledBy?: number;
  settledAt?: string;
  result?: OrderResult;
  /** The attempt the order is at, or ended at (the provider that fulfilled it). Absent: main, productCode, refId, submittedAt. */
  attempt?: Attempt;
  /** The attempts refused before it, oldest first (absent: none). */
  refused?: RefusedAttempt[];
}

/**
 * The current (or last) attempt of a submitted order, with the implicit one filled in: an order
 * of a shop with one provider stores none (its records stay as they were), and is at `main` under
 * its own product code and ref id since it was submitted.
 */
export function currentAttempt(order: OrderRecord): Attempt {
  return (
    order.attempt ?? {
      provider: MAIN_PROVIDER,
      code: order.productCode,
      refId: order.refId,
      at: order.submittedAt ?? order.createdAt,
    }
  );
}

/**
 * Whether an admin's screen names the providers of an order: it was sent, and the shop has several
 * providers (`several`) or the order names its attempts (a product routed under another code, or
 * an order of a time with several). A one-provider shop's orders name none, so its screens stay
 * exactly as they were.
 */
export function showsProviders(order: Pick<OrderRecord, "state" | "attempt" | "refused">, several: boolean): boolean {
  if (order.state === "draft" || order.state === "cancelled") return false;
  return several || order.attempt !== undefined || (order.refused?.length ?? 0) > 0;
}

/**
 * What a successful order cost the shop at its provider, in whole rupiah: the price the provider's
 * answer named, else the one an admin's settlement gave it (entered, or the last one seen for the
 * product before the order was sent); undefined when nobody knows it (never counted as 0).
 */
export function costOf(result: OrderResult | undefined): number | undefined {
  return costFrom(result?.productDetail?.priceRp, result?.providerPrice);
}

/**
 * An order's provider price as every screen shows it (/pending, the Mini App, the CSV): what it
 * cost (costOf); while its result is unknown and no answer named one, the price last seen for the
 * product before it was sent (what a settlement without a price counts). Undefined: nobody knows it.
 */
export function providerPriceOf(
  order: Pick<OrderRecord, "state" | "result" | "lastProviderPrice">,
): number | undefined {
  const named = costOf(order.result);
  if (named !== undefined || order.state !== "unknown") return named;
  return costFrom(order.lastProviderPrice, undefined);
}

/** costOf from the two prices it reads: the provider's answer's, else the settlement's. */
export function costFrom(priceRp: unknown, providerPrice: unknown): number | undefined {
  const cost = priceRp ?? providerPrice;
  return typeof cost === "number" && Number.isFinite(cost) ? Math.round(cost) : undefined;
}

/**
 * Whether a provider's refusal says the shop's own deposit with it is empty (its balance is too low
 * for the order): an error code in a balance group (`balance/insufficient`), or one whose words say
 * so. The provider's list of codes is not published: this reads what such an answer looks like.
 */
export function providerDepositEmpty(result: OrderResult | undefined): boolean {
  const code = result?.errorCode ?? "";
  const words = `${code} ${result?.errorMsg ?? ""}`;
  return (
    /^(?:balance|saldo|deposit)\//i.test(code) || /insufficient|not enough balance|saldo (?:tidak|kurang)/i.test(words)
  );
}

export const FINAL_STATES: ReadonlySet<OrderState> = new Set(["success", "failed", "unknown"]);

/** Whether the order's outcome is known: it succeeded or failed (an unknown one is final, not known). */
export function outcomeKnown(state: OrderState): boolean {
  return state === "success" || state === "failed";
}

/** The partner balance the provider reported after a successful sale. */
export interface BalanceSeen {
  balance: number;
  at: string;
  refId: string;
  /** The provider that reported it (absent: main). */
  provider?: string;
}
