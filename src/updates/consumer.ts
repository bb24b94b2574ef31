import type { Update } from "grammy/types";
import type { Logger } from "../logger.js";
import { retry } from "../retry.js";
import type { Liveness } from "../storage/liveness.js";
import type { RedisClient } from "../storage/redis.js";
import { createSleeper, createTaskTracker } from "../tasks.js";
import type { Head, HeadEntry, UpdateStream } from "./update-stream.js";

export interface ConsumerOptions {
  stream: UpdateStream;
  /** The shared connection; the blocking reads get a connection of their own (duplicate()). */
  redis: RedisClient;
  /** This process's name in the consumer group (unique per process start). */
  consumer: string;
  /**
   * Handles one update (the bot's handleUpdate); a rejection is a failed handling, tried again.
   * `attempt` > 1: its handling started before (in a process that died, or it failed).
   */
  handle: (update: Update, info: { attempt: number }) => Promise<void>;
  logger: Logger;
  /** How long a lane's lock lasts without renewal (renewed every third of it while working). */
  lockMs?: number;
  /** How long an entry sits unacknowledged in a pending list before another process takes it. */
  claimIdleMs?: number;
  /** How often idle entries are looked for. */
  claimEveryMs?: number;
  /** How long one XREADGROUP waits for new entries. */
  readBlockMs?: number;
  /** Lanes drained at once by this process (more wait their turn here). */
  maxLanes?: number;
  /** Handlings of one update that may start before it is given up (logged, marked failed). */
  maxAttempts?: number;
  /**
   * Tells whether a process is gone (storage/liveness.ts): a lane it held and the entries it had
   * pending are taken at once, not after its lock ran out and the entries' idle time.
   */
  liveness?: Liveness;
}

export interface UpdateConsumer {
  /** Creates the group if needed, then reads, claims and drains until stop(). */
  start(): Promise<void>;
  /**
   * Stops reading and claiming, lets the updates being handled finish (each is then marked done
   * and its lane released), releases the lanes not started, and hands back every entry this
   * process still has pending, so another process takes them at once. Once.
   */
  stop(): Promise<void>;
  /** Lanes this process is draining or about to. */
  active(): number;
}

/**
 * A lane's lock lasts 6 s without renewal (renewed every 2 s while an update is handled). An entry
 * delivered to a process that did not start it (its lane was busy, or the process died) is claimed
 * by another after 3 s idle; a stopping process hands its entries over at once (claimed within a
 * second). A process seen gone (killed: no connection of it open, see storage/liveness.ts) is not
 * waited for: within a second (the next look for idle entries) its pending entries are handed
 * over and its lanes taken; otherwise (Redis cannot tell) its updates are handled elsewhere about
 * 6 to 9 s after its death.
 */
export const DEFAULTS = {
  lockMs: 6_000,
  claimIdleMs: 3_000,
  claimEveryMs: 1_000,
  readBlockMs: 2_000,
  maxLanes: 500,
  maxAttempts: 5,
} as const;

/** The consumer's settings, each its option or its default. */
function settingsOf(opts: ConsumerOptions) {
  return {
    lockMs: opts.lockMs ?? DEFAULTS.lockMs,
    claimIdleMs: opts.claimIdleMs ?? DEFAULTS.claimIdleMs,
    claimEveryMs: opts.claimEveryMs ?? DEFAULTS.claimEveryMs,
    readBlockMs: opts.readBlockMs ?? DEFAULTS.readBlockMs,
    maxLanes: opts.maxLanes ?? DEFAULTS.maxLanes,
    maxAttempts: opts.maxAttempts ?? DEFAULTS.maxAttempts,
  };
}

