import type { StorageAdapter } from "grammy";
import { packJson, unpackJson } from "./compact-json.js";
import type { Storage } from "./storage.js";

/**
 * A grammY StorageAdapter over keyv for per-chat state (dialogues, preferences). Every key gets
 * the storage prefix and `name`; every write the TTL, so abandoned chats clean themselves up.
 * `packed`: values are stored deflated (see compact-json.ts), for state kept per open dialogue.
 */
export function keyvStorageAdapter<T>(
  storage: Storage,
  name: string,
  ttlMs: number,
  opts: { packed?: boolean } = {},
): StorageAdapter<T> {
  const key = (k: string) => `${storage.prefix}${name}:${k}`;
  if (opts.packed !== true) {
    return {
      read: async (k) => (await storage.keyv.get<T>(key(k))) ?? undefined,
      write: async (k, value) => void (await storage.keyv.set(key(k), value, ttlMs)),
      delete: async (k) => void (await storage.keyv.delete(key(k))),
    };
  }
  return {
    async read(k) {
      const stored = await storage.keyv.get<string>(key(k));
      return stored === undefined || stored === null ? undefined : unpackJson<T>(stored);
    },
    write: async (k, value) => void (await storage.keyv.set(key(k), packJson(value), ttlMs)),
    delete: async (k) => void (await storage.keyv.delete(key(k))),
  };
}
