import { GrammyError, InlineKeyboard, type Composer } from "grammy";
import type { Message } from "grammy/types";
import { parseAmount } from "../../amounts.js";
import { MAX_PROOF_BYTES, MAX_REQUESTS_PER_HOUR, type ProofAnswer } from "../../deposits/request-service.js";
import type { DepositRequest } from "../../deposits/request-store.js";
import type { Lang } from "../../orders/order.js";
import { MAX_PAY_INFO } from "../../shop/pay-info.js";
import { adminOnly, isAdmin } from "../admin.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { FeatureContext } from "../context.js";
import { ageText, requestKeyboard, requestText } from "../notices/request-notices.js";
import { defineFeature } from "../feature.js";
import { escapeHtml, formatRupiah } from "../format.js";
import type { Translate } from "../i18n.js";
import { withPicture } from "../message-layout.js";
import { originOf, showOnce } from "../origin.js";

/** A request id as the bot writes it in its messages. */
const REQUEST_ID = /\bDR[0-9A-Z]{19}\b/;
/** How the reseller's "how much?" prompt begins (its locale texts start with it). */
const AMOUNT_MARK = "💳";

/** How the prompt for a rejection's reason begins (its locale texts start with it). */
const REASON_MARK = "✍️";

type Ctx = FeatureContext<"depositRequests" | "payInfo" | "origins" | "people" | "place" | "clock" | "chats">;

/**
 * A deposit request is one reseller's money: it is made and shown in their private chat only. In a
 * group (where every member reads along) the member is pointed there, with a button that opens it,
 * and nothing is made or shown. The admins' own room may show any request to an admin.
 */
async function inPrivateOnly(ctx: Ctx, command: string): Promise<boolean> {
  if (ctx.chat?.type === "private" || (isAdmin(ctx) && ctx.services.chats.isAdminChat(ctx))) return true;
  const bot = ctx.me.username;
  await ctx.reply(ctx.tr("request-private-only", { command, bot }), {
    reply_markup: new InlineKeyboard().url(ctx.tr("request-open-private"), `https://t.me/${bot}`),
    ...(ctx.message === undefined
      ? {}
      : { reply_parameters: { message_id: ctx.message.message_id, allow_sending_without_reply: true } }),
  });
  return false;
}

/** The request a message answers: the id in the bot's message it replies to. */
function repliedRequest(ctx: Ctx): string | undefined {
  const to = ctx.message?.reply_to_message;
  if (to === undefined || to.from?.id !== ctx.me.id) return undefined;
  return REQUEST_ID.exec(to.text ?? to.caption ?? "")?.[0];
}

/** A request's state in words; one an admin credited with their own deposit says so. */
const stateText = (t: Translate, r: DepositRequest) =>
  t(r.byHand !== undefined ? "request-state-hand" : `request-state-${r.state}`);

/** A request's state for /status DR…: its reseller and the admins. */
function statusText(t: Translate, lang: Lang, r: DepositRequest, nowMs: number): string {
  const lines = [
    t("request-status", {
      id: r.id,
      state: stateText(t, r),
      exact: formatRupiah(r.exact, lang),
      age: ageText(t, nowMs - r.createdAt),
    }),
  ];
  if (r.state === "approved") lines.push(t("request-status-credited", { amount: formatRupiah(r.credited ?? 0, lang) }));
  if (r.reason !== undefined) lines.push(t("request-status-reason", { reason: r.reason }));
  return lines.join("\n");
}

/** A decided request's notice loses its buttons (a later press would only hear "already decided"). */
async function dropButtons(ctx: Ctx): Promise<void> {
  await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch((err: unknown) => {
    // Brought up to date already (every notice follows a decision): nothing left to remove.
    if (err instanceof GrammyError && /not modified/i.test(err.description)) return;
    ctx.log.warn({ err }, "buttons of a decided request not removed");
  });
}

/** The answer to a proof, for the reseller. */
async function answerProof(ctx: Ctx, r: ProofAnswer): Promise<void> {
  const t = ctx.tr;
  switch (r.kind) {
    case "attached":
      return void (await ctx.reply(t("request-proof-received", { id: r.request.id })));
    case "none":
      return void (await ctx.reply(t("request-proof-none")));
    case "which": {
      const keyboard = new InlineKeyboard();
      for (const q of r.requests)
        keyboard.text(`${formatRupiah(q.exact, ctx.lang)} · ${q.id}`, Callback.requestWhich.encode(q.id)).row();
      return void (await ctx.reply(t("request-proof-which"), { reply_markup: keyboard }));
    }
    case "not-found":
      return void (await ctx.reply(t("request-not-found")));
    case "bad-type":
      return void (await ctx.reply(t("request-proof-type")));
    case "unreadable":
      return void (await ctx.reply(t("request-proof-unreadable")));
    case "closed":
      return void (await ctx.reply(t("request-proof-closed", { id: r.request.id, state: stateText(t, r.request) })));
  }
}

