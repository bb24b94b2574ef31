import { Agent, request, type Dispatcher } from "undici";
import { z } from "zod";
import type { ProductDetail, TopupClient, TopupRequest, TopupResult } from "./types.js";

export interface TopupClientConfig {
  baseUrl: string;
  mitraId: string;
  secretKey: string;
  /** The whole call, connect to last byte of the answer. */
  timeoutMs: number;
  dispatcher?: Dispatcher;
}

/**
 * Builds the request URL. This is the only code that reads `secretKey`: the URL it returns must
 * only ever be handed to undici, and logged through {@link redactUrl}.
 */
export function buildTopupUrl(cfg: Pick<TopupClientConfig, "baseUrl" | "mitraId" | "secretKey">, req: TopupRequest): URL {
  const url = new URL(`${cfg.baseUrl.replace(/\/+$/, "")}/v1/transaction/partner`);
  url.search = new URLSearchParams({
    destination: req.destination,
    ref_id: req.refId,
    item_code: req.itemCode,
    secret_key: cfg.secretKey,
    mitra_id: cfg.mitraId,
  }).toString();
  return url;
}

/** The URL with `secret_key` blanked: the only form of a provider URL that may reach a log. */
export function redactUrl(url: string | URL): string {
  try {
    const u = new URL(String(url));
    if (u.searchParams.has("secret_key")) u.searchParams.set("secret_key", "***");
    if (u.password !== "") u.password = "***";
    return u.toString().replace(/secret_key=%2A%2A%2A/, "secret_key=***");
  } catch {
    return String(url).replace(/(secret_key=)[^&#\s]*/gi, "$1***");
  }
}

/** Numbers sometimes arrive as numeric strings: accept both, nothing else. */
const num = z.union([
  z.number().finite(),
  z.string().trim().regex(/^-?[0-9]+(\.[0-9]+)?$/).transform(Number),
]);
const str = z.union([z.string(), z.number().finite().transform(String)]);

const productDetailSchema = z.object({
  name: z.string(),
  code: z.string(),
  price: num,
  rate: num,
  priceRp: num,
  status: z.string(),
});

const dataSchema = z.object({
  trx_id: str,
  ref_id: str,
  destination: str,
  destination_name: z.string(),
  message: z.string(),
  sn: str,
  last_balance: num,
  product_detail: productDetailSchema,
});

const statusSchema = z.union([z.literal(0), z.literal(1), z.literal("0"), z.literal("1")]).transform(Number);

const MAX_ERROR_MSG = 300;

/**
 * Turns the provider's answer into a result. The HTTP status is not trusted (topup-api.md says
 * nothing about it): the body decides, and only a body that proves success is a success.
 */
export function parseTopupAnswer(body: string, httpStatus: number, req: TopupRequest): TopupResult {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { kind: "unknown", reason: "not-json", detail: `HTTP ${httpStatus}, the answer is not JSON`, httpStatus };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { kind: "unknown", reason: "malformed", detail: `HTTP ${httpStatus}, the answer is not a JSON object`, httpStatus };
  }
  const record = json as Record<string, unknown>;
  const status = statusSchema.safeParse(record.status);
  if (!status.success) {
    return { kind: "unknown", reason: "malformed", detail: `HTTP ${httpStatus}, no status 0 or 1 in the answer`, httpStatus };
  }

  if (status.data === 0) {
    const code = record.error_code;
    if (typeof code !== "string" || code.trim() === "") {
      return { kind: "unknown", reason: "malformed", detail: `HTTP ${httpStatus}, status 0 without an error_code`, httpStatus };
    }
    const errorMsg = typeof record.error_msg === "string" && record.error_msg.trim() !== ""
      ? record.error_msg.trim().slice(0, MAX_ERROR_MSG)
      : undefined;
    if (code === "transaction/ref-id-already-exists") {
      // The provider already has an order with this ref_id: it may well have been carried out.
      return {
        kind: "unknown",
        reason: "ref-id-already-exists",
        detail: "the provider already has an order with this ref_id",
        errorCode: code,
        ...(errorMsg === undefined ? {} : { errorMsg }),
        httpStatus,
      };
    }
    return { kind: "failed", reason: "provider-error", errorCode: code.slice(0, 100), ...(errorMsg === undefined ? {} : { errorMsg }) };
  }

  const data = dataSchema.safeParse(record.data);
  if (!data.success) {
    // Salvage what is there, so an admin has the trx_id or sn to check with the provider.
    const partial = typeof record.data === "object" && record.data !== null ? (record.data as Record<string, unknown>) : {};
    const pd = productDetailSchema.safeParse(partial.product_detail);
    const fields = data.error.issues.map((i) => i.path.join(".") || "data").slice(0, 5).join(", ");
    return {
      kind: "unknown",
      reason: "malformed",
      detail: `HTTP ${httpStatus}, status 1 but the data is incomplete (${fields})`,
      httpStatus,
      ...(typeof partial.trx_id === "string" ? { trxId: partial.trx_id } : {}),
      ...(typeof partial.sn === "string" ? { sn: partial.sn } : {}),
      ...(pd.success ? { productDetail: pd.data } : {}),
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
    return { kind: "unknown", reason: "malformed", detail: "the answer is for another ref_id", ...found };
  }
  if (productDetail.status !== "SUKSES") {
    return {
      kind: "unknown",
      reason: "status-not-sukses",
      detail: `product_detail.status is "${productDetail.status.slice(0, 40)}"`,
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

/** Errors that prove the request never left this machine: safe to call "not sent". */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT", "ERR_INVALID_URL"]);
const MAX_BODY = 1024 * 1024;

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && typeof e === "object" && e !== null; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The provider client on undici. One call per order, never retried (a retry of a top-up is a
 * second top-up); a dedicated Agent so no global dispatcher, interceptor or retry sneaks in.
 */
export function createTopupClient(cfg: TopupClientConfig): TopupClient {
  const dispatcher =
    cfg.dispatcher ??
    new Agent({
      connect: { timeout: Math.min(cfg.timeoutMs, 10_000) },
      // The abort signal below is the one timeout; undici's own would otherwise fire first.
      headersTimeout: 0,
      bodyTimeout: 0,
      pipelining: 1,
    });

  return {
    async order(req) {
      const signal = AbortSignal.timeout(cfg.timeoutMs);
      let statusCode: number;
      let body = "";
      try {
        const res = await request(buildTopupUrl(cfg, req), {
          method: "GET",
          headers: { accept: "application/json" },
          signal,
          dispatcher,
        });
        statusCode = res.statusCode;
        let size = 0;
        const chunks: Buffer[] = [];
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > MAX_BODY) {
            res.body.destroy();
            return { kind: "unknown", reason: "malformed", detail: `HTTP ${statusCode}, the answer is larger than 1 MB`, httpStatus: statusCode };
          }
          chunks.push(chunk as Buffer);
        }
        body = Buffer.concat(chunks).toString("utf8");
      } catch (err) {
        if (signal.aborted) {
          return { kind: "unknown", reason: "timeout", detail: `no complete answer within ${cfg.timeoutMs} ms` };
        }
        const code = errorCode(err);
        if (code !== undefined && NOT_SENT_CODES.has(code)) {
          return { kind: "failed", reason: "not-sent", detail: `the provider could not be reached (${code})` };
        }
        // Reset, closed socket, anything after the request may have left: we cannot know.
        return { kind: "unknown", reason: "connection-lost", detail: `the connection failed after sending (${code ?? "unknown error"})` };
      }
      return parseTopupAnswer(body, statusCode, req);
    },
  };
}
