import { createHash, randomBytes } from "node:crypto";
import { createLease } from "../storage/leases.js";
import type { Liveness } from "../storage/liveness.js";
import type { Storage } from "../storage/storage.js";

/**
 * The webhook's secret token: WEBHOOK_SECRET when it is set. Without it, the memory store (one
 * process) makes one per start; with Redis every process must answer the same one, so the first
 * process to start makes it and keeps it in Redis (`<prefix>webhook:secret`, SET NX), and every
 * other process reads that one. It stays there across restarts (a restart need not call
 * setWebhook with a new one); deleting the key makes a new one at the next start.
 */
export async function webhookSecretFor(storage: Storage, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured;
  const fresh = randomBytes(32).toString("hex");
  if (storage.kind !== "redis") return fresh;
  const key = `${storage.prefix}webhook:secret`;
  await storage.redis.set(key, fresh, { condition: "NX" });
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
 * for its holder. The memory store has one process: it always registers.
 */
export async function registerWebhookOnce(opts: {
  storage: Storage;
  owner: string;
  /** A registering process that was killed is not waited for (storage/liveness.ts). */
  liveness?: Liveness;
  /** What makes a registration the same: URL, secret, allowed updates. */
  parts: readonly string[];
  register: () => Promise<void>;
}): Promise<"registered" | "already"> {
  const { storage } = opts;
  if (storage.kind !== "redis") {
    await opts.register();
    return "registered";
  }
  const key = `${storage.prefix}webhook:registered`;
  const fingerprint = createHash("sha256").update(opts.parts.join("\n")).digest("hex");
  const lease = createLease(storage, "webhook", {
    ttlMs: LEASE_MS,
    owner: opts.owner,
    ...(opts.liveness === undefined ? {} : { liveness: opts.liveness }),
  });
  for (;;) {
    if ((await storage.redis.get(key)) === fingerprint) return "already";
    if (await lease.acquire()) {
      try {
        if ((await storage.redis.get(key)) === fingerprint) return "already";
        await opts.register();
        await storage.redis.set(key, fingerprint, { expiration: { type: "PX", value: REGISTERED_MS } });
        return "registered";
      } finally {
        await lease.release();
      }
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  }
}

/** Long polling took over: a later switch back to the webhook registers it again. */
export async function forgetWebhookRegistration(storage: Storage): Promise<void> {
  if (storage.kind === "redis") await storage.redis.del(`${storage.prefix}webhook:registered`);
}
