import { Composer } from "grammy";
import { checkPlayerId, findProduct, type Catalog, type ProductMatch } from "../../catalog/catalog.js";
import type { OrderRecord } from "../../orders/order.js";
import type { OrderService } from "../../orders/order-service.js";
import type { Logger } from "../../logger.js";
import { parseCallback } from "../callback-data.js";
import type { BotContext } from "../context.js";
import { ORDER_CONVERSATION, type OrderPreset } from "../conversations/order-conversation.js";
import { renderOutcomeToast, renderSummary } from "../order-messages.js";
import { safeTranslate, type Translate } from "../text.js";
import { draftInput, sendSummary } from "./order-summary.js";
import { answerQuery } from "../answer.js";

export interface OrderFeatureDeps {
  catalog: Catalog;
  orders: OrderService;
  logger: Logger;
  /** Sends the outcome of an order to its chat and remembers that it was told. */
  deliverOutcome: (order: OrderRecord, heading?: "already") => Promise<void>;
}

const HTML = { parse_mode: "HTML" } as const;

/**
 * /order, /cancel and the Confirm/Cancel buttons. Installed before the conversation, so a
 * command always wins over a waiting step and a Confirm is never swallowed by one.
 */
export function orderFeature(deps: OrderFeatureDeps): Composer<BotContext> {
  const { catalog, orders, logger } = deps;
  const composer = new Composer<BotContext>();
  const tr = (ctx: BotContext): Translate => safeTranslate(ctx.t.bind(ctx));

  composer.command("order", async (ctx, next) => {
    // A new /order replaces whatever order dialogue this user had open.
    await ctx.conversation.exit(ORDER_CONVERSATION);
    const plan = planOrder(catalog, ctx.match);
    if (plan.kind === "quick") {
      // The quick order: straight to the summary, no dialogue to keep.
      const draft = await orders.createDraft(draftInput(ctx.chat.id, ctx.from!, await ctx.i18n.getLocale(), plan.match, plan.playerId));
      await sendSummary(ctx, draft);
      return;
    }
    if (plan.unknownCode !== undefined) {
      await ctx.reply(tr(ctx)("order-unknown-code", { code: plan.unknownCode.slice(0, 40) }), HTML);
    }
    // The dialogue is entered by orderEntry, after the conversation middleware has registered it.
    await next();
  });

  composer.command("cancel", async (ctx) => {
    const active = ctx.conversation.active(ORDER_CONVERSATION) > 0;
    await ctx.conversation.exit(ORDER_CONVERSATION);
    const draftRef = await orders.openDraftOf(ctx.chat.id, ctx.from!.id);
    const cancelled = draftRef === undefined ? undefined : await orders.cancel(draftRef, ctx.from!.id);
    const t = tr(ctx);
    if (active || cancelled?.kind === "cancelled") await ctx.reply(t("order-cancelled"), HTML);
    else if (cancelled?.kind === "too-late") await ctx.reply(t("order-cancel-too-late"), HTML);
    else await ctx.reply(t("cancel-nothing"), HTML);
  });

  composer.on("callback_query:data", async (ctx, next) => {
    const data = parseCallback(ctx.callbackQuery.data);
    if (data?.type !== "confirm" && data?.type !== "cancel") return next();
    const t = tr(ctx);
    const userId = ctx.from.id;
    const message = ctx.callbackQuery.message;
    // Take the buttons off the summary; the text says what happened. Failures are cosmetic.
    const retireSummary = async (order: OrderRecord, line: string) => {
      if (message === undefined) return;
      await ctx.api
        .editMessageText(message.chat.id, message.message_id, `${renderSummary(t, order)}\n\n${line}`, HTML)
        .catch((err: unknown) => logger.debug({ err: String(err) }, "summary not edited"));
    };

    const order = await orders.get(data.refId);
    if (order === undefined) return void (await answerQuery(ctx, { text: t("callback-expired"), show_alert: true }));
    if (order.userId !== userId) return void (await answerQuery(ctx, { text: t("callback-not-yours"), show_alert: true }));

    if (data.type === "cancel") {
      const outcome = await orders.cancel(data.refId, userId);
      if (outcome.kind === "cancelled") {
        await answerQuery(ctx, { text: t("order-cancelled") });
        await retireSummary(outcome.order, t("order-cancelled"));
      } else if (outcome.kind === "too-late") {
        await answerQuery(ctx, { text: t("order-cancel-too-late"), show_alert: true });
      } else {
        await answerQuery(ctx, { text: t("callback-expired"), show_alert: true });
      }
      return;
    }

    if (order.state !== "draft") return void (await answerSettled(ctx, t, order));

    // Answer first: Telegram gives up on a callback after ~10 s, a provider call can take longer.
    await answerQuery(ctx, { text: t("callback-processing") });
    const outcome = await orders.confirm(
      data.refId,
      userId,
      // The buttons go only once the order is claimed: if storage fails before, they still work.
      { beforeSend: () => retireSummary(order, t("order-processing")) },
      order,
    );
    switch (outcome.kind) {
      case "submitted":
        await deps.deliverOutcome(outcome.order);
        return;
      case "already":
        // Another tap or process finished it; tell the outcome only if nobody has yet.
        if (outcome.order.notifiedAt === undefined) await deps.deliverOutcome(outcome.order, "already");
        return;
      case "in-progress":
        return; // the tap that is sending it will tell the result
      case "cancelled":
        await ctx.reply(t("callback-cancelled"), HTML);
        return;
      default:
        await ctx.reply(t("callback-expired"), HTML);
    }
  });

  /** A Confirm on an order that is not a draft any more: never sent again, the user is told why. */
  async function answerSettled(ctx: BotContext, t: Translate, order: OrderRecord) {
    if (order.state === "cancelled") {
      await answerQuery(ctx, { text: t("callback-cancelled"), show_alert: true });
      return;
    }
    const outcome = await orders.confirm(order.refId, order.userId); // settles a stale `submitting`
    const current = outcome.kind === "already" || outcome.kind === "in-progress" ? outcome.order : order;
    if (current.state === "submitting") {
      await answerQuery(ctx, { text: t("callback-in-progress"), show_alert: true });
      await ctx.reply(t("order-in-progress", { refId: current.refId }), HTML);
      return;
    }
    await answerQuery(ctx, { text: renderOutcomeToast(t, current), show_alert: true });
    if (current.notifiedAt === undefined) await deps.deliverOutcome(current, "already");
  }

  return composer;
}

