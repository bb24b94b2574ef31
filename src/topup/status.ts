import type { TopupResult, TopupStatusResult } from "./types.js";

const FAILED = "transaction/failed";
const NOT_FOUND = "transaction/not-found";

/**
 * What an answer of the provider's status operation means, once read like an order's answer (by
 * `parseTopupAnswer`, so a success is proved the same way: status 1, every field, our ref_id, SUKSES).
 *
 * A status answer settles an order by itself, so only the two codes that say so are taken as an
 * outcome (`transaction/failed`, compared case-insensitively), and `transaction/not-found` is told
 * apart from both. Everything else (a refusal of the query, a rate limit, an HTTP 5xx, an odd body,
 * a 404 from a provider without this operation) is "no answer": ask again later, or an admin decides.
 */
export function statusFromAnswer(answer: TopupResult, httpStatus: number): TopupStatusResult {
  if (answer.kind === "success") return answer;
  if (answer.kind === "failed") {
    const code = answer.errorCode?.toLowerCase();
    if (answer.errorCode !== undefined && code === FAILED) {
      return answer.errorMsg === undefined
        ? { kind: "failed", errorCode: answer.errorCode }
        : { kind: "failed", errorCode: answer.errorCode, errorMsg: answer.errorMsg };
    }
    if (code === NOT_FOUND) return { kind: "not-found" };
    // error_code is already one short line with secrets scrubbed: safe to log.
    return { kind: "no-answer", detail: `HTTP ${httpStatus}, error_code ${answer.errorCode ?? "(none)"}` };
  }
  // The provider knows the order (transaction/unknown, or our ref_id with a status other than SUKSES).
  if (answer.reason === "upstream-unknown" || answer.reason === "status-not-sukses") {
    return { kind: "unknown", detail: answer.detail };
  }
  return { kind: "no-answer", detail: answer.detail };
}
