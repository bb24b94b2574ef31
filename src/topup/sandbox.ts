import { createHash, randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SandboxProduct {
  code: string;
  name: string;
  priceRp: number;
}

export interface SandboxOptions {
  mitraId: string;
  secretKey: string;
  products: SandboxProduct[];
  /** Default 1,000,000. */
  initialBalance?: number;
  /** Delay before each answer, to let tests kill a bot while a call is in flight. */
  latencyMs?: number;
}

/** One request the sandbox received, whatever its outcome (tests count provider calls with it). */
export interface SandboxCall {
  refId: string;
  itemCode: string;
  destination: string;
  at: number;
  outcome: "success" | "error";
  errorCode?: string;
}

export interface SandboxProvider {
  /** Base URL such as http://127.0.0.1:PORT; valid after listen. */
  url: string;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
  calls: SandboxCall[];
  balance(): number;
}

export const SANDBOX_MITRA_ID = "sandbox";
export const SANDBOX_SECRET_KEY = "sandbox-secret";

const FIRST_NAMES = ["Budi", "Sari", "Agus", "Dewi", "Rizky", "Putri", "Eko", "Ayu", "Fajar", "Nadia", "Bayu", "Intan"];
const PARAMS = ["destination", "ref_id", "item_code", "secret_key", "mitra_id"] as const;

/** The same player id always gets the same display name, as a real game account would. */
export function sandboxPlayerName(destination: string): string {
  const hash = createHash("sha256").update(destination).digest();
  return `${FIRST_NAMES[hash[0]! % FIRST_NAMES.length]}#${hash.readUInt16BE(1) % 10000}`;
}

/**
 * A stand-in for the provider that follows topup-api.md to the letter: one GET endpoint, all five
 * parameters required, credentials checked, a ref_id used once, a balance that goes down by the
 * price. It is what the bot talks to when TOPUP_BASE_URL is unset: no real orders.
 */
export function createSandboxProvider(opts: SandboxOptions): SandboxProvider {
  const products = new Map(opts.products.map((p) => [p.code.toUpperCase(), p]));
  const usedRefIds = new Set<string>();
  const calls: SandboxCall[] = [];
  let balance = opts.initialBalance ?? 1_000_000;
  let counter = 0;

  const send = (res: ServerResponse, httpStatus: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(httpStatus, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  };
  const error = (code: string, msg: string) => ({ status: 0, error_code: code, error_msg: msg });

  function answer(req: IncomingMessage): { httpStatus: number; body: unknown; call?: SandboxCall } {
    const url = new URL(req.url ?? "/", "http://sandbox");
    if (url.pathname !== "/v1/transaction/partner") {
      return { httpStatus: 404, body: error("request/not-found", "unknown path") };
    }
    if (req.method !== "GET") return { httpStatus: 405, body: error("request/method-not-allowed", "use GET") };
    const q = Object.fromEntries(PARAMS.map((p) => [p, url.searchParams.get(p)?.trim() ?? ""])) as Record<(typeof PARAMS)[number], string>;
    const call: SandboxCall = { refId: q.ref_id, itemCode: q.item_code, destination: q.destination, at: Date.now(), outcome: "error" };
    const fail = (code: string, msg: string) => {
      call.errorCode = code;
      return { httpStatus: 200, body: error(code, msg), call };
    };
    const missing = PARAMS.find((p) => q[p] === "");
    if (missing !== undefined) return fail("request/missing-parameter", `missing parameter: ${missing}`);
    if (q.mitra_id !== opts.mitraId || q.secret_key !== opts.secretKey) return fail("auth/invalid-credentials", "invalid partner credentials");
    if (usedRefIds.has(q.ref_id)) return fail("transaction/ref-id-already-exists", "ref_id already exists");
    usedRefIds.add(q.ref_id);
    const product = products.get(q.item_code.toUpperCase());
    if (product === undefined) return fail("product/not-found", `unknown item_code: ${q.item_code.slice(0, 40)}`);
    if (balance < product.priceRp) return fail("balance/insufficient", "insufficient balance");

    balance -= product.priceRp;
    counter += 1;
    const day = new Date().toISOString().slice(2, 10).replace(/-/g, "");
    const sn = `${Date.now()}${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
    const name = sandboxPlayerName(q.destination);
    call.outcome = "success";
    return {
      httpStatus: 200,
      call,
      body: {
        status: 1,
        data: {
          trx_id: `SBX-${day}-${String(counter).padStart(6, "0")}`,
          ref_id: q.ref_id,
          destination: q.destination,
          destination_name: name,
          message: `Top up ${product.name} to ${name} succeeded. SN: ${sn}`,
          sn,
          last_balance: balance,
          product_detail: { name: product.name, code: product.code, price: product.priceRp, rate: 1, priceRp: product.priceRp, status: "SUKSES" },
        },
      },
    };
  }

  const server = createServer((req, res) => {
    const result = answer(req);
    if (result.call !== undefined) calls.push(result.call);
    const delay = opts.latencyMs ?? 0;
    if (delay > 0) setTimeout(() => send(res, result.httpStatus, result.body), delay);
    else send(res, result.httpStatus, result.body);
  });

  const provider: SandboxProvider = {
    url: "",
    calls,
    balance: () => balance,
    listen(port = 0, host = "127.0.0.1") {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          provider.url = `http://${host}:${address.port}`;
          resolve(provider.url);
        });
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return provider;
}
