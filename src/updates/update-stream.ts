import type { Update } from "grammy/types";
import type { RedisClient } from "../storage/redis.js";
import {
  DONE_AND_NEXT,
  FORGET_CONSUMERS,
  GIVE_BACK,
  HAND_BACK,
  INTAKE,
  LOCK_AND_HEAD,
  RELEASE,
  RENEW_LOCKS,
} from "./update-stream-lua.js";
import { laneOf } from "./lane.js";

/**
 * Where Telegram's updates wait between the process that received them and the one that handles
 * them: a Redis Stream read by a consumer group, with a lane per chat member beside it. Every step
 * that moves an update is one Lua script (one round trip, nothing in between):
 *
 * - **intake** (webhook POST, or a getUpdates batch): for each update not seen before (a mark per
 *   update_id, kept a day: Telegram redelivers within that), XADD to the stream and ZADD its entry
 *   id to its lane, scored by update_id, so a lane lists its waiting updates in Telegram's order.
 *   The poller's batch also carries its lease (a fencing token: refused when the lease moved on)
 *   and the next offset, stored in the same step. Only after this step is Telegram answered.
 * - **lock and head**: a process takes a lane (SET NX PX: the lane's lock, renewed while it works)
 *   and reads the entry at its head. One process at a time drains a lane, from the head, in order.
 * - **done and next**: the update at the head was handled: its mark becomes "done", it leaves the
 *   lane, it is XACKed and XDELed (the stream keeps only what is not done), and the next head is
 *   returned, or, when the lane is empty, the lock is released in the same step, so an update added
 *   meanwhile either is seen here or finds the lane free.
 * - **give back**: a handling that failed leaves its update at the head, releases the lock and
 *   takes the entry into the caller's pending list with its idle time reset: after `claimIdleMs`
 *   a process (any) claims it again and the update is tried again, never dropped.
 * - **hand back** (a process stopping, or one seen gone): its pending entries are made idle "long
 *   ago", so the next XAUTOCLAIM of any process takes them at once instead of after the idle time.
 * - **take over** a lane whose lock is held by a process seen gone (storage/liveness.ts): the
 *   lock-and-head step takes it from that holder only, in the same step.
 *
 * Entries are delivered to processes by XREADGROUP, and an entry whose process died is taken over
 * with XAUTOCLAIM; delivery only says "look at this lane": whoever holds the lane's lock handles
 * its entries, whichever process they were delivered to.
 *
 * Layout (every key starts with the prefix):
 *   upd:stream         stream; fields i (update_id), l (lane), u (the update's JSON); group "bot"
 *   upd:seen:<n>       hash, update_id → q (queued) or d (done) or x (given up), for update ids
 *                      n*100 … n*100+99 (a small hash packs tightly); expires a day after its last write
 *   upd:lane:<lane>    sorted set of entry ids, scored by update_id
 *   upd:lock:<lane>    the consumer draining the lane, with a PX expiry
 *   upd:tries          hash, entry id → how many times its handling started
 *   upd:offset         the getUpdates offset of long polling (the next update_id to ask for)
 */
