import type { RedisClient } from "../storage/redis.js";
import type { Storage } from "../storage/storage.js";

/** A user an admin allowed in the chat (the environment's lists are not stored). */
export interface ListedUser {
  userId: number;
  role: "staff" | "reseller";
  addedBy: number;
  addedAt: string;
}

/**
 * The users admins allowed in the chat, and the price tier of each reseller, kept where every
 * process sees a change at once. Each method is one atomic step.
 */
export interface UserList {
  get(userId: number): Promise<ListedUser | undefined>;
  /** The entry and the tier at once (one round trip): what every update of a user needs. */
  lookup(userId: number): Promise<{ user: ListedUser | undefined; tier: string | undefined }>;
  /** Adds the user, or changes their role; "already" when they were listed with this role. */
  put(user: ListedUser): Promise<"added" | "changed" | "already">;
  /** Removes the user; false when they were not listed. */
  remove(userId: number): Promise<boolean>;
  all(): Promise<ListedUser[]>;
  setTier(userId: number, tier: string): Promise<string | undefined>;
  tiers(): Promise<Map<number, string>>;
}

export function createUserList(storage: Storage): UserList {
  return storage.kind === "redis" ? redisUserList(storage.redis, storage.prefix) : memoryUserList();
}

type Stored = Omit<ListedUser, "userId">;

/** Two hashes: user id → JSON of the entry, user id → tier. */
function redisUserList(redis: RedisClient, prefix: string): UserList {
  const usersKey = `${prefix}users`;
  const tiersKey = `${prefix}tiers`;
  const parse = (userId: number, json: string | null | undefined): ListedUser | undefined => {
    if (json === null || json === undefined) return undefined;
    const stored = JSON.parse(json) as Partial<Stored>;
    // Entries written before roles existed are staff.
    return { role: "staff", addedBy: 0, addedAt: "", ...stored, userId };
  };
  return {
    async get(userId) {
      return parse(userId, await redis.hGet(usersKey, String(userId)));
    },
    async lookup(userId) {
      const [user, tier] = await Promise.all([
        redis.hGet(usersKey, String(userId)),
        redis.hGet(tiersKey, String(userId)),
      ]);
      return { user: parse(userId, user), tier: tier ?? undefined };
    },
    async put(user) {
      const { userId, ...entry } = user;
      const json = JSON.stringify(entry);
      if ((await redis.hSetNX(usersKey, String(userId), json)) === 1) return "added";
      const current = parse(userId, await redis.hGet(usersKey, String(userId)));
      if (current?.role === user.role) return "already";
      await redis.hSet(usersKey, String(userId), json);
      return "changed";
    },
    async remove(userId) {
      return (await redis.hDel(usersKey, String(userId))) === 1;
    },
    async all() {
      const hash = (await redis.hGetAll(usersKey)) as Record<string, string>;
      return Object.entries(hash).map(([id, json]) => parse(Number(id), json)!);
    },
    async setTier(userId, tier) {
      const [old] = await Promise.all([
        redis.hGet(tiersKey, String(userId)),
        redis.hSet(tiersKey, String(userId), tier),
      ]);
      return old ?? undefined;
    },
    async tiers() {
      const hash = (await redis.hGetAll(tiersKey)) as Record<string, string>;
      return new Map(Object.entries(hash).map(([id, tier]) => [Number(id), tier]));
    },
  };
}

function memoryUserList(): UserList {
  const users = new Map<number, ListedUser>();
  const tiers = new Map<number, string>();
  return {
    get: async (userId) => (users.has(userId) ? { ...users.get(userId)! } : undefined),
    lookup: async (userId) => ({
      user: users.has(userId) ? { ...users.get(userId)! } : undefined,
      tier: tiers.get(userId),
    }),
    async put(user) {
      const current = users.get(user.userId);
      if (current?.role === user.role) return "already";
      users.set(user.userId, { ...user });
      return current === undefined ? "added" : "changed";
    },
    remove: async (userId) => users.delete(userId),
    all: async () => [...users.values()].map((u) => ({ ...u })),
    async setTier(userId, tier) {
      const old = tiers.get(userId);
      tiers.set(userId, tier);
      return old;
    },
    tiers: async () => new Map(tiers),
  };
}
