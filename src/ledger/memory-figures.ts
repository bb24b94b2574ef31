import type { OrderLedger } from "../orders/ledger.js";
import {
  costOf,
  currentAttempt,
  MAIN_PROVIDER,
  paidFromSaldo,
  viaApi,
  type OrderRecord,
  type OrderState,
} from "../orders/order.js";
import { figuresOf } from "../orders/day-figures.js";
import type { Store } from "./memory-store.js";

/** The one-letter state codes of the day figures (as STATE_CODE in redis-lua.ts). */
const STATE_CODE: Partial<Record<OrderState, string>> = { submitting: "p", success: "s", failed: "f", unknown: "u" };

/** The day figures, field for field as the Redis ledger keeps them (figuresOf reads both maps). */
export function memoryFigures(store: Store) {
  const days = new Map<string, Record<string, string>>();
  const dayDetails = new Map<string, Record<string, string>>();
  /** Each claimed order's submit day. */
  const submitDay = new Map<string, string>();
  const hashOf = (map: Map<string, Record<string, string>>, day: string) => {
    let h = map.get(day);
    if (h === undefined) map.set(day, (h = {}));
    return h;
  };
  const incr = (h: Record<string, string>, field: string, by: number) => {
    h[field] = String(Number(h[field] ?? 0) + by);
  };
  const read: Pick<OrderLedger, "dayFigures" | "daysFigures" | "daysDetail"> = {
    dayFigures: async (day) => figuresOf(days.get(day) ?? {}, dayDetails.get(day) ?? {}),
    daysFigures: async (list) => list.map((day) => figuresOf(days.get(day) ?? {}, {})),
    daysDetail: async (list) => list.map((day) => figuresOf(days.get(day) ?? {}, dayDetails.get(day) ?? {})),
  };
  return {
    read,
    /** An order counts in the day it was submitted (its claim). */
    submitted(refId: string, at: string) {
      submitDay.set(refId, store.dayOf(at));
    },
    /** Moves an order in its day's figures (see TALLY in redis-lua.ts). */
    tally(o: OrderRecord, from: OrderState | undefined, to: OrderState) {
      const day = submitDay.get(o.refId);
      if (day === undefined) return;
      const t = hashOf(days, day);
      const detail = hashOf(dayDetails, day);
      const when = o.submittedAt ?? "";
      const hour = store.hourOf(when);
      if (from !== undefined) incr(t, `c:${STATE_CODE[from]}`, -1);
      else incr(detail, `${hour}n`, 1);
      incr(t, `c:${STATE_CODE[to]}`, 1);
      // The H2H API's part (a:…): no step moves an order out of success or failed, so it only grows.
      const api = viaApi(o);
      if (api && from === undefined) incr(t, "a:n", 1);
      if (api && to === "failed") incr(t, "a:f", 1);
      // A provider's line counts the order once, at its first outcome, under its current attempt's
      // provider; main has none (its line is what the others leave of the day's totals).
      const provider = currentAttempt(o).provider;
      const vendor = provider === MAIN_PROVIDER ? undefined : `v:${provider}:`;
      if (vendor !== undefined && to !== "submitting" && (from === undefined || from === "submitting"))
        incr(detail, `${vendor}n`, 1);
      if (to !== "success") return;
      const sell = o.price ?? 0;
      const cost = costOf(o.result);
      incr(t, "sell", sell);
      if (api) {
        incr(t, "a:s", 1);
        incr(t, "a:sell", sell);
      }
      if (vendor !== undefined) {
        incr(detail, `${vendor}s`, sell);
        incr(detail, cost === undefined ? `${vendor}u` : `${vendor}v`, cost ?? sell);
      }
      if (cost === undefined) {
        incr(t, "sellu", sell);
        incr(t, "nu", 1);
      } else incr(t, "cost", cost);
      // An hour's provider money counts a cost nobody knows as 0 (its selling price still counts).
      incr(detail, `${hour}s`, sell);
      incr(detail, `${hour}v`, cost ?? 0);
      const line = (head: string, name: string, tier?: string) => {
        incr(detail, `${head}n`, 1);
        incr(detail, `${head}s`, sell);
        if (cost === undefined) incr(detail, `${head}u`, sell);
        else incr(detail, `${head}v`, cost);
        if ((detail[`${head}w`] ?? "") <= when) {
          detail[`${head}w`] = when;
          detail[`${head}m`] = name;
          if (tier !== undefined) detail[`${head}t`] = tier;
        }
      };
      line(`p:${o.productCode}:`, o.productName);
      line(`u:${o.userId}:`, o.userName);
      if (paidFromSaldo(o)) line(`r:${o.userId}:`, o.userName, o.tier ?? "");
    },
    /** A deposit (or a correction) in the day it was credited. */
    deposited(resellerId: number, amount: number, at: string) {
      const day = store.dayOf(at);
      incr(hashOf(days, day), "dep", amount);
      incr(hashOf(dayDetails, day), `r:${resellerId}:d`, amount);
    },
    /** Main's balance a sale reported, as the day's last unless a later one was seen. */
    balanceSeen(balance: number, at: string) {
      const day = hashOf(days, store.dayOf(at));
      if ((day.balAt ?? "") <= at) Object.assign(day, { bal: String(balance), balAt: at });
    },
  };
}

export type Figures = ReturnType<typeof memoryFigures>;
