import { luaScript } from "./redis.js";
import { perMemoryStorage, type Storage } from "./storage.js";

/** An order sent a moment ago for a product and a player id: which, when, by whom. */
export interface RecentOrder {
  refId: string;
  /** When it was claimed (ISO). */
  at: string;
  userId: number;
  userName: string;
}

/**
 * The latest order sent for each product and player id, and each user's latest for them, kept for
 * a few minutes: what a summary needs to say "ordered before" with one read, whatever the player's
 * history. With Redis, `<prefix>recent:<CODE>:<player id>` and `…:u<user id>` (JSON, `PX`), both
 * written in one round trip; in memory, a Map.
 */
export interface RecentOrders {
  /** Notes an order as the latest of both (a claimed order is noted by the claim itself, in its own step). */
  note(order: RecentOrder & { productCode: string; playerId: string }, ttlMs: number): Promise<void>;
  /** The latest for the product and player id: anyone's, or only `userId`'s. */
  latest(productCode: string, playerId: string, userId?: number): Promise<RecentOrder | undefined>;
}

const keyOf = (productCode: string, playerId: string, userId?: number) =>
  `${productCode.toUpperCase()}:${playerId}${userId === undefined ? "" : `:u${userId}`}`;

const read = (raw: string | null | undefined): RecentOrder | undefined => {
  if (raw === null || raw === undefined) return undefined;
  try {
    const o = JSON.parse(raw) as Partial<RecentOrder>;
    return typeof o.refId === "string" && typeof o.at === "string" && typeof o.userId === "number"
      ? { refId: o.refId, at: o.at, userId: o.userId, userName: typeof o.userName === "string" ? o.userName : "" }
      : undefined;
  } catch {
    return undefined;
  }
};

/** Entries kept in memory at most (the oldest go first). */
const MEMORY_MAX = 10_000;

/** The notes kept in memory: one Map per memory storage, shared by this store and the ledger's claim. */
type MemoryNotes = Map<string, { value: RecentOrder; until: number }>;
const memoryNotes = perMemoryStorage((): MemoryNotes => new Map());

/** A note written in memory (what the Redis note below writes): the order as the latest of both. */
function noteIn(kept: MemoryNotes, o: RecentOrder & { productCode: string; playerId: string }, ttlMs: number): void {
  const until = performance.now() + ttlMs;
  const value = { refId: o.refId, at: o.at, userId: o.userId, userName: o.userName };
  for (const k of [keyOf(o.productCode, o.playerId), keyOf(o.productCode, o.playerId, o.userId)]) {
    kept.delete(k);
    kept.set(k, { value, until });
  }
  while (kept.size > MEMORY_MAX) kept.delete(kept.keys().next().value!);
}

/**
 * How a ledger step notes an order in the same script that claims it: the Lua function
 * `noteRecent(prefix, code, player, user, refId, at, userName, ttlMs)` writes the same two keys and
 * JSON as `note` below. The memory form is `memoryRecentNote`.
 */
export const LUA_NOTE_RECENT = `
local function noteRecent(pre, code, player, user, ref, at, name, ttl)
  -- The user id as its digits (a Lua number would round an id past 14 digits).
  local value = '{"refId":' .. cjson.encode(ref) .. ',"at":' .. cjson.encode(at) .. ',"userId":' .. user ..
    ',"userName":' .. cjson.encode(name or '') .. '}'
  local key = pre .. 'recent:' .. string.upper(code) .. ':' .. player
  redis.call('SET', key, value, 'PX', ttl)
  redis.call('SET', key .. ':u' .. user, value, 'PX', ttl)
end
`;

/** A note on its own (the claim writes its own with the same function). ARGV: noteRecent's arguments. */
const NOTE = luaScript(`${LUA_NOTE_RECENT}
noteRecent(ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8])
return 0
`);

/** The memory ledger's way to note an order as it claims it (the Map this store reads). */
export function memoryRecentNote(
  storage: Extract<Storage, { kind: "memory" }>,
): (o: RecentOrder & { productCode: string; playerId: string }, ttlMs: number) => void {
  const kept = memoryNotes(storage);
  return (o, ttlMs) => noteIn(kept, o, ttlMs);
}

export function createRecentOrders(storage: Storage): RecentOrders {
  if (storage.kind === "redis") {
    const { redis, prefix } = storage;
    const key = (k: string) => `${prefix}recent:${k}`;
    return {
      async note(o, ttlMs) {
        const ttl = Math.max(1, Math.round(ttlMs));
        await NOTE(redis, [], [prefix, o.productCode, o.playerId, String(o.userId), o.refId, o.at, o.userName, ttl]);
      },
      latest: async (productCode, playerId, userId) => read(await redis.get(key(keyOf(productCode, playerId, userId)))),
    };
  }
  const kept = memoryNotes(storage);
  return {
    async note(o, ttlMs) {
      noteIn(kept, o, ttlMs);
    },
    async latest(productCode, playerId, userId) {
      const found = kept.get(keyOf(productCode, playerId, userId));
      return found === undefined || found.until <= performance.now() ? undefined : found.value;
    },
  };
}
