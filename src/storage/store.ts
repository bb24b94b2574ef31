import { createClient, type RedisClientType } from "@keyv/redis";
import KeyvRedis from "@keyv/redis";
import { Keyv } from "keyv";

/**
 * Atomic operations that keyv's get/set cannot express without a lost update between two
 * processes. On Redis they are single commands; in memory they are synchronous Map/Set edits.
 */
export interface AtomicOps {
  /** SET key value NX (PX ttl): true for the one caller that created the key. */
  claim(key: string, value: string, ttlMs?: number): Promise<boolean>;
  /** The raw value of a key written by {@link AtomicOps.claim}. */
  get(key: string): Promise<string | undefined>;
  setAdd(key: string, member: string): Promise<void>;
  setRemove(key: string, member: string): Promise<void>;
  setMembers(key: string): Promise<string[]>;
  setHas(key: string, member: string): Promise<boolean>;
  /** Sorted sets: the ledger's indexes (by time), each ZADD atomic, so concurrent orders lose nothing. */
  zAdd(key: string, score: number, member: string): Promise<void>;
  /** Members with min <= score <= max, oldest first. */
  zRangeByScore(key: string, min: number, max: number): Promise<string[]>;
  /** Members by rank from the newest: start and stop inclusive, like ZREVRANGE. */
  zRevRange(key: string, start: number, stop: number): Promise<string[]>;
  zCard(key: string): Promise<number>;
  /** Keeps only the newest `keep` members. */
  zTrim(key: string, keep: number): Promise<void>;
  /** Removes keys outright (used by tests' cleanup and by nothing that can meet a shared db blindly). */
  delete(key: string): Promise<void>;
}

/** Where the bot keeps everything: per-chat state and the order ledger. */
export interface Store {
  kind: "redis" | "memory";
  /** JSON values; keys are built with {@link Store.key} so every key carries the prefix. */
  keyv: Keyv;
  atomic: AtomicOps;
  key(...parts: string[]): string;
  /** True when the backing store answers (always true in memory). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface StoreOptions {
  redisUrl: string | undefined;
  /** Every key starts with this; tests give each run its own. */
  keyPrefix: string;
  connectTimeoutMs?: number;
  onError?: (err: unknown) => void;
}

export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
}

/** `redis://user:pass@host:6379/0` → `redis://host:6379/0`, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return "(unparsable REDIS_URL)";
  }
}

/**
 * Builds the store: keyv over @keyv/redis when a URL is given, keyv in memory otherwise.
 * Redis is configured to fail loudly: no offline queue (a command while disconnected throws
 * at once instead of hanging), keyv's throwOnErrors (never a silent `undefined`), and a
 * connect timeout at start so a wrong URL stops the bot with a clear message.
 */
