import { Composer, InlineKeyboard } from "grammy";
import type { Access } from "../../orders/access.js";
import type { OrderRecord } from "../../orders/order.js";
import type { OrderService, SettleOutcome } from "../../orders/order-service.js";
import { answerQuery } from "../answer.js";
import { encodeCallback, parseCallback } from "../callback-data.js";
import type { BotContext, InnerContext, OrderConversation } from "../context.js";
import { languageOf } from "../i18n.js";
import { renderReason, renderState } from "../order-messages.js";
import { formatTime, safeTranslate, type Translate } from "../text.js";

export const SETTLE_CONVERSATION = "settle";
const HTML = { parse_mode: "HTML" } as const;
const SN = /^[^\s]{1,64}$/u;

/** The admin's answer to a settlement, whichever way it was asked for. */
export function settleReply(t: Translate, refId: string, outcome: SettleOutcome): string {
  if (outcome.kind === "not-found") return t("settle-not-found", { refId });
  if (outcome.kind === "not-pending") return t("settle-not-pending", { refId, outcome: renderState(t, outcome.order) });
  return t("settle-done", { refId, outcome: renderState(t, outcome.order) });
}

/**
 * The settle dialogue, entered from a /pending button: it asks for the SN (success) or the
 * reason (failed), then settles once. Commands pass through to their handlers.
 */
export function createSettleConversation(deps: { orders: OrderService }) {
  return async function settle(conversation: OrderConversation, ctx: InnerContext, refId: string, outcome: "success" | "failed") {
    const t = safeTranslate(ctx.t.bind(ctx));
    await ctx.reply(t(outcome === "success" ? "settle-ask-sn" : "settle-ask-reason", { refId }), HTML);
    for (;;) {
      const next = await conversation.wait();
      const text = next.message?.text?.trim();
      // Commands and buttons belong to their own handlers; this dialogue waits on.
      if (text?.startsWith("/") || next.callbackQuery !== undefined) await conversation.skip({ next: true });
      if (text === undefined) {
        if (next.message !== undefined) await next.reply(t(outcome === "success" ? "settle-bad-sn" : "settle-bad-reason"), HTML);
        continue;
      }
      if (outcome === "success" && !SN.test(text)) {
        await next.reply(t("settle-bad-sn"), HTML);
        continue;
      }
      if (outcome === "failed" && (text.length === 0 || text.length > 200)) {
        await next.reply(t("settle-bad-reason"), HTML);
        continue;
      }
      const adminId = next.from!.id;
      const result = await conversation.external(() =>
        deps.orders.settle(refId, adminId, outcome === "success" ? { state: "success", sn: text } : { state: "failed", reason: text }),
      );
      await next.reply(settleReply(t, refId, result), HTML);
      return;
    }
  };
}

/** /pending lists orders whose result is unknown; /settle and the buttons settle them, once. */
export function pendingFeature(deps: { orders: OrderService; access: Access; timeZone: string }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const admin = composer.filter((ctx) => ctx.from !== undefined && deps.access.isAdmin(ctx.from.id));

  composer.command(["pending", "settle"], async (ctx, next) => {
    if (deps.access.isAdmin(ctx.from!.id)) return next();
    await ctx.reply(safeTranslate(ctx.t.bind(ctx))("admin-only"), HTML);
  });

  admin.command("pending", async (ctx) => {
    const t = safeTranslate(ctx.t.bind(ctx));
    const lang = languageOf(await ctx.i18n.getLocale());
    const pending = await deps.orders.pending();
    if (pending.length === 0) return void (await ctx.reply(t("pending-none"), HTML));
    await ctx.reply(`${t("pending-title", { count: String(pending.length) })}\n${t("pending-help")}`, HTML);
    // One message per order, with its own buttons, so each can be settled where it stands.
    for (const order of pending.slice(0, 20)) {
      await ctx.reply(pendingLine(t, order, lang, deps.timeZone), {
        ...HTML,
        reply_markup: new InlineKeyboard()
          .text(t("button-settle-success"), encodeCallback({ type: "settle", outcome: "success", refId: order.refId }))
          .text(t("button-settle-failed"), encodeCallback({ type: "settle", outcome: "failed", refId: order.refId })),
      });
    }
  });

  admin.command("settle", async (ctx) => {
    const t = safeTranslate(ctx.t.bind(ctx));
    const m = /^(\S+)\s+(success|failed)\s+(.+)$/is.exec(ctx.match.trim());
    if (m === null) return void (await ctx.reply(t("settle-usage"), HTML));
    const [, refId, how, rest] = m as unknown as [string, string, string, string];
    const value = rest.trim();
    if (how.toLowerCase() === "success" && !SN.test(value)) return void (await ctx.reply(t("settle-bad-sn"), HTML));
    if (how.toLowerCase() === "failed" && value.length > 200) return void (await ctx.reply(t("settle-bad-reason"), HTML));
    const outcome = await deps.orders.settle(
      refId,
      ctx.from!.id,
      how.toLowerCase() === "success" ? { state: "success", sn: value } : { state: "failed", reason: value },
    );
    await ctx.reply(settleReply(t, refId, outcome), HTML);
  });

  composer.on("callback_query:data", async (ctx, next) => {
    const data = parseCallback(ctx.callbackQuery.data);
    if (data?.type !== "settle") return next();
    const t = safeTranslate(ctx.t.bind(ctx));
    if (!deps.access.isAdmin(ctx.from.id)) return void (await answerQuery(ctx, { text: t("admin-only"), show_alert: true }));
    const order = await deps.orders.get(data.refId);
    if (order === undefined || order.state !== "unknown") {
      const text = order === undefined ? t("settle-not-found", { refId: data.refId }) : t("settle-not-pending", { refId: data.refId, outcome: renderState(t, order) });
      return void (await answerQuery(ctx, { text: text.replace(/<[^>]+>/g, ""), show_alert: true }));
    }
    await answerQuery(ctx);
    await ctx.conversation.exitAll();
    await ctx.conversation.enter(SETTLE_CONVERSATION, data.refId, data.outcome);
  });
  return composer;
}

function pendingLine(t: Translate, order: OrderRecord, lang: "en" | "id", timeZone: string): string {
  return t("pending-line", {
    refId: order.refId,
    time: formatTime(order.submittedAt ?? order.createdAt, lang, timeZone),
    code: order.productCode,
    product: order.productName,
    playerId: order.playerId,
    user: `${order.userName} (${order.userId})`,
    reason: renderReason(t, order),
  });
}
