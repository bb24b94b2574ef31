import { Composer } from "grammy";
import type { OrderService } from "../../orders/order-service.js";
import type { Storage } from "../../storage/storage.js";
import type { BotContext } from "../context.js";

/**
 * Everything kept for one chat: the open dialogues and the drafts shown there. With Redis, found by
 * key (SCAN, never KEYS); the memory store keeps nothing past a restart anyway.
 */
async function membersWithState(storage: Storage, chatId: number): Promise<{ dialogues: string[]; drafts: number[] }> {
  if (storage.kind !== "redis") return { dialogues: [], drafts: [] };
  const dialogues: string[] = [];
  const drafts: number[] = [];
  for await (const keys of storage.redis.scanIterator({ MATCH: `${storage.prefix}dialogue:${chatId}:*`, COUNT: 500 }))
    dialogues.push(...keys);
  const draftPrefix = `${storage.prefix}open-draft:${chatId}:`;
  for await (const keys of storage.redis.scanIterator({ MATCH: `${draftPrefix}*`, COUNT: 500 }))
    drafts.push(...keys.map((k) => Number(k.slice(draftPrefix.length))));
  return { dialogues, drafts };
}

/**
 * The bot removed from a group (`my_chat_member`: left or kicked): the summaries shown there are
 * cancelled (nobody can confirm them any more) and the members' dialogues are dropped, so nothing
 * of that chat is left behind. Runs before the access guard: whoever removed the bot may be anyone.
 */
export function membershipFeature(deps: { orders: OrderService; storage: Storage }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.on("my_chat_member", async (ctx) => {
    const status = ctx.myChatMember.new_chat_member.status;
    if (ctx.chat.type === "private" || (status !== "left" && status !== "kicked")) return;
    const chatId = ctx.chat.id;
    const { dialogues, drafts } = await membersWithState(deps.storage, chatId);
    for (const userId of drafts) {
      const refId = await deps.orders.openDraftOf(chatId, userId);
      if (refId !== undefined) await deps.orders.cancel({ refId, userId, chatId });
    }
    if (dialogues.length > 0 && deps.storage.kind === "redis") await deps.storage.redis.del(dialogues);
    ctx.log.info(
      { chatId, status, dialogues: dialogues.length, drafts: drafts.length },
      "removed from a group; its state dropped",
    );
  });
  return composer;
}
