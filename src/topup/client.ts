import type { Dispatcher, request as undiciRequest } from "undici";
import { z } from "zod";
import { retry } from "../retry.js";
import { statusFromAnswer } from "./status.js";
import type {
  ProductDetail,
  TopupClient,
  TopupFailed,
  TopupRequest,
  TopupResult,
  TopupStatusResult,
  TopupUnknown,
} from "./types.js";

export interface TopupClientConfig {
  /** The provider's base address, e.g. https://provider.example.com (a trailing slash is fine). */
  baseUrl: string;
  mitraId: string;
  /** Read by the one function that builds a provider URL, and nowhere else. */
  secretKey: string;
  /**
   * The whole call, from connect to the last byte of the answer; for an order sent again after a
   * rate limit, every attempt and pause together, counted from the first attempt.
   */
  timeoutMs: number;
  /** For tests; by default a dedicated Agent without keep-alive, interceptors or retries. */
  dispatcher?: Dispatcher;
  /**
   * The first pause after a `request/rate-limited` answer, doubled after each next one (at most 5 s);
   * a Retry-After header takes its place. Default 1000; tests make it short.
   */
  rateLimitPauseMs?: number;
}

/**
 * The one function that reads `secretKey`: a provider URL with the credentials in its query. The
 * URL it returns is handed to undici and nowhere else, and reaches a log only through {@link redactUrl}.
 */
function providerUrl(
  cfg: Pick<TopupClientConfig, "baseUrl" | "mitraId" | "secretKey">,
  path: string,
  params: Record<string, string>,
): URL {
  // A base URL may carry a path prefix (https://host/api/): keep it, append ours.
  const url = new URL(`${cfg.baseUrl.replace(/\/+$/, "")}${path}`);
  url.search = new URLSearchParams({ ...params, secret_key: cfg.secretKey, mitra_id: cfg.mitraId }).toString();
  return url;
}

/** Builds the order URL (`/v1/transaction/partner`); see {@link providerUrl} for where it may go. */
export function buildTopupUrl(
  cfg: Pick<TopupClientConfig, "baseUrl" | "mitraId" | "secretKey">,
  req: TopupRequest,
): URL {
  return providerUrl(cfg, "/v1/transaction/partner", {
    destination: req.destination,
    ref_id: req.refId,
    item_code: req.itemCode,
  });
}

/**
 * Builds the status query's URL (`/v1/transaction/status`, the operation a shop running this bot
 * offers its resellers); see {@link providerUrl} for where it may go.
 */
export function buildStatusUrl(cfg: Pick<TopupClientConfig, "baseUrl" | "mitraId" | "secretKey">, refId: string): URL {
  return providerUrl(cfg, "/v1/transaction/status", { ref_id: refId });
}

/** Query parameter names whose values never reach a log. */
const SENSITIVE_PARAM = /secret|passw|token/i;
/** `secret_key=…`, `"secret_key":"…"`, `secret_key%3D…` inside free text. */
const SENSITIVE_IN_TEXT = /((?:secret|passw|token)[\w-]*["']?\s*(?::|=|%3D)\s*["']?)[^\s&#"',;}]*/gi;

function scrubSecrets(text: string): string {
  return text.replace(SENSITIVE_IN_TEXT, "$1***");
}

/**
 * The URL with `secret_key` (and any user info) replaced by `***`: the only form of a provider URL
 * that may reach a log. Accepts anything, even text that is not a URL, and never throws.
 */
export function redactUrl(url: string | URL): string {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    return scrubSecrets(String(url));
  }
  // Written out by hand so `***` stays readable instead of becoming %2A%2A%2A.
  const query = [...u.searchParams]
    .map(([k, v]) => `${encodeURIComponent(k)}=${SENSITIVE_PARAM.test(k) ? "***" : encodeURIComponent(v)}`)
    .join("&");
  const userInfo = u.username !== "" || u.password !== "" ? "***@" : "";
  // The fragment is dropped: a provider URL has none, and it is one more place for a secret.
  return `${u.protocol}//${userInfo}${u.host}${u.pathname}${query === "" ? "" : `?${query}`}`;
}