/** The file of a proof message, or the hint why it cannot be one. */
function proofFile(
  message: Message,
):
  | { ok: true; file: { fileId: string; fileUniqueId: string; kind: "photo" | "document"; mime?: string } }
  | { ok: false; hint: string } {
  if (message.photo !== undefined && message.photo.length > 0) {
    const largest = message.photo[message.photo.length - 1]!;
    if ((largest.file_size ?? 0) > MAX_PROOF_BYTES) return { ok: false, hint: "request-proof-too-large" };
    return { ok: true, file: { fileId: largest.file_id, fileUniqueId: largest.file_unique_id, kind: "photo" } };
  }
  // A document's type is what its bytes say (read only for a request that waits for a proof).
  const doc = message.document;
  if (doc !== undefined) {
    if ((doc.file_size ?? 0) > MAX_PROOF_BYTES) return { ok: false, hint: "request-proof-too-large" };
    return { ok: true, file: { fileId: doc.file_id, fileUniqueId: doc.file_unique_id, kind: "document" } };
  }
  return { ok: false, hint: "request-proof-type" };
}

/** A time of the shop's day as the reader writes it (`26 Nov 2026, 14:05`). */
const clockTime = (ctx: Ctx, ms: number) =>
  new Intl.DateTimeFormat(ctx.lang === "id" ? "id-ID" : "en-GB", {
    timeZone: ctx.services.place.timeZone,
    dateStyle: "medium",
    timeStyle: "short",
  }).format(new Date(ms));

/** A reseller's request for `typed` (an amount as people write it), shown once per update. */
async function askFor(ctx: Ctx, typed: string): Promise<void> {
  const t = ctx.tr;
  const { depositRequests } = ctx.services;
  const { min, max } = depositRequests.limits;
  const limits = { min: formatRupiah(min, ctx.lang), max: formatRupiah(max, ctx.lang) };
  if (typed === "") return void (await ctx.reply(t("request-usage", limits)));
  const read = parseAmount(typed, { max: Number.MAX_SAFE_INTEGER });
  if (!read.ok) return void (await ctx.reply(t("request-bad-amount", { typed: read.typed, ...limits })));
  const origin = originOf(ctx) ?? `m:${ctx.chat!.id}:${Date.now()}`;
  const r = await depositRequests.ask(
    { resellerId: ctx.from!.id, chatId: ctx.chat!.id, lang: ctx.lang },
    read.amount,
    origin,
  );
  switch (r.kind) {
    case "not-reseller":
      return void (await ctx.reply(t("deposit-not-for-you")));
    case "no-pay-info":
      return void (await ctx.reply(t("request-no-pay-info")));
    case "out-of-limits":
      return void (await ctx.reply(t("request-bad-amount", { typed, ...limits })));
    case "too-many":
      return void (await ctx.reply(t("request-too-many", { open: r.open })));
    case "too-soon":
      return void (await ctx.reply(t("request-too-soon", { max: MAX_REQUESTS_PER_HOUR, at: clockTime(ctx, r.until) })));
    case "no-code":
      return void (await ctx.reply(t("request-no-code")));
    case "made": {
      const text = requestText(t, ctx.lang, r.request, r.payInfo.text, ctx.services.place.timeZone);
      const reply_markup = requestKeyboard(t, r.request.id);
      await showOnce(ctx, { origin, shownAs: r.shownAs }, async () => {
        // The picture is never dropped: the text follows it when it is too long for a caption.
        const photo = r.payInfo.photo;
        const sent = await withPicture<{ message_id: number }>(photo, text, {
          photo: (caption) => ctx.replyWithPhoto(photo!, caption === undefined ? {} : { caption, reply_markup }),
          text: () => ctx.reply(text, { reply_markup }),
        });
        await depositRequests.shown(r.request.id, sent.message_id);
        return sent.message_id;
      });
    }
  }
}

