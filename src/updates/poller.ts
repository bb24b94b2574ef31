import { GrammyError, type Api } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "../logger.js";
import { keepLease, type Lease, type LeaseKeeper } from "../storage/leases.js";
import { retry, sleep } from "../retry.js";
import type { UpdateStream } from "./update-stream.js";

export interface PollerOptions {
  /** A plain Api (no auto-retry: a failed getUpdates is simply asked again). */
  api: Api;
  stream: UpdateStream;
  /** The lease `poller`: one process at a time polls. */
  lease: Lease;
  /** How often a standby tries to take the lease. */
  retryMs: number;
  allowedUpdates: ReadonlyArray<Exclude<keyof Update, "update_id">>;
  logger: Logger;
  /** Long-poll seconds per getUpdates (Telegram holds an empty one that long). */
  timeoutS?: number;
  /** Called when the lease is taken (polling) or lost (standby again), once each time. */
  onRole?: (role: "polling" | "standby") => void;
  /** Called when the poller took the lease: a webhook left over would stop getUpdates. */
  onTakeOver?: () => Promise<void>;
  /**
   * Called once per batch fetched that could not be stored (Redis does not answer): its users may
   * be told so (the updates stay with Telegram and are handled once Redis is back).
   */
  onNotStored?: (updates: readonly Update[]) => void;
}

export interface Poller {
  start(): void;
  /** This process holds the lease (and so polls). */
  polling(): boolean;
  /** Stops polling (a getUpdates in flight is cut short: what it held is not confirmed) and gives the lease back. */
  stop(): Promise<void>;
}

/** Storing a batch is tried again after 250 ms, then twice as long each time, up to 5 s. */
const STORE_RETRY_MS = 250;
const STORE_RETRY_MAX_MS = 5_000;
const ERROR_RETRY_MS = 1_000;

/**
 * Long polling among several processes: the one holding the lease `poller` calls getUpdates with
 * the offset stored in Redis, puts each batch into the update stream together with the next
 * offset, in one step that is refused when the lease moved on (the fencing token), and only then
 * asks for the next batch, which confirms the previous one to Telegram. A process killed at any
 * moment has confirmed only updates that are in the stream; the others wait as standbys, trying
 * the lease every `retryMs`, and one takes over once the lease runs out (its `ttlMs` after the last
 * renewal), from the stored offset. Every process handles updates from the stream, standby or not.
 */
export function createPoller(opts: PollerOptions): Poller {
  const { api, stream, logger } = opts;
  const timeout = opts.timeoutS ?? 30;
  /** Aborted at stop(): every wait ends, and no new attempt to store a batch starts. */
  const halt = new AbortController();
  const stopping = () => halt.signal.aborted;
  let keeper: LeaseKeeper | undefined;
  let current: AbortController | undefined;
  let loop: Promise<void> = Promise.resolve();
  /** How many times the lease was taken (each hold counted once). */
  let holds = 0;
  const pause = (ms: number) => sleep(ms, halt.signal);

  const holding = () => keeper?.held() === true && !stopping();

  /**
   * Stores a batch; "fenced" when the lease moved on (or ran out here while Redis did not answer);
   * tried again while Redis does not answer, waiting longer each time (no getUpdates meanwhile).
   */
  async function store(updates: Update[], offset: number): Promise<"stored" | "fenced" | "stopped"> {
    try {
      return await retry(
        async (attempt) => {
          const fence = opts.lease.fence();
          if (fence === undefined || stopping()) return fence === undefined ? "fenced" : "stopped";
          const r = await stream.intake(
            updates.map((update) => ({ update })),
            { fence, offset },
          );
          if (attempt > 1) logger.info({ attempts: attempt }, "polling: updates stored again");
          return r.kind;
        },
        {
          delayMs: (attempt) => Math.min(STORE_RETRY_MAX_MS, STORE_RETRY_MS * 2 ** (attempt - 1)),
          onRetry: (err, { attempt }) => {
            // Not stored, so not confirmed: Telegram keeps them until a poller stores them.
            if (attempt === 1) {
              logger.error({ err }, "polling: updates not stored (Redis); trying again, they stay with Telegram");
              opts.onNotStored?.(updates);
            } else {
              logger.debug({ attempt, updates: updates.length }, "polling: updates still not stored; trying again");
            }
          },
          signal: halt.signal,
        },
      );
    } catch (err) {
      if (!halt.signal.aborted) throw err;
      return opts.lease.fence() === undefined ? "fenced" : "stopped";
    }
  }

  async function poll(): Promise<void> {
    /** The hold onTakeOver was called for (once per hold, not at every pass of this loop). */
    let tookOver = 0;
    let offsetFailing = false;
    while (!stopping()) {
      await keeper!.whenHeld();
      if (stopping()) return;
      if (tookOver !== holds) {
        tookOver = holds;
        await opts.onTakeOver?.().catch((err: unknown) => logger.warn({ err }, "polling: deleteWebhook failed"));
      }
      let offset: number;
      try {
        offset = await stream.offset();
        offsetFailing = false;
      } catch (err) {
        if (!offsetFailing) logger.error({ err }, "polling: stored offset not read; trying again");
        offsetFailing = true;
        await pause(ERROR_RETRY_MS);
        continue;
      }
      while (holding()) {
        const controller = new AbortController();
        current = controller;
        let updates: Update[];
        try {
          updates = await api.getUpdates(
            {
              ...(offset > 0 ? { offset } : {}),
              limit: 100,
              timeout,
              allowed_updates: opts.allowedUpdates,
            },
            // grammY types its signal with the abort-controller shim's AbortSignal; Node's is the same thing.
            controller.signal as unknown as Parameters<Api["getUpdates"]>[1],
          );
        } catch (err) {
          if (controller.signal.aborted || stopping()) break;
          const conflict = err instanceof GrammyError && err.error_code === 409;
          logger.warn(
            { err: err instanceof GrammyError ? err.description : err },
            conflict ? "polling: another getUpdates is running (409); trying again" : "polling: getUpdates failed",
          );
          await pause(ERROR_RETRY_MS);
          continue;
        } finally {
          current = undefined;
        }
        if (updates.length === 0) continue;
        const next = updates.at(-1)!.update_id + 1;
        const stored = await store(updates, next);
        if (stored !== "stored") {
          if (stored === "fenced")
            logger.warn(
              "polling: the lease moved on (or ran out while Redis did not answer); the batch stays with Telegram",
            );
          break;
        }
        offset = next;
      }
    }
  }

  return {
    start() {
      keeper = keepLease(opts.lease, {
        retryMs: opts.retryMs,
        onAcquired: () => {
          holds++;
          logger.info("polling: this process polls now");
          opts.onRole?.("polling");
        },
        onLost: () => {
          logger.warn("polling: lease lost; standing by");
          current?.abort();
          opts.onRole?.("standby");
        },
        onError: (err) => logger.debug({ err }, "polling: lease not reached"),
      });
      loop = poll().catch((err: unknown) => logger.error({ err }, "polling stopped by an error"));
    },
    polling: () => holding(),
    async stop() {
      halt.abort();
      current?.abort();
      const k = keeper;
      // whenHeld() resolves at stop, so the loop ends.
      const stopped = k?.stop();
      await loop;
      await stopped;
    },
  };
}
