import { luaScript, type RedisClient } from "../storage/redis.js";
import type { Storage } from "../storage/storage.js";

/**
 * A message an admin sends to everyone who may order. `draft` while its preview waits for
 * Confirm; `sending` from the one Confirm that won until every recipient has an outcome; `done`
 * then; `cancelled` when Cancel came first.
 */
export type BroadcastState = "draft" | "sending" | "done" | "cancelled";

/** What happened to one recipient. `interrupted`: claimed by a run that stopped before it knew. */
export type RecipientOutcome = "delivered" | "blocked" | "failed";

export interface BroadcastCounts {
  delivered: number;
  blocked: number;
  failed: number;
  /** Claimed by a run that stopped before the outcome was recorded: not sent again (maybe never sent). */
  interrupted: number;
}

export interface Broadcast {
  id: string;
  /** The admin who wrote it, and the chat of its preview (where progress and the count go). */
  adminId: number;
  chatId: number;
  /** Exactly as the admin wrote it (plain text; escaped when sent). */
  text: string;
  createdAt: string;
  state: BroadcastState;
  /** The preview message, known from the Confirm tap: progress is shown there. */
  previewMessageId?: number;
  confirmedAt?: string;
  doneAt?: string;
  /** The admin has been sent the final count. */
  reportedAt?: string;
  /** How many recipients Confirm fixed (0 before). */
  total: number;
  counts: BroadcastCounts;
}

export type ConfirmResult =
  | { kind: "confirmed"; broadcast: Broadcast }
  /** Not a draft any more (confirmed or cancelled before): nothing changed. */
  | { kind: "taken"; broadcast: Broadcast }
  | { kind: "not-found" };

export type CancelResult = { kind: "cancelled" | "taken"; broadcast: Broadcast } | { kind: "not-found" };

export type ClaimResult =
  /** This caller, and only it, may send to `userId` now. */
  | { kind: "claimed"; userId: number }
  /** Nobody left to claim, and this caller moved the broadcast to `done`: it reports the count. */
  | { kind: "finished"; broadcast: Broadcast }
  /** Nobody left to claim, but sends claimed elsewhere are not recorded yet. */
  | { kind: "wait" }
  /** Not sending (done, cancelled, gone). */
  | { kind: "over" };

/**
 * Broadcasts and the users who have started the bot, kept where every process sees them. Every
 * method is one atomic step: Confirm turns a draft into `sending` once, whoever taps how often;
 * each recipient is claimed once before their message is sent, so no crash, restart or second
 * process ever sends anyone the same broadcast twice (at most once: a claim whose send was
 * interrupted counts as `interrupted`, never sent again).
 */
export interface BroadcastStore {
  /** Remembers that this user has opened a private chat with the bot (messages can reach them). */
  markStarted(userId: number): Promise<void>;
  /** The ones among `userIds` who have started the bot, in the order given. */
  startedAmong(userIds: readonly number[]): Promise<number[]>;
  /**
   * Writes a broadcast's draft (its preview waits for Confirm for `ttlMs`). One of that id that
   * exists already (a second handling of the update that made it) is left as it is and returned.
   */
  saveDraft(
    draft: Pick<Broadcast, "id" | "adminId" | "chatId" | "text" | "createdAt">,
    ttlMs: number,
  ): Promise<Broadcast>;
  get(id: string): Promise<Broadcast | undefined>;
  /** draft → sending with the recipients fixed now, once. */
  confirm(id: string, input: { recipients: readonly number[]; at: string; messageId?: number }): Promise<ConfirmResult>;
  cancel(id: string, at: string): Promise<CancelResult>;
  /** The next recipient, claimed; or, when none is left, the move to `done` (once). */
  claimNext(id: string, at: string): Promise<ClaimResult>;
  /** The outcome of a claimed recipient; the counts after it. A second record of one recipient changes nothing. */
  record(id: string, userId: number, outcome: RecipientOutcome): Promise<Broadcast | undefined>;
  /** A claimed recipient whose message certainly did not go out (a 429 at shutdown) goes back to the queue. */
  release(id: string, userId: number): Promise<void>;
  /**
   * After a restart: recipients claimed by a run that stopped before it recorded their outcome
   * count as interrupted (never re-sent). Call only while no sender of this process runs it.
   */
  interruptClaimed(id: string): Promise<number>;
  /** The admin got the final count: the broadcast leaves the active list (and expires later). */
  markReported(id: string, at: string): Promise<void>;
  /** Broadcasts a restart must pick up: sending, or done without the admin told. */
  active(): Promise<Broadcast[]>;
}