export interface UpdateStream {
  /**
   * Stores updates that were not stored before (by update_id). `fence`: the poller's lease value;
   * the step is refused when the lease holds another value (a poller that lost its lease).
   * `offset`: stored with them (long polling).
   */
  intake(
    updates: ReadonlyArray<{ update: Update; json?: string }>,
    opts?: { fence?: string; offset?: number },
  ): Promise<{ kind: "stored"; added: number } | { kind: "fenced" }>;
  /** The stored getUpdates offset (0 when none). */
  offset(): Promise<number>;
  /** Creates the consumer group (from the stream's start) if it is missing. */
  ensureGroup(): Promise<void>;
  /** New entries for this consumer (XREADGROUP ">"), waiting up to blockMs, on a connection of its own. */
  read(reader: RedisClient, consumer: string, count: number, blockMs: number): Promise<Delivered[]>;
  /** Entries idle in any consumer's pending list for at least minIdleMs, now this consumer's. */
  claimIdle(consumer: string, minIdleMs: number, count: number): Promise<Delivered[]>;
  /**
   * Takes the lane's lock (when it is free, ours, or held by `replacing`: a process seen gone) and
   * reads its head.
   */
  lockAndHead(lane: string, consumer: string, lockMs: number, replacing?: string): Promise<Head>;
  /**
   * Marks `entry` done (or given up, `failed`), removes and acknowledges it; then the next head
   * (lock kept), or the lock released when the lane is empty or `release` is set (a stopping
   * process). `lost`: the lock was not ours any more (the entry is marked anyway).
   */
  doneAndNext(
    lane: string,
    entry: HeadEntry,
    consumer: string,
    lockMs: number,
    opts?: { release?: boolean; failed?: boolean },
  ): Promise<Head>;
  /** A failed handling: the lock released, the entry tried again after the claim idle time. */
  giveBack(lane: string, entry: HeadEntry, consumer: string): Promise<void>;
  /** A stopping process gives back a lane whose head it has not started: claimable by others at once. */
  release(lane: string, entry: HeadEntry, consumer: string): Promise<void>;
  /** Extends the locks of these lanes held by this consumer; the lanes whose lock was lost. */
  renewLocks(lanes: readonly string[], consumer: string, lockMs: number): Promise<string[]>;
  /** Makes this consumer's pending entries claimable by any other process at once; how many. */
  handBack(consumer: string): Promise<number>;
  /** The group's consumers (one per process start) and how many entries each has pending. */
  consumers(): Promise<Array<{ name: string; pending: number }>>;
  /** Removes consumers that have nothing pending and were idle that long (dead processes); how many. */
  forgetConsumers(idleMs: number): Promise<number>;
  /** Where an update stands: queued, done, given up (x), or unknown (never stored, or over a day ago). */
  status(updateId: number): Promise<"queued" | "done" | "failed" | undefined>;
  /** Entries in the stream not yet done (XLEN), and the pending ones (delivered, not acknowledged). */
  backlog(): Promise<{ length: number; pending: number }>;
}

/** An entry delivered to this consumer: which lane to look at. */
export interface Delivered {
  id: string;
  lane: string;
}

export interface HeadEntry {
  id: string;
  update: Update;
  /** How many times its handling has started, this one included. */
  attempts: number;
}

export type Head =
  | ({ kind: "entry" } & HeadEntry)
  /** Nothing waiting: the lock is not held (released if it was ours). */
  | { kind: "empty" }
  /** Another consumer holds the lane; it drains every entry of it. */
  | { kind: "busy"; holder: string }
  /** Released on request (a stopping process). */
  | { kind: "released" }
  /** The lock was no longer ours. */
  | { kind: "lost" };

/** The consumer group every process reads the stream in. */
const GROUP = "bot";
/** How long an update id is remembered: Telegram delivers an update again within a day at most. */
const SEEN_MS = 24 * 60 * 60 * 1000;
/** Update ids per mark hash. */
const SEEN_BUCKET = 100;

/** Far enough in the past that any XAUTOCLAIM takes the entry, near enough to be a valid idle time. */
const LONG_IDLE_MS = 1_000_000_000;

type RawEntry = [string, string[]];

function fieldsOf(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) out[raw[i]!] = raw[i + 1]!;
  return out;
}

function toDelivered(entries: ReadonlyArray<RawEntry | null>): Delivered[] {
  const out: Delivered[] = [];
  for (const e of entries) {
    if (e === null || !Array.isArray(e[1])) continue; // deleted meanwhile
    out.push({ id: e[0], lane: fieldsOf(e[1]).l ?? "other" });
  }
  return out;
}

