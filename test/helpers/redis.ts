import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { createClient } from "@keyv/redis";
import { createStorage, type Storage } from "../../src/storage/storage.js";

export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A key prefix no other test (or run) shares. */
export function uniquePrefix(name: string): string {
  return `test:${name}:${randomBytes(4).toString("hex")}:`;
}

/** Storage on the real Redis with its own prefix; `cleanup` deletes exactly those keys. */
export async function redisStorage(
  name: string,
): Promise<{ storage: Storage; prefix: string; cleanup: () => Promise<void> }> {
  const prefix = uniquePrefix(name);
  const storage = await createStorage({ redisUrl: REDIS_URL, prefix });
  return {
    storage,
    prefix,
    cleanup: async () => {
      await deleteByPrefix(prefix);
      await storage.close();
    },
  };
}

/** The keys under `prefix` that match `pattern` (a Redis MATCH pattern), without the prefix. */
export async function keysOf(prefix: string, pattern: string): Promise<string[]> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    const found: string[] = [];
    for await (const keys of client.scanIterator({ MATCH: `${prefix}${pattern}`, COUNT: 500 }))
      found.push(...keys.map((k) => k.slice(prefix.length)));
    return found;
  } finally {
    await client.close();
  }
}

/** SCAN + DEL of one prefix: never FLUSHDB, other tests share the database. */
export async function deleteByPrefix(prefix: string): Promise<void> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
  } finally {
    await client.close();
  }
}

/**
 * What a killed bot process held (its leases and its lanes' locks, under `prefix`) made to last
 * `ms` more in Redis, as if their time were that long: a process that takes them over sooner did
 * not wait it out. Returns the keys, by kind (`lease:poller`, `upd:lock:…`).
 */
export async function lengthenHolds(prefix: string, ms: number): Promise<string[]> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  const lengthened: string[] = [];
  try {
    for (const pattern of [`${prefix}lease:*`, `${prefix}upd:lock:*`]) {
      for await (const keys of client.scanIterator({ MATCH: pattern, COUNT: 500 })) {
        for (const key of keys) {
          if (key.endsWith(":fence")) continue; // a counter, not a hold
          if ((await client.pExpire(key, ms)) === 1) lengthened.push(key.slice(prefix.length));
        }
      }
    }
  } finally {
    await client.close();
  }
  return lengthened.sort();
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A redis-server of the test's own (the shared one must never be stopped), with append-only
 * persistence in a temporary directory, so that a stop and a start keep the data like a real
 * Redis restart does; or with no persistence at all (`appendOnly: false`: the bench's year, whose
 * memory must be the data's alone). `args`: more of redis-server's options (a Redis that refuses
 * some commands, as a managed one may).
 */
export async function ownRedis(
  opts: { appendOnly?: boolean; args?: readonly string[] } = {},
): Promise<{ url: string; start: () => Promise<void>; stop: () => Promise<void> }> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), "redis-"));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const answers = async () => {
    try {
      const probe = await createStorage({ redisUrl: url, prefix: "probe:", connectTimeoutMs: 200 });
      await probe.close();
      return true;
    } catch {
      return false;
    }
  };
  const redis = {
    url,
    async start() {
      child = spawn(
        "redis-server",
        [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--dir",
          dir,
          "--appendonly",
          opts.appendOnly === false ? "no" : "yes",
          "--save",
          "",
          ...(opts.args ?? []),
        ],
        { stdio: "ignore" },
      );
      for (let i = 0; i < 100 && !(await answers()); i++) await new Promise((r) => setTimeout(r, 50));
    },
    async stop() {
      if (child === undefined || child.exitCode !== null) return;
      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
  await redis.start();
  return redis;
}
