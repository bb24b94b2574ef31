import type { StorageAdapter } from "grammy";
import type { Storage } from "./storage.js";

/**
 * A grammY StorageAdapter over keyv for per-chat state (conversations, preferences). Every key
 * gets the storage prefix and `name`; every write the TTL, so abandoned chats clean themselves up.
 */
export function keyvStorageAdapter<T>(storage: Storage, name: string, ttlMs: number): StorageAdapter<T> {
  const key = (k: string) => `${storage.prefix}${name}:${k}`;
  return {
    async read(k) {
      return (await storage.keyv.get<T>(key(k))) ?? undefined;
    },
    async write(k, value) {
      await storage.keyv.set(key(k), value, ttlMs);
    },
    async delete(k) {
      await storage.keyv.delete(key(k));
    },
  };
}