type OrderPlan =
  | { kind: "quick"; match: ProductMatch; playerId: string }
  | { kind: "dialogue"; preset: OrderPreset; unknownCode?: string };

/** What `/order [CODE [PLAYER_ID]]` asks for. */
export function planOrder(catalog: Catalog, args: string): OrderPlan {
  const [code, ...rest] = args.trim().split(/\s+/).filter((p) => p !== "");
  if (code === undefined) return { kind: "dialogue", preset: {} };
  const match = findProduct(catalog, code);
  if (match === undefined) return { kind: "dialogue", preset: {}, unknownCode: code };
  const playerInput = rest.join(" ");
  if (playerInput === "") return { kind: "dialogue", preset: { code: match.product.code } };
  const checked = checkPlayerId(match.game, playerInput);
  if (!checked.ok) return { kind: "dialogue", preset: { code: match.product.code, badPlayerId: playerInput } };
  return { kind: "quick", match, playerId: checked.playerId };
}

/** Enters the order dialogue; installed after the conversation middleware, which registers it. */
export function orderEntry(deps: { catalog: Catalog }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("order", async (ctx) => {
    const plan = planOrder(deps.catalog, ctx.match);
    if (plan.kind === "dialogue") await ctx.conversation.enter(ORDER_CONVERSATION, plan.preset);
  });
  return composer;
}
