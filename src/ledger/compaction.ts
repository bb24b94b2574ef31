import type { Logger } from "../logger.js";
import { whileHeld, type Lease } from "../storage/leases.js";
import type { CompactResult, Ledger } from "../orders/ledger.js";

const DAY = 24 * 60 * 60 * 1000;
/** How long the compaction lease lasts without renewal (a process killed mid-pass frees it then). */
export const COMPACTION_LEASE_MS = 60_000;

/**
 * The ledger's compaction, run in the background: a pass at start, then one every
 * LEDGER_COMPACT_EVERY_MS, in one process at a time (the lease). A pass compacts finished orders
 * submitted more than LEDGER_HOT_DAYS days ago (ledger.ts: compact). It stops early when the bot
 * stops or the lease is lost; whatever it did not reach, the next pass does.
 */
export function createCompaction(deps: {
  ledger: Pick<Ledger, "compact">;
  lease: Lease;
  hotDays: number;
  everyMs: number;
  logger: Logger;
  now: () => Date;
}) {
  const { logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<CompactResult | undefined> | undefined;
  let stopped = false;

  async function pass(): Promise<CompactResult | undefined> {
    if (!(await deps.lease.acquire())) return undefined; // another process is compacting
    // A renewal the store did not answer ends the pass too (the next pass goes on).
    let unanswered = false;
    return whileHeld(
      deps.lease,
      async (stillHeld) => {
        const now = deps.now();
        const result = await deps.ledger.compact({
          before: new Date(now.getTime() - deps.hotDays * DAY),
          now,
          shouldStop: () => stopped || unanswered || !stillHeld(),
        });
        if (result.orders > 0 || result.movements > 0) {
          logger.info(
            result,
            `ledger compacted: ${result.orders} orders and ${result.movements} statement movements packed`,
          );
        }
        return result;
      },
      {
        onRenewError: () => void (unanswered = true),
        onReleaseError: (err) => logger.warn({ err }, "compaction lease not released"),
      },
    );
  }

  /** One pass now, or the one already running. Undefined when another process holds the lease (or it failed). */
  function runOnce(): Promise<CompactResult | undefined> {
    if (stopped) return Promise.resolve(undefined);
    running ??= pass()
      .catch((err: unknown) => {
        logger.error({ err }, "ledger compaction failed; the next pass goes on");
        return undefined;
      })
      .finally(() => (running = undefined));
    return running;
  }

  return {
    runOnce,
    start(): void {
      void runOnce();
      timer = setInterval(() => void runOnce(), deps.everyMs);
      timer.unref();
    },
    /** No new pass; the one running stops at its next step. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

export type Compaction = ReturnType<typeof createCompaction>;
