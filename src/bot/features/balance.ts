import { Composer } from "grammy";
import type { OrderService } from "../../orders/order-service.js";
import type { BotContext } from "../context.js";
import { languageOf } from "../i18n.js";
import { formatNumber, formatTime, safeTranslate } from "../text.js";

/** /balance: the partner balance after the most recent successful sale, and when it was seen. */
export function balanceFeature(deps: { orders: OrderService; timeZone: string }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("balance", async (ctx) => {
    const t = safeTranslate(ctx.t.bind(ctx));
    const lang = languageOf(await ctx.i18n.getLocale());
    const seen = await deps.orders.lastBalance();
    if (seen === undefined) return void (await ctx.reply(t("balance-none"), { parse_mode: "HTML" }));
    await ctx.reply(
      t("balance-known", { balance: formatNumber(seen.balance, lang), time: formatTime(seen.at, lang, deps.timeZone), refId: seen.refId }),
      { parse_mode: "HTML" },
    );
  });
  return composer;
}
