import { Composer } from "grammy";
import type { OrderService } from "../../orders/order-service.js";
import type { BotContext } from "../context.js";
import { formatNumber, formatTime } from "../format.js";

/** /balance: the partner balance reported by the sale recorded last, and when it was seen. */
export function balanceFeature(deps: { orders: OrderService; timeZone: string }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("balance", async (ctx) => {
    const seen = await deps.orders.lastBalance();
    if (seen === undefined) return void (await ctx.reply(ctx.tr("balance-none")));
    await ctx.reply(
      ctx.tr("balance-known", {
        balance: formatNumber(seen.balance, ctx.lang),
        time: formatTime(seen.at, ctx.lang, deps.timeZone),
        refId: seen.refId,
      }),
    );
  });
  return composer;
}
