import type { Access } from "../access/access.js";
import type { BroadcastStore } from "./broadcast-store.js";

/**
 * Who a broadcast reaches: the users who may order (ADMIN_IDS, ALLOWED_USER_IDS, RESELLER_IDS and
 * those allowed in the chat) and have started the bot in a private chat. Telegram refuses a
 * message to someone who never opened the bot, so only they are counted and sent to.
 */
/** Users remembered as recorded, per process, before the memory is started afresh. */
const MAX_REMEMBERED = 20_000;

export function createAudience(deps: {
  store: Pick<BroadcastStore, "markStarted" | "startedAmong">;
  access: Pick<Access, "list">;
}) {
  // Written once per user per process: the middleware calls this for every private update of a
  // buyer, and a Redis command per update would be waste. Right with several processes too: the
  // set in storage only grows (nothing removes a user from it), so "recorded here" never becomes
  // false elsewhere; the worst a stale memory costs is one more (idempotent) SADD in another process.
  const recorded = new Set<number>();
  return {
    /** This user has a private chat with the bot. */
    async started(userId: number): Promise<void> {
      if (recorded.has(userId)) return;
      await deps.store.markStarted(userId);
      // Bounded: forgetting only costs one more (idempotent) write for a user seen again.
      if (recorded.size >= MAX_REMEMBERED) recorded.clear();
      recorded.add(userId);
    },
    /**
     * Everyone who may order and has started the bot: the admin who writes
     * included (they get it as every user does, in their own chat).
     */
    async recipients(): Promise<number[]> {
      const ids = new Set((await deps.access.list()).map((e) => e.userId));
      return deps.store.startedAmong([...ids].sort((a, b) => a - b));
    },
  };
}

export type Audience = ReturnType<typeof createAudience>;
