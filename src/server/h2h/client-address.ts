import { isIP } from "node:net";
import { normaliseAddress } from "../../config-values.js";

/**
 * Who sent a request, as far as the shop can tell: the connection's peer, or, when the peer is a
 * proxy the operator trusts, the right-most `X-Forwarded-For` entry (the one that proxy added; the
 * entries left of it are whatever the client wrote). A client that writes the header itself, past
 * no trusted proxy, is counted by its own address.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: ReadonlySet<string>,
): string {
  const from = peer === undefined || peer === "" ? "unknown" : normaliseAddress(peer);
  if (!trusted.has(from) || forwardedFor === undefined) return from;
  const last = forwardedFor.split(",").at(-1)?.trim() ?? "";
  return isIP(last) === 0 ? from : normaliseAddress(last);
}