const DONE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export function createBroadcastStore(storage: Storage): BroadcastStore {
  return storage.kind === "redis" ? redisBroadcastStore(storage.redis, storage.prefix) : memoryBroadcastStore();
}

const emptyCounts = (): BroadcastCounts => ({ delivered: 0, blocked: 0, failed: 0, interrupted: 0 });

/*
 * Layout (every key starts with the prefix):
 *   started          set of user ids who have started the bot in a private chat
 *   bc:ID            hash: d = JSON {id, adminId, chatId, text, createdAt} (never changes), s = state,
 *                    m = preview message id, ca/da/ra = confirmed/done/reported at, n = recipients,
 *                    cd/cb/cf/ci = delivered/blocked/failed/interrupted, fl = claimed, not yet recorded
 *   bc:ID:q          list of the user ids not claimed yet, in sending order
 *   bc:ID:r          hash user id → c (claimed), d, b, f (outcomes) or i (interrupted)
 *   broadcasts-active  set of ids that are sending, or done without the admin told
 */

const SAVE = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
redis.call('HSET', KEYS[1], 'd', ARGV[1], 's', 'draft', 'n', 0, 'cd', 0, 'cb', 0, 'cf', 0, 'ci', 0, 'fl', 0)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0
`);

// KEYS: broadcast, queue, active; ARGV: id, at, message id, recipients…
const CONFIRM = luaScript(`
local s = redis.call('HGET', KEYS[1], 's')
if not s then return {'not-found'} end
if s ~= 'draft' then return {'taken', redis.call('HGETALL', KEYS[1])} end
redis.call('HSET', KEYS[1], 's', 'sending', 'ca', ARGV[2], 'n', #ARGV - 3)
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'm', ARGV[3]) end
redis.call('PERSIST', KEYS[1])
redis.call('DEL', KEYS[2])
for i = 4, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('SADD', KEYS[3], ARGV[1])
return {'confirmed', redis.call('HGETALL', KEYS[1])}
`);

const CANCEL = luaScript(`
local s = redis.call('HGET', KEYS[1], 's')
if not s then return {'not-found'} end
if s == 'draft' then redis.call('HSET', KEYS[1], 's', 'cancelled', 'da', ARGV[1]) end
if s == 'draft' or s == 'cancelled' then return {'cancelled', redis.call('HGETALL', KEYS[1])} end
return {'taken', redis.call('HGETALL', KEYS[1])}
`);

// KEYS: broadcast, queue, recipients; ARGV: at
const CLAIM = luaScript(`
if redis.call('HGET', KEYS[1], 's') ~= 'sending' then return {'over'} end
local u = redis.call('LPOP', KEYS[2])
if u then
  redis.call('HSET', KEYS[3], u, 'c')
  redis.call('HINCRBY', KEYS[1], 'fl', 1)
  return {'claimed', u}
end
if tonumber(redis.call('HGET', KEYS[1], 'fl') or '0') > 0 then return {'wait'} end
redis.call('HSET', KEYS[1], 's', 'done', 'da', ARGV[1])
return {'finished', redis.call('HGETALL', KEYS[1])}
`);

// A recipient marked interrupted by a restart elsewhere whose send did end here is put right.
// KEYS: broadcast, recipients; ARGV: user, outcome letter, count field
const RECORD = luaScript(`
local prev = redis.call('HGET', KEYS[2], ARGV[1])
if prev == 'c' then
  redis.call('HINCRBY', KEYS[1], 'fl', -1)
elseif prev == 'i' then
  redis.call('HINCRBY', KEYS[1], 'ci', -1)
else
  return {'same', redis.call('HGETALL', KEYS[1])}
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HINCRBY', KEYS[1], ARGV[3], 1)
return {'recorded', redis.call('HGETALL', KEYS[1])}
`);

// KEYS: broadcast, queue, recipients; ARGV: user
const RELEASE = luaScript(`
if redis.call('HGET', KEYS[3], ARGV[1]) ~= 'c' then return 0 end
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('LPUSH', KEYS[2], ARGV[1])
redis.call('HINCRBY', KEYS[1], 'fl', -1)
return 1
`);

// KEYS: broadcast, recipients
const INTERRUPT = luaScript(`
local all = redis.call('HGETALL', KEYS[2])
local n = 0
for i = 1, #all, 2 do
  if all[i + 1] == 'c' then
    redis.call('HSET', KEYS[2], all[i], 'i')
    n = n + 1
  end
end
if n > 0 then
  redis.call('HINCRBY', KEYS[1], 'ci', n)
  redis.call('HINCRBY', KEYS[1], 'fl', -n)
end
return n
`);

// KEYS: broadcast, queue, recipients, active; ARGV: id, at, ttl
const REPORTED = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'ra', ARGV[2])
redis.call('SREM', KEYS[4], ARGV[1])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
return 1
`);

