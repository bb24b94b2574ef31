import type { Update } from "grammy/types";

/** Update ids remembered by the direct intake. */
const RECENT_UPDATES = 1000;

/**
 * The webhook intake of the memory store (one process, nothing shared): the update is handed to
 * `handle` at once, without waiting for it (a provider call can take longer than Telegram waits),
 * and an update id seen among the last thousand is dropped (Telegram may deliver one again).
 * A process that dies loses what it was handling: the memory store loses everything at a restart
 * anyway. With Redis, the update stream takes its place (update-stream.ts).
 */
export function createDirectIntake(handle: (update: Update) => void): (update: Update) => Promise<void> {
  const recent = new Set<number>();
  return async (update) => {
    if (recent.has(update.update_id)) return;
    recent.add(update.update_id);
    if (recent.size > RECENT_UPDATES) recent.delete(recent.values().next().value!);
    handle(update);
  };
}