/** The reseller's side: asking, the proof, Cancel, the choice of request, /status DR…. */
function resellerHandlers(composer: Composer<Ctx>): void {
  composer.command("deposit", async (ctx, next) => {
    if (isAdmin(ctx) || ctx.buyer?.role !== "reseller") return next();
    if (!(await inPrivateOnly(ctx, "deposit"))) return;
    await askFor(ctx, ctx.match.trim());
  });

  // "Top up saldo" under a reseller's /saldo: the amount is asked for, as a reply.
  onCallback(composer, Callback.requestNew, async (ctx) => {
    if (ctx.chat?.type !== "private")
      return answerQuery(ctx, { text: ctx.tr("request-private-only-short"), show_alert: true });
    await answerQuery(ctx, {});
    if (ctx.buyer?.role !== "reseller") return;
    const { min, max } = ctx.services.depositRequests.limits;
    await ctx.reply(
      ctx.tr("request-amount-ask", { min: formatRupiah(min, ctx.lang), max: formatRupiah(max, ctx.lang) }),
      { reply_markup: { force_reply: true, input_field_placeholder: "100rb" } },
    );
  });

  composer.command("status", async (ctx, next) => {
    const typed = ctx.match.trim().split(/\s+/)[0]?.toUpperCase() ?? "";
    if (!typed.startsWith("DR")) return next();
    if (!(await inPrivateOnly(ctx, "status"))) return;
    const r = REQUEST_ID.test(typed) ? await ctx.services.depositRequests.get(typed) : undefined;
    if (r === undefined || (!isAdmin(ctx) && r.resellerId !== ctx.from?.id))
      return void (await ctx.reply(ctx.tr("request-not-found")));
    await ctx.reply(statusText(ctx.tr, ctx.lang, r, Date.now()));
  });

  // A proof, or something else, answering a request's message; an amount answering "how much?".
  composer.on("message", async (ctx, next) => {
    if (ctx.chat.type !== "private") return next();
    const to = ctx.message.reply_to_message;
    if (
      ctx.buyer?.role === "reseller" &&
      ctx.message.text !== undefined &&
      to?.from?.id === ctx.me.id &&
      to.text?.startsWith(AMOUNT_MARK) === true &&
      // The request's own message starts alike: text answering it is not an amount.
      !REQUEST_ID.test(to.text)
    )
      return askFor(ctx, ctx.message.text.trim());
    const id = repliedRequest(ctx);
    if (id === undefined) return next();
    if (ctx.buyer?.role !== "reseller") {
      // A proof from someone who is not a reseller belongs to no request of theirs.
      const file = ctx.message.photo ?? ctx.message.document;
      return file === undefined ? next() : void (await ctx.reply(ctx.tr("request-not-found")));
    }
    const file = proofFile(ctx.message);
    if (!file.ok) return void (await ctx.reply(ctx.tr(file.hint)));
    await answerProof(ctx, await ctx.services.depositRequests.proof(ctx.from.id, id, file.file));
  });

  onCallback(composer, Callback.requestWhich, async (ctx, id) => {
    if (ctx.buyer?.role !== "reseller")
      return answerQuery(ctx, { text: ctx.tr("request-not-found"), show_alert: true });
    const r = await ctx.services.depositRequests.proofFor(ctx.from.id, id);
    await answerQuery(ctx, {});
    if (r.kind === "none") return void (await ctx.reply(ctx.tr("request-proof-gone")));
    // The buttons may be gone already (a second tap, an old message): the answer below is what counts.
    await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch(() => undefined);
    await answerProof(ctx, r);
  });

  onCallback(composer, Callback.requestCancel, async (ctx, id) => {
    const t = ctx.tr;
    const r = await ctx.services.depositRequests.cancel(id, ctx.from.id);
    if (r.kind === "not-found" || r.kind === "not-yours")
      return answerQuery(ctx, { text: t("request-not-found"), show_alert: true });
    if (r.kind === "closed")
      return answerQuery(ctx, {
        text: t("request-cancel-too-late", { state: stateText(t, r.request) }),
        show_alert: true,
      });
    await answerQuery(ctx, {});
    await dropButtons(ctx);
    await ctx.reply(t("request-cancelled", { id }));
  });
}

/**
 * Approve (the exact amount) or Confirm of another amount: decided once by the service, which
 * brings every notice of the request up to date; the other amount's summary becomes the outcome.
 */
