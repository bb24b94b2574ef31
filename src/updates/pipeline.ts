import type { Api } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "../logger.js";
import { createLease } from "../storage/leases.js";
import type { Liveness } from "../storage/liveness.js";
import type { RedisClient } from "../storage/redis.js";
import type { Storage } from "../storage/storage.js";
import { createUpdateConsumer, DEFAULTS as CONSUMER_DEFAULTS } from "./consumer.js";
import { createPoller, type Poller } from "./poller.js";
import { createUpdateStream, type UpdateStream } from "./update-stream.js";

/** How long locks and leases last, and how often they are looked at (tests shorten them). */
export interface ReplicaTimings {
  /** A lane's lock without renewal. */
  lockMs: number;
  /** An unacknowledged entry's idle time before another process takes it. */
  claimIdleMs: number;
  claimEveryMs: number;
  readBlockMs: number;
  /** The poller's lease without renewal: a standby takes over at most this long after the poller died (+ retry). */
  pollerLeaseMs: number;
  pollerRetryMs: number;
  /** Long-poll seconds of one getUpdates. */
  pollTimeoutS: number;
}

const REPLICA_DEFAULTS: ReplicaTimings = {
  lockMs: CONSUMER_DEFAULTS.lockMs,
  claimIdleMs: CONSUMER_DEFAULTS.claimIdleMs,
  claimEveryMs: CONSUMER_DEFAULTS.claimEveryMs,
  readBlockMs: CONSUMER_DEFAULTS.readBlockMs,
  // 10 s without renewal, tried every second: a standby polls about a second after the poller was
  // killed (seen gone, storage/liveness.ts), and within about 11 s when Redis cannot tell.
  pollerLeaseMs: 10_000,
  pollerRetryMs: 1_000,
  pollTimeoutS: 30,
};

/** What a process is doing among the others: taking updates, stopping, or waiting to poll (/healthz). */
export type Serving = "ready" | "draining" | "standby";

export interface UpdatePipeline {
  readonly stream: UpdateStream;
  /** The webhook's intake: resolves once the update is stored (the POST is answered after it). */
  intake(update: Update, body: string): Promise<void>;
  /** Starts handling updates from the stream; in long-polling mode, polls or stands by. */
  start(): Promise<void>;
  /**
   * Stops taking updates (the poller gives its lease back), lets the updates being handled
   * finish, and hands the rest to the other processes. Once.
   */
  stop(): Promise<void>;
  /** "standby": long polling, and another process polls. */
  serving(): Exclude<Serving, "draining">;
}

export interface PipelineOptions {
  storage: Storage & { kind: "redis"; redis: RedisClient };
  /** This process's name (leases, consumer group). */
  owner: string;
  /** Tells whether another process is gone: what it held is taken at once (storage/liveness.ts). */
  liveness?: Liveness;
  /** Handles one update (the bot's handleUpdate). */
  handle: (update: Update, info: { attempt: number }) => Promise<void>;
  /** Long polling: the plain Api to poll with; undefined in webhook mode. */
  polling?: {
    api: Api;
    allowedUpdates: ReadonlyArray<Exclude<keyof Update, "update_id">>;
    /** When this process becomes the poller (deleteWebhook). */
    onTakeOver: () => Promise<void>;
    /** A batch fetched that could not be stored (Redis does not answer), once per batch. */
    onNotStored?: (updates: readonly Update[]) => void;
  };
  logger: Logger;
  timings?: Partial<ReplicaTimings>;
}

/**
 * How updates travel when several processes share one Redis (REDIS_URL set): every update goes
 * into the update stream before Telegram is answered (the webhook's POST, or the next getUpdates
 * of the one process that polls), and every process handles updates from the stream, a lane (a
 * chat member) at a time. See update-stream.ts for the steps, consumer.ts for the handling and
 * poller.ts for long polling. The memory store keeps the direct path (direct.ts, and grammY's
 * runner), which is for one process only.
 */
export function createUpdatePipeline(opts: PipelineOptions): UpdatePipeline {
  const t = { ...REPLICA_DEFAULTS, ...opts.timings };
  const stream = createUpdateStream(opts.storage.redis, opts.storage.prefix);
  const consumer = createUpdateConsumer({
    stream,
    redis: opts.storage.redis,
    consumer: opts.owner,
    handle: opts.handle,
    logger: opts.logger,
    lockMs: t.lockMs,
    claimIdleMs: t.claimIdleMs,
    claimEveryMs: t.claimEveryMs,
    readBlockMs: t.readBlockMs,
    ...(opts.liveness === undefined ? {} : { liveness: opts.liveness }),
  });
  let poller: Poller | undefined;
  let stopping: Promise<void> | undefined;

  return {
    stream,
    async intake(update, body) {
      await stream.intake([{ update, json: body }]);
    },
    async start() {
      await consumer.start();
      const polling = opts.polling;
      if (polling !== undefined) {
        poller = createPoller({
          api: polling.api,
          stream,
          lease: createLease(opts.storage, "poller", {
            ttlMs: t.pollerLeaseMs,
            owner: opts.owner,
            ...(opts.liveness === undefined ? {} : { liveness: opts.liveness }),
          }),
          retryMs: t.pollerRetryMs,
          allowedUpdates: polling.allowedUpdates,
          logger: opts.logger,
          timeoutS: t.pollTimeoutS,
          onTakeOver: polling.onTakeOver,
          ...(polling.onNotStored === undefined ? {} : { onNotStored: polling.onNotStored }),
        });
        poller.start();
      }
    },
    stop() {
      stopping ??= (async () => {
        await poller?.stop();
        await consumer.stop();
      })();
      return stopping;
    },
    serving: () => (poller === undefined || poller.polling() ? "ready" : "standby"),
  };
}