const OUTCOME_FIELD: Record<RecipientOutcome, { letter: string; field: string }> = {
  delivered: { letter: "d", field: "cd" },
  blocked: { letter: "b", field: "cb" },
  failed: { letter: "f", field: "cf" },
};

function redisBroadcastStore(redis: RedisClient, prefix: string): BroadcastStore {
  const startedKey = `${prefix}started`;
  const activeKey = `${prefix}broadcasts-active`;
  const key = (id: string) => `${prefix}bc:${id}`;
  const keys = (id: string) => ({ b: key(id), q: `${key(id)}:q`, r: `${key(id)}:r` });

  /** HGETALL's flat reply → the broadcast. */
  function parse(flat: unknown): Broadcast {
    const list = flat as string[];
    const h: Record<string, string> = {};
    for (let i = 0; i + 1 < list.length; i += 2) h[list[i]!] = list[i + 1]!;
    return fromHash(h);
  }
  function fromHash(h: Record<string, string>): Broadcast {
    const base = JSON.parse(h.d!) as Pick<Broadcast, "id" | "adminId" | "chatId" | "text" | "createdAt">;
    const n = (f: string) => Number(h[f] ?? "0");
    return {
      ...base,
      state: h.s as BroadcastState,
      ...(h.m === undefined ? {} : { previewMessageId: Number(h.m) }),
      ...(h.ca === undefined ? {} : { confirmedAt: h.ca }),
      ...(h.da === undefined ? {} : { doneAt: h.da }),
      ...(h.ra === undefined ? {} : { reportedAt: h.ra }),
      total: n("n"),
      counts: { delivered: n("cd"), blocked: n("cb"), failed: n("cf"), interrupted: n("ci") },
    };
  }

  const store: BroadcastStore = {
    async markStarted(userId) {
      await redis.sAdd(startedKey, String(userId));
    },
    async startedAmong(userIds) {
      if (userIds.length === 0) return [];
      const flags = await redis.smIsMember(startedKey, userIds.map(String));
      return userIds.filter((_, i) => Number(flags[i]) === 1);
    },
    async saveDraft(draft, ttlMs) {
      const d = {
        id: draft.id,
        adminId: draft.adminId,
        chatId: draft.chatId,
        text: draft.text,
        createdAt: draft.createdAt,
      };
      const kept = await SAVE(redis, [key(draft.id)], [JSON.stringify(d), Math.max(1, Math.round(ttlMs))]);
      if (Number(kept) === 1) {
        const existing = await store.get(draft.id);
        if (existing !== undefined) return existing;
      }
      return { ...d, state: "draft", total: 0, counts: emptyCounts() };
    },
    async get(id) {
      const h = (await redis.hGetAll(key(id))) as Record<string, string>;
      return h.d === undefined ? undefined : fromHash(h);
    },
    async confirm(id, input) {
      const k = keys(id);
      const r = (await CONFIRM(
        redis,
        [k.b, k.q, activeKey],
        [id, input.at, input.messageId ?? "", ...input.recipients.map(String)],
      )) as [string, unknown?];
      if (r[0] === "not-found") return { kind: "not-found" };
      return { kind: r[0] === "confirmed" ? "confirmed" : "taken", broadcast: parse(r[1]) };
    },
    async cancel(id, at) {
      const r = (await CANCEL(redis, [key(id)], [at])) as [string, unknown?];
      if (r[0] === "not-found") return { kind: "not-found" };
      return { kind: r[0] === "cancelled" ? "cancelled" : "taken", broadcast: parse(r[1]) };
    },
    async claimNext(id, at) {
      const k = keys(id);
      const r = (await CLAIM(redis, [k.b, k.q, k.r], [at])) as [string, unknown?];
      if (r[0] === "claimed") return { kind: "claimed", userId: Number(r[1]) };
      if (r[0] === "finished") return { kind: "finished", broadcast: parse(r[1]) };
      return { kind: r[0] === "wait" ? "wait" : "over" };
    },
    async record(id, userId, outcome) {
      const k = keys(id);
      const { letter, field } = OUTCOME_FIELD[outcome];
      const r = (await RECORD(redis, [k.b, k.r], [userId, letter, field])) as [string, unknown];
      const flat = r[1] as string[];
      return flat.length === 0 ? undefined : parse(flat);
    },
    async release(id, userId) {
      const k = keys(id);
      await RELEASE(redis, [k.b, k.q, k.r], [userId]);
    },
    async interruptClaimed(id) {
      const k = keys(id);
      return Number(await INTERRUPT(redis, [k.b, k.r], []));
    },
    async markReported(id, at) {
      const k = keys(id);
      await REPORTED(redis, [k.b, k.q, k.r, activeKey], [id, at, DONE_TTL_MS]);
    },
    async active() {
      const ids = await redis.sMembers(activeKey);
      const found = await Promise.all(ids.map((id) => store.get(id)));
      return found.filter((b): b is Broadcast => b !== undefined && b.reportedAt === undefined);
    },
  };
  return store;
}

