import { GrammyError, InlineKeyboard, type Api } from "grammy";
import type { People } from "../../access/people.js";
import type { Logger } from "../../logger.js";
import type { DepositRequestEvents } from "../../deposits/request-service.js";
import type { DepositRequest } from "../../deposits/request-store.js";
import type { Lang } from "../../orders/order.js";
import { Callback } from "../callback-data.js";
import type { AdminChat } from "../chats.js";
import { escapeHtml, formatRupiah } from "../format.js";
import { translator, type Texts, type Translate } from "../i18n.js";
import { withPicture } from "../message-layout.js";
import { nameBefore } from "../people.js";
import { createDepositNotices } from "./deposits.js";
import { createAdminFanOut, sendNotice } from "./fan-out.js";
import type { PendingMessages } from "./pending-messages.js";
import type { UserPrefs } from "../user-prefs.js";

/** How long ago, in whole minutes or hours, as the admins read a request's age. */
export function ageText(t: Translate, ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 1) return t("request-age-now");
  return minutes < 60
    ? t("request-age-minutes", { n: minutes })
    : t("request-age-hours", { n: Math.floor(minutes / 60) });
}

/** The request as its reseller reads it: the exact amount to transfer, how, until when. */
export function requestText(t: Translate, lang: Lang, r: DepositRequest, payText: string, timeZone: string): string {
  const until = new Intl.DateTimeFormat(lang === "id" ? "id-ID" : "en-GB", {
    timeZone,
    dateStyle: "medium",
    timeStyle: "short",
  }).format(new Date(r.expiresAt));
  return [
    t("request-made", {
      id: r.id,
      exact: formatRupiah(r.exact, lang),
      amount: formatRupiah(r.amount, lang),
      code: String(r.code),
    }),
    "",
    escapeHtml(payText),
    "",
    t("request-proof-hint", { until }),
  ].join("\n");
}

/** The reseller's button under their request. */
export const requestKeyboard = (t: Translate, id: string) =>
  new InlineKeyboard().text(t("request-cancel"), Callback.requestCancel.encode(id));

/** The admins' buttons under a request with a proof. */
export const decisionKeyboard = (t: Translate, id: string) =>
  new InlineKeyboard()
    .text(t("request-approve"), Callback.requestApprove.encode(id))
    .text(t("request-other"), Callback.requestOther.encode(id))
    .row()
    .text(t("request-reject"), Callback.requestReject.encode(id));

/** What the admins read of a request: who, how much, the saldo, its age, a proof sent before. */
export function requestCaption(
  t: Translate,
  lang: Lang,
  r: DepositRequest,
  facts: { name: string; saldo: number; tier: string | undefined; nowMs: number },
): string {
  const lines = [
    t("request-admin-title", { id: r.id }),
    t("request-admin-who", { name: facts.name, userId: String(r.resellerId), tier: facts.tier ?? "-" }),
    t("request-admin-amount", {
      exact: formatRupiah(r.exact, lang),
      amount: formatRupiah(r.amount, lang),
      code: String(r.code),
    }),
    t("request-admin-saldo", { saldo: formatRupiah(facts.saldo, lang) }),
    t("request-admin-age", { age: ageText(t, facts.nowMs - r.createdAt) }),
  ];
  if (r.proof?.sentBeforeFor !== undefined) lines.push(t("request-proof-sent-before", { id: r.proof.sentBeforeFor }));
  return lines.join("\n");
}

/** Who decided what, as the admins' notice of a decided request ends. */
export function decisionLine(t: Translate, lang: Lang, r: DepositRequest, decider: string): string {
  const who = { name: decider, adminId: String(r.decidedBy ?? "") };
  switch (r.state) {
    case "approved":
      if (r.byHand !== undefined)
        return t("request-decided-hand", { ...who, amount: formatRupiah(r.credited ?? r.exact, lang) });
      return t("request-decided-approved", { ...who, amount: formatRupiah(r.credited ?? r.exact, lang) });
    case "rejected":
      return t("request-decided-rejected", who);
    case "expired":
      return t("request-decided-expired");
    case "cancelled":
      return t("request-decided-cancelled");
    default:
      // Any other way a request is decided (a hand credit) says its own state and who.
      return t("request-decided-other", { ...who, state: t(`request-state-${r.state}`) });
  }
}

