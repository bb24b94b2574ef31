/** The name of today's provider (TOPUP_*): every shop has it; other providers have names of their own. */
export const MAIN_PROVIDER = "main";

/** One top-up order as the provider sees it (topup-api.md 2.1, minus the credentials). */
export interface TopupRequest {
  /** Our own reference id; the provider refuses a second order with the same one. */
  refId: string;
  itemCode: string;
  /** The player id, sent exactly as the customer gave it. */
  destination: string;
}

/** product_detail of a provider answer; numbers already turned from numeric strings into numbers. */
export interface ProductDetail {
  name: string;
  code: string;
  price: number;
  rate: number;
  priceRp: number;
  /** "SUKSES" on success; other values are not documented (topup-api.md 2.2). */
  status: string;
}

/**
 * The provider carried the order out: status 1, every data field present, product_detail.status
 * SUKSES and data.ref_id echoing ours. Only this kind may be reported to a customer as done.
 */
export interface TopupSuccess {
  kind: "success";
  trxId: string;
  refId: string;
  destination: string;
  destinationName: string;
  message: string;
  sn: string;
  lastBalance: number;
  productDetail: ProductDetail;
}

/**
 * The order certainly did not happen: the provider refused it with an error body ("provider-error",
 * also when it kept answering `request/rate-limited` until the call's time was up), or the
 * connection failed before a byte of the request left this machine ("not-sent").
 * A new order (with a new ref_id) is safe.
 */
export interface TopupFailed {
  kind: "failed";
  reason: "provider-error" | "not-sent";
  errorCode?: string;
  /** The provider's error_msg, only when it was text; trimmed, capped and scrubbed. */
  errorMsg?: string;
  /** Short and safe to log: never the secret, never the full URL. */
  detail?: string;
}

/**
 * Why a result is unknown. `server-error`: an HTTP 5xx came with an error body, which a provider
 * that is itself relaying the order (another shop) may send while its own provider still has it.
 * `upstream-unknown`: the provider said `transaction/unknown`, i.e. it does not know either.
 */
export type UnknownReason =
  | "timeout"
  | "connection-lost"
  | "not-json"
  | "malformed"
  | "status-not-sukses"
  | "ref-id-already-exists"
  | "server-error"
  | "upstream-unknown";

/**
 * We cannot tell whether the provider carried the order out, so it must never be resent by itself
 * and never reported as failed: an admin settles it. Whatever the provider did say (trx_id, sn…)
 * is kept to help with that.
 */
export interface TopupUnknown {
  kind: "unknown";
  reason: UnknownReason;
  /** Short and safe to log and show: never the secret, never the full URL. */
  detail: string;
  trxId?: string;
  sn?: string;
  destinationName?: string;
  lastBalance?: number;
  productDetail?: ProductDetail;
  errorCode?: string;
  errorMsg?: string;
  httpStatus?: number;
}

export type TopupResult = TopupSuccess | TopupFailed | TopupUnknown;

/**
 * What the provider's status operation says about an order we sent earlier.
 * - `success`: a full success answer for this very ref_id, as an order's answer would be.
 * - `failed`: the provider says the order failed (`transaction/failed`); nothing was delivered.
 * - `unknown`: the provider knows the order but not its outcome yet.
 * - `not-found`: the provider has no order with this ref_id. Not a failure by itself: an admin decides.
 * - `no-answer`: no usable answer (the provider has no such operation, refused, timed out, said
 *   something unreadable); `detail` is short and safe to log.
 */
export type TopupStatusResult =
  | TopupSuccess
  | { kind: "failed"; errorCode: string; errorMsg?: string }
  | { kind: "unknown"; detail?: string }
  | { kind: "not-found" }
  | { kind: "no-answer"; detail: string };

/** The provider, as the order service needs it; a small interface so tests can pass a double. */
export interface TopupClient {
  /**
   * Sends one order; never throws for network or provider trouble. It sends it again (same ref_id)
   * only after a `request/rate-limited` answer, which means nothing was ordered.
   */
  order(req: TopupRequest): Promise<TopupResult>;
  /**
   * Asks the provider what became of an order sent earlier; never throws, never changes anything
   * at the provider. Absent when this client cannot ask.
   */
  status?(refId: string): Promise<TopupStatusResult>;
}