/** What the lanes and the loops of one consumer share. */
interface Shared {
  opts: ConsumerOptions;
  settings: ReturnType<typeof settingsOf>;
  /** `stopping`: no new reads, claims or handlings; `closed`: the drains are over, the renewals end too. */
  phase: { stopping: boolean; closed: boolean };
  /** Lanes whose lock this process holds (renewed). */
  holding: Set<string>;
  /**
   * Lanes found locked by another process lately, and by whom: if that process turns out to be
   * gone, they are looked at again at once (their entries wait in this process's pending list).
   * Older than the claim idle time, the idle claims take care of them anyway.
   */
  leftTo: Map<string, { holder: string; at: number }>;
}

/** One line per streak of store errors, not one per attempt. */
function trouble(logger: Logger, what: string) {
  let failing = false;
  return {
    failed(err: unknown) {
      if (!failing) logger.error({ err }, `updates: ${what} failed; trying again`);
      failing = true;
    },
    ok() {
      if (failing) logger.info(`updates: ${what} works again`);
      failing = false;
    },
  };
}

/**
 * The lanes drained in this process: `wake(lane)` starts a drain (or tells the one under way to
 * look again, or queues the lane while `maxLanes` are drained); a drain locks the lane, handles its
 * entries in order and marks each done, until the lane is empty or another process holds it.
 */
function createLanes(shared: Shared) {
  const { opts, phase, holding, leftTo } = shared;
  const { stream, consumer, logger } = opts;
  const { lockMs, maxLanes, maxAttempts } = shared.settings;
  /** Lanes being drained here; `again`: woken while draining, look once more when done. */
  const draining = new Map<string, { again: boolean }>();
  /** Lanes waiting for a free slot (maxLanes). */
  const waiting = new Set<string>();
  const drains = createTaskTracker();

  function wake(lane: string): void {
    if (phase.stopping) return;
    const state = draining.get(lane);
    if (state !== undefined) {
      state.again = true;
      return;
    }
    if (draining.size >= maxLanes) {
      waiting.add(lane);
      return;
    }
    draining.set(lane, { again: false });
    void drains.track(
      drain(lane)
        .catch((err: unknown) => logger.error({ err, lane }, "updates: a lane stopped by an error"))
        .finally(() => {
          holding.delete(lane);
          const again = draining.get(lane)?.again === true;
          draining.delete(lane);
          if (again) wake(lane);
          const next = waiting.values().next();
          if (!next.done && draining.size < maxLanes) {
            waiting.delete(next.value);
            wake(next.value);
          }
        }),
    );
  }

  /**
   * The done step, tried again while the store does not answer: its waits are not cut short by a
   * stop, which allows it a few attempts only before the lane is given up (another process takes it).
   */
  function finish(lane: string, entry: HeadEntry, failed: boolean): Promise<Head> {
    return retry(() => stream.doneAndNext(lane, entry, consumer, lockMs, { release: phase.stopping, failed }), {
      delayMs: (attempt) => (phase.stopping && attempt >= 3 ? undefined : Math.min(2000, 100 * 2 ** attempt)),
      onRetry: (err, { attempt }) => {
        if (attempt === 1)
          logger.error({ err, updateId: entry.update.update_id }, "updates: done step failed; retrying");
      },
    });
  }

  /** Lock and head; a lane held by a process that is gone is taken from it. */
  async function take(lane: string): Promise<Head> {
    const head = await stream.lockAndHead(lane, consumer, lockMs);
    if (head.kind !== "busy") {
      leftTo.delete(lane);
      return head;
    }
    if (opts.liveness !== undefined && (await opts.liveness.gone(head.holder))) {
      const taken = await stream.lockAndHead(lane, consumer, lockMs, head.holder);
      if (taken.kind !== "busy") {
        leftTo.delete(lane);
        opts.liveness.tookOver(`lane ${lane}`, head.holder);
        return taken;
      }
      head.holder = taken.holder;
    }
    leftTo.set(lane, { holder: head.holder, at: performance.now() });
    return head;
  }

  async function drain(lane: string): Promise<void> {
    let head: Head;
    try {
      head = await take(lane);
    } catch (err) {
      // Its entries stay pending: a claim (here or elsewhere) tries the lane again.
      logger.warn({ err, lane }, "updates: lane not taken");
      return;
    }
    while (head.kind === "entry") {
      holding.add(lane);
      const entry: HeadEntry = head;
      const updateId = entry.update.update_id;
      if (phase.stopping) {
        // Not started: released, and the entry handed to whoever claims first.
        await stream
          .release(lane, entry, consumer)
          .catch((err: unknown) =>
            logger.warn(
              { err, lane },
              "updates: lane not released at stop; its lock expires and the entry is claimed later",
            ),
          );
        return;
      }
      if (entry.attempts > maxAttempts) {
        logger.error(
          { updateId, lane, attempts: entry.attempts - 1 },
          "updates: given up on an update whose handling failed every time (marked failed)",
        );
        head = await finish(lane, entry, true);
        continue;
      }
      if (entry.attempts > 1) logger.warn({ updateId, attempt: entry.attempts }, "updates: handling an update again");
      try {
        await opts.handle(entry.update, { attempt: entry.attempts });
      } catch (err) {
        logger.error(
          { err, updateId, attempt: entry.attempts },
          "updates: handling failed; the update will be tried again",
        );
        await stream
          .giveBack(lane, entry, consumer)
          .catch((err: unknown) =>
            logger.warn(
              { err, lane, updateId },
              "updates: update not given back; its lock expires and it is claimed later",
            ),
          );
        return;
      }
      head = await finish(lane, entry, false);
    }
    if (head.kind === "lost") logger.warn({ lane }, "updates: a lane's lock was lost while it was worked on");
  }

  return {
    wake,
    /** The drains under way (a stop waits for them). */
    idle: () => drains.idle(),
    /** Forgets the lanes waiting for a slot (at stop: their entries are handed back). */
    forgetWaiting: () => waiting.clear(),
    active: () => draining.size,
  };
}

