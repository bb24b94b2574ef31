import { autoRetry } from "@grammyjs/auto-retry";
import { Api, GrammyError } from "grammy";
import type { Logger } from "../logger.js";
import { retry, sleep } from "../retry.js";
import { whileHeld, type Lease } from "../storage/leases.js";
import type { Broadcast, BroadcastStore, RecipientOutcome } from "./broadcast-store.js";

/**
 * 50 ms between two messages: at most 20 a second, well below Telegram's ~30 a second for a bot
 * (the admin's progress edits and the bot's other answers fit in the rest).
 */
export const DEFAULT_BROADCAST_INTERVAL_MS = 50;
/** The admin's preview shows the progress every this many recipients. */
export const PROGRESS_EVERY = 25;
/** The longest text accepted: with the header it stays below Telegram's 4096 characters. */
export const MAX_BROADCAST_LENGTH = 3500;
/** Waits between attempts while the store does not answer (a Redis restart). */
const STORE_RETRY_MS = 2_000;
/** A broadcast's lease without renewal: another process goes on with it this long after its sender died. */
export const BROADCAST_LEASE_MS = 15_000;

/**
 * The Api that sends broadcast messages. Unlike bot.api it retries only what Telegram refused
 * before sending (429 with retry_after, a few times, never over 5 s a wait): a network error or a
 * 5xx may have delivered the message, so it is counted as failed and never sent again.
 */
export function createBroadcastApi(token: string, apiRoot: string): Api {
  const api = new Api(token, { apiRoot });
  api.config.use(
    autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 5, rethrowHttpErrors: true, rethrowInternalServerErrors: true }),
  );
  return api;
}

/** What one recipient's message turns into: an outcome, or "not sent, try again after waitMs". */
type SendResult = { kind: "outcome"; outcome: RecipientOutcome } | { kind: "again"; waitMs: number };

export const processedOf = (b: Broadcast) =>
  b.counts.delivered + b.counts.blocked + b.counts.failed + b.counts.interrupted;

/**
 * The words of a broadcast, each in its reader's language: handed in by the bot, which owns the
 * texts and knows each user's language. The sender only paces, claims and counts.
 */
export interface BroadcastTexts {
  /** The message exactly as `userId` gets it (HTML). */
  message(userId: number, b: Broadcast): Promise<string>;
  /** The admin's preview of `b`, showing where it stands. */
  preview(b: Broadcast): Promise<string>;
  /** The final count for the admin. */
  report(b: Broadcast): Promise<string>;
}

/** What a store step throws once stop() came: the broadcast ends quietly, to go on at the next resume(). */
class Stopping extends Error {}

export interface BroadcasterDeps {
  store: BroadcastStore;
  /** The bot's Api: the admin's preview, progress and final count. */
  api: Api;
  /** The Api the broadcast messages go through (createBroadcastApi). */
  sendApi: Api;
  texts: BroadcastTexts;
  logger: Logger;
  /** The pause after each message; 0 in tests. */
  intervalMs?: number;
  progressEvery?: number;
  now?: () => Date;
  /**
   * The lease of one broadcast (storage/leases.ts, `broadcast:<id>`): with several processes, the
   * one holding it sends that broadcast, the others leave it alone; a holder that dies lets it run
   * out and the next look for active broadcasts (resume()) in any process goes on with it. Without
   * it, one process is assumed (the memory store).
   */
  lease?: (id: string) => Lease;
}

/** Sends one recipient their message: its outcome, or "again" when Telegram asked to wait (nothing sent). */
async function sendOne(deps: BroadcasterDeps, b: Broadcast, userId: number): Promise<SendResult> {
  const { logger } = deps;
  const text = await deps.texts.message(userId, b);
  try {
    await deps.sendApi.sendMessage(userId, text, { parse_mode: "HTML" });
    return { kind: "outcome", outcome: "delivered" };
  } catch (err) {
    if (err instanceof GrammyError && err.error_code === 429) {
      // Refused before sending (auto-retry gave up on a long wait): not sent, so safe to try again.
      return { kind: "again", waitMs: Math.max(1, err.parameters.retry_after ?? 1) * 1000 };
    }
    const blocked = err instanceof GrammyError && err.error_code === 403;
    logger.info(
      {
        broadcast: b.id,
        userId,
        code: err instanceof GrammyError ? err.error_code : undefined,
        err: err instanceof GrammyError ? err.description : err,
      },
      blocked ? "broadcast: blocked by the user" : "broadcast: not delivered",
    );
    return { kind: "outcome", outcome: blocked ? "blocked" : "failed" };
  }
}

/** Brings the admin's preview up to date. Cosmetic: a failure is only logged. */
async function showStatus(deps: BroadcasterDeps, b: Broadcast): Promise<void> {
  if (b.previewMessageId === undefined) return;
  await deps.api
    .editMessageText(b.chatId, b.previewMessageId, await deps.texts.preview(b))
    .catch((err: unknown) => deps.logger.debug({ err, broadcast: b.id }, "broadcast preview not edited"));
}

/** The final count to the admin, then recorded (a restart before that sends it again). */
async function report(deps: BroadcasterDeps, b: Broadcast, now: () => Date): Promise<void> {
  const { logger } = deps;
  await showStatus(deps, b);
  const text = await deps.texts.report(b);
  try {
    await deps.api.sendMessage(b.chatId, text);
  } catch (err) {
    logger.warn({ err, broadcast: b.id }, "broadcast count not sent to the admin");
    // A network error: the next start tries again. Telegram's refusal would not change.
    if (!(err instanceof GrammyError)) return;
  }
  await deps.store.markReported(b.id, now().toISOString());
  logger.info({ broadcast: b.id, total: b.total, ...b.counts }, "broadcast finished");
}

