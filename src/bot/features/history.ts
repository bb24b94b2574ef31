import { Composer, InlineKeyboard } from "grammy";
import type { Access } from "../../orders/access.js";
import type { OrderService } from "../../orders/order-service.js";
import { answerQuery } from "../answer.js";
import { encodeCallback, parseCallback } from "../callback-data.js";
import type { BotContext } from "../context.js";
import { languageOf } from "../i18n.js";
import { renderState } from "../order-messages.js";
import { formatTime, safeTranslate } from "../text.js";

const PAGE_SIZE = 10;

/** /history and /history all: orders newest first, 10 a page, paged in place with buttons. */
export function historyFeature(deps: { orders: OrderService; access: Access; timeZone: string }): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  async function render(ctx: BotContext, scope: "me" | "all", page: number) {
    const t = safeTranslate(ctx.t.bind(ctx));
    const lang = languageOf(await ctx.i18n.getLocale());
    const { orders, total } = await deps.orders.history(scope === "all" ? "all" : ctx.from!.id, page, PAGE_SIZE);
    if (total === 0) return { text: t("history-empty"), keyboard: undefined };
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    const lines = orders.map((o) => {
      let line = t("history-line", {
        time: formatTime(o.submittedAt ?? o.createdAt, lang, deps.timeZone),
        refId: o.refId,
        code: o.productCode,
        product: o.productName,
        playerId: o.playerId,
        outcome: renderState(t, o),
      });
      if (o.result?.sn !== undefined) line += ` · ${t("history-line-sn", { sn: o.result.sn })}`;
      if (scope === "all") line += ` · ${t("history-line-user", { user: `${o.userName} (${o.userId})` })}`;
      return line;
    });
    const scopeName = t(scope === "all" ? "history-scope-all" : "history-scope-mine");
    const text = `${t("history-title", { scope: scopeName, page: String(page + 1), pages: String(pages), total: String(total) })}\n\n${lines.join("\n\n")}`;
    const keyboard = new InlineKeyboard();
    if (page > 0) keyboard.text(t("history-newer"), encodeCallback({ type: "history", scope, page: page - 1 }));
    if (page + 1 < pages) keyboard.text(t("history-older"), encodeCallback({ type: "history", scope, page: page + 1 }));
    return { text, keyboard };
  }

  composer.command("history", async (ctx) => {
    const wantsAll = ctx.match.trim().toLowerCase() === "all";
    if (wantsAll && !deps.access.isAdmin(ctx.from!.id)) {
      return void (await ctx.reply(safeTranslate(ctx.t.bind(ctx))("admin-only"), { parse_mode: "HTML" }));
    }
    const { text, keyboard } = await render(ctx, wantsAll ? "all" : "me", 0);
    await ctx.reply(text, { parse_mode: "HTML", ...(keyboard === undefined ? {} : { reply_markup: keyboard }) });
  });

  composer.on("callback_query:data", async (ctx, next) => {
    const data = parseCallback(ctx.callbackQuery.data);
    if (data?.type !== "history") return next();
    if (data.scope === "all" && !deps.access.isAdmin(ctx.from.id)) {
      return void (await answerQuery(ctx, { text: safeTranslate(ctx.t.bind(ctx))("admin-only"), show_alert: true }));
    }
    await answerQuery(ctx);
    const { text, keyboard } = await render(ctx, data.scope, data.page);
    await ctx.editMessageText(text, { parse_mode: "HTML", ...(keyboard === undefined ? {} : { reply_markup: keyboard }) }).catch(() => undefined);
  });
  return composer;
}
