import { z } from "zod";
import { statusFromAnswer } from "./status.js";
import { scrubSecrets } from "./provider-url.js";
import type {
  ProductDetail,
  TopupFailed,
  TopupRequest,
  TopupResult,
  TopupStatusResult,
  TopupUnknown,
} from "./types.js";

// Reading the provider's answer (pure: no I/O). topup-api.md documents integers and strings; real
// providers of this kind are known to send numbers as numeric strings, so both are accepted, and
// nothing else.

const numeric = z.union([
  z.number(),
  z
    .string()
    .regex(/^\s*-?\d+(\.\d+)?\s*$/)
    .transform((s) => Number(s)),
]);

/**
 * sn is text (digits) in the spec. A JSON number is accepted only while it is a safe integer:
 * beyond 2^53 JSON.parse has already changed its digits, and a wrong sn must not reach a customer.
 */
const serial = z.union([z.string(), z.number().int().nonnegative().transform(String)]);

const productDetailSchema = z.object({
  name: z.string(),
  code: z.string(),
  price: numeric,
  rate: numeric,
  priceRp: numeric,
  status: z.string(),
});

const dataSchema = z.object({
  trx_id: z.string(),
  ref_id: z.string(),
  destination: z.string(),
  destination_name: z.string(),
  message: z.string(),
  sn: serial,
  last_balance: numeric,
  product_detail: productDetailSchema,
});

const statusSchema = z.union([z.literal(0), z.literal(1), z.literal("0"), z.literal("1")]).transform(Number);

const MAX_ERROR_MSG = 300;
const MAX_ERROR_CODE = 100;
const REF_ID_EXISTS = "transaction/ref-id-already-exists";
/** A provider that relays orders (another shop running this bot) does not know the outcome either. */
const UPSTREAM_UNKNOWN = "transaction/unknown";
/** The code a test key's answer is refused with (the answer carried `test: true`). */
export const TEST_ANSWER = "provider/test-key";
/** Nothing was ordered and the ref_id was not used: the one answer that is sent again. */
const RATE_LIMITED = "request/rate-limited";

/**
 * Provider text that we keep (error_msg, error_code, a status value): text only, one line, secrets
 * scrubbed in case the provider echoes our request, capped so a huge body cannot flood a log.
 */