/**
 * Sends confirmed broadcasts, one recipient after the other at a steady pace. Each recipient is
 * claimed in the store before their message goes out and their outcome recorded after, so a
 * restart never sends anyone the same broadcast twice. stop() ends the loops between two sends.
 */
export function createBroadcaster(deps: BroadcasterDeps) {
  const { store, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const intervalMs = deps.intervalMs ?? DEFAULT_BROADCAST_INTERVAL_MS;
  const progressEvery = deps.progressEvery ?? PROGRESS_EVERY;
  const running = new Map<string, Promise<void>>();
  /** Aborted by stop(): waits end, and a store step that fails is not tried again. */
  const halt = new AbortController();
  const stopping = () => halt.signal.aborted;
  /** When the next message may go out: one pace for all the broadcasts of this process. */
  let nextSendAt = 0;

  /** Waits, unless stop() comes first. */
  function pause(ms: number): Promise<void> {
    return ms <= 0 ? Promise.resolve() : sleep(ms, halt.signal);
  }

  /** Waits for this message's turn: messages `intervalMs` apart, however many broadcasts run. */
  function pace(): Promise<void> {
    const t = Date.now();
    const at = Math.max(t, nextSendAt);
    nextSendAt = at + intervalMs;
    return pause(at - t);
  }

  /** A store step, tried again (every 2 s) while the store does not answer, until stop() (then Stopping). */
  function retrying<T>(what: string, id: string, step: () => Promise<T>): Promise<T> {
    return retry(step, {
      delayMs: () => STORE_RETRY_MS,
      onRetry: (err) => logger.warn({ err, broadcast: id }, `broadcast: ${what} failed; trying again`),
      signal: halt.signal,
    });
  }

  /** Sends a broadcast while this process holds its lease (renewed as it goes); nothing if another holds it. */
  async function runLeased(id: string, recover: boolean): Promise<void> {
    const lease = deps.lease?.(id);
    if (lease === undefined) return run(id, recover, () => true);
    if (!(await retrying("lease", id, () => lease.acquire()))) return;
    // Taken over from a process that stopped: its claims whose outcome it never recorded are
    // counted as interrupted (never sent again). Nobody else sends it now: this process holds the lease.
    await whileHeld(lease, (stillHeld) => run(id, true, stillHeld), {
      onLost: () => logger.warn({ broadcast: id }, "broadcast: lease lost; another process goes on with it"),
      onRenewError: (err, sinceMs) => logger.warn({ err, broadcast: id, sinceMs }, "broadcast: lease not renewed"),
      onReleaseError: (err) => logger.warn({ err, broadcast: id }, "broadcast: lease not given back"),
    });
  }

  async function run(id: string, recover: boolean, held: () => boolean): Promise<void> {
    if (recover) {
      const interrupted = await retrying("recovery", id, () => store.interruptClaimed(id));
      if (interrupted > 0)
        logger.warn({ broadcast: id, interrupted }, "broadcast: sends interrupted by a stop, not repeated");
    }
    const b = await retrying("read", id, () => store.get(id));
    if (b === undefined) return;
    if (b.state === "done") return b.reportedAt === undefined ? report(deps, b, now) : undefined;
    for (;;) {
      // The wait comes before the claim: a stop during it leaves nobody claimed and unsent.
      await pace();
      if (stopping() || !held()) return;
      const claim = await retrying("claim", id, () => store.claimNext(id, now().toISOString()));
      if (claim.kind === "over" || claim.kind === "wait") return;
      if (claim.kind === "finished") return report(deps, claim.broadcast, now);
      const result = await sendOne(deps, b, claim.userId);
      if (result.kind === "again") {
        await retrying("release", id, () => store.release(id, claim.userId));
        logger.warn({ broadcast: id, waitMs: result.waitMs }, "broadcast: Telegram asks to slow down");
        // Every broadcast of this process holds back, not only this one.
        nextSendAt = Math.max(nextSendAt, Date.now() + result.waitMs);
        continue;
      }
      const after = await retrying("record", id, () => store.record(id, claim.userId, result.outcome));
      if (after === undefined) return;
      const processed = processedOf(after);
      if (processed % progressEvery === 0 && processed < after.total) await showStatus(deps, after);
    }
  }

  function launch(id: string, recover: boolean): void {
    if (stopping() || running.has(id)) return;
    const work = runLeased(id, recover)
      .catch((err: unknown) => {
        if (!(err instanceof Stopping)) logger.error({ err, broadcast: id }, "broadcast stopped by an error");
      })
      .finally(() => running.delete(id));
    running.set(id, work);
  }

  return {
    /** Starts sending a broadcast Confirm has just turned to `sending` (once per process). */
    start: (id: string) => launch(id, false),
    /**
     * After a restart: every broadcast left sending goes on (its interrupted claims counted, never
     * sent again), and a finished one whose count the admin did not get is reported. Starts the
     * sending and returns; stop() waits for it.
     */
    async resume(): Promise<void> {
      for (const b of await store.active()) {
        if (b.state === "sending" || b.state === "done") launch(b.id, b.state === "sending");
      }
    },
    /** Ends every loop after the message in flight; resolves once they have stopped. */
    async stop(): Promise<void> {
      halt.abort(new Stopping());
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
    /** Resolves when no broadcast is being sent by this process (for tests). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
  };
}

export type Broadcaster = ReturnType<typeof createBroadcaster>;
