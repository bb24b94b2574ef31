import type { Update } from "grammy/types";
import { z } from "zod";

/**
 * The lane of an update: whose updates must be handled one after the other. One member of one
 * chat (`<chat id>:<user id>`, the same key as the bot's per-process `sequentialize` and the
 * dialogues' storage key), or a user where there is no chat (`u<user id>`), or a chat where there
 * is no user (`c<chat id>`). Other lanes never wait for each other.
 *
 * Read from the update itself, without grammY's Context: the intake runs before any bot does.
 * The shapes are the ones in ALLOWED_UPDATES (message, edited_message, callback_query,
 * my_chat_member) and their like; anything else shares one lane, `other`.
 */
export function laneOf(update: Update): string {
  const u = update as unknown as Record<string, unknown>;
  for (const [kind, body] of Object.entries(u)) {
    if (kind === "update_id" || typeof body !== "object" || body === null) continue;
    const b = body as { chat?: { id?: unknown }; from?: { id?: unknown }; message?: { chat?: { id?: unknown } } };
    // A callback query's chat is the chat of the message its button is on.
    const chatId = b.chat?.id ?? b.message?.chat?.id;
    const userId = b.from?.id;
    const chat = typeof chatId === "number" ? chatId : undefined;
    const user = typeof userId === "number" ? userId : undefined;
    if (chat !== undefined && user !== undefined) return `${chat}:${user}`;
    if (user !== undefined) return `u${user}`;
    if (chat !== undefined) return `c${chat}`;
  }
  return "other";
}

/**
 * What the intake takes as an update: a JSON object with a whole, non-negative `update_id`
 * (Telegram's own checks are Telegram's business; everything else is kept as it came).
 */
const updateShape = z.looseObject({ update_id: z.number().int().nonnegative() });

/** Parses a webhook body: the update, or undefined when it is not one. */
export function parseUpdate(body: string): Update | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined; // not an update: the caller refuses it
  }
  const parsed = updateShape.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
