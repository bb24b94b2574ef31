import type { Logger } from "../logger.js";
import type { OrderRecord } from "../orders/order.js";
import type { OrderService } from "../orders/order-service.js";
import type { DepositRequests } from "../deposits/request-service.js";
import type { Deposits } from "../deposits/admin-deposits.js";
import type { Broadcaster } from "../broadcast/sender.js";
import type { Storage } from "../storage/storage.js";
import { createLease, keepLease, type LeaseKeeper } from "../storage/leases.js";
import type { Liveness } from "../storage/liveness.js";
import type { UpdateStream } from "../updates/update-stream.js";

/** The shared background work's lease: another process takes it over this long after its holder died. */
const MAINTENANCE_LEASE_MS = 15_000;
const MAINTENANCE_RETRY_MS = 2_000;
/** Consumers of the update stream with nothing pending, idle this long, are processes gone for good. */
const GONE_CONSUMER_MS = 60 * 60 * 1000;

/** What the background work does: the same chores in one process or among several. */
export interface BackgroundDeps {
  orders: Pick<OrderService, "recoverInterrupted" | "inFlight" | "tellInterrupted">;
  deposits: Pick<Deposits, "tellUntold">;
  /** Resellers' deposit requests: expiry, approvals a stop left uncredited, closed ones to tell. */
  depositRequests: Pick<DepositRequests, "sweep">;
  broadcaster: Pick<Broadcaster, "resume">;
  /** Sets the command menus of admins, resellers and the admin chat. */
  setMenus: () => Promise<void>;
  /**
   * More looks of the same rhythm, in the same one process: the H2H API's callbacks, its sales
   * notice, the provider's status of unknown orders.
   */
  chores?: ReadonlyArray<{ what: string; run: () => Promise<void> }>;
  /** How often orders left in flight by a crash, deposit requests and the other chores are looked at. */
  everyMs: number;
  logger: Logger;
}

/** The work beside the updates: told what was left undone, then looking again now and then. */
export interface Background {
  /** Before the first update is taken: what must be read before updates change it. */
  beforeUpdates(): Promise<void>;
  start(): void;
  /** No new round from now on (the first step of a stop). */
  halt(): void;
  /** Waits for the round under way and gives back what it held. */
  stop(): Promise<void>;
}

/**
 * The round that comes back every `everyMs`: settles the orders whose call must be over, sweeps the
 * deposit requests (expiry, approvals left uncredited, closed ones to tell) and runs the other
 * chores. Each failure is logged, and the next round tries again.
 */
function recoveryAndSweeps(deps: BackgroundDeps): () => Promise<void> {
  return async () => {
    await deps.orders.recoverInterrupted().then(
      () => undefined,
      (err: unknown) => deps.logger.error({ err }, "recovery of interrupted orders failed"),
    );
    await deps.depositRequests
      .sweep()
      .catch((err: unknown) => deps.logger.error({ err }, "deposit requests' look failed"));
    for (const chore of deps.chores ?? [])
      await chore.run().catch((err: unknown) => deps.logger.error({ err }, `background look failed: ${chore.what}`));
  };
}

/**
 * One process (the memory store): orders in flight at start were left by the previous run. Beside
 * the first updates, their users are told, broadcasts and deposit notices a stop interrupted go on,
 * orders whose call must be over are settled and the command menus set; then recovery and the
 * sweeps look again every `everyMs`.
 */
export function oneProcessBackground(deps: BackgroundDeps): Background {
  const { logger } = deps;
  const recoverAndSweep = recoveryAndSweeps(deps);
  let leftInFlight: OrderRecord[] = [];
  let work: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  return {
    async beforeUpdates() {
      leftInFlight = await deps.orders.inFlight().catch((err: unknown) => {
        logger.error({ err }, "in-flight orders not read");
        return [];
      });
    },
    start() {
      work = (async () => {
        // Broadcasts a stop interrupted go on (nobody is sent one twice); stop() waits for them.
        await deps.broadcaster.resume().catch((err: unknown) => logger.error({ err }, "broadcasts not resumed"));
        await deps.orders.tellInterrupted(leftInFlight);
        // Deposits credited by a run that stopped before their reseller was told.
        await deps.deposits.tellUntold();
        await recoverAndSweep();
        await deps.setMenus();
      })();
      timer = setInterval(() => void recoverAndSweep(), deps.everyMs);
      timer.unref();
    },
    halt: () => clearInterval(timer),
    async stop() {
      await work;
    },
  };
}

/** What several processes on one Redis need for their shared work: the lease, and the stream's consumers. */
export interface SharedDeps extends BackgroundDeps {
  storage: Storage;
  owner: string;
  liveness: Liveness;
  stream: Pick<UpdateStream, "forgetConsumers">;
  leaseMs?: number | undefined;
  retryMs?: number | undefined;
}

/**
 * Several processes on one Redis: the shared work runs in the one process holding the lease
 * `maintenance`; another takes it over when that one stops or dies. Broadcasts left by a stopped
 * process go on (each under its own lease, so never two senders), deposits credited and not told
 * are told (each under a claim), orders left in flight are settled once their call must be over
 * (each by one atomic step of the ledger); at the takeover, the command menus are set and the
 * stream forgets consumers long gone. Orders in flight at start may be another process's live
 * ones: an order whose process died is told by its Confirm, which the update stream hands to
 * another process ("already being processed"), and by recovery once its call must be over.
 * Low-balance alerts need no lease: the ledger's Lua step that records a sale decides, once per
 * crossing, which sale's process sends it.
 */
export function sharedBackground(deps: SharedDeps): Background {
  const { logger } = deps;
  const recoverAndSweep = recoveryAndSweeps(deps);
  let maintenance: LeaseKeeper | undefined;
  let timer: NodeJS.Timeout | undefined;
  let work: Promise<void> = Promise.resolve();
  let halted = false;

  const step = async (what: string, chore: () => Promise<unknown>) => {
    try {
      await chore();
    } catch (err) {
      logger.error({ err }, `shared background work: ${what} failed`);
    }
  };
  async function round(takeover: boolean): Promise<void> {
    if (halted) return;
    await step("broadcasts", () => deps.broadcaster.resume());
    await step("deposit notices", () => deps.deposits.tellUntold());
    await recoverAndSweep();
    if (!takeover) return;
    await step("command menus", deps.setMenus);
    await step("stream consumers", async () => {
      const gone = await deps.stream.forgetConsumers(GONE_CONSUMER_MS);
      if (gone > 0) logger.info({ gone }, "update stream: consumers of processes long gone removed");
    });
  }

  return {
    beforeUpdates: async () => undefined,
    start() {
      maintenance = keepLease(
        createLease(deps.storage, "maintenance", {
          ttlMs: deps.leaseMs ?? MAINTENANCE_LEASE_MS,
          owner: deps.owner,
          liveness: deps.liveness,
        }),
        {
          retryMs: deps.retryMs ?? MAINTENANCE_RETRY_MS,
          onAcquired: () => {
            logger.info("this process runs the shared background work now (recovery, broadcasts, notices)");
            work = work.then(() => round(true));
          },
          onLost: () => logger.warn("shared background work: lease lost; another process goes on with it"),
          onError: (err) => logger.debug({ err }, "shared background work: lease not reached"),
        },
      );
      timer = setInterval(() => {
        if (maintenance?.held() === true) work = work.then(() => round(false));
      }, deps.everyMs);
      timer.unref();
    },
    halt() {
      halted = true;
      clearInterval(timer);
    },
    async stop() {
      await work;
      await maintenance?.stop();
    },
  };
}