/**
 * The provider's origin (scheme, host and port, e.g. `https://provider.example.com`): what the
 * start-up log says about the provider. No path, no query, no user info: nothing of the mitra id
 * or the secret key, wherever an operator put them in TOPUP_BASE_URL.
 */
export function providerOrigin(baseUrl: string): string {
  try {
    const origin = new URL(baseUrl).origin;
    return origin === "null" ? "(not a URL)" : origin;
  } catch {
    return "(not a URL)";
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing the answer. topup-api.md documents integers and strings; real providers of this kind
// are known to send numbers as numeric strings, so both are accepted, and nothing else.

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

// ---------------------------------------------------------------------------------------------
// The HTTP call.

/**
 * Errors that prove the request never left this machine, in words for the detail. Connect-level
 * OS errors count only when raised by connect or the DNS lookup (checked in {@link notSentWords}).
 */
const NOT_SENT: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  EHOSTUNREACH: "provider host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connect timed out",
  ENOTFOUND: "provider host not found",
  EAI_AGAIN: "provider host name lookup failed",
  UND_ERR_CONNECT_TIMEOUT: "connect timed out",
};
const PRE_SEND_SYSCALLS = new Set(["connect", "getaddrinfo"]);
/** undici's own timeouts, set as a backstop behind the abort signal. */
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);
const MAX_BODY_BYTES = 1024 * 1024;

interface ErrorFacts {
  code?: string;
  syscall?: string;
}

/**
 * The code and syscall of an error, looking through `cause` and AggregateError (Node's
 * happy-eyeballs connect). Only these facts are used: undici messages can contain the full URL.
 */
function errorFacts(err: unknown): ErrorFacts {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && typeof e === "object" && e !== null; depth++) {
    const { code, syscall, cause, errors } = e as {
      code?: unknown;
      syscall?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
    if (typeof code === "string" && /^[A-Z0-9_]{1,40}$/.test(code)) {
      const sub = typeof first === "object" && first !== null ? (first as { syscall?: unknown }).syscall : undefined;
      const call = typeof syscall === "string" ? syscall : typeof sub === "string" ? sub : undefined;
      return call === undefined ? { code } : { code, syscall: call };
    }
    e = cause ?? first;
  }
  return {};
}

function notSentWords({ code, syscall }: ErrorFacts): string | undefined {
  if (code === undefined) return undefined;
  if (code === "UND_ERR_CONNECT_TIMEOUT") return NOT_SENT[code];
  return syscall !== undefined && PRE_SEND_SYSCALLS.has(syscall) ? NOT_SENT[code] : undefined;
}

/** The first pause after a rate-limited answer; each next one is twice as long, up to {@link MAX_PAUSE_MS}. */
const RATE_LIMIT_PAUSE_MS = 1_000;
/** The longest pause, and the longest Retry-After honoured: a provider asking for more gets a failure. */
const MAX_PAUSE_MS = 5_000;
/**
 * The least time an attempt after a pause must still have. An attempt cut short by the budget would
 * turn a clean "nothing was ordered" into "unknown", which holds the price until an admin looks.
 */
const MIN_ATTEMPT_ROOM_MS = 1_000;

interface Http {
  request: typeof undiciRequest;
  dispatcher: Dispatcher;
}

/** One HTTP exchange: the provider's answer, or what went wrong on the way, as a result. */
type Exchange =
  | { kind: "answer"; httpStatus: number; body: string; retryAfterMs?: number }
  | { kind: "trouble"; result: TopupFailed | TopupUnknown };

/** Retry-After in milliseconds, as seconds or as an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(value: string | string[] | undefined, now: number): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  if (/^\s*\d{1,6}\s*$/.test(v)) return Number(v) * 1000;
  // An HTTP date always ends in GMT; Date.parse alone would take almost any text for a date.
  const at = /GMT\s*$/.test(v) ? Date.parse(v) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * One GET with its own time limit (`timeoutMs`); `budgetMs` is only named in the timeout's detail.
 * Never throws: trouble comes back as the result it means for an order.
 */
