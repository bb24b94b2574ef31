import { dayRange, isDay } from "../calendar.js";
import type { OrderLedger } from "../orders/ledger.js";
import { paidFromSaldo, viaApi, type OrderRecord } from "../orders/order.js";
import type { Movement, Wallets } from "../orders/wallet.js";

/**
 * What a partner reconciles its books from: the reseller's orders of a day, and the movements of
 * their saldo that day, each list oldest first, a page at a time. A day is the shop's (its time
 * zone): the orders sent, and the movements made, from its midnight to the next.
 */

/** One page of a day's list. `pages` is 0 for a day with nothing in it; a page past the end is empty. */
export interface ReconcilePage<T> {
  date: string;
  page: number;
  pages: number;
  total: number;
  items: T[];
}

/** An order as the partner's books read it. */
export interface TransactionItem {
  /** The partner's own ref id for an order of the H2H API; "" for an order placed in the chat. */
  ref_id: string;
  trx_id: string;
  code: string;
  destination: string;
  /** What the reseller paid (or pays, once it succeeds), in rupiah. */
  price: number;
  state: "success" | "failed" | "pending";
  /** The provider's serial number of a success; "" otherwise. */
  sn: string;
  /** When the order was sent (ISO 8601). */
  time: string;
}

/**
 * A movement of the saldo: a deposit, an order (its price left the saldo when it was sent), a
 * refund (a failed order's price came back) or an adjustment (an admin's correction). `amount`
 * carries its sign; `balance_after` is the saldo right after it, so each is the one before plus
 * its amount.
 */
export interface MutationItem {
  time: string;
  kind: "deposit" | "order" | "refund" | "adjustment";
  amount: number;
  balance_after: number;
  /** For an order or a refund: the partner's ref id ("" for an order placed in the chat) and the shop's trx id. */
  ref_id?: string;
  trx_id?: string;
  /** For a deposit or an adjustment: its id, and the admin's note when there is one. */
  note?: string;
}

export const RECONCILE_PAGE_SIZE = 100;

/** The paths of the two lists. */
export const RECONCILE_PATHS = ["/transactions", "/mutations"] as const;

/**
 * The day and page a partner asks for: `date` (`YYYY-MM-DD`, a real calendar day; required) and
 * `page` (a whole number from 1; default 1), each given at most once. What is wrong names the
 * parameter.
 */
export function readReconcileQuery(
  query: URLSearchParams,
): { ok: true; date: string; page: number } | { ok: false; why: string } {
  const dates = query.getAll("date");
  const pages = query.getAll("page");
  if (dates.length === 0) return { ok: false, why: "date is missing" };
  if (dates.length > 1) return { ok: false, why: "date is given more than once" };
  if (pages.length > 1) return { ok: false, why: "page is given more than once" };
  const date = dates[0]!;
  if (!isDay(date)) return { ok: false, why: "date must be a real day written YYYY-MM-DD" };
  const text = pages[0] ?? "1";
  const page = /^\d{1,15}$/.test(text) ? Number(text) : 0;
  if (page < 1 || !Number.isSafeInteger(page)) return { ok: false, why: "page must be a whole number from 1" };
  return { ok: true, date, page };
}

/** An empty page (a test key's, or a day with nothing). */
export const emptyPage = <T>(date: string, page: number): ReconcilePage<T> => ({
  date,
  page,
  pages: 0,
  total: 0,
  items: [],
});

/** Whose books are read: the partner a request's key named (a test key reads none). */
export interface Asker {
  userId: number;
  testKey?: boolean;
}

/** How many orders a read of the ledger takes at once. */
const ORDER_BATCH = 500;
/** How many statement movements a read takes at once. */
const MOVEMENT_BATCH = 500;
/**
 * Movements are appended in the order their steps ran, each with the time its process read:
 * two steps at the same moment may be a few milliseconds out of order. The walk of a statement
 * reads this far past a day's edges, and keeps what falls inside by time.
 */
