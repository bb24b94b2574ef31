import { randomBytes } from "node:crypto";
import { createClient } from "@keyv/redis";
import { createStore, type Store } from "../../src/storage/store.js";

export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A key prefix no other test (or run) shares. */
export function uniquePrefix(name: string): string {
  return `test:${name}:${randomBytes(4).toString("hex")}:`;
}

/** A store on the real Redis with its own prefix; `cleanup` deletes exactly those keys. */
export async function redisStore(name: string): Promise<{ store: Store; prefix: string; cleanup: () => Promise<void> }> {
  const prefix = uniquePrefix(name);
  const store = await createStore({ redisUrl: REDIS_URL, keyPrefix: prefix });
  return { store, prefix, cleanup: async () => {
    await deleteByPrefix(prefix);
    await store.close();
  } };
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
