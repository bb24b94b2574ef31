import type { RedisClient } from "./redis.js";
import type { Storage } from "./storage.js";

/**
 * Tells every process that something it may keep in memory changed: `publish` sends a message
 * on `<prefix><name>:changed` and every process's `onMessage` gets it (its own included). A cache
 * built on this may keep a value only while `listening()` is true: after a disconnect, messages
 * may have been missed, so `onLost` is called (drop everything) and reads go to the store until
 * the subscription is back. The subscription is a second Redis connection, opened at the first
 * `listening()` call. A writer may also publish from a Lua script, on the same channel, in the
 * step that writes (shop.ts, `<prefix>shop:changed`).
 *
 * The memory store has one process: its writers clear their own caches, so it always listens and
 * publishes nothing.
 */
export interface Invalidation {
  listening(): boolean;
  publish(message: string): Promise<void>;
  close(): Promise<void>;
}

export function createInvalidation(
  storage: Storage,
  name: string,
  handlers: { onMessage: (message: string) => void; onLost: () => void },
): Invalidation {
  if (storage.kind !== "redis") {
    return { listening: () => true, publish: async () => {}, close: async () => {} };
  }
  const { redis } = storage;
  const channel = `${storage.prefix}${name}:changed`;
  let listening = false;
  let closed = false;
  let subscriber: RedisClient | undefined;
  let starting: Promise<void> | undefined;
  const lost = () => {
    listening = false;
    handlers.onLost();
  };
  // One listener for every subscribe: node-redis keeps it once, however often it is subscribed.
  const onMessage = (message: string) => handlers.onMessage(message);
  const subscribe = async (sub: RedisClient) => {
    await sub.subscribe(channel, onMessage);
    // Whatever was kept before the subscription may have missed a message.
    handlers.onLost();
    listening = !closed;
  };
  const listen = () => {
    starting ??= (async () => {
      const sub = redis.duplicate();
      subscriber = sub;
      sub.on("error", lost);
      sub.on("end", lost);
      sub.on("reconnecting", lost);
      // Back after a disconnect: subscribed again (node-redis re-subscribes by itself too; once is enough).
      sub.on("ready", () => {
        if (!closed && sub.isOpen && !listening) subscribe(sub).catch(lost);
      });
      try {
        await sub.connect();
        if (!listening) await subscribe(sub);
      } catch {
        lost(); // no subscription: no cache, every read asks Redis
      }
    })();
  };
  return {
    listening() {
      if (!closed && starting === undefined) listen();
      return listening;
    },
    async publish(message) {
      await redis.publish(channel, message);
    },
    async close() {
      closed = true;
      listening = false;
      await starting;
      const sub = subscriber;
      if (sub === undefined || !sub.isOpen) return;
      try {
        await sub.close();
      } catch {
        sub.destroy(); // the connection is already broken: drop it without waiting
      }
    },
  };
}
