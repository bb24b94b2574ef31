import type { Api } from "grammy";
import type { People } from "../../access/people.js";
import type { DepositRequest } from "../../deposits/request-store.js";
import type { Logger } from "../../logger.js";
import type { Delivery } from "../../orders/events.js";
import type { Deposit } from "../../orders/wallet.js";
import { formatRupiah } from "../format.js";
import { translator, type Texts } from "../i18n.js";
import { nameBefore } from "../people.js";
import type { UserPrefs } from "../user-prefs.js";
import { sendText } from "./fan-out.js";

/**
 * What a reseller hears of their saldo coming in, all of it here: a deposit credited (an admin's
 * /deposit, an approved request, a request credited by hand: each is a deposit) or corrected; a
 * request closed without a credit (rejected, with the admin's reason if any; expired). And the
 * admin who credited a deposit hears when its reseller could not be told.
 */
export function createDepositNotices(deps: {
  api: Api;
  texts: Texts;
  prefs: Pick<UserPrefs, "languageFor">;
  logger: Logger;
  people?: Pick<People, "get"> | undefined;
}) {
  const { api, logger } = deps;

  return {
    /** The reseller learns of a deposit or a correction of their saldo. */
    async credited(deposit: Deposit, saldo: number): Promise<Delivery> {
      const lang = await deps.prefs.languageFor(deposit.resellerId);
      const t = translator(deps.texts, lang);
      const key = deposit.amount >= 0 ? "deposit-credited" : "deposit-corrected";
      const note = deposit.note === "" ? "" : `\n${t("deposit-note", { note: deposit.note })}`;
      const text = t(key, {
        amount: formatRupiah(Math.abs(deposit.amount), lang),
        saldo: formatRupiah(saldo, lang),
        id: deposit.id,
      });
      return sendText(api, logger, deposit.resellerId, "deposit", `${text}${note}`);
    },
    /** The admin who credited it (in the chat the summary was in) learns the reseller was not told. */
    async undelivered(deposit: Deposit, why: "not-started" | "blocked"): Promise<void> {
      const t = translator(deps.texts, await deps.prefs.languageFor(deposit.adminId));
      const person = (await deps.people?.get([deposit.resellerId]))?.get(deposit.resellerId);
      const text = t(why === "blocked" ? "deposit-undelivered-blocked" : "deposit-undelivered-not-started", {
        userId: String(deposit.resellerId),
        name: nameBefore(person),
        id: deposit.id,
      });
      await sendText(api, logger, deposit.chatId, "deposit undelivered", text);
    },
    /** The reseller learns their request closed without a credit. */
    async closed(r: DepositRequest): Promise<Delivery> {
      const lang = await deps.prefs.languageFor(r.resellerId, r.lang);
      const t = translator(deps.texts, lang);
      const amount = formatRupiah(r.exact, lang);
      const text =
        r.state === "expired"
          ? t("request-expired-told", { id: r.id, amount })
          : r.reason === undefined
            ? t("request-rejected-told", { id: r.id, amount })
            : t("request-rejected-reason-told", { id: r.id, amount, reason: r.reason });
      return sendText(api, logger, r.chatId, "deposit request closed", text);
    },
  };
}
