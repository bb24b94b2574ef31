import { GrammyError, InlineKeyboard, type Api } from "grammy";
import type { People } from "../access/people.js";
import type { Logger } from "../logger.js";
import type { DepositRequestEvents } from "../orders/deposit-request-service.js";
import type { DepositRequest } from "../orders/deposit-requests.js";
import type { Delivery } from "../orders/events.js";
import type { Lang } from "../orders/order.js";
import { Callback } from "./callback-data.js";
import { adminChatTopic, type AdminChat } from "./chats.js";
import { escapeHtml, formatRupiah } from "./format.js";
import { translator, type Texts, type Translate } from "./i18n.js";
import { nameBefore } from "./people.js";
import type { UserPrefs } from "./user-prefs.js";

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
    if (proof.kind === "photo") await api.sendPhoto(chatId, proof.fileId, extra);
    else await api.sendDocument(chatId, proof.fileId, extra);
  }

  return {
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
        const sent =
          payInfo.photo !== undefined && text.length <= 1024
            ? await api.sendPhoto(r.chatId, payInfo.photo, { caption: text, reply_markup })
            : await api.sendMessage(r.chatId, text, { reply_markup });
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