const CLOCK_MARGIN_MS = 60_000;

/** A movement's one line in the list (a spend moves no saldo: its order's line took the money already). */
const KIND: Partial<Record<Movement["kind"], MutationItem["kind"]>> = {
  deposit: "deposit",
  correction: "adjustment",
  hold: "order",
  release: "refund",
};

export function createReconcile(deps: {
  ledger: Pick<OrderLedger, "findOrders" | "getMany" | "partnerRefOf">;
  wallets: Pick<Wallets, "statementPage" | "getDeposit">;
  timeZone: string;
  /** The shop's transaction id of an order, as every answer of the API gives it. */
  trxIdOf: (order: OrderRecord) => string;
  /** How many items a page holds (100). */
  pageSize?: number;
}) {
  const { ledger, wallets, timeZone, trxIdOf } = deps;
  const pageSize = deps.pageSize ?? RECONCILE_PAGE_SIZE;

  const pageOf = <T>(date: string, page: number, all: readonly T[]) => ({
    date,
    page,
    pages: Math.ceil(all.length / pageSize),
    total: all.length,
    items: all.slice((page - 1) * pageSize, page * pageSize),
  });

  /** The partner's ref id of each order that has one (orders placed in the chat have none). */
  async function partnerRefs(orders: readonly OrderRecord[]): Promise<Map<string, string>> {
    const api = orders.filter(viaApi);
    const refs = await Promise.all(api.map((o) => ledger.partnerRefOf(o.refId)));
    return new Map(api.flatMap((o, i) => (refs[i] === undefined ? [] : [[o.refId, refs[i]] as const])));
  }

  /** The user's orders paid from their saldo and sent in [fromMs, toMs], oldest first. */
  async function ordersBetween(userId: number, fromMs: number, toMs: number): Promise<OrderRecord[]> {
    const found = new Map<string, OrderRecord>();
    for (let page = 0; ; page++) {
      const { orders, hasMore } = await ledger.findOrders({ userId, fromMs, toMs, page, pageSize: ORDER_BATCH });
      // An order sent meanwhile moves the pages by one: it is read twice, never missed.
      for (const o of orders) found.set(o.refId, o);
      if (!hasMore) break;
    }
    const at = (o: OrderRecord) => Date.parse(o.submittedAt ?? o.createdAt);
    return [...found.values()]
      .filter(paidFromSaldo)
      .sort((a, b) => at(a) - at(b) || (a.refId < b.refId ? -1 : a.refId > b.refId ? 1 : 0));
  }

  /**
   * The statement's movements made in [fromMs, toMs], oldest first, in the statement's own order
   * (the order the saldo moved in). The newest one made by the day's end is found by halving,
   * then the statement is read back from there until past the day's start.
   */
  async function movementsBetween(userId: number, fromMs: number, toMs: number): Promise<Movement[]> {
    const at = async (pos: number) => {
      const m = (await wallets.statementPage(userId, pos, 1)).movements[0];
      return m === undefined ? undefined : Date.parse(m.at);
    };
    const { total } = await wallets.statementPage(userId, 0, 0);
    // The first position (newest first) whose movement is not after the day's end, with the margin.
    let lo = 0;
    let hi = total;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const t = await at(mid);
      if (t !== undefined && t > toMs + CLOCK_MARGIN_MS) lo = mid + 1;
      else hi = mid;
    }
    const seen = new Set<string>();
    const newestFirst: Movement[] = [];
    for (let page = Math.floor(lo / MOVEMENT_BATCH); ; page++) {
      const { movements } = await wallets.statementPage(userId, page, MOVEMENT_BATCH);
      for (const m of movements) {
        const t = Date.parse(m.at);
        // One line per step: a movement read twice (a new one moved the pages) counts once.
        const key = `${m.kind}:${m.ref}`;
        if (t >= fromMs && t <= toMs && !seen.has(key)) {
          seen.add(key);
          newestFirst.push(m);
        }
      }
      const oldest = movements.at(-1);
      if (movements.length < MOVEMENT_BATCH || oldest === undefined || Date.parse(oldest.at) < fromMs - CLOCK_MARGIN_MS)
        break;
    }
    return newestFirst.reverse();
  }

  /** The order lines of a page: what the ledger says of each order now. */
  async function transactionItems(orders: readonly OrderRecord[]): Promise<TransactionItem[]> {
    const refs = await partnerRefs(orders);
    return orders.map((o) => ({
      ref_id: refs.get(o.refId) ?? "",
      trx_id: trxIdOf(o),
      code: o.productCode,
      destination: o.playerId,
      price: o.price ?? 0,
      state: o.state === "success" ? "success" : o.state === "failed" ? "failed" : "pending",
      sn: o.state === "success" ? (o.result?.sn ?? "") : "",
      time: new Date(Date.parse(o.submittedAt ?? o.createdAt)).toISOString(),
    }));
  }

  /** The lines of a page of movements, with the ids of the orders and the deposits they name. */
  async function mutationItems(movements: readonly Movement[]): Promise<MutationItem[]> {
    const orderRefs = [
      ...new Set(movements.filter((m) => m.kind === "hold" || m.kind === "release").map((m) => m.ref)),
    ];
    const depositIds = [
      ...new Set(
        movements.filter((m) => KIND[m.kind] === "deposit" || KIND[m.kind] === "adjustment").map((m) => m.ref),
      ),
    ];
    const [orders, deposits] = await Promise.all([
      ledger.getMany(orderRefs),
      Promise.all(depositIds.map((id) => wallets.getDeposit(id))),
    ]);
    const orderOf = new Map(orders.map((o) => [o.refId, o]));
    const depositOf = new Map(deposits.flatMap((d) => (d === undefined ? [] : [[d.id, d] as const])));
    const refs = await partnerRefs(orders);
    return movements.map((m) => {
      const kind = KIND[m.kind]!;
      const item: MutationItem = {
        time: new Date(Date.parse(m.at)).toISOString(),
        kind,
        amount: m.amount,
        balance_after: m.saldo,
      };
      if (kind === "order" || kind === "refund") {
        const order = orderOf.get(m.ref);
        item.ref_id = refs.get(m.ref) ?? "";
        if (order !== undefined) item.trx_id = trxIdOf(order);
      } else {
        const note = depositOf.get(m.ref)?.note ?? "";
        item.note = note === "" ? m.ref : `${m.ref} ${note}`;
      }
      return item;
    });
  }

  return {
    /**
     * The reseller's orders sent that day (paid from their saldo, through the API or the chat),
     * oldest first. A test key has no books: its pages are empty.
     */
    async transactions(who: Asker, date: string, page: number): Promise<ReconcilePage<TransactionItem>> {
      const range = dayRange(date, timeZone);
      if (range === undefined || who.testKey === true) return emptyPage(date, page);
      const all = await ordersBetween(who.userId, range.fromMs, range.toMs);
      const shown = pageOf(date, page, all);
      return { ...shown, items: await transactionItems(shown.items) };
    },

    /** The movements of the reseller's saldo that day, oldest first, with the saldo after each. */
    async mutations(who: Asker, date: string, page: number): Promise<ReconcilePage<MutationItem>> {
      const range = dayRange(date, timeZone);
      if (range === undefined || who.testKey === true) return emptyPage(date, page);
      const all = (await movementsBetween(who.userId, range.fromMs, range.toMs)).filter(
        (m) => KIND[m.kind] !== undefined,
      );
      const shown = pageOf(date, page, all);
      return { ...shown, items: await mutationItems(shown.items) };
    },
  };
}

export type Reconcile = ReturnType<typeof createReconcile>;
