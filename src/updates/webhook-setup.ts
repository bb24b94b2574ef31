import { createHash, randomBytes } from "node:crypto";
import { retry } from "../retry.js";
import { createLease } from "../storage/leases.js";
import type { Liveness } from "../storage/liveness.js";
import type { Storage } from "../storage/storage.js";

/** The storage of several processes: what they register together is kept in Redis. */
type SharedStorage = Extract<Storage, { kind: "redis" }>;

/** A webhook secret token of 64 hex characters, for one process that keeps it only in memory. */
export function freshWebhookSecret(): string {
  return randomBytes(32).toString("hex");
}

/**
 * The webhook's secret token when every process must answer the same one: WEBHOOK_SECRET when it
 * is set; else the first process to start makes one and keeps it in Redis
 * (`<prefix>webhook:secret`, SET NX), and every other process reads that one. It stays there across
 * restarts (a restart need not call setWebhook with a new one); deleting the key makes a new one at
 * the next start.
 */
export async function sharedWebhookSecret(storage: SharedStorage, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured;
  const key = `${storage.prefix}webhook:secret`;
  await storage.redis.set(key, freshWebhookSecret(), { condition: "NX" });
  const kept = await storage.redis.get(key);
  if (kept === null) throw new Error("the shared webhook secret could not be kept in Redis");
  return kept;
}

/** How long a registration is taken as done by the other processes (a rolling restart fits in it). */
const REGISTERED_MS = 10 * 60 * 1000;
const LEASE_MS = 15_000;
const WAIT_MS = 200;

/**
 * Calls `register` (setWebhook) once among the processes: under the lease `webhook`, only when no
 * process registered the same URL, secret and update kinds in the last ten minutes (kept in
 * `<prefix>webhook:registered` as a hash of the three). A process that finds the lease taken waits
 * for its holder, however long; a Redis error fails the registration at once.
 */
export async function registerWebhookOnce(opts: {
  storage: SharedStorage;
  owner: string;
  /** A registering process that was killed is not waited for (storage/liveness.ts). */
  liveness?: Liveness;
  /** What makes a registration the same: URL, secret, allowed updates. */
  parts: readonly string[];
  register: () => Promise<void>;
}): Promise<"registered" | "already"> {
  const { storage } = opts;
  const key = `${storage.prefix}webhook:registered`;
  const fingerprint = createHash("sha256").update(opts.parts.join("\n")).digest("hex");
  const lease = createLease(storage, "webhook", {
    ttlMs: LEASE_MS,
    owner: opts.owner,
    ...(opts.liveness === undefined ? {} : { liveness: opts.liveness }),
  });
  const registered = async () => (await storage.redis.get(key)) === fingerprint;
  const turn = await retry(async () => ((await registered()) ? "already" : (await lease.acquire()) ? "held" : "busy"), {
    again: (found) => found === "busy",
    delayMs: () => WAIT_MS,
    retryOn: () => false,
  });
  if (turn === "already") return "already";
  try {
    if (await registered()) return "already";
    await opts.register();
    await storage.redis.set(key, fingerprint, { expiration: { type: "PX", value: REGISTERED_MS } });
    return "registered";
  } finally {
    await lease.release();
  }
}

/** Long polling took over: a later switch back to the webhook registers it again. */
export async function forgetWebhookRegistration(storage: SharedStorage): Promise<void> {
  await storage.redis.del(`${storage.prefix}webhook:registered`);
}
