import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { CallbackTarget } from "../access/api-keys.js";

/** Resolves a host name to every address it has (as `dns.lookup` with `all: true` does). */
export type LookupFn = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

const systemLookup: LookupFn = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Whether a callback URL may be sent to: its host's addresses, every one of them, are public ones
 * (not loopback, private, link-local, carrier-grade NAT, unspecified, multicast or reserved; an
 * IPv4-mapped IPv6 address is read as the IPv4 address it carries). A partner's system is out on
 * the internet; a callback that reached the shop's own network would let whoever sets the URL
 * knock on its doors. With `allowPrivate` (tests, a shop on a private network) any address passes,
 * but the name must still resolve. The address given back is the one to connect to: a second
 * lookup could answer another address (DNS rebinding).
 */
export async function checkCallbackTarget(
  url: string,
  opts: { allowPrivate: boolean; lookup?: LookupFn | undefined },
): Promise<CallbackTarget> {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return { ok: false, why: "unresolved" };
  }
  // An IPv6 literal comes bracketed: `[::1]`.
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  let addresses: ReadonlyArray<{ address: string; family: number }>;
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (opts.lookup ?? systemLookup)(host);
    } catch {
      return { ok: false, why: "unresolved" };
    }
  }
  const first = addresses[0];
  if (first === undefined || addresses.some((a) => isIP(a.address) === 0)) return { ok: false, why: "unresolved" };
  if (!opts.allowPrivate && addresses.some((a) => !isPublicAddress(a.address))) return { ok: false, why: "private" };
  return { ok: true, address: first.address, family: isIP(first.address) === 6 ? 6 : 4 };
}

/** IPv4 ranges no callback goes to, as [first address, prefix length]. */
const V4_BLOCKED: ReadonlyArray<[string, number]> = [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 unspecified
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local (cloud metadata lives here)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
];

const v4Number = (address: string): number => address.split(".").reduce((n, part) => n * 256 + Number(part), 0);

function isPublicV4(address: string): boolean {
  const n = v4Number(address);
  return !V4_BLOCKED.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = v4Number(base);
    return n >= start && n < start + size;
  });
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part read as two groups). */
function v6Groups(address: string): number[] {
  let text = address.split("%")[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const n = v4Number(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((g) => parseInt(g, 16)));
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/** Whether an address (IPv4, or IPv6 with an IPv4-mapped one read as IPv4) is a public one. */
export function isPublicAddress(address: string): boolean {
  const kind = isIP(address.split("%")[0]!);
  if (kind === 4) return isPublicV4(address);
  if (kind !== 6) return false;
  const g = v6Groups(address);
  const embedded = `${g[6]! >> 8}.${g[6]! & 0xff}.${g[7]! >> 8}.${g[7]! & 0xff}`;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped) is that IPv4 address; 64:ff9b::a.b.c.d (NAT64) reaches it too.
  if (zeros(5) && g[5] === 0xffff) return isPublicV4(embedded);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return isPublicV4(embedded);
  // ::/96 holds ::, ::1 and the old IPv4-compatible form: none is a partner's address.
  if (zeros(6)) return false;
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return false; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return false; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return false; // fec0::/10 old site-local
  if ((first & 0xff00) === 0xff00) return false; // multicast
  return true;
}
