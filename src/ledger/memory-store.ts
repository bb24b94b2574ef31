import { dayIn, hourIn } from "../calendar.js";
import { unpackOrder } from "./packed-order-codec.js";
import type { OrderRecord } from "../orders/order.js";
import type { Deposit } from "../orders/wallet.js";

/** What the memory ledger holds, shared by its parts: the records, their indexes, and how to read them. */
export type Store = ReturnType<typeof memoryStore>;

/** The memory ledger's records and indexes, read through `live` (a draft past its time is gone). */
export function memoryStore(opts: { now?: () => number; timeZone?: string }) {
  const now = opts.now ?? Date.now;
  /** The shop's time zone decides the day and the hour an order counts in (UTC unless given). */
  const timeZone = opts.timeZone ?? "UTC";
  const orders = new Map<string, { order: OrderRecord; expiresAt: number | undefined }>();
  const openDrafts = new Map<string, { refId: string; expiresAt: number }>();
  const deposits = new Map<string, { deposit: Deposit; expiresAt: number | undefined }>();
  /** Compacted orders: their packed element (packed-order-codec.ts), and the texts they share by number. */
  const compacted = new Map<string, string>();
  const textOf = new Map<string, string>();
  let writes = 0;
  const store = {
    now,
    dayOf: (iso: string) => dayIn(timeZone, new Date(iso)),
    /** The head of an hour's fields in the day figures (`h:HH:`). */
    hourOf: (iso: string) => `h:${String(hourIn(timeZone, Date.parse(iso))).padStart(2, "0")}:`,
    orders,
    openDrafts,
    /** Submitted orders: ref id → submit time (ms). */
    byTime: new Map<string, number>(),
    inflight: new Set<string>(),
    unknown: new Set<string>(),
    /** The provider price last seen for each product (code as the catalogue writes it). */
    lastCosts: new Map<string, number>(),
    deposits,
    /** Credited deposits: id → the time credited (ms). */
    depositTimes: new Map<string, number>(),
    untold: new Set<string>(),
    /** A partner's ref id (`userId:ref`) → the order it made; and back. */
    partnerRefs: new Map<string, string>(),
    partnerRefOf: new Map<string, string>(),
    compacted,
    textIds: new Map<string, string>(),
    textOf,
    copy: <T>(o: T): T => structuredClone(o),
    draftKey: (chatId: number, userId: number) => `${chatId}:${userId}`,
    live: (refId: string): OrderRecord | undefined => {
      const entry = orders.get(refId);
      if (entry === undefined) {
        const element = compacted.get(refId);
        return element === undefined ? undefined : unpackOrder(element, (id) => textOf.get(id)!);
      }
      if (entry.expiresAt !== undefined && entry.expiresAt <= now()) {
        orders.delete(refId);
        return undefined;
      }
      return entry.order;
    },
    liveDeposit: (id: string): Deposit | undefined => {
      const entry = deposits.get(id);
      if (entry === undefined) return undefined;
      if (entry.expiresAt !== undefined && entry.expiresAt <= now()) {
        deposits.delete(id);
        return undefined;
      }
      return entry.deposit;
    },
    /** Counts a new record; every thousandth sweeps out the expired ones. */
    wrote: () => {
      if (++writes % 1000 !== 0) return;
      // Expired drafts go when new ones come, so an idle bot holds nothing it no longer needs.
      const t = now();
      for (const [refId, e] of orders) if (e.expiresAt !== undefined && e.expiresAt <= t) orders.delete(refId);
      for (const [k, e] of openDrafts) if (e.expiresAt <= t) openDrafts.delete(k);
      for (const [id, e] of deposits) if (e.expiresAt !== undefined && e.expiresAt <= t) deposits.delete(id);
    },
  };
  return store;
}
