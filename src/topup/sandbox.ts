import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SandboxProduct {
  code: string;
  name: string;
  /** Integer rupiah, charged from the sandbox balance on each successful order. */
  priceRp: number;
}

export interface SandboxOptions {
  mitraId: string;
  secretKey: string;
  products: SandboxProduct[];
  /** Products not in `products` (added to the bot's catalogue later): looked up per order. */
  lookup?: (code: string) => SandboxProduct | undefined;
  /** Integer rupiah; default 1,000,000. */
  initialBalance?: number;
  /** Delay before each answer (the order is already carried out), to kill a bot mid-call in tests. */
  latencyMs?: number;
}

/** One request the sandbox received, whatever its outcome: tests count provider calls with it. */
export interface SandboxCall {
  refId: string;
  itemCode: string;
  destination: string;
  /** Date.now() when the request arrived, before any latency. */
  at: number;
  outcome: "success" | "error";
  errorCode?: string;
}

export interface SandboxProvider {
  /** Base URL such as http://127.0.0.1:PORT; empty until listen() resolves. */
  url: string;
  /** Starts listening (port 0 = a random free port) and resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
  /** Every request of the order operation (`/v1/transaction/partner`), in the order they came. */
  calls: SandboxCall[];
  balance(): number;
  /**
   * Adds an integer amount (negative to take some away) to the partner balance and returns the
   * new balance, so tests can stage a low or a refilled balance. It never goes below zero.
   */
  deposit(amountRp: number): number;
}

/** Credentials of the sandbox that the bot starts when no real provider is configured. */
export const SANDBOX_MITRA_ID = "sandbox";
export const SANDBOX_SECRET_KEY = "sandbox-secret";

const PATH = "/v1/transaction/partner";
const PARAMS = ["destination", "ref_id", "item_code", "secret_key", "mitra_id"] as const;
type Param = (typeof PARAMS)[number];
const FIRST_NAMES = ["Budi", "Sari", "Agus", "Dewi", "Rizky", "Putri", "Eko", "Ayu", "Fajar", "Nadia", "Bayu", "Intan"];

/** The same player id always gets the same non-empty display name, as a real game account would. */
export function sandboxPlayerName(destination: string): string {
  const hash = createHash("sha256").update(destination).digest();
  return `${FIRST_NAMES[hash[0]! % FIRST_NAMES.length]}#${String(hash.readUInt16BE(1) % 10_000).padStart(4, "0")}`;
}

/** "yymmdd" in UTC: the six-digit segment of a trx_id. */
function yymmdd(now: Date): string {
  return now.toISOString().slice(2, 10).replace(/-/g, "");
}

function checkOptions(opts: SandboxOptions): void {
  const seen = new Set<string>();
  for (const p of opts.products) {
    if (!Number.isSafeInteger(p.priceRp) || p.priceRp <= 0) {
      throw new RangeError(`sandbox product ${p.code}: priceRp must be a positive integer (rupiah)`);
    }
    const key = p.code.toUpperCase();
    if (p.code.trim() === "" || seen.has(key))
      throw new RangeError(`sandbox product code "${p.code}" is empty or repeated`);
    seen.add(key);
  }
  const balance = opts.initialBalance ?? 0;
  if (!Number.isSafeInteger(balance) || balance < 0)
    throw new RangeError("sandbox initialBalance must be a non-negative integer");
  const latency = opts.latencyMs ?? 0;
  if (!Number.isFinite(latency) || latency < 0) throw new RangeError("sandbox latencyMs must be a non-negative number");
}

/**
 * A stand-in for the provider that follows topup-api.md to the letter: one GET endpoint, all five
 * parameters required, credentials checked, each ref_id usable once, a balance that goes down by
 * the price. The bot talks to it when no real provider is configured, and tests use it as the
 * provider: no real orders, ever. It never logs, and never echoes the secret.
 */
