import type { StorageAdapter } from "grammy";
import type { Store } from "./store.js";

/**
 * One grammY StorageAdapter over keyv, for sessions and for conversations (their storage has the
 * same read/write/delete shape). Every key gets `prefix`, every write the TTL, so abandoned
 * chats clean themselves up.
 */
export function keyvStorageAdapter<T>(store: Store, prefix: string, ttlMs: number): StorageAdapter<T> {
  return {
    async read(key) {
      return (await store.keyv.get<T>(store.key(prefix, key))) ?? undefined;
    },
    async write(key, value) {
      await store.keyv.set(store.key(prefix, key), value, ttlMs);
    },
    async delete(key) {
      await store.keyv.delete(store.key(prefix, key));
    },
  };
}
