import type { Dispatcher, request as undiciRequest } from "undici";
import { retry } from "../retry.js";
import { buildStatusUrl, buildTopupUrl, type ProviderAddress } from "./provider-url.js";
import { isRateLimited, parseStatusAnswer, parseTopupAnswer } from "./provider-answer.js";
import type { TopupClient, TopupFailed, TopupUnknown } from "./types.js";

export interface TopupClientConfig extends ProviderAddress {
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
