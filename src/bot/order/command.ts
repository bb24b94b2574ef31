import type { Composer } from "grammy";
import { checkPlayerId, findOffered, type Buyer, type Catalog, type OfferedMatch } from "../../catalog/catalog.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { FeatureContext } from "../context.js";
import { ORDER_DIALOGUE, type OrderPreset } from "./dialogue.js";
import { draftRefusal, pausedAlert, pausedText } from "./gate.js";
import { originOf, showOnce } from "../origin.js";
import { draftRequest, summaryMessage } from "./summary.js";

type OrderPlan =
  | { kind: "quick"; match: OfferedMatch; playerId: string }
  | { kind: "dialogue"; preset: OrderPreset; unknownCode?: string };

/** What `/order [CODE [PLAYER_ID]]` asks of this buyer (a product not for sale to them is unknown). */
export function planOrder(catalog: Catalog, args: string, buyer: Buyer): OrderPlan {
  const [code, ...rest] = args
    .trim()
    .split(/\s+/)
    .filter((p) => p !== "");
  if (code === undefined) return { kind: "dialogue", preset: {} };
  const match = findOffered(catalog, code, buyer);
  if (match === undefined) return { kind: "dialogue", preset: {}, unknownCode: code };
  const playerInput = rest.join(" ");
  if (playerInput === "") return { kind: "dialogue", preset: { code: match.product.code } };
  const checked = checkPlayerId(match.game, playerInput);
  if (!checked.ok) return { kind: "dialogue", preset: { code: match.product.code, badPlayerId: playerInput } };
  return { kind: "quick", match, playerId: checked.playerId };
}

/**
 * /order and /cancel, and a product button of a menu whose dialogue is over (it starts a new one).
 * After the dialogues: a waiting dialogue passes commands on to here. Whether orders are open is
 * the order service's to say.
 */
export function orderCommands<C extends FeatureContext<"orders" | "origins" | "place">>(composer: Composer<C>): void {
  composer.command("order", async (ctx) => {
    const { orders } = ctx.services;
    // A new /order replaces whatever order dialogue this user had open.
    await ctx.conversation.exit(ORDER_DIALOGUE);
    const open = await orders.openCatalog();
    if (open.kind === "paused") return void (await ctx.reply(pausedText(ctx.tr, open.pause)));
    const plan = planOrder(open.catalog, ctx.match, ctx.buyer!);
    if (plan.kind === "quick") {
      // Straight to the summary: no dialogue to keep. One draft per update, however often it is handled.
      const origin = originOf(ctx);
      const requestId = ctx.message?.message_id;
      const made = await orders.createDraft({ ...draftRequest(ctx, plan.match, plan.playerId, requestId), origin });
      if (made.kind !== "draft") return void (await ctx.reply(draftRefusal(ctx.tr, made)));
      const { text, other } = summaryMessage(ctx, made, requestId);
      await showOnce(ctx, { origin, shownAs: made.shownAs }, async () => (await ctx.reply(text, other)).message_id);
      return;
    }
    if (plan.unknownCode !== undefined)
      await ctx.reply(ctx.tr("order-unknown-code", { code: plan.unknownCode.slice(0, 40) }));
    await ctx.conversation.enter(ORDER_DIALOGUE, plan.preset);
  });

  composer.command("cancel", async (ctx) => {
    const { orders } = ctx.services;
    const active = ctx.conversation.active(ORDER_DIALOGUE) > 0;
    await ctx.conversation.exit(ORDER_DIALOGUE);
    const draftRef = await orders.openDraftOf(ctx.chat.id, ctx.from!.id);
    const cancelled =
      draftRef === undefined
        ? undefined
        : await orders.cancel({ refId: draftRef, userId: ctx.from!.id, chatId: ctx.chat.id });
    if (active || cancelled?.kind === "cancelled") await ctx.reply(ctx.tr("order-cancelled"));
    // Too late only while its Confirm is at the provider; an order that ended is nothing to cancel.
    else if (cancelled?.kind === "too-late" && cancelled.order.state === "submitting")
      await ctx.reply(ctx.tr("order-cancel-too-late"));
    else await ctx.reply(ctx.tr("cancel-nothing"));
  });

  onCallback(composer, Callback.product, async (ctx, code) => {
    const open = await ctx.services.orders.openCatalog();
    if (open.kind === "paused") {
      await answerQuery(ctx, { text: pausedAlert(ctx.tr, open.pause), show_alert: true });
      return;
    }
    const match = findOffered(open.catalog, code, ctx.buyer!);
    if (match === undefined) return answerQuery(ctx, { text: ctx.tr("callback-invalid") });
    await answerQuery(ctx);
    const menuMessageId = ctx.callbackQuery.message?.message_id;
    await ctx.conversation.enter(ORDER_DIALOGUE, {
      code: match.product.code,
      ...(menuMessageId === undefined ? {} : { menuMessageId }),
    });
  });
}
