import type { OrderRecord, OrderState } from "./order.js";
import type { Role } from "../access/access.js";

/**
 * What a list of submitted orders shows of each one (a day's CSV, a month's export): the order's
 * own facts, flat, without the parts no list prints (creation and notice times, the provider's
 * message, the whole product detail). A day's CSV reads thousands of orders; reading each as a
 * line instead of a whole order makes it cheaper to build and to collect.
 */
export interface OrderLine {
  refId: string;
  state: OrderState;
  /** When it was sent, in milliseconds (when it was made, for an order that was never sent). */
  submittedMs: number;
  userId: number;
  userName: string;
  productCode: string;
  productName: string;
  playerId: string;
  /** What the buyer pays (null when the catalogue had no selling price). */
  price: number | null;
  role?: Role;
  tier?: string;
  // The provider's result, as the order keeps it.
  trxId?: string;
  destinationName?: string;
  sn?: string;
  lastBalance?: number;
  errorCode?: string;
  errorMsg?: string;
  /** The price the provider's answer named (its product detail's priceRp). */
  priceRp?: number;
  providerPrice?: number;
  providerPriceFrom?: "admin" | "last-seen";
  /** The provider of its current (or last) attempt, when the order names one (absent: main). */
  provider?: string;
  /** The providers that refused it before, comma-separated, oldest first (absent: none). */
  refusedBy?: string;
  /** An H2H order's own ref_id at the partner (set by the reports that show it, not kept in the line). */
  partnerRef?: string;
}

/**
 * A line with every field present, in one order (the optional ones undefined until set): lines
 * made from a whole order, a compacted one or a kept line then share one shape, and the code
 * that prints thousands of them reads each field the same way every time.
 */
export function newLine(
  refId: string,
  state: OrderState,
  submittedMs: number,
  userId: number,
  userName: string,
  productCode: string,
  productName: string,
  playerId: string,
  price: number | null,
): OrderLine {
  return {
    refId,
    state,
    submittedMs,
    userId,
    userName,
    productCode,
    productName,
    playerId,
    price,
    role: undefined,
    tier: undefined,
    trxId: undefined,
    destinationName: undefined,
    sn: undefined,
    lastBalance: undefined,
    errorCode: undefined,
    errorMsg: undefined,
    priceRp: undefined,
    providerPrice: undefined,
    providerPriceFrom: undefined,
    provider: undefined,
    refusedBy: undefined,
    partnerRef: undefined,
  };
}

/** The line of a whole order. */
export function orderLine(o: OrderRecord): OrderLine {
  const line = newLine(
    o.refId,
    o.state,
    Date.parse(o.submittedAt ?? o.createdAt),
    o.userId,
    o.userName,
    o.productCode,
    o.productName,
    o.playerId,
    o.price,
  );
  if (o.role !== undefined) line.role = o.role;
  if (o.tier !== undefined) line.tier = o.tier;
  if (o.attempt !== undefined) line.provider = o.attempt.provider;
  if (o.refused !== undefined && o.refused.length > 0) line.refusedBy = o.refused.map((a) => a.provider).join(",");
  const r = o.result;
  if (r === undefined) return line;
  if (r.trxId !== undefined) line.trxId = r.trxId;
  if (r.destinationName !== undefined) line.destinationName = r.destinationName;
  if (r.sn !== undefined) line.sn = r.sn;
  if (r.lastBalance !== undefined) line.lastBalance = r.lastBalance;
  if (r.errorCode !== undefined) line.errorCode = r.errorCode;
  if (r.errorMsg !== undefined) line.errorMsg = r.errorMsg;
  if (r.productDetail?.priceRp !== undefined) line.priceRp = r.productDetail.priceRp;
  if (r.providerPrice !== undefined) line.providerPrice = r.providerPrice;
  if (r.providerPriceFrom !== undefined) line.providerPriceFrom = r.providerPriceFrom;
  return line;
}