type Lanes = ReturnType<typeof createLanes>;

/**
 * The three loops of a consumer: reading what is delivered to it, claiming what processes gone (or
 * stopping) left, and renewing the locks of the lanes it drains. `pause` ends at a stop; `renewal`
 * only once the drains are over.
 */
function createLoops(
  shared: Shared,
  lanes: Lanes,
  waits: { pause: (ms: number) => Promise<void>; renewal: (ms: number) => Promise<void> },
  reader: () => RedisClient | undefined,
) {
  const { opts, phase, holding, leftTo } = shared;
  const { stream, consumer, logger } = opts;
  const { lockMs, claimIdleMs, claimEveryMs, readBlockMs } = shared.settings;
  const { pause } = waits;
  const wake = lanes.wake;

  async function readLoop(): Promise<void> {
    const state = trouble(logger, "reading the update stream");
    while (!phase.stopping) {
      try {
        const r = reader();
        if (r === undefined || !r.isReady) {
          await pause(200);
          continue;
        }
        const delivered = await stream.read(r, consumer, 100, readBlockMs);
        state.ok();
        for (const d of delivered) wake(d.lane);
      } catch (err) {
        if (phase.stopping) return;
        state.failed(err);
        await pause(500);
      }
    }
  }

  /**
   * What processes that are gone left: their pending entries are handed over (claimable at once),
   * and the lanes this process left to them are looked at again (their locks are taken there).
   */
  async function rescue(liveness: Liveness): Promise<void> {
    const now = performance.now();
    for (const [lane, left] of leftTo) if (now - left.at > claimIdleMs) leftTo.delete(lane);
    const suspects = new Set<string>();
    for (const c of await stream.consumers()) if (c.name !== consumer && c.pending > 0) suspects.add(c.name);
    for (const left of leftTo.values()) suspects.add(left.holder);
    if (suspects.size === 0) return;
    const gone = (await Promise.all([...suspects].map(async (s) => ((await liveness.gone(s)) ? s : undefined)))).filter(
      (s): s is string => s !== undefined,
    );
    for (const owner of gone) {
      const handed = await stream.handBack(owner);
      if (handed > 0) liveness.tookOver(`${handed} pending updates`, owner);
      for (const [lane, left] of leftTo) {
        if (left.holder !== owner) continue;
        leftTo.delete(lane);
        wake(lane);
      }
    }
  }

  async function claimLoop(): Promise<void> {
    const state = trouble(logger, "claiming idle updates");
    // The first look at once: a restarted process takes what its previous run left without waiting.
    while (!phase.stopping) {
      try {
        if (opts.liveness !== undefined) await rescue(opts.liveness);
        for (const d of await stream.claimIdle(consumer, claimIdleMs, 100)) wake(d.lane);
        state.ok();
      } catch (err) {
        state.failed(err);
      }
      await pause(claimEveryMs);
    }
  }

  async function renewLoop(): Promise<void> {
    const state = trouble(logger, "renewing lane locks");
    while (!phase.closed) {
      await waits.renewal(Math.floor(lockMs / 3));
      if (phase.closed || holding.size === 0) continue;
      try {
        const lost = await stream.renewLocks([...holding], consumer, lockMs);
        // A lane released by its drain at the same moment looks the same here; the drain itself
        // says when a lock was really lost (its done step finds another holder).
        for (const lane of lost) logger.debug({ lane }, "updates: lane lock not renewed (released, or expired)");
        state.ok();
      } catch (err) {
        state.failed(err);
      }
    }
  }

  return { readLoop, claimLoop, renewLoop };
}