function toHead(raw: unknown): Head {
  const r = raw as string[];
  switch (r[0]) {
    case "entry":
      return { kind: "entry", id: r[1]!, update: JSON.parse(r[2]!) as Update, attempts: Number(r[3]) };
    case "busy":
      return { kind: "busy", holder: r[1]! };
    case "released":
      return { kind: "released" };
    case "lost":
      return { kind: "lost" };
    default:
      return { kind: "empty" };
  }
}

const isNoGroup = (err: unknown) => String((err as Error)?.message).startsWith("NOGROUP");

/** The keys of one bot's update stream, all under its prefix. */
function streamKeys(prefix: string) {
  return {
    stream: `${prefix}upd:stream`,
    offset: `${prefix}upd:offset`,
    tries: `${prefix}upd:tries`,
    pollerLease: `${prefix}lease:poller`,
    seen: (updateId: number) => `${prefix}upd:seen:${Math.floor(updateId / SEEN_BUCKET)}`,
    lane: (lane: string) => `${prefix}upd:lane:${lane}`,
    lock: (lane: string) => `${prefix}upd:lock:${lane}`,
  };
}

type StreamKeys = ReturnType<typeof streamKeys>;

/** The consumer group: made when missing, and made again for a command that found it lost (a Redis restart without data). */
function consumerGroup(redis: RedisClient, stream: string) {
  async function ensureGroup(): Promise<void> {
    try {
      await redis.sendCommand(["XGROUP", "CREATE", stream, GROUP, "0", "MKSTREAM"]);
    } catch (err) {
      if (!String((err as Error).message).startsWith("BUSYGROUP")) throw err;
    }
  }
  async function withGroup<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (!isNoGroup(err)) throw err;
      await ensureGroup();
      return run();
    }
  }
  return { ensureGroup, withGroup };
}

type Group = ReturnType<typeof consumerGroup>;

/** Reading the group: what is delivered to a consumer, what sits idle, who the consumers are. */
function groupReads(
  redis: RedisClient,
  keys: StreamKeys,
  { withGroup }: Group,
): Pick<UpdateStream, "read" | "claimIdle" | "handBack" | "consumers" | "forgetConsumers" | "backlog"> {
  const { stream } = keys;
  return {
    async read(reader, consumer, count, blockMs) {
      const reply = await withGroup(() =>
        reader.sendCommand<Array<[string, RawEntry[]]> | null>([
          "XREADGROUP",
          "GROUP",
          GROUP,
          consumer,
          "COUNT",
          String(count),
          "BLOCK",
          String(blockMs),
          "STREAMS",
          stream,
          ">",
        ]),
      );
      return reply === null ? [] : toDelivered(reply.flatMap(([, entries]) => entries));
    },

    async claimIdle(consumer, minIdleMs, count) {
      const out: Delivered[] = [];
      let cursor = "0-0";
      do {
        const reply = await withGroup(() =>
          redis.sendCommand<[string, Array<RawEntry | null>, string[]?]>([
            "XAUTOCLAIM",
            stream,
            GROUP,
            consumer,
            String(minIdleMs),
            cursor,
            "COUNT",
            String(count),
          ]),
        );
        out.push(...toDelivered(reply[1]));
        cursor = reply[0];
      } while (cursor !== "0-0" && out.length < count);
      return out;
    },

    async handBack(consumer) {
      try {
        return Number(await HAND_BACK(redis, [stream], [GROUP, consumer, LONG_IDLE_MS]));
      } catch (err) {
        if (isNoGroup(err)) return 0;
        throw err;
      }
    },

    async consumers() {
      let reply: unknown[][];
      try {
        reply = await redis.sendCommand<unknown[][]>(["XINFO", "CONSUMERS", stream, GROUP]);
      } catch (err) {
        if (isNoGroup(err) || /no such key/i.test(String((err as Error).message))) return [];
        throw err;
      }
      return reply.map((c) => {
        const info: Record<string, unknown> = {};
        for (let i = 0; i + 1 < c.length; i += 2) info[String(c[i])] = c[i + 1];
        return { name: String(info.name), pending: Number(info.pending) };
      });
    },

    async forgetConsumers(idleMs) {
      return Number(await FORGET_CONSUMERS(redis, [stream], [GROUP, idleMs]));
    },

    async backlog() {
      const length = Number(await redis.sendCommand(["XLEN", stream]));
      let pending = 0;
      try {
        const summary = await redis.sendCommand<[number | string, ...unknown[]]>(["XPENDING", stream, GROUP]);
        pending = Number(summary[0]);
      } catch (err) {
        if (!isNoGroup(err)) throw err;
      }
      return { length, pending };
    },
  };
}