async function approveWith(ctx: Ctx, id: string, amount: number | undefined): Promise<void> {
  const t = ctx.tr;
  const r = await ctx.services.depositRequests.approve(id, ctx.from!.id, amount);
  if (r.kind === "not-found") return answerQuery(ctx, { text: t("request-not-found"), show_alert: true });
  if (r.kind === "taken")
    return answerQuery(ctx, { text: t("request-decided", { state: stateText(t, r.request) }), show_alert: true });
  await answerQuery(ctx, { text: t("request-approved-toast") });
  const done = t("request-approved", {
    id,
    amount: formatRupiah(r.request.credited ?? 0, ctx.lang),
    saldo: formatRupiah(r.saldo, ctx.lang),
  });
  if (amount !== undefined) return void (await ctx.editMessageText(done));
  // Every notice of the request was brought up to date by the service; this one too, even if it
  // was sent before its place was kept.
  await dropButtons(ctx);
  await ctx.reply(done);
}

/** /payinfo: shows, sets (a text, a picture) or removes the shop's payment instructions. */
async function payInfoCommand(ctx: Ctx, text: string, photo: string | undefined): Promise<void> {
  const t = ctx.tr;
  const { payInfo } = ctx.services;
  if (text.toLowerCase() === "off") {
    const had = await payInfo.clear();
    return void (await ctx.reply(t(had ? "payinfo-removed" : "payinfo-none")));
  }
  if (text === "" && photo === undefined) {
    const info = await payInfo.get();
    if (info === undefined) return void (await ctx.reply(t("payinfo-none")));
    const body = `${t("payinfo-title")}\n${escapeHtml(info.text)}`;
    const photo = info.photo;
    return void (await withPicture<{ message_id: number }>(photo, body, {
      photo: (caption) => ctx.replyWithPhoto(photo!, caption === undefined ? {} : { caption }),
      text: () => ctx.reply(body),
    }));
  }
  if (text.length > MAX_PAY_INFO) return void (await ctx.reply(t("payinfo-too-long", { max: MAX_PAY_INFO })));
  const before = await payInfo.get();
  const kept = text !== "" ? text : (before?.text ?? t("payinfo-default-qris"));
  // A new text keeps the picture sent before (`/payinfo off` removes both).
  const picture = photo ?? before?.photo;
  await payInfo.set({
    text: kept,
    ...(picture === undefined ? {} : { photo: picture }),
    by: ctx.from!.id,
    at: ctx.services.clock().getTime(),
  });
  await ctx.reply(
    `${t("payinfo-set")}\n${escapeHtml(kept)}${picture !== undefined ? `\n${t("payinfo-with-image")}` : ""}`,
  );
}

/** The admins' side: /payinfo, Approve, Other amount, Reject and the replies to their prompts. */
function adminHandlers(composer: Composer<Ctx>): void {
  composer.command("payinfo", adminOnly, (ctx) => payInfoCommand(ctx, ctx.match.trim(), undefined));
  // A photo with the caption `/payinfo [TEXT]`: the QRIS picture (grammY's commands read text only).
  composer.on("message:photo", async (ctx, next) => {
    const caption = /^\/payinfo(?:@[A-Za-z0-9_]+)?(?:\s+([\s\S]*))?$/i.exec(ctx.message.caption ?? "");
    if (caption === null) return next();
    await adminOnly(ctx, () => payInfoCommand(ctx, (caption[1] ?? "").trim(), ctx.message.photo.at(-1)?.file_id));
  });

  onCallback(composer, Callback.requestApprove, (ctx, id) => approveWith(ctx, id, undefined), adminOnly);

  onCallback(
    composer,
    Callback.requestReject,
    async (ctx, id) => {
      const t = ctx.tr;
      const r = await ctx.services.depositRequests.reject(id, ctx.from.id);
      if (r.kind === "not-found") return answerQuery(ctx, { text: t("request-not-found"), show_alert: true });
      if (r.kind === "taken")
        return answerQuery(ctx, { text: t("request-decided", { state: stateText(t, r.request) }), show_alert: true });
      await answerQuery(ctx, { text: t("request-rejected-toast") });
      await dropButtons(ctx);
      await ctx.reply(t("request-reason-ask", { id }), {
        reply_markup: { force_reply: true, input_field_placeholder: t("request-reason-placeholder") },
      });
    },
    adminOnly,
  );

  onCallback(
    composer,
    Callback.requestOther,
    async (ctx, id) => {
      const t = ctx.tr;
      const r = await ctx.services.depositRequests.get(id);
      if (r === undefined) return answerQuery(ctx, { text: t("request-not-found"), show_alert: true });
      if (r.state !== "review")
        return answerQuery(ctx, { text: t("request-decided", { state: stateText(t, r) }), show_alert: true });
      await answerQuery(ctx, {});
      await ctx.reply(t("request-other-ask", { id, exact: formatRupiah(r.exact, ctx.lang) }), {
        reply_markup: { force_reply: true, input_field_placeholder: "100rb" },
      });
    },
    adminOnly,
  );

  onCallback(composer, Callback.requestOtherConfirm, (ctx, { id, amount }) => approveWith(ctx, id, amount), adminOnly);
  onCallback(
    composer,
    Callback.requestOtherCancel,
    async (ctx, id) => {
      await answerQuery(ctx, {});
      await ctx.editMessageText(ctx.tr("request-other-cancelled", { id }));
    },
    adminOnly,
  );

  // The admin's answers to "the reason?" and "which amount?": replies to those prompts.
  composer.on("message:text", async (ctx, next) => {
    const to = ctx.message.reply_to_message;
    if (!isAdmin(ctx) || to === undefined || to.from?.id !== ctx.me.id) return next();
    const id = REQUEST_ID.exec(to.text ?? "")?.[0];
    if (id === undefined) return next();
    const t = ctx.tr;
    const { depositRequests } = ctx.services;
    if (to.text?.startsWith(REASON_MARK) === true) {
      const r = await depositRequests.reason(id, ctx.message.text.trim());
      return void (await ctx.reply(t(r === "told" ? "request-reason-sent" : "request-reason-late", { id })));
    }
    const read = parseAmount(ctx.message.text, { max: 100_000_000 });
    if (!read.ok) return void (await ctx.reply(t("amount-unclear", { typed: read.typed })));
    const request = await depositRequests.get(id);
    if (request === undefined) return void (await ctx.reply(t("request-not-found")));
    // Decided meanwhile (an Approve, another admin, the Mini App): no summary to confirm.
    if (request.state !== "review")
      return void (await ctx.reply(t("request-decided", { state: stateText(t, request) })));
    // The amount read, shown before anything is credited: only its Confirm credits it.
    await ctx.reply(
      t("request-other-summary", {
        id,
        amount: formatRupiah(read.amount, ctx.lang),
        exact: formatRupiah(request.exact, ctx.lang),
      }),
      {
        reply_markup: new InlineKeyboard()
          .text(t("request-other-confirm"), Callback.requestOtherConfirm.encode({ id, amount: read.amount }))
          .text(t("button-cancel"), Callback.requestOtherCancel.encode(id)),
      },
    );
  });
}

