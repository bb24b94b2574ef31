import KeyvRedis from "@keyv/redis";
import { Keyv } from "keyv";
import { connectRedis, type RedisClient } from "./redis.js";

/**
 * Where the bot keeps everything. `kind` tells the repositories which implementation to build:
 * Redis (Lua scripts for every step that must be atomic) or memory (plain synchronous code, which
 * is atomic by itself in one process). Per-chat state (conversations, preferences) goes through
 * keyv, which speaks to either.
 */
export type Storage =
  | {
      kind: "redis";
      prefix: string;
      redis: RedisClient;
      keyv: Keyv;
      /**
       * The process whose name every connection of this storage carries in `CLIENT LIST`
       * (`connectionName(prefix, owner)`); undefined when none was given or Redis refused it.
       */
      owner: string | undefined;
      ping(): Promise<boolean>;
      close(): Promise<void>;
    }
  | { kind: "memory"; prefix: string; keyv: Keyv; ping(): Promise<boolean>; close(): Promise<void> };

export interface StorageOptions {
  /** Unset: an in-process memory store (lost at restart). */
  redisUrl: string | undefined;
  /** Every key starts with this; tests give each run its own. */
  prefix: string;
  connectTimeoutMs?: number;
  onError?: (err: unknown) => void;
  /**
   * This process's name among the others (storage/leases.ts processOwner()): its connections are
   * named after it, so that other processes can see whether it is alive (storage/liveness.ts).
   */
  owner?: string;
}

/**
 * The name a process's Redis connections carry (CLIENT SETNAME): the key prefix and the owner,
 * so bots with different prefixes on one Redis never take each other's connections for their own.
 */
export function connectionName(prefix: string, owner: string): string {
  return `${prefix}${prefix.endsWith(":") ? "" : ":"}${owner}`;
}

/**
 * A value that lives with a memory storage: `make` runs once per storage, and every caller of the
 * returned function gets the same value (what a Redis key would be to all of them).
 */
export function perMemoryStorage<T>(make: () => T): (storage: Extract<Storage, { kind: "memory" }>) => T {
  const kept = new WeakMap<object, T>();
  return (storage) => {
    let value = kept.get(storage.keyv);
    if (value === undefined) {
      value = make();
      kept.set(storage.keyv, value);
    }
    return value;
  };
}

export async function createStorage(opts: StorageOptions): Promise<Storage> {
  if (opts.redisUrl === undefined) {
    return {
      kind: "memory",
      prefix: opts.prefix,
      keyv: new Keyv({ throwOnErrors: true }),
      ping: async () => true,
      close: async () => {},
    };
  }
  const redis = await connectRedis({
    url: opts.redisUrl,
    ...(opts.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: opts.connectTimeoutMs }),
    ...(opts.onError === undefined ? {} : { onError: opts.onError }),
    ...(opts.owner === undefined ? {} : { name: connectionName(opts.prefix, opts.owner) }),
  });
  // keyv never returns a silent `undefined` for a Redis error (throwOnErrors). No keyv namespace:
  // our prefix is in every key, and keyv.clear() is never called (it would wipe the database).
  const adapter = new KeyvRedis(redis, { throwOnErrors: true, throwOnConnectError: true });
  const keyv = new Keyv({ store: adapter, throwOnErrors: true, useKeyPrefix: false, namespace: undefined });
  if (opts.onError !== undefined) keyv.on("error", opts.onError);
  return {
    kind: "redis",
    prefix: opts.prefix,
    redis,
    keyv,
    owner: opts.owner !== undefined && redis.options?.name !== undefined ? opts.owner : undefined,
    async ping() {
      try {
        return (await redis.ping()) === "PONG";
      } catch {
        return false; // that is the answer: Redis does not answer (the client logs its own errors)
      }
    },
    async close() {
      if (!redis.isOpen) return; // closed already, or destroyed
      try {
        await redis.close();
      } catch {
        redis.destroy(); // the connection is already broken: drop it without waiting
      }
    },
  };
}