type RecipientMark = "c" | "i" | RecipientOutcome;

/** The same steps in one process: plain synchronous code between awaits is atomic by itself. */
function memoryBroadcastStore(): BroadcastStore {
  const started = new Set<number>();
  const broadcasts = new Map<
    string,
    { b: Broadcast; expiresAt: number; queue: number[]; marks: Map<number, RecipientMark>; inFlight: number }
  >();
  const copy = (b: Broadcast): Broadcast => ({ ...b, counts: { ...b.counts } });
  const find = (id: string) => {
    const entry = broadcasts.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= Date.now()) {
      broadcasts.delete(id);
      return undefined;
    }
    return entry;
  };
  return {
    markStarted: async (userId) => void started.add(userId),
    startedAmong: async (userIds) => userIds.filter((id) => started.has(id)),
    async saveDraft(draft, ttlMs) {
      const kept = find(draft.id);
      if (kept !== undefined) return copy(kept.b);
      const b: Broadcast = { ...draft, state: "draft", total: 0, counts: emptyCounts() };
      broadcasts.set(draft.id, { b, expiresAt: Date.now() + ttlMs, queue: [], marks: new Map(), inFlight: 0 });
      return copy(b);
    },
    get: async (id) => {
      const entry = find(id);
      return entry === undefined ? undefined : copy(entry.b);
    },
    async confirm(id, input) {
      const entry = find(id);
      if (entry === undefined) return { kind: "not-found" };
      if (entry.b.state !== "draft") return { kind: "taken", broadcast: copy(entry.b) };
      entry.b.state = "sending";
      entry.b.confirmedAt = input.at;
      entry.b.total = input.recipients.length;
      if (input.messageId !== undefined) entry.b.previewMessageId = input.messageId;
      entry.queue = [...input.recipients];
      entry.expiresAt = Infinity;
      return { kind: "confirmed", broadcast: copy(entry.b) };
    },
    async cancel(id, at) {
      const entry = find(id);
      if (entry === undefined) return { kind: "not-found" };
      if (entry.b.state === "draft") {
        entry.b.state = "cancelled";
        entry.b.doneAt = at;
      }
      return { kind: entry.b.state === "cancelled" ? "cancelled" : "taken", broadcast: copy(entry.b) };
    },
    async claimNext(id, at) {
      const entry = find(id);
      if (entry?.b.state !== "sending") return { kind: "over" };
      const userId = entry.queue.shift();
      if (userId !== undefined) {
        entry.marks.set(userId, "c");
        entry.inFlight += 1;
        return { kind: "claimed", userId };
      }
      if (entry.inFlight > 0) return { kind: "wait" };
      entry.b.state = "done";
      entry.b.doneAt = at;
      return { kind: "finished", broadcast: copy(entry.b) };
    },
    async record(id, userId, outcome) {
      const entry = find(id);
      if (entry === undefined) return undefined;
      const prev = entry.marks.get(userId);
      if (prev === "c") entry.inFlight -= 1;
      else if (prev === "i") entry.b.counts.interrupted -= 1;
      else return copy(entry.b);
      entry.marks.set(userId, outcome);
      entry.b.counts[outcome] += 1;
      return copy(entry.b);
    },
    async release(id, userId) {
      const entry = find(id);
      if (entry?.marks.get(userId) !== "c") return;
      entry.marks.delete(userId);
      entry.queue.unshift(userId);
      entry.inFlight -= 1;
    },
    async interruptClaimed(id) {
      const entry = find(id);
      if (entry === undefined) return 0;
      let n = 0;
      for (const [userId, mark] of entry.marks) {
        if (mark !== "c") continue;
        entry.marks.set(userId, "i");
        n += 1;
      }
      entry.b.counts.interrupted += n;
      entry.inFlight -= n;
      return n;
    },
    async markReported(id, at) {
      const entry = find(id);
      if (entry === undefined) return;
      entry.b.reportedAt = at;
      entry.expiresAt = Date.now() + DONE_TTL_MS;
    },
    active: async () =>
      [...broadcasts.keys()]
        .map((id) => find(id)?.b)
        .filter((b): b is Broadcast => b !== undefined && b.reportedAt === undefined)
        .filter((b) => b.state === "sending" || b.state === "done")
        .map(copy),
  };
}
