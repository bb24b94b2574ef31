import { BROADCAST_LEASE_MS } from "../broadcast/sender.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { createLease, type Lease } from "../storage/leases.js";
import type { Liveness } from "../storage/liveness.js";
import type { Storage } from "../storage/storage.js";
import { createUpdatePipeline, type ReplicaTimings } from "../updates/pipeline.js";
import { oneProcessBackground, sharedBackground, type Background, type BackgroundDeps } from "./background.js";
import {
  directWebhook,
  runnerPolling,
  streamPolling,
  streamPollingSource,
  streamWebhook,
  type Intake,
  type IntakeDeps,
  type StreamDeps,
} from "./intake.js";

/** Several processes on one Redis: how long locks and leases last (tests shorten them). */
export type ReplicaOptions = Partial<ReplicaTimings> & {
  /** The lease of the shared background work (recovery, broadcasts, notices). */
  maintenanceLeaseMs?: number;
  maintenanceRetryMs?: number;
  broadcastLeaseMs?: number;
};

/** The parts of the app that differ with the runtime, built once the bot can handle updates. */
export interface RuntimeParts {
  /** At start, before anything reads the store: what the store must show first. */
  ready: () => Promise<void>;
  intake: Intake;
  background: Background;
}

/**
 * How this process runs, chosen once: one process on the memory store, or one of several on
 * Redis; long polling or the webhook. Every part that differs between them comes from here.
 */
export interface Runtime {
  /** A lease per broadcast when another process could send it too; none in one process. */
  broadcastLease: ((id: string) => Lease) | undefined;
  /** Builds the intake of updates and the background work. */
  build(deps: IntakeDeps & BackgroundDeps): Promise<RuntimeParts>;
}

/**
 * The one place that looks at REDIS_URL (through the storage it gave) and WEBHOOK_URL to decide
 * how the bot runs. The memory store is one process: updates go straight to the bot and the
 * background work is its own. Redis is one or several processes: every update goes through the
 * update stream and the background work is shared under a lease.
 */
export function chooseRuntime(
  config: Config,
  storage: Storage,
  ctx: { owner: string; liveness: Liveness; logger: Logger; replicas?: ReplicaOptions | undefined },
): Runtime {
  const webhook = config.webhook;
  if (storage.kind === "memory") {
    ctx.logger.warn(
      "REDIS_URL is not set: using an in-process memory store; conversations and the order ledger are lost at restart, " +
        "and it serves one bot process only: a second process would share nothing with this one (and this one cannot " +
        "see it), so run several processes only with REDIS_URL",
    );
    return {
      broadcastLease: undefined,
      build: async (deps) => ({
        ready: async () => undefined,
        intake: webhook === undefined ? runnerPolling(deps) : directWebhook(deps, webhook),
        background: oneProcessBackground(deps),
      }),
    };
  }
  const { owner, liveness, replicas } = ctx;
  return {
    broadcastLease: (id) =>
      createLease(storage, `broadcast:${id}`, {
        ttlMs: replicas?.broadcastLeaseMs ?? BROADCAST_LEASE_MS,
        owner,
        liveness,
      }),
    async build(deps) {
      const shared: StreamDeps = { ...deps, storage, owner, liveness };
      const pipeline = createUpdatePipeline({
        storage,
        owner,
        liveness,
        handle: deps.handle,
        logger: deps.logger,
        ...(replicas === undefined ? {} : { timings: replicas }),
        ...(webhook === undefined ? { polling: streamPollingSource(shared) } : {}),
      });
      return {
        // Whether a process killed outright can be told from one that lives (says so when not).
        ready: async () => void (await liveness.probe()),
        intake:
          webhook === undefined ? streamPolling(shared, pipeline) : await streamWebhook(shared, pipeline, webhook),
        background: sharedBackground({
          ...deps,
          storage,
          owner,
          liveness,
          stream: pipeline.stream,
          leaseMs: replicas?.maintenanceLeaseMs,
          retryMs: replicas?.maintenanceRetryMs,
        }),
      };
    },
  };
}