/** The admins' notice of a decided request: what it showed, the saldo after, who decided what; no buttons. */
export function decidedCaption(
  t: Translate,
  lang: Lang,
  r: DepositRequest,
  facts: { name: string; saldo: number; tier: string | undefined; decider: string; nowMs: number },
): string {
  const lines = requestCaption(t, lang, r, facts).split("\n");
  const saldoLine = t("request-admin-saldo", { saldo: formatRupiah(facts.saldo, lang) });
  const credited = r.credited !== undefined && r.state !== "rejected";
  return lines
    .map((line) =>
      credited && line === saldoLine
        ? t("request-admin-saldo-after", { saldo: formatRupiah(facts.saldo, lang) })
        : line,
    )
    .concat(decisionLine(t, lang, r, facts.decider))
    .join("\n");
}

/**
 * Says what the deposit requests report: the proof to the admins (ADMIN_CHAT_ID when set, else
 * each admin) with Approve / Other amount / Reject, every admin's notice brought up to date once it
 * is decided, a request made in the Mini App shown in its reseller's chat, and a closed request to
 * its reseller (deposits.ts, beside what they hear of a credit).
 */
export function createDepositRequestNotices(deps: {
  api: Api;
  texts: Texts;
  prefs: UserPrefs;
  adminIds: readonly number[];
  adminChat?: AdminChat | undefined;
  people: Pick<People, "get">;
  logger: Logger;
  timeZone: string;
  /** Where each admins' notice of a request is, so that a decision made anywhere updates them all. */
  messages?: PendingMessages;
  now?: () => Date;
}): DepositRequestEvents {
  const { api, logger } = deps;
  const now = () => (deps.now ?? (() => new Date()))().getTime();
  const tFor = (lang: Lang) => translator(deps.texts, lang);
  const fanOut = createAdminFanOut(deps);
  const reseller = createDepositNotices(deps);

  return {
    async decided(r, facts) {
      // Taken at once: whichever process or path reports the decision, each notice is edited once.
      const shown = (await deps.messages?.take(r.id)) ?? [];
      if (shown.length === 0) return;
      if (r.messageId !== undefined)
        await api
          .editMessageReplyMarkup(r.chatId, r.messageId)
          .catch((err: unknown) => logger.debug({ err, request: r.id }, "request's Cancel button not removed"));
      const ids = r.decidedBy === undefined ? [r.resellerId] : [r.resellerId, r.decidedBy];
      const people = await deps.people.get(ids);
      for (const at of shown) {
        const lang = await fanOut.languageOf(at.chatId);
        const caption = decidedCaption(tFor(lang), lang, r, {
          name: nameBefore(people.get(r.resellerId)),
          saldo: facts.saldo,
          tier: facts.tier,
          decider: r.decidedBy === undefined ? "" : nameBefore(people.get(r.decidedBy)),
          nowMs: now(),
        });
        // No reply_markup: the buttons go with the edit.
        await api
          .editMessageCaption(at.chatId, at.messageId, { caption })
          .catch((err: unknown) =>
            logger.warn(
              { chatId: at.chatId, request: r.id, err: err instanceof GrammyError ? err.description : err },
              "deposit request notice not brought up to date",
            ),
          );
      }
    },
    async announce(r, facts) {
      const person = (await deps.people.get([r.resellerId])).get(r.resellerId);
      const proof = r.proof!;
      await fanOut.toAdmins(
        "deposit request",
        (to): Promise<{ message_id: number }> => {
          const t = tFor(to.lang);
          const caption = requestCaption(t, to.lang, r, {
            name: nameBefore(person),
            saldo: facts.saldo,
            tier: facts.tier,
            nowMs: now(),
          });
          const extra = { caption, reply_markup: decisionKeyboard(t, r.id), ...to.topic };
          return proof.kind === "photo"
            ? api.sendPhoto(to.chatId, proof.fileId, extra)
            : api.sendDocument(to.chatId, proof.fileId, extra);
        },
        {
          sent: async (m, to) => {
            await deps.messages
              ?.add(r.id, { chatId: to.chatId, messageId: m.message_id })
              .catch((err: unknown) => logger.warn({ err, request: r.id }, "deposit request notice not remembered"));
          },
        },
      );
    },
    async asked(r, payInfo) {
      const t = tFor(r.lang);
      const text = requestText(t, r.lang, r, payInfo.text, deps.timeZone);
      const reply_markup = requestKeyboard(t, r.id);
      const photo = payInfo.photo;
      const sent = await sendNotice(logger, r.chatId, "deposit request asked", () =>
        withPicture<{ message_id: number }>(photo, text, {
          photo: (caption) => api.sendPhoto(r.chatId, photo!, caption === undefined ? {} : { caption, reply_markup }),
          text: () => api.sendMessage(r.chatId, text, { reply_markup }),
        }),
      );
      return sent.delivery === "told" ? sent.message.message_id : undefined;
    },
    closed: (r) => reseller.closed(r),
  };
}
