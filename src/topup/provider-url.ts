import type { TopupRequest } from "./types.js";

/*
 * The provider's URLs: the one place that puts the secret key in one, and the ways a URL or a
 * text reaches a log without it.
 */

/** Where the provider is and who this shop is to it: all a provider URL is built from. */
export interface ProviderAddress {
  /** The provider's base address, e.g. https://provider.example.com (a trailing slash is fine). */
  baseUrl: string;
  mitraId: string;
  /** Read by the one function that builds a provider URL, and nowhere else. */
  secretKey: string;
}

/**
 * The one function that reads `secretKey`: a provider URL with the credentials in its query. The
 * URL it returns is handed to undici and nowhere else, and reaches a log only through {@link redactUrl}.
 */
function providerUrl(cfg: ProviderAddress, path: string, params: Record<string, string>): URL {
  // A base URL may carry a path prefix (https://host/api/): keep it, append ours.
  const url = new URL(`${cfg.baseUrl.replace(/\/+$/, "")}${path}`);
  url.search = new URLSearchParams({ ...params, secret_key: cfg.secretKey, mitra_id: cfg.mitraId }).toString();
  return url;
}

/** Builds the order URL (`/v1/transaction/partner`); see {@link providerUrl} for where it may go. */
export function buildTopupUrl(cfg: ProviderAddress, req: TopupRequest): URL {
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
export function buildStatusUrl(cfg: ProviderAddress, refId: string): URL {
  return providerUrl(cfg, "/v1/transaction/status", { ref_id: refId });
}

/** Query parameter names whose values never reach a log. */
const SENSITIVE_PARAM = /secret|passw|token/i;
/** `secret_key=…`, `"secret_key":"…"`, `secret_key%3D…` inside free text. */
const SENSITIVE_IN_TEXT = /((?:secret|passw|token)[\w-]*["']?\s*(?::|=|%3D)\s*["']?)[^\s&#"',;}]*/gi;

export function scrubSecrets(text: string): string {
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