export async function createStore(opts: StoreOptions): Promise<Store> {
  const key = (...parts: string[]) => opts.keyPrefix + parts.join(":");
  if (opts.redisUrl === undefined) return createMemoryStore(key);

  const connectTimeout = opts.connectTimeoutMs ?? 5000;
  const client = createClient({
    url: opts.redisUrl,
    disableOfflineQueue: true,
    socket: {
      connectTimeout,
      // Keep reconnecting in the background (Redis restarts must heal by themselves),
      // but never faster than every 2 s.
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000),
    },
  }) as RedisClientType;
  let lastError: unknown;
  let connected = false;
  client.on("error", (err: unknown) => {
    lastError = err;
    if (connected) opts.onError?.(err);
  });

  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(lastError ?? new Error(`no answer within ${connectTimeout} ms`)), connectTimeout);
      }),
    ]);
  } catch (err) {
    client.destroy();
    const code = (err as NodeJS.ErrnoException).code;
    throw new StoreUnavailableError(
      `cannot connect to Redis at ${redactRedisUrl(opts.redisUrl)} (${code ?? (err as Error).message})`,
    );
  } finally {
    clearTimeout(timer);
  }
  connected = true;

  const adapter = new KeyvRedis(client, { throwOnErrors: true, throwOnConnectError: true, connectionTimeout: connectTimeout });
  // No keyv namespace: our own prefix is in every key, and keyv.clear() is never called
  // (without a namespace it would wipe the whole database).
  const keyv = new Keyv({ store: adapter, throwOnErrors: true, useKeyPrefix: false, namespace: undefined });
  keyv.on("error", (err: unknown) => opts.onError?.(err));

  const atomic: AtomicOps = {
    async claim(k, value, ttlMs) {
      const res = await client.set(k, value, ttlMs === undefined ? { NX: true } : { NX: true, PX: ttlMs });
      return res === "OK";
    },
    async get(k) {
      return (await client.get(k)) ?? undefined;
    },
    async setAdd(k, member) {
      await client.sAdd(k, member);
    },
    async setRemove(k, member) {
      await client.sRem(k, member);
    },
    async setMembers(k) {
      return client.sMembers(k);
    },
    async setHas(k, member) {
      return (await client.sIsMember(k, member)) === 1;
    },
    async zAdd(k, score, member) {
      await client.zAdd(k, { score, value: member });
    },
    async zRangeByScore(k, min, max) {
      return client.zRangeByScore(k, min, max);
    },
    async zRevRange(k, start, stop) {
      return client.zRange(k, start, stop, { REV: true });
    },
    async zCard(k) {
      return client.zCard(k);
    },
    async zTrim(k, keep) {
      await client.zRemRangeByRank(k, 0, -keep - 1);
    },
    async delete(k) {
      await client.del(k);
    },
  };

  return {
    kind: "redis",
    keyv,
    atomic,
    key,
    async ping() {
      try {
        return (await client.ping()) === "PONG";
      } catch {
        return false;
      }
    },
    async close() {
      try {
        await client.close();
      } catch {
        client.destroy();
      }
    },
  };
}

function createMemoryStore(key: (...parts: string[]) => string): Store {
  const keyv = new Keyv({ throwOnErrors: true });
  const claims = new Map<string, { value: string; expires: number | undefined }>();
  const sets = new Map<string, Set<string>>();
  const zsets = new Map<string, Map<string, number>>();
  // Like Redis: by score, then by member.
  const sorted = (k: string) =>
    [...(zsets.get(k) ?? new Map<string, number>())].sort(([ma, a], [mb, b]) => a - b || (ma < mb ? -1 : ma > mb ? 1 : 0));
  const atomic: AtomicOps = {
    async claim(k, value, ttlMs) {
      const existing = claims.get(k);
      if (existing !== undefined && (existing.expires === undefined || existing.expires > Date.now())) return false;
      claims.set(k, { value, expires: ttlMs === undefined ? undefined : Date.now() + ttlMs });
      return true;
    },
    async get(k) {
      const existing = claims.get(k);
      return existing !== undefined && (existing.expires === undefined || existing.expires > Date.now()) ? existing.value : undefined;
    },
    async setAdd(k, member) {
      const set = sets.get(k) ?? new Set<string>();
      set.add(member);
      sets.set(k, set);
    },
    async setRemove(k, member) {
      sets.get(k)?.delete(member);
    },
    async setMembers(k) {
      return [...(sets.get(k) ?? [])];
    },
    async setHas(k, member) {
      return sets.get(k)?.has(member) ?? false;
    },
    async zAdd(k, score, member) {
      const z = zsets.get(k) ?? new Map<string, number>();
      z.set(member, score);
      zsets.set(k, z);
    },
    async zRangeByScore(k, min, max) {
      return sorted(k).filter(([, s]) => s >= min && s <= max).map(([m]) => m);
    },
    async zRevRange(k, start, stop) {
      const all = sorted(k).reverse().map(([m]) => m);
      return all.slice(start, stop < 0 ? all.length + stop + 1 : stop + 1);
    },
    async zCard(k) {
      return zsets.get(k)?.size ?? 0;
    },
    async zTrim(k, keep) {
      const z = zsets.get(k);
      if (z === undefined) return;
      for (const [m] of sorted(k).slice(0, Math.max(0, z.size - keep))) z.delete(m);
    },
    async delete(k) {
      claims.delete(k);
      sets.delete(k);
      zsets.delete(k);
      await keyv.delete(k);
    },
  };
  return { kind: "memory", keyv, atomic, key, ping: async () => true, close: async () => {} };
}