/**
 * The handling side of the update stream in one process: reads the entries delivered to it,
 * claims those a dead (or stopping) process left, and for each lane they name, drains the lane if
 * no other process does: lock, head, handle, done and next, until the lane is empty. A lane found
 * locked by another process is left to it (it drains every entry of the lane, whichever process
 * they were delivered to). See update-stream.ts for the steps in Redis.
 *
 * What may happen twice: a process killed after an update was handled and before its "done" step
 * (a few milliseconds) leaves it to be handled again by another process; so does a Redis outage
 * longer than a lock while an update is being finished. Everything that must happen once (an
 * order's submit, money) has its own guard in the ledger; an update is never lost.
 */
export function createUpdateConsumer(opts: ConsumerOptions): UpdateConsumer {
  const { stream, consumer, logger } = opts;
  const shared: Shared = {
    opts,
    settings: settingsOf(opts),
    phase: { stopping: false, closed: false },
    holding: new Set(),
    leftTo: new Map(),
  };
  const { phase } = shared;
  let reader: RedisClient | undefined;
  let stopped: Promise<void> | undefined;
  let loops: Promise<unknown>[] = [];
  /** The read and claim loops' waits, none once stopping; the lock renewals' go on until closed. */
  const pauses = createSleeper(() => phase.stopping);
  const renewals = createSleeper(() => phase.closed);
  const wakeSleepers = () => {
    pauses.wakeAll();
    renewals.wakeAll();
  };
  const lanes = createLanes(shared);
  const { readLoop, claimLoop, renewLoop } = createLoops(
    shared,
    lanes,
    { pause: pauses.pause, renewal: renewals.pause },
    () => reader,
  );

  return {
    async start() {
      await stream.ensureGroup();
      const r = opts.redis.duplicate();
      r.on("error", () => undefined); // the read loop reports trouble, once per streak
      await r.connect();
      reader = r;
      loops = [readLoop(), claimLoop(), renewLoop()];
    },

    stop() {
      stopped ??= (async () => {
        phase.stopping = true;
        wakeSleepers();
        // A blocked XREADGROUP is cut short: whatever it was handed stays pending, handed back below.
        reader?.destroy();
        lanes.forgetWaiting();
        await lanes.idle();
        phase.closed = true;
        wakeSleepers();
        await Promise.allSettled(loops);
        try {
          const handed = await stream.handBack(consumer);
          if (handed > 0) logger.info({ handed }, "updates: entries not started handed back to the other processes");
        } catch (err) {
          logger.warn({ err }, "updates: entries not handed back; other processes take them once they are idle");
        }
      })();
      return stopped;
    },

    active: () => lanes.active(),
  };
}
