import { CROCKFORD } from "../../crockford.js";
import type { OrderRecord } from "../../orders/order.js";
import type { PartnerRefusal } from "../../partners/partner-orders.js";

/**
 * The H2H API's answers, in the shape of the provider interface the shop itself buys from: a
 * success `{status: 1, data}`, an error `{status: 0, error_code, error_msg}`. Nothing in them
 * names the shop's own provider, its price, its balance or its words.
 */
export type ErrorCode =
  | "transaction/ref-id-already-exists"
  | "auth/invalid-credentials"
  | "request/invalid-parameter"
  | "request/not-found"
  | "request/method-not-allowed"
  | "product/not-found"
  | "product/unavailable"
  | "destination/invalid"
  | "balance/insufficient"
  | "shop/paused"
  | "request/rate-limited"
  | "transaction/failed"
  | "transaction/not-found"
  | "price/above-max"
  | "server/error";

export interface ErrorBody {
  status: 0;
  error_code: ErrorCode;
  error_msg: string;
  /** A failed order's ids (`transaction/failed` only): which order failed. */
  ref_id?: string;
  trx_id?: string;
}

export interface SuccessData {
  trx_id: string;
  ref_id: string;
  destination: string;
  destination_name: string;
  message: string;
  sn: string;
  last_balance: number;
  product_detail: {
    name: string;
    code: string;
    price: number;
    rate: 1;
    priceRp: number;
    /** SUKSES: done; PENDING: the outcome is not known yet (never a refusal: do not order again). */
    status: "SUKSES" | "PENDING";
  };
}

export interface SuccessBody {
  status: 1;
  data: SuccessData;
}

export const errorBody = (code: ErrorCode, msg: string): ErrorBody => ({ status: 0, error_code: code, error_msg: msg });

const REFUSALS: Record<PartnerRefusal, [ErrorCode, string]> = {
  "product-not-found": ["product/not-found", "item_code is not a product of this shop"],
  "product-unavailable": ["product/unavailable", "the product is not available for your account now"],
  "destination-invalid": ["destination/invalid", "destination does not match the player id rule of the game"],
  "balance-insufficient": ["balance/insufficient", "your saldo is less than the price"],
  "shop-paused": ["shop/paused", "the shop has paused orders; try again later"],
  "price-above-max": ["price/above-max", "your price for this product is above max_price; nothing was ordered"],
};

export const refusalBody = (why: PartnerRefusal): ErrorBody => errorBody(...REFUSALS[why]);

export const usedBody = (): ErrorBody =>
  errorBody("transaction/ref-id-already-exists", "this ref_id was used already; ask its status");

const FAILED_MSG = "the order failed at the shop's provider; the price was returned to your saldo";

/**
 * The shop's own transaction id of an order, in the provider's form: a prefix, a six-digit segment
 * and a digit string (`TG-261126-…`). Read from the order's ref id, so it is the same in every
 * answer: the six digits are the day it was sent (YYMMDD, UTC), the digit string its ref id's
 * letters and digits read as one base-32 number.
 */
export function trxIdOf(order: Pick<OrderRecord, "refId" | "submittedAt" | "createdAt">, prefix: string): string {
  const body = order.refId.startsWith(prefix) ? order.refId.slice(prefix.length) : order.refId;
  let n = 0n;
  for (const ch of body.toUpperCase()) {
    const d = CROCKFORD.indexOf(ch);
    n = n * 32n + BigInt(d < 0 ? 0 : d);
  }
  const at = new Date(order.submittedAt ?? order.createdAt);
  const day = at.toISOString().slice(2, 10).replaceAll("-", "");
  const head = prefix.replace(/[^A-Za-z0-9]/g, "").toUpperCase() || "H2H";
  return `${head}-${day}-${n.toString()}`;
}

/**
 * An order as its partner reads it: the success body for a success (`lastBalance`: the saldo to
 * show), the failure (with its ids) for a failure, and for any other state the pending answer: the
 * success shape with `product_detail.status` PENDING, so that no client takes it for a refusal.
 */
export function orderBody(
  order: OrderRecord,
  partnerRef: string,
  lastBalance: number,
  refPrefix: string,
): SuccessBody | ErrorBody {
  const trxId = trxIdOf(order, refPrefix);
  if (order.state === "failed")
    return { ...errorBody("transaction/failed", FAILED_MSG), ref_id: partnerRef, trx_id: trxId };
  const pending = order.state !== "success";
  const r = order.result ?? {};
  const price = order.price ?? 0;
  const name = pending ? "" : (r.destinationName ?? "");
  const sn = pending ? "" : (r.sn ?? "");
  const message = pending
    ? `PENDING ${order.productName} ke ${order.playerId}. Status belum final; tunggu callback atau tanya status.`
    : `SUKSES ${order.productName} ke ${order.playerId}${name === "" ? "" : ` a.n. ${name}`}. SN: ${sn}`;
  return {
    status: 1,
    data: {
      trx_id: trxId,
      ref_id: partnerRef,
      destination: order.playerId,
      destination_name: name,
      message,
      sn,
      last_balance: lastBalance,
      product_detail: {
        name: order.productName,
        code: order.productCode,
        price,
        rate: 1,
        priceRp: price,
        status: pending ? "PENDING" : "SUKSES",
      },
    },
  };
}
