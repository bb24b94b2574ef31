import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Liveness } from "./liveness.js";
import { luaScript } from "./redis.js";
import type { Storage } from "./storage.js";

/**
 * A lease: the right, among every process on one store, to do one thing for a while (poll
 * Telegram, run recovery, send one broadcast). One holder at a time; a holder that dies loses it
 * when its time runs out, and another process takes it.
 *
 * With Redis it is one key, `<prefix>lease:<name>`, holding `<owner>:<token>` with a PX expiry.
 * The token comes from INCR on `<prefix>lease:<name>:fence` at each new hold: it grows with every
 * holder (the counter is forgotten after a month without one), so a write that carries the value
 * (the poller's intake, see updates/update-stream.ts) can be refused inside Redis when the lease
 * has moved on meanwhile (a fencing token: compared for equality, owner included). Every duration is a PX counted by
 * Redis and, on our side, performance.now() (monotonic): a wall clock that jumps changes neither.
 * Taking, renewing and giving it back are Lua scripts that compare the holder first, so a process
 * never renews or deletes a lease that is no longer its own.
 *
 * A holder that is gone (killed: none of its Redis connections is open, see liveness.ts) is not
 * waited for: `acquire` takes the lease from it at once, in a Lua step that does so only if the
 * lease still holds that very value, with a new token. The time to run out stays the rule for
 * what cannot be told (a machine that vanished, a Redis that refuses CLIENT LIST).
 *
 * The memory store (one process) keeps the same rules in a Map.
 */
export interface Lease {
  readonly name: string;
  /** How long a hold lasts without renewal (LeaseOptions.ttlMs, in whole milliseconds). */
  readonly ttlMs: number;
  /** Takes it when it is free (or renews it when this owner holds it). True: held now. */
  acquire(): Promise<boolean>;
  /** Extends a hold; false when it was lost (expired, taken by another process). */
  renew(): Promise<boolean>;
  /** Gives it back (only if still held by this owner). */
  release(): Promise<void>;
  /** Held, as far as this process can know: acquired or renewed less than the lease's time ago. */
  held(): boolean;
  /** `<owner>:<token>` of the current hold, for a fencing check in Redis; undefined when not held. */
  fence(): string | undefined;
}

export interface LeaseOptions {
  /** How long a hold lasts without renewal. */
  ttlMs: number;
  /** Who holds it (default: the storage's owner, else a name of its own, see processOwner()). */
  owner?: string;
  /** Tells whether a holder is gone, so its lease is taken at once; without it, only its time running out frees it. */
  liveness?: Liveness;
}

/** This process's name among the others: host, pid and a random tail (pids repeat across restarts). */
export function processOwner(): string {
  return `${hostname().replace(/[^A-Za-z0-9_.-]/g, "_")}-${process.pid}-${randomBytes(3).toString("hex")}`;
}

// {1, value}: held by this owner now; {0, value}: held by another (its value, for a takeover).
const ACQUIRE = luaScript(`
local current = redis.call('GET', KEYS[1])
if current then
  if string.sub(current, 1, #ARGV[1] + 1) == ARGV[1] .. ':' then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return {1, current}
  end
  return {0, current}
end
local value = ARGV[1] .. ':' .. redis.call('INCR', KEYS[2])
-- The counter of a lease not taken for a month goes (a broadcast's, long sent): a later token only
-- has to differ from the holder's value, which the owner's name makes sure of.
redis.call('PEXPIRE', KEYS[2], 2592000000)
redis.call('SET', KEYS[1], value, 'PX', ARGV[2])
return {1, value}
`);

// Taken from a holder that is gone, only if the lease still holds the value that was read.
// KEYS: lease, fence; ARGV: the gone holder's value, owner, ttl
const TAKE_OVER = luaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
local value = ARGV[2] .. ':' .. redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], 2592000000)
redis.call('SET', KEYS[1], value, 'PX', ARGV[3])
return value
`);

/** The owner of a lease value `<owner>:<token>`. */
const ownerOf = (value: string) => value.slice(0, Math.max(0, value.lastIndexOf(":")));

const RENEW = luaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`);

