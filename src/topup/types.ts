/** One top-up order as the provider sees it (topup-api.md 2.1, minus the credentials). */
export interface TopupRequest {
  refId: string;
  itemCode: string;
  destination: string;
}

export interface ProductDetail {
  name: string;
  code: string;
  price: number;
  rate: number;
  priceRp: number;
  status: string;
}

/** status 1, product_detail.status SUKSES, every data field present. */
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

/** The provider refused the order (status 0), or it never left this machine. */
export interface TopupFailed {
  kind: "failed";
  reason: "provider-error" | "not-sent";
  errorCode?: string;
  errorMsg?: string;
  detail?: string;
}

export type UnknownReason =
  | "timeout"
  | "connection-lost"
  | "not-json"
  | "malformed"
  | "status-not-sukses"
  | "ref-id-already-exists";

/**
 * We cannot tell whether the provider carried the order out: it must never be resent by itself.
 * `detail` is short and safe to log and show: never the secret, never the full URL.
 */
export interface TopupUnknown {
  kind: "unknown";
  reason: UnknownReason;
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

export interface TopupClient {
  /** Sends one order; never throws for network or provider trouble, never retries. */
  order(req: TopupRequest): Promise<TopupResult>;
}
