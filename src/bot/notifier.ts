import { GrammyError, type Api } from "grammy";
import type { I18n } from "@grammyjs/i18n";
import type { Logger } from "../logger.js";
import type { Lang, OrderRecord } from "../orders/order.js";
import type { FinishedHow, OrderService } from "../orders/order-service.js";
import { outcomeText, renderState } from "./order-messages.js";
import { formatNumber, formatRupiah, safeTranslate, type Translate } from "./text.js";
import type { UserPrefs } from "./user-prefs.js";

export interface NotifierDeps {
  api: Api;
  i18n: I18n<any>;
  orders: OrderService;
  prefs: UserPrefs;
  adminIds: readonly number[];
  logger: Logger;
  lowBalance: { crossedBelow(balance: number): Promise<boolean> };
  lowBalanceThreshold: number | undefined;
}

/**
 * Tells people about orders outside the chat they happened in: the user when an order ends
 * without them waiting (recovery, settlement), and every admin after every outcome.
 */
export function createNotifier(deps: NotifierDeps) {
  const { api, logger } = deps;
  const tFor = (lang: Lang): Translate => safeTranslate((key, vars) => deps.i18n.t(lang, key, vars));

  /** Sends to one chat; an admin who never started the bot (403/400) is skipped and logged. */
  async function sendTo(chatId: number, text: string): Promise<boolean> {
    try {
      await api.sendMessage(chatId, text, { parse_mode: "HTML" });
      return true;
    } catch (err) {
      const code = err instanceof GrammyError ? err.error_code : undefined;
      logger.warn({ chatId, code, description: err instanceof GrammyError ? err.description : String(err) }, "notice not delivered");
      return false;
    }
  }

  async function deliverOutcome(order: OrderRecord, heading?: "already" | "settled"): Promise<void> {
    // The language the order was made in, unless the user chose another one since.
    const chosen = await Promise.resolve(deps.prefs.adapter.read(String(order.userId))).catch(() => undefined);
    const lang = chosen?.language ?? order.lang;
    await api.sendMessage(order.chatId, outcomeText(tFor(lang), order, heading), { parse_mode: "HTML" });
    await deps.orders.markNotified(order);
  }

  async function noticeAdmins(order: OrderRecord): Promise<void> {
    for (const adminId of deps.adminIds) {
      const lang = await deps.prefs.languageFor(adminId).catch(() => "en" as const);
      const t = tFor(lang);
      const r = order.result ?? {};
      let text = t("notice-sale", {
        user: order.userName,
        userId: String(order.userId),
        code: order.productCode,
        product: order.productName,
        playerName: r.destinationName ?? t("value-none"),
        playerId: order.playerId,
        price: order.price === null ? t("order-price-none") : formatRupiah(order.price, lang),
        outcome: renderState(t, order),
        sn: r.sn ?? t("value-none"),
        balance: r.lastBalance === undefined ? t("value-none") : formatNumber(r.lastBalance, lang),
        refId: order.refId,
      });
      if (order.settledBy !== undefined) text += `\n${t("notice-settled", { adminId: String(order.settledBy) })}`;
      await sendTo(adminId, text);
    }
  }

  async function alertLowBalance(order: OrderRecord): Promise<void> {
    const balance = order.result?.lastBalance;
    if (order.state !== "success" || balance === undefined || deps.lowBalanceThreshold === undefined) return;
    if (!(await deps.lowBalance.crossedBelow(balance))) return;
    for (const adminId of deps.adminIds) {
      const lang = await deps.prefs.languageFor(adminId).catch(() => "en" as const);
      await sendTo(
        adminId,
        tFor(lang)("low-balance-alert", {
          balance: formatNumber(balance, lang),
          refId: order.refId,
          threshold: formatNumber(deps.lowBalanceThreshold, lang),
        }),
      );
    }
  }

  return {
    deliverOutcome,
    /** After a restart: the order's user learns that it was in flight and what happens now. */
    async interrupted(order: OrderRecord): Promise<void> {
      const chosen = await Promise.resolve(deps.prefs.adapter.read(String(order.userId))).catch(() => undefined);
      const t = tFor(chosen?.language ?? order.lang);
      await sendTo(order.chatId, t("order-interrupted", { refId: order.refId, code: order.productCode, product: order.productName }));
    },
    /** Called by the order service after every final state; must never throw into it. */
    async orderFinished(order: OrderRecord, how: FinishedHow): Promise<void> {
      if (how !== "confirmed") {
        await deliverOutcome(order, how === "settled" ? "settled" : undefined).catch((err: unknown) =>
          logger.warn({ refId: order.refId, err: String(err) }, "outcome not delivered to the user"),
        );
      }
      await noticeAdmins(order);
      await alertLowBalance(order);
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
