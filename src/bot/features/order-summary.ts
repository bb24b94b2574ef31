import type { Context } from "grammy";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { OrderRecord } from "../../orders/order.js";
import { confirmKeyboard } from "../keyboards/order-keyboards.js";
import { renderSummary } from "../order-messages.js";
import { safeTranslate } from "../text.js";

/** Shows the summary with Confirm and Cancel bound to the order's ref_id. */
export async function sendSummary(ctx: Context & I18nFlavor, order: OrderRecord): Promise<void> {
  const t = safeTranslate(ctx.t.bind(ctx));
  await ctx.reply(renderSummary(t, order), { parse_mode: "HTML", reply_markup: confirmKeyboard(order.refId, t) });
}