/** After the dialogues: a photo, a document, a sticker or a voice note with no reply. */
function lateHandlers(late: Composer<Ctx>): void {
  // A photo or document with no reply: the one request waiting for a proof.
  late.on(["message:photo", "message:document"], async (ctx, next) => {
    if (ctx.chat.type !== "private" || ctx.buyer?.role !== "reseller") return next();
    const { depositRequests } = ctx.services;
    if ((await depositRequests.waiting(ctx.from.id)).length === 0) return next();
    const file = proofFile(ctx.message);
    if (!file.ok) return void (await ctx.reply(ctx.tr(file.hint)));
    await answerProof(ctx, await depositRequests.proof(ctx.from.id, undefined, file.file));
  });
  // A sticker or a voice note while a request waits for its proof: what a proof is.
  late.on(["message:sticker", "message:voice"], async (ctx, next) => {
    if (ctx.chat.type !== "private" || ctx.buyer?.role !== "reseller") return next();
    if ((await ctx.services.depositRequests.waiting(ctx.from.id)).length === 0) return next();
    await ctx.reply(ctx.tr("request-proof-type"));
  });
}

/**
 * Resellers top up their saldo themselves: /payinfo (the admins' payment instructions), /deposit
 * AMOUNT (a reseller's request with a unique exact amount), the proof of transfer (a photo or a
 * document answering the request), and the admins' Approve / Other amount / Reject, each decided
 * once by the deposit requests service; /status DR… shows a request.
 */
export const depositRequestsFeature = defineFeature({
  name: "deposit-requests",
  needs: ["depositRequests", "payInfo", "origins", "people", "place", "clock", "chats"],
  commands: [{ name: "payinfo", menu: ["admin"], help: [{ key: "help-payinfo", for: ["admin"] }] }],
  setup(at) {
    // Someone who may not order: /deposit is refused by what it is for (and how to get access).
    at("anyone").command("deposit", async (ctx, next) => {
      if (ctx.buyer !== undefined || ctx.from === undefined) return next();
      await ctx.reply(`${ctx.tr("deposit-not-for-you")}\n${ctx.tr("access-refused", { userId: String(ctx.from.id) })}`);
    });
    adminHandlers(at("buyers"));
    resellerHandlers(at("buyers"));
    lateHandlers(at("fallback"));
  },
});