function providerText(value: unknown, max: number): string | undefined {
  if (typeof value !== "string") return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
  const clean = scrubSecrets(value.replace(/[\u0000-\u001f\u007f]+/g, " ")).trim();
  if (clean === "") return undefined;
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** Whatever a broken success answer did carry, so an admin can look the order up with the provider. */
function salvage(data: unknown): Partial<TopupUnknown> {
  if (typeof data !== "object" || data === null) return {};
  const d = data as Record<string, unknown>;
  const out: Partial<TopupUnknown> = {};
  const trxId = z.string().safeParse(d.trx_id);
  if (trxId.success) out.trxId = trxId.data;
  const sn = serial.safeParse(d.sn);
  if (sn.success) out.sn = sn.data;
  const name = z.string().safeParse(d.destination_name);
  if (name.success) out.destinationName = name.data;
  const balance = numeric.safeParse(d.last_balance);
  if (balance.success) out.lastBalance = balance.data;
  const pd = productDetailSchema.safeParse(d.product_detail);
  if (pd.success) out.productDetail = pd.data;
  return out;
}

/**
 * Turns the provider's answer into a result. Pure, so every odd answer can be tested without HTTP.
 *
 * The body decides, with one exception. Only a body that proves success for this very ref_id is a
 * success; only a well-formed error body is a failure, and never one that came with an HTTP 5xx (a
 * provider that relays orders may still have ours when its server breaks) or says
 * `transaction/unknown`; anything else is unknown, because a top-up that did happen must not be
 * ordered again.
 */
export function parseTopupAnswer(body: string, httpStatus: number, req: Pick<TopupRequest, "refId">): TopupResult {
  const http = `HTTP ${httpStatus}`;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { kind: "unknown", reason: "not-json", detail: `${http}, body is not JSON`, httpStatus };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { kind: "unknown", reason: "malformed", detail: `${http}, body is not a JSON object`, httpStatus };
  }
  const record = json as Record<string, unknown>;
  // Another shop answered as to a test key (given to this shop by mistake): nothing was ordered,
  // whatever the answer looks like, and its made-up SN must never be sold.
  if (record.test === true) {
    return {
      kind: "failed",
      reason: "provider-error",
      errorCode: TEST_ANSWER,
      errorMsg: "the provider answered as to a test key: nothing was ordered (set a live key)",
      detail: `${http}, the provider answered as to a test key (test: true)`,
    };
  }
  const status = statusSchema.safeParse(record.status);
  if (!status.success) {
    return { kind: "unknown", reason: "malformed", detail: `${http}, status is neither 0 nor 1`, httpStatus };
  }

  if (status.data === 0) {
    const errorCode = providerText(record.error_code, MAX_ERROR_CODE);
    if (errorCode === undefined) {
      return { kind: "unknown", reason: "malformed", detail: `${http}, status 0 without an error_code`, httpStatus };
    }
    // error_msg's content and type are "not shown" in the spec: keep it only when it is text.
    const errorMsg = providerText(record.error_msg, MAX_ERROR_MSG);
    const msg = errorMsg === undefined ? {} : { errorMsg };
    // Compared loosely on purpose: taking this answer for a failure could lead to a second order.
    if (errorCode.toLowerCase() === REF_ID_EXISTS) {
      return {
        kind: "unknown",
        reason: "ref-id-already-exists",
        detail: "the provider already has an order with this ref_id",
        errorCode,
        ...msg,
        httpStatus,
      };
    }
    if (errorCode.toLowerCase() === UPSTREAM_UNKNOWN) {
      return {
        kind: "unknown",
        reason: "upstream-unknown",
        detail: `${http}, the provider does not know the outcome yet`,
        errorCode,
        ...msg,
        httpStatus,
      };
    }
    if (httpStatus >= 500 && httpStatus <= 599) {
      return {
        kind: "unknown",
        reason: "server-error",
        detail: `${http} with an error body, taken as not final`,
        errorCode,
        ...msg,
        httpStatus,
      };
    }
    return { kind: "failed", reason: "provider-error", errorCode, ...msg };
  }

  const data = dataSchema.safeParse(record.data);
  if (!data.success) {
    // Field names come from our schema, never values from the body: safe to log.
    const fields = [...new Set(data.error.issues.map((i) => i.path.join(".") || "data"))].slice(0, 5).join(", ");
    return {
      kind: "unknown",
      reason: "malformed",
      detail: `${http}, status 1 but data is incomplete or mistyped (${fields})`,
      ...salvage(record.data),
      httpStatus,
    };
  }

  const d = data.data;
  const productDetail: ProductDetail = d.product_detail;
  const found = {
    trxId: d.trx_id,
    sn: d.sn,
    destinationName: d.destination_name,
    lastBalance: d.last_balance,
    productDetail,
    httpStatus,
  };
  if (d.ref_id !== req.refId) {
    // Not the answer to our order (a proxy mix-up, a cache): it tells nothing about ours.
    return { kind: "unknown", reason: "malformed", detail: `${http}, data.ref_id is not the ref_id sent`, ...found };
  }
  if (productDetail.status !== "SUKSES") {
    // Other values are "not shown" in the spec: PENDING may still succeed, so it is not a failure.
    const shown = providerText(productDetail.status, 40) ?? "(empty)";
    return {
      kind: "unknown",
      reason: "status-not-sukses",
      detail: `${http}, product_detail.status is ${shown}`,
      ...found,
    };
  }
  return {
    kind: "success",
    trxId: d.trx_id,
    refId: d.ref_id,
    destination: d.destination,
    destinationName: d.destination_name,
    message: d.message,
    sn: d.sn,
    lastBalance: d.last_balance,
    productDetail,
  };
}

/** The provider refused with `request/rate-limited`: nothing was ordered, the ref_id is still free. */
export function isRateLimited(result: TopupResult): result is TopupFailed {
  return (
    result.kind === "failed" && result.reason === "provider-error" && result.errorCode?.toLowerCase() === RATE_LIMITED
  );
}

/** Reads a status query's answer (pure, like {@link parseTopupAnswer}); see `statusFromAnswer`. */
export function parseStatusAnswer(body: string, httpStatus: number, refId: string): TopupStatusResult {
  return statusFromAnswer(parseTopupAnswer(body, httpStatus, { refId }), httpStatus);
}
