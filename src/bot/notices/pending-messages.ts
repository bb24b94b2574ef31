import type { Storage } from "../../storage/storage.js";

/** A message that shows an order with buttons acting on it (a /pending line): where it is. */
export interface ShownAt {
  chatId: number;
  messageId: number;
}

/**
 * The /pending messages that show each order whose result is unknown, so that the buttons go from
 * every one of them once the order is settled (from the chat, the Mini App or by itself): a Redis
 * list per order (`pending-msgs:REF`), kept a week; in memory, a Map. Losing one only leaves a
 * button that answers "already settled" when tapped.
 */
export interface PendingMessages {
  add(refId: string, at: ShownAt): Promise<void>;
  /** Every message recorded for the order, forgotten at once (each is brought up to date once). */
  take(refId: string): Promise<ShownAt[]>;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** How many /pending messages are remembered per order (an admin asking /pending all day). */
const MAX_PER_ORDER = 20;

const memoryMessages = new WeakMap<Storage, Map<string, ShownAt[]>>();

/**
 * The messages kept under `list`: `pending-msgs` for the /pending lines and the unknown orders'
 * notices, `request-msgs` for the admins' notices of a deposit request (by its `DR…` id).
 */
export function createPendingMessages(storage: Storage, list = "pending-msgs"): PendingMessages {
  const encode = (at: ShownAt) => `${at.chatId}:${at.messageId}`;
  const decode = (text: string): ShownAt | undefined => {
    const [chat, message] = text.split(":").map(Number);
    return Number.isSafeInteger(chat) && Number.isSafeInteger(message)
      ? { chatId: chat!, messageId: message! }
      : undefined;
  };
  if (storage.kind === "redis") {
    const { redis } = storage;
    const key = (refId: string) => `${storage.prefix}${list}:${refId}`;
    return {
      async add(refId, at) {
        await redis
          .multi()
          .lPush(key(refId), encode(at))
          .lTrim(key(refId), 0, MAX_PER_ORDER - 1)
          .pExpire(key(refId), WEEK_MS)
          .exec();
      },
      async take(refId) {
        const [list] = (await redis.multi().lRange(key(refId), 0, -1).del(key(refId)).exec()) as unknown as [string[]];
        return list.map(decode).filter((at): at is ShownAt => at !== undefined);
      },
    };
  }
  let kept = memoryMessages.get(storage);
  if (kept === undefined) memoryMessages.set(storage, (kept = new Map<string, ShownAt[]>()));
  const store = kept;
  return {
    async add(refId, at) {
      const key = `${list}:${refId}`;
      store.set(key, [at, ...(store.get(key) ?? [])].slice(0, MAX_PER_ORDER));
    },
    async take(refId) {
      const key = `${list}:${refId}`;
      const kept = store.get(key) ?? [];
      store.delete(key);
      return kept;
    },
  };
}
