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
 * The order certainly did not happen: the provider refused it with an error body ("provider-error"),
 * or the connection failed before a byte of the request left this machine ("not-sent").
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

export type UnknownReason =
  "timeout" | "connection-lost" | "not-json" | "malformed" | "status-not-sukses" | "ref-id-already-exists";

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

/** The provider, as the order service needs it; a small interface so tests can pass a double. */
export interface TopupClient {
  /** Sends one order; never throws for network or provider trouble, never retries. */
  order(req: TopupRequest): Promise<TopupResult>;
}
