/**
 * The H2H API's floor: a bare `node:http` server that answers a partner's order with the one
 * provider call the bot makes for it, and nothing else (no key check, no saldo, no ledger, no
 * Redis). The bot's H2H path against this is what its own work costs. bench/processes.ts compiles
 * it to plain JavaScript (esbuild, not bundled: undici comes from node_modules, as for dist/) and
 * starts it with PORT, TOPUP_BASE_URL, TOPUP_MITRA_ID and TOPUP_SECRET_KEY.
 */
import { createServer, type ServerResponse } from "node:http";
import { Agent, request } from "undici";

/** The bot's TOPUP_TIMEOUT_MS when unset (src/config.ts): the call's budget and the Agent's backstops. */
const TIMEOUT_MS = 60_000;

const base = process.env.TOPUP_BASE_URL!.replace(/\/+$/, "");
const mitraId = process.env.TOPUP_MITRA_ID!;
const secretKey = process.env.TOPUP_SECRET_KEY!;

/**
 * The provider client's Agent (src/topup/client.ts), written out with the bot's default timeout:
 * no keep-alive (a fresh connection per order), so both pay the same connect per order.
 */
const agent = new Agent({
  pipelining: 0,
  connect: { timeout: Math.max(1, Math.min(10_000, Math.floor(TIMEOUT_MS / 2))) },
  headersTimeout: TIMEOUT_MS + 1_000,
  bodyTimeout: TIMEOUT_MS + 1_000,
});

/** What the provider answers on success, of which the partner's answer passes the fields through. */
interface ProviderAnswer {
  status?: number;
  data?: Record<string, unknown>;
}

function send(res: ServerResponse, httpStatus: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(httpStatus, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** The order URL as `buildTopupUrl` makes it: the partner's three parameters, then the shop's credentials. */
function upstreamUrl(q: URLSearchParams): URL {
  const url = new URL(`${base}/v1/transaction/partner`);
  url.search = new URLSearchParams({
    destination: q.get("destination") ?? "",
    ref_id: q.get("ref_id") ?? "",
    item_code: q.get("item_code") ?? "",
    secret_key: secretKey,
    mitra_id: mitraId,
  }).toString();
  return url;
}

/** One order: the provider call, then its answer in the H2H API's shape (a refusal passed on as it came). */
async function order(q: URLSearchParams, res: ServerResponse): Promise<void> {
  const upstream = await request(upstreamUrl(q), {
    method: "GET",
    headers: { accept: "application/json" },
    signal: AbortSignal.timeout(TIMEOUT_MS),
    dispatcher: agent,
  });
  const answer = JSON.parse(await upstream.body.text()) as ProviderAnswer;
  if (answer.status !== 1 || answer.data === undefined) return send(res, 200, answer);
  const d = answer.data;
  send(res, 200, {
    status: 1,
    data: {
      trx_id: d.trx_id,
      ref_id: q.get("ref_id"),
      destination: d.destination,
      destination_name: d.destination_name,
      message: d.message,
      sn: d.sn,
      product_detail: d.product_detail,
    },
  });
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://bare");
  if (req.method !== "GET" || url.pathname !== "/v1/transaction/partner")
    return send(res, 404, { status: 0, error_code: "request/not-found", error_msg: "no such endpoint" });
  order(url.searchParams, res).catch(() => {
    if (!res.headersSent) send(res, 502, { status: 0, error_code: "server/error", error_msg: "provider call failed" });
  });
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("bare h2h listening\n"));
process.once("SIGTERM", () => server.close(() => process.exit(0)));
// Like the bare bot: gone with the bench that started it, even if that was killed.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 500).unref();
