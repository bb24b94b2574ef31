import { GrammyError, InlineKeyboard, type Api } from "grammy";
import type { People } from "../../access/people.js";
import type { Logger } from "../../logger.js";
import type { DepositRequestEvents } from "../../deposits/request-service.js";
import type { DepositRequest } from "../../deposits/request-store.js";
import type { Delivery } from "../../orders/events.js";
import type { Lang } from "../../orders/order.js";
import { Callback } from "../callback-data.js";
import { adminChatTopic, type AdminChat } from "../chats.js";
import { escapeHtml, formatRupiah } from "../format.js";
import { translator, type Texts, type Translate } from "../i18n.js";
import { withPicture } from "../message-layout.js";
import { nameBefore } from "../people.js";
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
 * each admin) with Approve / Other amount / Reject, and a closed request to its reseller.
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

  async function sendProof(chatId: number, lang: Lang, r: DepositRequest, facts: { saldo: number; tier?: string }) {
    const t = tFor(lang);
    const person = (await deps.people.get([r.resellerId])).get(r.resellerId);
    const caption = requestCaption(t, lang, r, {
      name: nameBefore(person),
      saldo: facts.saldo,
      tier: facts.tier,
      nowMs: now(),
    });
    const extra = {
      caption,
      reply_markup: decisionKeyboard(t, r.id),
      ...(deps.adminChat !== undefined && chatId === deps.adminChat.chatId ? adminChatTopic(deps.adminChat) : {}),
    };
    const proof = r.proof!;
    const sent =
      proof.kind === "photo"
        ? await api.sendPhoto(chatId, proof.fileId, extra)
        : await api.sendDocument(chatId, proof.fileId, extra);
    await deps.messages
      ?.add(r.id, { chatId, messageId: sent.message_id })
      .catch((err: unknown) => logger.warn({ err, request: r.id }, "deposit request notice not remembered"));
  }

  /** The language a chat of the admins' notices reads: the admin room's is its first admin's. */
  const languageOf = async (chatId: number): Promise<Lang> => {
    if (deps.adminChat !== undefined && chatId === deps.adminChat.chatId) {
      const first = deps.adminIds[0];
      return first === undefined ? "en" : await deps.prefs.languageFor(first);
    }
    return deps.prefs.languageFor(chatId);
  };

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
        const lang = await languageOf(at.chatId);
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
      const chat = deps.adminChat;
      if (chat !== undefined) {
        const first = deps.adminIds[0];
        const lang = first === undefined ? "en" : await deps.prefs.languageFor(first);
        try {
          return await sendProof(chat.chatId, lang, r, facts);
        } catch (err) {
          logger.error(
            { chatId: chat.chatId, err },
            "deposit request not delivered to ADMIN_CHAT_ID; sending it to each admin",
          );
        }
      }
      for (const adminId of deps.adminIds) {
        try {
          await sendProof(adminId, await deps.prefs.languageFor(adminId), r, facts);
        } catch (err) {
          logger.warn(
            { adminId, err: err instanceof GrammyError ? err.description : err },
            "deposit request not delivered",
          );
        }
      }
    },
    async asked(r, payInfo) {
      const t = tFor(r.lang);
      const text = requestText(t, r.lang, r, payInfo.text, deps.timeZone);
      const reply_markup = requestKeyboard(t, r.id);
      try {
        const photo = payInfo.photo;
        const sent = await withPicture<{ message_id: number }>(photo, text, {
          photo: (caption) => api.sendPhoto(r.chatId, photo!, caption === undefined ? {} : { caption, reply_markup }),
          text: () => api.sendMessage(r.chatId, text, { reply_markup }),
        });
        return sent.message_id;
      } catch (err) {
        logger.warn(
          { chatId: r.chatId, err: err instanceof GrammyError ? err.description : err },
          "notice not delivered",
        );
        return undefined;
      }
    },
    async closed(r): Promise<Delivery> {
      const lang = await deps.prefs.languageFor(r.resellerId, r.lang);
      const t = tFor(lang);
      const amount = formatRupiah(r.exact, lang);
      const text =
        r.state === "expired"
          ? t("request-expired-told", { id: r.id, amount })
          : r.reason === undefined
            ? t("request-rejected-told", { id: r.id, amount })
            : t("request-rejected-reason-told", { id: r.id, amount, reason: r.reason });
      try {
        await api.sendMessage(r.chatId, text);
        return "told";
      } catch (err) {
        logger.warn(
          { chatId: r.chatId, err: err instanceof GrammyError ? err.description : err },
          "notice not delivered",
        );
        if (!(err instanceof GrammyError)) return "failed";
        if (err.error_code === 403 && /blocked/i.test(err.description)) return "blocked";
        return err.error_code === 403 || err.error_code === 400 ? "not-started" : "failed";
      }
    },
  };
}
