import type { Api } from "grammy";
import type { People } from "../../access/people.js";
import type { Logger } from "../../logger.js";
import type { DepositEvents, FinishedHow, OrderEvents } from "../../orders/events.js";
import { viaApi, type OrderRecord } from "../../orders/order.js";
import type { ApiSales, ApiSalesLine } from "../../partners/api-sales.js";
import { createTaskTracker } from "../../tasks.js";
import type { AdminChat } from "../chats.js";
import type { Texts } from "../i18n.js";
import type { UserPrefs } from "../user-prefs.js";
import { createAlerts, type AlertedProvider } from "./alerts.js";
import { createApiSalesNotice } from "./api-sales.js";
import { createDepositNotices } from "./deposits.js";
import { createAdminFanOut } from "./fan-out.js";
import { createOrderNotices } from "./order-notices.js";
import { createOutcomeTelling } from "./order-outcome.js";
import type { PendingMessages } from "./pending-messages.js";
import type { HealthChange } from "../../providers/resting.js";
import type { RecapFigures } from "../../reports/recap.js";
import type { DueRecap } from "../../reports/recap-schedule.js";
import { createRecapNotice } from "./recap.js";
import { createLowSaldoNotice } from "./low-saldo.js";
import type { LowSaldoWatch } from "../../orders/low-saldo.js";

export interface NotifierDeps {
  api: Api;
  texts: Texts;
  prefs: UserPrefs;
  adminIds: readonly number[];
  /** ADMIN_CHAT_ID: the admins' notices go there, once, instead of to each admin. */
  adminChat?: AdminChat | undefined;
  logger: Logger;
  lowBalanceThreshold: number | undefined;
  /** The configured providers (their names and low-balance thresholds), in preference order; absent: main alone. */
  providers?: readonly AlertedProvider[];
  /** How long a provider call may take before the summary says it is being processed. */
  processingNoticeMs?: number;
  /** Orders go to the built-in sandbox provider: every result and notice says it was a trial. */
  sandbox?: boolean;
  /** People's names, for the admins' notices. */
  people?: Pick<People, "get">;
  /** The /pending messages that show an order, whose buttons go once it is settled. */
  pendingMessages?: PendingMessages;
  /** The partner's ref_id of an H2H order, shown beside the shop's in its notice. */
  partnerRefOf?: (refId: string) => Promise<string | undefined>;
  /** The H2H API's sales and failures go here, told in one notice per period (unknown ones at once). */
  apiSales?: Pick<ApiSales, "add">;
  /** TZ: the times the admins read. */
  timeZone?: string;
  /** RESELLER_LOW_SALDO and the flags that make its notice once per crossing; absent: none. */
  lowSaldo?: { threshold: number; watch: LowSaldoWatch } | undefined;
  /** SHOP_NAME: at the top of the recap's picture. */
  shopName?: string | undefined;
  now?: () => Date;
}

export interface Notifier extends OrderEvents, DepositEvents {
  /** The H2H API's sales of the last `minutes`, in one notice. */
  apiSales(lines: readonly ApiSalesLine[], minutes: number): Promise<void>;
  /** The day's recap to the admins (a photo and its caption); resolves once it went out. */
  recap(figures: RecapFigures, due: DueRecap): Promise<void>;
  /** A provider started resting or is back: the admins are told (once per change). */
  providerHealth(change: HealthChange): Promise<void>;
  /** Resolves when every notice started so far has gone out (shutdown waits for it). */
  idle(): Promise<void>;
}

/**
 * Says what the order and deposit services report, in Telegram, from one module per kind of news:
 * the outcome to the user who ordered (order-outcome.ts), every outcome to the admins
 * (order-notices.ts) with the alerts it crossed (alerts.ts), the H2H API's sales per period
 * (api-sales.ts), the evening recap (recap.ts), a credited deposit to its reseller (deposits.ts). The services decide what is due
 * and record that it was said; this only says it, and shutdown waits for what it started.
 */
export function createNotifier(deps: NotifierDeps): Notifier {
  const { logger } = deps;
  const tasks = createTaskTracker();
  const track = <T>(work: Promise<T>): Promise<T> => tasks.track(work);
  const fanOut = createAdminFanOut(deps);
  const outcomes = createOutcomeTelling(deps);
  const orderNotices = createOrderNotices({ ...deps, fanOut });
  const alerts = createAlerts({ ...deps, fanOut });
  const apiSalesNotice = createApiSalesNotice({ ...deps, fanOut });
  const deposits = createDepositNotices(deps);
  const recap = createRecapNotice({ ...deps, fanOut });
  const lowSaldo = deps.lowSaldo === undefined ? undefined : createLowSaldoNotice({ ...deps, ...deps.lowSaldo });

  /** What follows a finished order: the pending buttons (settled), the admins' notice, the alerts it crossed. */
  async function finished(
    order: OrderRecord,
    how: FinishedHow,
    facts: { lowBalance: boolean; providerEmpty?: boolean },
  ): Promise<void> {
    if (how === "settled")
      await orderNotices
        .retirePendingButtons(order)
        .catch((err: unknown) => logger.warn({ err, refId: order.refId }, "pending messages not brought up to date"));
    // The API's sales and failures as they come go into the period's one notice; an unknown one,
    // or one an admin settled, is told at once (someone must act on it, or did).
    if (viaApi(order) && how === "confirmed" && order.state !== "unknown" && deps.apiSales !== undefined)
      await deps.apiSales
        .add(order, (deps.now ?? (() => new Date()))().getTime())
        .catch((err: unknown) => logger.error({ err, refId: order.refId }, "API sale not counted for its notice"));
    else await orderNotices.tellAdmins(order);
    if (facts.lowBalance) await alerts.lowBalance(order);
    if (facts.providerEmpty === true) await alerts.providerEmpty(order);
    await lowSaldo
      ?.afterOrder(order)
      .catch((err: unknown) => logger.error({ err, refId: order.refId }, "reseller's low saldo not looked at"));
  }

  return {
    claimed: outcomes.claimed,
    // An order of the H2H API is told by its HTTP answer, the status query and the callback.
    tellOutcome: (order, heading) => (viaApi(order) ? Promise.resolve() : track(outcomes.tellOutcome(order, heading))),
    finished: (order, how, facts) => track(finished(order, how, facts)),
    apiSales: (lines, minutes) => track(apiSalesNotice(lines, minutes)),
    recap: (figures, due) => track(recap(figures, due)),
    providerHealth: (change) => track(alerts.providerHealth(change, deps.timeZone ?? "UTC")),
    // Said as the outcome "unknown, the bot was restarted" (what recovery records once the call
    // must be over, which then only brings the summary up to date).
    async interrupted(order) {
      if (viaApi(order)) return;
      const unknown: OrderRecord = { ...order, state: "unknown", result: { reason: "interrupted" } };
      await track(
        outcomes
          .tellOutcome(unknown)
          .catch((err: unknown) =>
            logger.warn({ err, refId: order.refId }, "interrupted order: its user was not told"),
          ),
      );
    },
    idle: () => tasks.idle(),
    credited: (deposit, saldo) =>
      track(
        (async () => {
          // The saldo is back at or above RESELLER_LOW_SALDO: its next fall is told again.
          await lowSaldo
            ?.afterDeposit(deposit, saldo)
            .catch((err: unknown) => logger.error({ err, id: deposit.id }, "reseller's low saldo flag not cleared"));
          return deposits.credited(deposit, saldo);
        })(),
      ),
    undelivered: (deposit, why) => track(deposits.undelivered(deposit, why)),
  };
}
