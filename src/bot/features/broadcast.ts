import type { Broadcast } from "../../broadcast/broadcast-store.js";
import { MAX_BROADCAST_LENGTH } from "../../broadcast/sender.js";
import { newRefId } from "../../orders/ref-id.js";
import { adminOnly } from "../admin.js";
import { broadcastView } from "../broadcast-texts.js";
import { Callback } from "../callback-data.js";
import { originOf, showOnce } from "../origin.js";
import { defineFeature } from "../feature.js";
import type { Translate } from "../i18n.js";
import { summaryButtons, summaryKeyboard, type TapAnswer } from "../summary-buttons.js";

const DAY = 24 * 60 * 60 * 1000;

/**
 * Remembers who writes: each user's name and @username as last seen (lists, summaries and notices
 * name people by it), and who has started the bot (a broadcast can reach only them): a /start in a
 * private chat, or any private update of someone who may order. Written only when something
 * changed, as far as this process knows. A store failure is logged and does not stop the update.
 */
export const startedUsersFeature = defineFeature({
  name: "started users",
  needs: ["broadcasts", "people"],
  setup(at) {
    at("observe").use(async (ctx, next) => {
      const from = ctx.from;
      if (from !== undefined && !from.is_bot) {
        await ctx.services.people.seen(from).catch((err: unknown) => ctx.log.warn({ err }, "name not recorded"));
        const start = ctx.message?.text?.startsWith("/start") === true;
        if (ctx.chat?.type === "private" && (ctx.buyer !== undefined || start)) {
          await ctx.services.broadcasts.audience
            .started(from.id)
            .catch((err: unknown) => ctx.log.warn({ err }, "started user not recorded"));
        }
      }
      await next();
    });
  },
});

/** What an old or repeated tap is told, and what the preview becomes (a sending one is edited by its loop). */
function taken(t: Translate, b: Broadcast): TapAnswer {
  const failed = b.counts.failed + b.counts.interrupted;
  const summary = b.state === "sending" ? {} : { summary: broadcastView(t, b) };
  if (b.state === "cancelled") return { alert: t("broadcast-already-cancelled"), ...summary };
  if (b.state === "done") {
    const done = { delivered: b.counts.delivered, blocked: b.counts.blocked, failed };
    return { alert: t("broadcast-already-done", done), ...summary };
  }
  const processed = b.counts.delivered + b.counts.blocked + failed;
  return { alert: t("broadcast-already-sending", { processed, total: b.total }), ...summary };
}

/**
 * /broadcast TEXT: a preview with Confirm and Cancel; Confirm fixes the recipients and starts the
 * sending once, however often it is tapped; an old button says how that broadcast ended.
 */
export const broadcastFeature = defineFeature({
  name: "broadcast",
  needs: ["broadcasts", "clock", "origins"],
  commands: [{ name: "broadcast", menu: ["admin"], help: [{ key: "help-broadcast", for: ["admin"] }] }],
  setup(at) {
    const composer = at("buyers");
    composer.command("broadcast", adminOnly, async (ctx) => {
      const t = ctx.tr;
      const { store, audience } = ctx.services.broadcasts;
      const text = ctx.match.trim();
      if (text === "") return void (await ctx.reply(t("broadcast-usage")));
      if (text.length > MAX_BROADCAST_LENGTH) {
        return void (await ctx.reply(t("broadcast-too-long", { length: text.length, max: MAX_BROADCAST_LENGTH })));
      }
      const recipients = await audience.recipients();
      if (recipients.length === 0) return void (await ctx.reply(t("broadcast-nobody")));
      const createdAt = ctx.services.clock();
      // One broadcast per update, however often it is handled: a second handling shows the same one.
      const origin = originOf(ctx);
      const fixed =
        origin === undefined
          ? { value: newRefId("BC", createdAt), first: true }
          : await ctx.services.origins.fix(origin, newRefId("BC", createdAt));
      const draft = await store.saveDraft(
        { id: fixed.value, adminId: ctx.from!.id, chatId: ctx.chat.id, text, createdAt: createdAt.toISOString() },
        DAY,
      );
      const buttons = { confirm: Callback.broadcastConfirm, cancel: Callback.broadcastCancel };
      const open = draft.state === "draft";
      await showOnce(ctx, { origin, shownAs: fixed.shownAs }, async () => {
        const sent = await ctx.reply(broadcastView(t, draft, open ? recipients.length : draft.total), {
          ...(open ? { reply_markup: summaryKeyboard(t, buttons, draft.id) } : {}),
          link_preview_options: { is_disabled: true },
        });
        return sent.message_id;
      });
    });

    summaryButtons(composer, {
      confirm: Callback.broadcastConfirm,
      cancel: Callback.broadcastCancel,
      guard: adminOnly,
      async onConfirm(ctx, id) {
        const t = ctx.tr;
        const { broadcasts } = ctx.services;
        const { store, audience } = broadcasts;
        const current = await store.get(id);
        if (current === undefined) return { alert: t("broadcast-expired"), dropButtons: true };
        if (current.state !== "draft") return taken(t, current);
        // Fixed now: who may order and has started the bot at the moment of Confirm.
        const recipients = await audience.recipients();
        const messageId = ctx.callbackQuery.message?.message_id;
        const r = await store.confirm(id, {
          recipients,
          at: ctx.services.clock().toISOString(),
          ...(messageId === undefined ? {} : { messageId }),
        });
        if (r.kind === "not-found") return { alert: t("broadcast-expired"), dropButtons: true };
        if (r.kind === "taken") return taken(t, r.broadcast);
        ctx.log.info({ broadcast: id, by: ctx.from.id, recipients: recipients.length }, "broadcast confirmed");
        // The preview says "sending" before the loop can edit it with progress or the count: the
        // loop starts once this tap is answered.
        return {
          toast: t("broadcast-started-toast"),
          summary: broadcastView(t, r.broadcast),
          after: () => broadcasts.start(id),
        };
      },
      async onCancel(ctx, id) {
        const r = await ctx.services.broadcasts.store.cancel(id, ctx.services.clock().toISOString());
        if (r.kind === "not-found") return { alert: ctx.tr("broadcast-expired"), dropButtons: true };
        if (r.kind === "taken") return taken(ctx.tr, r.broadcast);
        return { toast: ctx.tr("broadcast-cancelled-toast"), summary: broadcastView(ctx.tr, r.broadcast) };
      },
    });
  },
});
