import type { Storage } from "./storage.js";

/**
 * Per-chat state kept under `<prefix><name>:<chatId>:…` keys (the members' open dialogues), so it
 * can be dropped with its chat when the bot leaves a group. With Redis, found by key (SCAN, never
 * KEYS); the memory store keeps nothing past a restart anyway.
 */
export function createChatState(storage: Storage, names: readonly string[]) {
  return {
    /** Deletes every key of the chat; how many there were. */
    async forget(chatId: number): Promise<number> {
      if (storage.kind !== "redis") return 0;
      const keys: string[] = [];
      for (const name of names) {
        for await (const found of storage.redis.scanIterator({
          MATCH: `${storage.prefix}${name}:${chatId}:*`,
          COUNT: 500,
        }))
          keys.push(...found);
      }
      if (keys.length > 0) await storage.redis.del(keys);
      return keys.length;
    },
  };
}