/** The steps on one lane, each one Lua script: lock and head, done and next, give back, release, renew. */
function laneSteps(
  redis: RedisClient,
  keys: StreamKeys,
  { withGroup }: Group,
): Pick<UpdateStream, "lockAndHead" | "doneAndNext" | "giveBack" | "release" | "renewLocks"> {
  const { stream, tries } = keys;
  const laneKey = keys.lane;
  const lockKey = keys.lock;
  const seenKey = keys.seen;
  return {
    async lockAndHead(lane, consumer, lockMs, replacing) {
      return toHead(
        await LOCK_AND_HEAD(redis, [lockKey(lane), laneKey(lane), stream, tries], [consumer, lockMs, replacing ?? ""]),
      );
    },

    async doneAndNext(lane, entry, consumer, lockMs, opts = {}) {
      return toHead(
        await DONE_AND_NEXT(
          redis,
          [lockKey(lane), laneKey(lane), stream, tries, seenKey(entry.update.update_id)],
          [
            consumer,
            lockMs,
            entry.id,
            GROUP,
            opts.release === true ? "release" : "",
            opts.failed === true ? "x" : "d",
            entry.update.update_id,
            LONG_IDLE_MS,
          ],
        ),
      );
    },

    async giveBack(lane, entry, consumer) {
      await withGroup(() => GIVE_BACK(redis, [lockKey(lane), stream], [consumer, GROUP, entry.id]));
    },

    async release(lane, entry, consumer) {
      await withGroup(() => RELEASE(redis, [lockKey(lane), stream, tries], [consumer, GROUP, entry.id, LONG_IDLE_MS]));
    },

    async renewLocks(lanes, consumer, lockMs) {
      if (lanes.length === 0) return [];
      const lost = (await RENEW_LOCKS(redis, lanes.map(lockKey), [consumer, lockMs])) as number[];
      return lost.map((i) => lanes[i - 1]!);
    },
  };
}

/**
 * The update stream of one bot (its key prefix) on Redis: intake (with the poller's offset and
 * fence), the consumer group's reads and claims, the steps on a lane, and what tells an update's fate.
 */
export function createUpdateStream(redis: RedisClient, prefix: string): UpdateStream {
  const keys = streamKeys(prefix);
  const group = consumerGroup(redis, keys.stream);

  return {
    async intake(updates, opts = {}) {
      const touched = [keys.stream, keys.offset, keys.pollerLease];
      const args: Array<string | number> = [opts.fence ?? "", opts.offset ?? "", SEEN_MS];
      for (const { update, json } of updates) {
        const lane = laneOf(update);
        touched.push(keys.seen(update.update_id), keys.lane(lane));
        args.push(update.update_id, lane, json ?? JSON.stringify(update));
      }
      const added = Number(await INTAKE(redis, touched, args));
      return added < 0 ? { kind: "fenced" } : { kind: "stored", added };
    },

    async offset() {
      return Number((await redis.get(keys.offset)) ?? 0);
    },

    ensureGroup: group.ensureGroup,
    ...groupReads(redis, keys, group),
    ...laneSteps(redis, keys, group),

    async status(updateId) {
      const mark = await redis.hGet(keys.seen(updateId), String(updateId));
      return mark === "q" ? "queued" : mark === "d" ? "done" : mark === "x" ? "failed" : undefined;
    },
  };
}