export function createSandboxProvider(opts: SandboxOptions): SandboxProvider {
  checkOptions(opts);
  const products = new Map(opts.products.map((p) => [p.code.toUpperCase(), p]));
  const usedRefIds = new Set<string>();
  const calls: SandboxCall[] = [];
  const latencyMs = opts.latencyMs ?? 0;
  const pendingAnswers = new Set<NodeJS.Timeout>();
  let balance = opts.initialBalance ?? 1_000_000;
  let counter = 0;

  const errorBody = (code: string, msg: string) => ({ status: 0, error_code: code, error_msg: msg });

  /** Decides the answer and applies its effects at once, so a slow answer still counts as done. */
  function handle(req: IncomingMessage): { httpStatus: number; body: unknown } {
    const url = new URL(req.url ?? "/", "http://sandbox");
    // Only the order operation is a call; any other path (a status query the provider interface
    // does not offer) is answered 404 and is not one.
    if (url.pathname !== PATH)
      return { httpStatus: 404, body: errorBody("request/not-found", `no such endpoint, use GET ${PATH}`) };
    // Raw values are echoed as sent; "empty" means blank after trimming.
    const q = Object.fromEntries(PARAMS.map((p) => [p, url.searchParams.get(p) ?? ""])) as Record<Param, string>;
    const call: SandboxCall = {
      refId: q.ref_id,
      itemCode: q.item_code,
      destination: q.destination,
      at: Date.now(),
      outcome: "error",
    };
    calls.push(call);
    const refuse = (httpStatus: number, code: string, msg: string) => {
      call.errorCode = code;
      return { httpStatus, body: errorBody(code, msg) };
    };

    if (req.method !== "GET") return refuse(405, "request/method-not-allowed", "only GET is allowed");
    const missing = PARAMS.find((p) => q[p].trim() === "");
    if (missing !== undefined) return refuse(200, "request/missing-parameter", `missing parameter: ${missing}`);
    if (q.mitra_id !== opts.mitraId || q.secret_key !== opts.secretKey) {
      return refuse(200, "auth/invalid-credentials", "invalid partner credentials");
    }
    // Spec rule 2. The ref_id is spent by any authenticated attempt, whatever its outcome, so
    // a client that reuses a ref_id after an error meets the answer it must be ready for.
    if (usedRefIds.has(q.ref_id)) return refuse(200, "transaction/ref-id-already-exists", "ref_id already exists");
    usedRefIds.add(q.ref_id);
    const product = products.get(q.item_code.trim().toUpperCase()) ?? opts.lookup?.(q.item_code.trim());
    if (product === undefined) return refuse(200, "product/not-found", "unknown item_code");
    if (balance < product.priceRp) return refuse(200, "balance/insufficient", "insufficient balance");

    balance -= product.priceRp;
    counter += 1;
    const now = new Date();
    // Time plus a counter: digits only, unique within this process and across restarts.
    const sn = `${now.getTime()}${String(counter % 1_000_000).padStart(6, "0")}`;
    const name = sandboxPlayerName(q.destination);
    call.outcome = "success";
    return {
      httpStatus: 200,
      body: {
        status: 1,
        data: {
          trx_id: `SBX-${yymmdd(now)}-${String(counter).padStart(6, "0")}`,
          ref_id: q.ref_id,
          destination: q.destination,
          destination_name: name,
          message: `Top up ${product.name} for ${name} succeeded. SN: ${sn}`,
          sn,
          last_balance: balance,
          product_detail: {
            name: product.name,
            code: product.code,
            price: product.priceRp,
            rate: 1,
            priceRp: product.priceRp,
            status: "SUKSES",
          },
        },
      },
    };
  }

  function send(res: ServerResponse, httpStatus: number, body: unknown): void {
    if (res.destroyed) return; // the client gave up or the sandbox closed: nobody to answer
    const text = JSON.stringify(body);
    res.writeHead(httpStatus, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(text),
    });
    res.end(text);
  }

  const server = createServer((req, res) => {
    const { httpStatus, body } = handle(req);
    if (latencyMs <= 0) return send(res, httpStatus, body);
    const timer = setTimeout(() => {
      pendingAnswers.delete(timer);
      send(res, httpStatus, body);
    }, latencyMs);
    pendingAnswers.add(timer);
  });

  const provider: SandboxProvider = {
    url: "",
    calls,
    balance: () => balance,
    deposit(amountRp) {
      if (!Number.isSafeInteger(amountRp) || balance + amountRp < 0) {
        throw new RangeError("sandbox deposit must be an integer that leaves the balance at zero or more");
      }
      balance += amountRp;
      return balance;
    },
    listen(port = 0, host = "127.0.0.1") {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          const { port: actual } = server.address() as AddressInfo;
          provider.url = `http://${host.includes(":") ? `[${host}]` : host}:${actual}`;
          resolve(provider.url);
        });
      });
    },
    close() {
      for (const timer of pendingAnswers) clearTimeout(timer);
      pendingAnswers.clear();
      server.closeAllConnections();
      // Resolves even if it never listened: closing is always safe in a test's cleanup.
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return provider;
}
