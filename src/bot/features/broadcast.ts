import { Composer, InlineKeyboard } from "grammy";
import type { Audience } from "../../broadcast/audience.js";
import type { Broadcast, BroadcastStore } from "../../broadcast/broadcast-store.js";
import { broadcastView, MAX_BROADCAST_LENGTH, type Broadcaster } from "../../broadcast/sender.js";
import { newRefId } from "../../orders/ref-id.js";
import { adminOnly } from "../admin.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { BotContext } from "../context.js";
import type { Translate } from "../i18n.js";

const DAY = 24 * 60 * 60 * 1000;

/**
 * Remembers who has started the bot (a broadcast can reach only them): a /start in a private chat,
 * or any private update of someone who may order. Written once per user per process. After
 * resolveBuyer; a store failure is logged and does not stop the update.
 */
export function rememberStarted(audience: Pick<Audience, "started">) {
  return async (ctx: BotContext, next: () => Promise<void>) => {
    const from = ctx.from;
    if (from !== undefined && !from.is_bot && ctx.chat?.type === "private") {
      const start = ctx.message?.text?.startsWith("/start") === true;
      if (ctx.buyer !== undefined || start) {
        await audience.started(from.id).catch((err: unknown) => ctx.log.warn({ err }, "started user not recorded"));
      }
    }
    await next();
  };
}

/**
 * /broadcast TEXT: a preview with Confirm and Cancel; Confirm fixes the recipients and starts the
 * sending once, however often it is tapped; an old button says how that broadcast ended.
 */
export function broadcastFeature(deps: {
  store: BroadcastStore;
  audience: Audience;
  broadcaster: Pick<Broadcaster, "start">;
  now?: () => Date;
}): Composer<BotContext> {
  const { store, audience, broadcaster } = deps;
  const now = deps.now ?? (() => new Date());
  const composer = new Composer<BotContext>();

  composer.command("broadcast", adminOnly, async (ctx) => {
    const t = ctx.tr;
    const text = ctx.match.trim();
    if (text === "") return void (await ctx.reply(t("broadcast-usage")));
    if (text.length > MAX_BROADCAST_LENGTH) {
      return void (await ctx.reply(t("broadcast-too-long", { length: text.length, max: MAX_BROADCAST_LENGTH })));
    }
    const adminId = ctx.from!.id;
    const recipients = await audience.recipients();
    if (recipients.length === 0) return void (await ctx.reply(t("broadcast-nobody")));
    const createdAt = now();
    const draft = await store.saveDraft(
      { id: newRefId("BC", createdAt), adminId, chatId: ctx.chat.id, text, createdAt: createdAt.toISOString() },
      DAY,
    );
    await ctx.reply(broadcastView(t, draft, recipients.length), {
      reply_markup: new InlineKeyboard()
        .text(t("button-confirm"), Callback.broadcastConfirm.encode(draft.id))
        .text(t("button-cancel"), Callback.broadcastCancel.encode(draft.id)),
      link_preview_options: { is_disabled: true },
    });
  });

  /** What an old or repeated tap is told, as an alert. */
  const stateLine = (t: Translate, b: Broadcast): string => {
    const failed = b.counts.failed + b.counts.interrupted;
    if (b.state === "cancelled") return t("broadcast-already-cancelled");
    if (b.state === "done") {
      return t("broadcast-already-done", { delivered: b.counts.delivered, blocked: b.counts.blocked, failed });
    }
    const processed = b.counts.delivered + b.counts.blocked + failed;
    return t("broadcast-already-sending", { processed, total: b.total });
  };

  /** The preview without its buttons, showing where the broadcast stands. Cosmetic. */
  const retire = (ctx: BotContext, b: Broadcast) =>
    ctx
      .editMessageText(broadcastView(ctx.tr, b), { link_preview_options: { is_disabled: true } })
      .catch((err: unknown) => ctx.log.debug({ err }, "broadcast preview not edited"));

  const taken = async (ctx: BotContext, b: Broadcast) => {
    await answerQuery(ctx, { text: stateLine(ctx.tr, b), show_alert: true });
    // Sending: its loop edits the preview now and then; done or cancelled: the buttons go.
    if (b.state !== "sending") await retire(ctx, b);
  };

  onCallback(
    composer,
    Callback.broadcastConfirm,
    async (ctx, id) => {
      const t = ctx.tr;
      const current = await store.get(id);
      if (current === undefined) return answerQuery(ctx, { text: t("broadcast-expired"), show_alert: true });
      if (current.state !== "draft") return taken(ctx, current);
      // Fixed now: who may order and has started the bot at the moment of Confirm.
      const recipients = await audience.recipients();
      const messageId = ctx.callbackQuery.message?.message_id;
      const r = await store.confirm(id, {
        recipients,
        at: now().toISOString(),
        ...(messageId === undefined ? {} : { messageId }),
      });
      if (r.kind === "not-found") return answerQuery(ctx, { text: t("broadcast-expired"), show_alert: true });
      if (r.kind === "taken") return taken(ctx, r.broadcast);
      ctx.log.info({ broadcast: id, by: ctx.from.id, recipients: recipients.length }, "broadcast confirmed");
      await answerQuery(ctx, { text: t("broadcast-started-toast") });
      // The preview says "sending" before the loop can edit it with progress or the count.
      await retire(ctx, r.broadcast);
      broadcaster.start(id);
    },
    adminOnly,
  );

  onCallback(
    composer,
    Callback.broadcastCancel,
    async (ctx, id) => {
      const r = await store.cancel(id, now().toISOString());
      if (r.kind === "not-found") return answerQuery(ctx, { text: ctx.tr("broadcast-expired"), show_alert: true });
      if (r.kind === "taken") return taken(ctx, r.broadcast);
      await answerQuery(ctx, { text: ctx.tr("broadcast-cancelled-toast") });
      await retire(ctx, r.broadcast);
    },
    adminOnly,
  );

  return composer;
}