async function exchange(http: Http, url: URL, timeoutMs: number, budgetMs: number): Promise<Exchange> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await http.request(url, {
      method: "GET",
      headers: { accept: "application/json" },
      signal,
      dispatcher: http.dispatcher,
    });
    const httpStatus = res.statusCode;
    const retryAfter = retryAfterMs(res.headers["retry-after"], Date.now());
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > MAX_BODY_BYTES) {
        res.body.destroy();
        const detail = `HTTP ${httpStatus}, body larger than 1 MB`;
        return { kind: "trouble", result: { kind: "unknown", reason: "malformed", detail, httpStatus } };
      }
      chunks.push(buf);
    }
    const body = Buffer.concat(chunks).toString("utf8");
    return { kind: "answer", httpStatus, body, ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }) };
  } catch (err) {
    return { kind: "trouble", result: troubleResult(err, signal.aborted, budgetMs) };
  }
}

/** What a failed exchange means for an order: sent or not, from the error's code only. */
function troubleResult(err: unknown, aborted: boolean, budgetMs: number): TopupFailed | TopupUnknown {
  const facts = errorFacts(err);
  // Checked first: once the signal fired, whatever error follows is its consequence. A
  // timeout while still connecting is reported as unknown too, which is merely cautious.
  if (aborted) {
    return { kind: "unknown", reason: "timeout", detail: `no complete answer within ${budgetMs} ms` };
  }
  const words = notSentWords(facts);
  if (words !== undefined) {
    return { kind: "failed", reason: "not-sent", detail: `${words} (${facts.code})` };
  }
  if (facts.code !== undefined && TIMEOUT_CODES.has(facts.code)) {
    return { kind: "unknown", reason: "timeout", detail: `no complete answer in time (${facts.code})` };
  }
  // Reset, closed socket, a broken body, anything else: the request may have reached the
  // provider, so we cannot say it failed.
  return {
    kind: "unknown",
    reason: "connection-lost",
    detail: `connection failed after the request may have been sent (${facts.code ?? "no error code"})`,
  };
}

/** The provider refused with `request/rate-limited`: nothing was ordered, the ref_id is still free. */
function isRateLimited(result: TopupResult): result is TopupFailed {
  return (
    result.kind === "failed" && result.reason === "provider-error" && result.errorCode?.toLowerCase() === RATE_LIMITED
  );
}

/** Reads a status query's answer (pure, like {@link parseTopupAnswer}); see `statusFromAnswer`. */
export function parseStatusAnswer(body: string, httpStatus: number, refId: string): TopupStatusResult {
  return statusFromAnswer(parseTopupAnswer(body, httpStatus, { refId }), httpStatus);
}

/** The longest a status query waits for its answer. */
const STATUS_TIMEOUT_MS = 5_000;

/**
 * The provider client: one GET per order over undici. An order is sent again, with the same
 * ref_id, only after a `request/rate-limited` answer and only while its time budget allows; any
 * other answer or trouble is final, since a retried top-up could be a second top-up. Expected
 * trouble (network, timeouts, odd answers) comes back as a result; it throws only for a bad
 * config, at creation.
 */
