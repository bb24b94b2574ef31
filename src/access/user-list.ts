import type { RedisClient } from "../storage/redis.js";
import type { Storage } from "../storage/storage.js";

/** A user an admin allowed in the chat (the environment's lists are not stored). */
export interface ListedUser {
  userId: number;
  addedBy: number;
  addedAt: string;
}

/**
 * The users admins allowed in the chat, kept where every process sees a change at once. Each
 * method is one atomic step: two admins adding the same user add them once.
 */
export interface UserList {
  get(userId: number): Promise<ListedUser | undefined>;
  /** Adds the user unless listed; false when they already were. */
  add(user: ListedUser): Promise<boolean>;
  /** Removes the user; false when they were not listed. */
  remove(userId: number): Promise<boolean>;
  all(): Promise<ListedUser[]>;
}

export function createUserList(storage: Storage): UserList {
  return storage.kind === "redis" ? redisUserList(storage.redis, storage.prefix) : memoryUserList();
}

/** One hash, user id → JSON of the entry. */
function redisUserList(redis: RedisClient, prefix: string): UserList {
  const key = `${prefix}users`;
  const parse = (userId: number, json: string | null | undefined): ListedUser | undefined =>
    json === null || json === undefined ? undefined : { ...(JSON.parse(json) as Omit<ListedUser, "userId">), userId };
  return {
    async get(userId) {
      return parse(userId, await redis.hGet(key, String(userId)));
    },
    async add(user) {
      const { userId, ...entry } = user;
      return (await redis.hSetNX(key, String(userId), JSON.stringify(entry))) === 1;
    },
    async remove(userId) {
      return (await redis.hDel(key, String(userId))) === 1;
    },
    async all() {
      const hash = await redis.hGetAll(key);
      return Object.entries(hash as Record<string, string>).map(([id, json]) => parse(Number(id), json)!);
    },
  };
}

function memoryUserList(): UserList {
  const users = new Map<number, ListedUser>();
  return {
    get: async (userId) => (users.has(userId) ? { ...users.get(userId)! } : undefined),
    async add(user) {
      if (users.has(user.userId)) return false;
      users.set(user.userId, { ...user });
      return true;
    },
    remove: async (userId) => users.delete(userId),
    all: async () => [...users.values()].map((u) => ({ ...u })),
  };
}