const RELEASE = luaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`);

/** Memory leases belong to their store, as Redis keys belong to the database. */
const memoryLeases = new WeakMap<Storage, Map<string, { value: string; until: number }>>();
const memoryFences = new WeakMap<Storage, Map<string, number>>();

export function createLease(storage: Storage, name: string, opts: LeaseOptions): Lease {
  const owner = opts.owner ?? (storage.kind === "redis" ? storage.owner : undefined) ?? processOwner();
  const ttl = Math.max(1, Math.round(opts.ttlMs));
  let value: string | undefined;
  /** performance.now() before which the hold is certainly still ours (started before Redis set it). */
  let until = 0;

  const hold = (v: string | undefined, startedAt: number) => {
    value = v;
    until = v === undefined ? 0 : startedAt + ttl;
  };

  if (storage.kind === "redis") {
    const { redis } = storage;
    const key = `${storage.prefix}lease:${name}`;
    const fenceKey = `${key}:fence`;
    return {
      name,
      ttlMs: ttl,
      async acquire() {
        const startedAt = performance.now();
        const [mine, current] = (await ACQUIRE(redis, [key, fenceKey], [owner, ttl])) as [number, string];
        if (Number(mine) === 1) {
          hold(current, startedAt);
          return true;
        }
        hold(undefined, 0);
        const holder = ownerOf(current);
        if (opts.liveness === undefined || !(await opts.liveness.gone(holder))) return false;
        const takenAt = performance.now();
        const taken = await TAKE_OVER(redis, [key, fenceKey], [current, owner, ttl]);
        if (typeof taken !== "string") return false; // it moved on meanwhile (to a live process)
        hold(taken, takenAt);
        opts.liveness.tookOver(`lease ${name}`, holder);
        return true;
      },
      async renew() {
        if (value === undefined) return false;
        const startedAt = performance.now();
        const ok = Number(await RENEW(redis, [key], [value, ttl])) === 1;
        hold(ok ? value : undefined, startedAt);
        return ok;
      },
      async release() {
        const v = value;
        hold(undefined, 0);
        if (v !== undefined) await RELEASE(redis, [key], [v]);
      },
      held: () => value !== undefined && performance.now() < until,
      fence: () => (value !== undefined && performance.now() < until ? value : undefined),
    };
  }

  let leases = memoryLeases.get(storage);
  if (leases === undefined) memoryLeases.set(storage, (leases = new Map<string, { value: string; until: number }>()));
  let fences = memoryFences.get(storage);
  if (fences === undefined) memoryFences.set(storage, (fences = new Map<string, number>()));
  const table = leases;
  const counters = fences;
  const current = () => {
    const entry = table.get(name);
    if (entry !== undefined && entry.until <= performance.now()) table.delete(name);
    return table.get(name);
  };
  return {
    name,
    ttlMs: ttl,
    async acquire() {
      const t = performance.now();
      const entry = current();
      if (entry !== undefined && !entry.value.startsWith(`${owner}:`)) return false;
      const v = entry?.value ?? `${owner}:${(counters.get(name) ?? 0) + 1}`;
      if (entry === undefined) counters.set(name, (counters.get(name) ?? 0) + 1);
      table.set(name, { value: v, until: t + ttl });
      hold(v, t);
      return true;
    },
    async renew() {
      const t = performance.now();
      const entry = current();
      if (value === undefined || entry?.value !== value) {
        hold(undefined, 0);
        return false;
      }
      entry.until = t + ttl;
      hold(value, t);
      return true;
    },
    async release() {
      if (value !== undefined && current()?.value === value) table.delete(name);
      hold(undefined, 0);
    },
    held: () => value !== undefined && performance.now() < until,
    fence: () => (value !== undefined && performance.now() < until ? value : undefined),
  };
}

export interface LeaseKeeper {
  /** Held right now, as far as this process knows. */
  held(): boolean;
  /** Resolves once the lease is held (at once if it is), or when the keeper stops. */
  whenHeld(): Promise<void>;
  /** Stops trying and renewing; gives the lease back if held. Once. */
  stop(): Promise<void>;
}

export interface KeepLeaseOptions {
  /** How often to try while another process holds it. */
  retryMs: number;
  /** Called once each time the lease is taken (not at renewals); errors are the caller's to catch. */
  onAcquired?: () => void;
  /** Called once each time a hold is lost (not at stop()). */
  onLost?: () => void;
  /** Store errors while trying or renewing (the keeper goes on). */
  onError?: (err: unknown) => void;
}

/**
 * Keeps trying to take a lease and, once taken, renews it every third of its time, until stop().
 * A renewal that fails, or that does not come back before the hold runs out (Redis down, an event
 * loop stalled), ends the hold here: onLost, then back to trying. Timers are unref'd.
 */
export function keepLease(lease: Lease, opts: KeepLeaseOptions): LeaseKeeper {
  let stopped = false;
  let wasHeld = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const waiters = new Set<() => void>();
  const renewEvery = Math.max(1, Math.floor(lease.ttlMs / 3));

  const settle = (heldNow: boolean) => {
    if (heldNow && !wasHeld) {
      wasHeld = true;
      for (const w of [...waiters]) w();
      opts.onAcquired?.();
    } else if (!heldNow && wasHeld) {
      wasHeld = false;
      if (!stopped) opts.onLost?.();
    }
  };

  const step = async () => {
    // The hold ran out here before a renewal came back (Redis down, the event loop stalled): it is
    // lost, even if the next acquire takes it straight back (then onAcquired and the waiters again).
    if (wasHeld && !lease.held()) settle(false);
    try {
      settle(wasHeld ? await lease.renew() : await lease.acquire());
    } catch (err) {
      opts.onError?.(err);
      settle(lease.held());
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        running = step().finally(schedule);
      },
      wasHeld ? renewEvery : opts.retryMs,
    );
    timer.unref();
  };

  running = step().finally(schedule);

  return {
    held: () => wasHeld && lease.held(),
    whenHeld() {
      if (stopped || (wasHeld && lease.held())) return Promise.resolve();
      return new Promise((resolve) => {
        const w = () => {
          waiters.delete(w);
          resolve();
        };
        waiters.add(w);
      });
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      for (const w of [...waiters]) w();
      // Only waits for the round under way to end; a failure of it was reported by the round itself.
      await running.catch(() => undefined);
      wasHeld = false;
      await lease.release().catch((err: unknown) => opts.onError?.(err));
    },
  };
}

export interface HoldOptions {
  /** A renewal found the lease lost (expired, taken by another process); again at each renewal after. */
  onLost?: () => void;
  /** A renewal the store did not answer; `sinceMs`: since the hold was last confirmed (taken or renewed). */
  onRenewError?: (err: unknown, sinceMs: number) => void;
  /** Giving it back failed; without this, that error is thrown. */
  onReleaseError?: (err: unknown) => void;
}

/**
 * Runs `work` under a lease this process has just taken: renews it every third of its time while
 * the work runs, then gives it back, whatever the work's outcome. The renewals never stop the work:
 * it asks `stillHeld()` where it matters (lease.held(): false once a renewal found the lease lost,
 * or once its time ran out before a renewal came back). The timer is unref'd.
 */
export async function whileHeld<T>(
  lease: Lease,
  work: (stillHeld: () => boolean) => Promise<T>,
  opts: HoldOptions = {},
): Promise<T> {
  let confirmedAt = performance.now();
  const renewal = setInterval(
    () => {
      lease.renew().then(
        (held) => {
          if (held) confirmedAt = performance.now();
          else opts.onLost?.();
        },
        (err: unknown) => opts.onRenewError?.(err, performance.now() - confirmedAt),
      );
    },
    Math.max(1, Math.floor(lease.ttlMs / 3)),
  );
  renewal.unref();
  try {
    return await work(() => lease.held());
  } finally {
    clearInterval(renewal);
    if (opts.onReleaseError === undefined) await lease.release();
    else await lease.release().catch(opts.onReleaseError);
  }
}