export function createTopupClient(cfg: TopupClientConfig): TopupClient {
  if (!Number.isFinite(cfg.timeoutMs) || cfg.timeoutMs <= 0) {
    throw new RangeError("TopupClientConfig.timeoutMs must be a positive number of milliseconds");
  }
  let base: URL | undefined;
  try {
    base = new URL(cfg.baseUrl);
  } catch {
    // The value is not echoed: a base URL may carry credentials.
  }
  // A query or fragment would end up in front of our path and break the URL silently.
  if (
    base === undefined ||
    (base.protocol !== "http:" && base.protocol !== "https:") ||
    base.search !== "" ||
    base.hash !== ""
  ) {
    throw new TypeError("TopupClientConfig.baseUrl must be an absolute http(s) URL without query or fragment");
  }
  const firstPauseMs = cfg.rateLimitPauseMs ?? RATE_LIMIT_PAUSE_MS;
  if (!Number.isFinite(firstPauseMs) || firstPauseMs < 0) {
    throw new RangeError("TopupClientConfig.rateLimitPauseMs must be zero or a positive number of milliseconds");
  }

  // undici is loaded with the first call, not at start: a bot that has not ordered yet does not
  // carry the HTTP client's code (a few MB of memory and ~80 ms of start-up).
  let client: Promise<Http> | undefined;
  const undici = () =>
    (client ??= import("undici").then(({ Agent, request }) => ({
      request,
      dispatcher:
        cfg.dispatcher ??
        new Agent({
          // No keep-alive: a fresh connection per order, so a reset can never be a stale pooled socket
          // that the provider closed, and "connection lost" really means "the request went out".
          pipelining: 0,
          // Shorter than the whole call, so an unreachable provider is "not sent", not "timeout".
          connect: { timeout: Math.max(1, Math.min(10_000, Math.floor(cfg.timeoutMs / 2))) },
          // The abort signal below is the timeout; these only back it up and must not fire first.
          headersTimeout: cfg.timeoutMs + 1_000,
          bodyTimeout: cfg.timeoutMs + 1_000,
        }),
    })));
  /** undici, or why it could not be loaded (nothing left this machine). */
  const loadHttp = async (): Promise<Http | string> => {
    try {
      return await undici();
    } catch (err) {
      return `the HTTP client could not be loaded (${errorFacts(err).code ?? "no code"})`;
    }
  };

  return {
    async order(req) {
      const http = await loadHttp();
      if (typeof http === "string") return { kind: "failed", reason: "not-sent", detail: http };
      const url = buildTopupUrl(cfg, req);
      // The budget covers every attempt and pause together, from the first attempt on.
      const deadline = Date.now() + cfg.timeoutMs;
      let attempts = 0;
      let slowestMs = 0;
      let askedPauseMs: number | undefined;
      let gaveUp = `no time left for another try within ${cfg.timeoutMs} ms`;
      const result = await retry(
        async () => {
          attempts++;
          const started = Date.now();
          const answer = await exchange(http, url, Math.max(1, deadline - started), cfg.timeoutMs);
          slowestMs = Math.max(slowestMs, Date.now() - started);
          if (answer.kind === "trouble") return answer.result;
          askedPauseMs = answer.retryAfterMs;
          return parseTopupAnswer(answer.body, answer.httpStatus, req);
        },
        {
          again: isRateLimited,
          // Never after an exception: that is a bug, and the order may have gone out.
          retryOn: () => false,
          delayMs: (attempt) => {
            const pause = askedPauseMs ?? Math.min(MAX_PAUSE_MS, firstPauseMs * 2 ** (attempt - 1));
            if (pause > MAX_PAUSE_MS) {
              gaveUp = `the provider asked to wait ${Math.round(pause / 1000)} s`;
              return undefined;
            }
            const room = Math.max(MIN_ATTEMPT_ROOM_MS, 2 * slowestMs);
            return Date.now() + pause + room <= deadline ? pause : undefined;
          },
        },
      );
      if (!isRateLimited(result)) return result;
      const tries = attempts === 1 ? "once" : `${attempts} times`;
      return { ...result, detail: `rate-limited ${tries}; ${gaveUp}` };
    },

    async status(refId) {
      const http = await loadHttp();
      if (typeof http === "string") return { kind: "no-answer", detail: http };
      // A read, asked again later: it never holds up the background work for long.
      const limit = Math.min(cfg.timeoutMs, STATUS_TIMEOUT_MS);
      const answer = await exchange(http, buildStatusUrl(cfg, refId), limit, limit);
      if (answer.kind === "trouble") return { kind: "no-answer", detail: answer.result.detail ?? "no answer" };
      return parseStatusAnswer(answer.body, answer.httpStatus, refId);
    },
  };
}
