import type { NextFunction } from "grammy";
import type { Access } from "../access/access.js";
import { answerQuery } from "./answer.js";
import type { BaseContext } from "./context.js";

/** Finds who the user behind every update is (role, a reseller's tier), once: `ctx.buyer`. */
export function resolveBuyer(access: Pick<Access, "buyerOf">) {
  return async (ctx: Pick<BaseContext, "from" | "buyer">, next: () => Promise<void>) => {
    ctx.buyer = ctx.from === undefined ? undefined : await access.buyerOf(ctx.from.id);
    await next();
  };
}

/**
 * Stops everyone who may not order, before the features for buyers and the dialogues: nothing they
 * send (a command, a quick order, a forged button) reaches the order service.
 */
export async function accessGuard(ctx: BaseContext, next: NextFunction): Promise<void> {
  if (ctx.buyer !== undefined) return next();
  const userId = ctx.from?.id;
  if (userId === undefined) return; // channel posts and the like: nobody to answer
  if (ctx.callbackQuery !== undefined) {
    await answerQuery(ctx, { text: ctx.tr("access-refused-alert", { userId: String(userId) }), show_alert: true });
    return;
  }
  // In groups, only answer what was addressed to the bot, not every line of the chat.
  const addressed = ctx.chat?.type === "private" || ctx.message?.text?.startsWith("/") === true;
  if (ctx.message !== undefined && addressed) await ctx.reply(ctx.tr("access-refused", { userId: String(userId) }));
}
