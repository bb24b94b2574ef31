import type { OrderLedger } from "../orders/ledger.js";
import type { RedisLedgerContext } from "./redis-context.js";
import { pairs } from "./redis-lua.js";
import { DAY_LINES, ENTRY_SCAN, FIND_ORDER, TIME_SCAN } from "./redis-find-lua.js";
import { MissingText } from "./redis-texts.js";
import { msKey, int36, escapeField, lineOfKept, orderFromHash } from "./order-codec.js";
import type { OrderRecord, OrderState } from "../orders/order.js";
import { orderLine, type OrderLine } from "../orders/order-line.js";
import { elementHeader, lineOfElement, STATE_LETTER, textIdsOf, unpackOrder } from "./packed-order-codec.js";

/*
 * Finding orders in the Redis ledger: one by ref id (its hash, or its element in the time index
 * once compacted), and pages of them through the time, user and player indexes
 * (redis-lua.ts), newest first. The scripts are in redis-find-lua.ts.
 */

/** Reads over 10,000 orders at once are split in scripts of this many (a day's CSV is one or two). */
const SCAN_BATCH = 5_000;

/** The last entry of a recent order with a kept line, and of one whose hash comes with the answer (DAY_LINES). */
const KEPT_LINE = "!";
const HASH_HEADER = "#";

/**
 * How many entries of DAY_LINES's answer the order ending at entry `last` takes (entries are
 * walked from the end: the oldest order first); 0 when they are not of that form.
 */
function entriesOfOrder(entries: readonly string[], last: number): number {
  const entry = entries[last];
  const size = entry === KEPT_LINE ? 3 : entry === HASH_HEADER ? 2 : 1;
  return last - size + 1 < 0 ? 0 : size;
}

/** The header of the order ending at entry `last` (for a compacted element, what precedes its first tab). */
function headerOfOrder(entries: readonly string[], last: number): string {
  const entry = entries[last]!;
  if (entry === KEPT_LINE || entry === HASH_HEADER) return entries[last - 1]!;
  const tab = entry.indexOf("\t");
  return entry.slice(0, tab < 0 ? entry.length : tab);
}

/** How many orders the entries of DAY_LINES's answer hold; -1 when they are not of its form. */
function ordersIn(entries: readonly string[]): number {
  let orders = 0;
  for (let last = entries.length - 1; last >= 0; orders++) {
    const size = entriesOfOrder(entries, last);
    if (size === 0) return -1;
    last -= size;
  }
  return orders;
}

/**
 * The orders submitted in [fromMs, toMs] as lines, oldest first, each given to `each` as it is
 * decoded: read from the time index in scripts of SCAN_BATCH orders (newest first, each answer
 * one string of entries: DAY_LINES), then walked from the oldest. Only the scripts' answers are
 * kept meanwhile, never the orders.
 */
async function eachLineByTime(
  ctx: RedisLedgerContext,
  fromMs: number,
  toMs: number,
  each: (line: OrderLine) => void,
): Promise<void> {
  const { redis, prefix, texts } = ctx;
  const text = (id: string) => texts.text(id);
  const batches: Array<{ entries: string[]; hashes: string[][] }> = [];
  let cursor = msKey(toMs + 1);
  for (;;) {
    const [packed, count, hashes] = (await DAY_LINES(redis, [], [prefix, cursor, msKey(fromMs), SCAN_BATCH])) as [
      string,
      number,
      string[][],
    ];
    const entries = count === 0 ? [] : packed.split("\n");
    if (ordersIn(entries) !== count)
      throw new Error(`orders of ${fromMs}-${toMs}: an answer that does not split in orders`);
    batches.push({ entries, hashes });
    if (count < SCAN_BATCH) break;
    cursor = headerOfOrder(entries, entries.length - 1);
  }
  const seen = new Set<string>();
  let loaded = false;
  for (let b = batches.length - 1; b >= 0; b--) {
    const { entries, hashes } = batches[b]!;
    let hash = hashes.length;
    for (let last = entries.length - 1; last >= 0;) {
      const entry = entries[last]!;
      let line: OrderLine | undefined;
      if (entry === KEPT_LINE) {
        const header = entries[last - 1]!;
        const kept = entries[last - 2]!;
        const cut = kept.indexOf("\x01");
        line = lineOfKept(kept.slice(0, cut), kept.slice(cut + 1), parseInt(header.slice(0, 9), 36));
      } else if (entry === HASH_HEADER) {
        const order = orderFromHash(entries[last - 1]!.slice(9), pairs(hashes[--hash]!));
        line = order === undefined ? undefined : orderLine(order);
      } else {
        try {
          line = lineOfElement(entry, text);
        } catch (err) {
          if (!(err instanceof MissingText) || loaded) throw err;
          // Texts not read yet from the dictionary: those of every order read are fetched at once.
          await texts.load(textIdsIn(batches));
          loaded = true;
          line = lineOfElement(entry, text);
        }
      }
      last -= entriesOfOrder(entries, last);
      if (line !== undefined && !seen.has(line.refId)) {
        seen.add(line.refId);
        each(line);
      }
    }
  }
}

/** The dictionary numbers the compacted orders of DAY_LINES's answers refer to. */
function textIdsIn(batches: ReadonlyArray<{ entries: readonly string[] }>): Set<string> {
  const ids = new Set<string>();
  for (const { entries } of batches)
    for (let last = entries.length - 1; last >= 0;) {
      const size = entriesOfOrder(entries, last);
      if (size === 1) for (const id of textIdsOf(entries[last]!)) ids.add(id);
      last -= size;
    }
  return ids;
}

/** The index a query reads, as a function of (upper, lower, skip, take) → orders newest first. */
type Source = (upper: string, lower: string, skip: number, take: number) => Promise<OrderRecord[]>;

/** How the ledger's other parts read orders: by ref id, and through each index. */
export type OrderReader = ReturnType<typeof createOrderReader>;

/** Reads orders, whichever form they are in (a hash, or a compacted element and the dictionary). */
export function createOrderReader(ctx: RedisLedgerContext) {
  const { redis, prefix, keys, texts } = ctx;
  const text = (id: string) => texts.text(id);
  /** An element's header: the submit time's 9 digits and the ref id. */
  const headerOf = (element: string) => {
    const tab = element.indexOf("\t");
    return tab < 0 ? element : element.slice(0, tab);
  };
  /** The ref id of an element (its header after the 9 digits). */
  const refOf = (element: string) => headerOf(element).slice(9);
  /** The order a hash or an element holds (the ref id for a hash: it is the key's). */
  const decode = async (found: Array<{ element: string; hash: string[] }>): Promise<OrderRecord[]> => {
    const missing = new Set<string>();
    const one = (f: { element: string; hash: string[] }) => {
      if (f.hash.length > 0) return orderFromHash(refOf(f.element), pairs(f.hash));
      try {
        return unpackOrder(f.element, text);
      } catch (err) {
        // A text not read yet from the dictionary: all of them are fetched at once, then read again.
        if (!(err instanceof MissingText)) throw err;
        for (const id of textIdsOf(f.element)) missing.add(id);
        return null;
      }
    };
    let orders = found.map(one);
    if (missing.size > 0) {
      await texts.load(missing);
      orders = orders.map((o, i) => (o === null ? one(found[i]!) : o));
    }
    return orders.filter((o): o is OrderRecord => o !== undefined && o !== null);
  };
  /** A scan's flat answer (element, hash, element, hash…) → orders, each once. */
  const ordersOf = async (raw: unknown): Promise<OrderRecord[]> => {
    const list = raw as Array<string | string[]>;
    const found: Array<{ element: string; hash: string[] }> = [];
    for (let i = 0; i + 1 < list.length; i += 2)
      found.push({ element: list[i] as string, hash: list[i + 1] as string[] });
    const seen = new Set<string>();
    return (await decode(found)).filter((o) => !seen.has(o.refId) && seen.add(o.refId));
  };

  async function get(refId: string): Promise<OrderRecord | undefined> {
    const raw = (await FIND_ORDER(redis, [keys.order(refId)], [prefix, refId])) as [string, (string | string[])?];
    if (raw[0] === "h") return orderFromHash(refId, pairs(raw[1] as string[]));
    if (raw[0] === "c") return (await decode([{ element: raw[1] as string, hash: [] }]))[0];
    return undefined;
  }

  const getMany = async (refIds: readonly string[]) =>
    (await Promise.all(refIds.map(get))).filter((o): o is OrderRecord => o !== undefined);

  /** An order that has no hash any more (compacted): what a step on it finds. */
  const compacted = async (refId: string) => {
    const order = await get(refId);
    return order?.state === "success" || order?.state === "failed" ? order : undefined;
  };

  /** The time index, optionally only the orders in a state and of a user (checked in the script). */
  const timeScan =
    (filter: { state?: OrderState; userId?: number; playerPrefix?: string } = {}): Source =>
    async (upper, lower, skip, take) =>
      ordersOf(
        await TIME_SCAN(
          redis,
          [],
          [
            prefix,
            upper,
            lower,
            skip,
            take,
            filter.state === undefined ? "" : STATE_LETTER[filter.state],
            filter.state ?? "",
            filter.userId === undefined ? "" : int36(filter.userId),
            filter.userId === undefined ? "" : String(filter.userId),
            filter.playerPrefix ?? "",
            filter.playerPrefix === undefined ? "" : escapeField(filter.playerPrefix),
          ],
        ),
      );
  const byTime = timeScan();
  const byEntries =
    (source: "l" | "p", key: string, keep: (o: OrderRecord) => boolean): Source =>
    async (upper, lower, skip, take) =>
      (await ordersOf(await ENTRY_SCAN(redis, [], [prefix, source, key, upper, lower, skip, take]))).filter(keep);
  const byUser = (userId: number) => byEntries("l", keys.user(userId), (o) => o.userId === userId);
  const byPlayer = (playerId: string) => byEntries("p", playerId, (o) => o.playerId === playerId);
  /** The cursor after an order: its index entry (user, player) or its header (time). */
  const cursorOf = (source: "time" | "entry", o: OrderRecord) => {
    const header = elementHeader(Date.parse(o.submittedAt ?? ""), o.refId);
    return source === "time" ? header : header.slice(0, 9) + `___${o.refId}`.slice(-3);
  };

  return {
    get,
    getMany,
    compacted,
    timeScan,
    byTime,
    eachLineByTime: (fromMs: number, toMs: number, each: (line: OrderLine) => void) =>
      eachLineByTime(ctx, fromMs, toMs, each),
    byUser,
    byPlayer,
    cursorOf,
  };
}

/** The ledger's lookups: orders by ref id, pages through the indexes, the open and unknown ones. */
export function createRedisLookups(
  ctx: RedisLedgerContext,
  read: OrderReader,
): Pick<
  OrderLedger,
  "get" | "getMany" | "findOrders" | "history" | "submittedBetween" | "eachSubmittedLine" | "inFlight" | "pending"
> {
  const { redis, keys } = ctx;
  const { get, getMany, timeScan, byTime, eachLineByTime, byUser, byPlayer, cursorOf } = read;
  return {
    get,
    getMany,

    async findOrders(q) {
      if (q.state === "unknown" || q.state === "submitting") {
        // Orders still open or unknown are few, and in a set of their own: no index need be read.
        const ids = await redis.sMembers(q.state === "unknown" ? keys.unknown : keys.inflight);
        const header = (o: OrderRecord) => elementHeader(Date.parse(o.submittedAt ?? ""), o.refId);
        const all = (await getMany(ids))
          .filter((o) => {
            const at = Date.parse(o.submittedAt ?? "");
            return (
              o.state === q.state &&
              (q.userId === undefined || o.userId === q.userId) &&
              (q.playerId === undefined || o.playerId === q.playerId) &&
              (q.fromMs === undefined || at >= q.fromMs) &&
              (q.toMs === undefined || at <= q.toMs)
            );
          })
          .sort((a, b) => (header(a) < header(b) ? 1 : -1));
        const start = q.page * q.pageSize;
        return { orders: all.slice(start, start + q.pageSize), hasMore: all.length > start + q.pageSize };
      }
      const upper = q.toMs === undefined ? "" : msKey(q.toMs + 1);
      const lower = q.fromMs === undefined ? "" : msKey(q.fromMs);
      const viaPlayer = q.playerId !== undefined;
      // A few days are read whole, the script keeping only the state and user asked for; a user's
      // orders over all time come from their own index.
      const narrow = q.fromMs !== undefined && q.toMs !== undefined && q.toMs - q.fromMs <= 3 * 86_400_000;
      let source: Source = byTime;
      let kind: "time" | "entry" = "time";
      if (q.playerPrefix !== undefined)
        source = timeScan({
          playerPrefix: q.playerPrefix,
          ...(q.state === undefined ? {} : { state: q.state }),
          ...(q.userId === undefined ? {} : { userId: q.userId }),
        });
      else if (q.playerId !== undefined) [source, kind] = [byPlayer(q.playerId), "entry"];
      else if (q.userId !== undefined && !(narrow && q.state !== undefined))
        [source, kind] = [byUser(q.userId), "entry"];
      else if (q.state !== undefined)
        source = timeScan({ state: q.state, ...(q.userId === undefined ? {} : { userId: q.userId }) });
      const matches = (o: OrderRecord) =>
        (q.state === undefined || o.state === q.state) &&
        (q.userId === undefined || o.userId === q.userId) &&
        (q.playerPrefix === undefined || o.playerId.startsWith(q.playerPrefix));
      const filtered = q.state !== undefined || q.playerPrefix !== undefined || (viaPlayer && q.userId !== undefined);
      if (!filtered) {
        // One more than the page says whether there are more; nothing else is read.
        const found = await source(upper, lower, q.page * q.pageSize, q.pageSize + 1);
        return { orders: found.slice(0, q.pageSize), hasMore: found.length > q.pageSize };
      }
      // A filter no index answers: read the index in batches until the page (and one more) is found.
      const found: OrderRecord[] = [];
      const skip = q.page * q.pageSize;
      let seen = 0;
      const BATCH = 200;
      let cursor = upper;
      for (;;) {
        const batch = await source(cursor, lower, 0, BATCH);
        for (const o of batch) {
          if (!matches(o)) continue;
          if (seen++ >= skip) found.push(o);
          if (found.length > q.pageSize) break;
        }
        if (found.length > q.pageSize || batch.length < BATCH) break;
        cursor = cursorOf(kind, batch.at(-1)!);
      }
      return { orders: found.slice(0, q.pageSize), hasMore: found.length > q.pageSize };
    },

    async history(scope, page, pageSize) {
      const [total, found] = await Promise.all([
        scope === "all" ? redis.get(keys.ordersCount) : redis.hGet(keys.userCounts, String(scope)),
        (scope === "all" ? byTime : byUser(scope))("", "", page * pageSize, pageSize),
      ]);
      return { orders: found, total: Number(total ?? 0) };
    },

    async submittedBetween(fromMs, toMs) {
      const all: OrderRecord[] = [];
      let cursor = msKey(toMs + 1);
      for (;;) {
        const batch = await byTime(cursor, msKey(fromMs), 0, SCAN_BATCH);
        all.push(...batch);
        if (batch.length < SCAN_BATCH) break;
        cursor = cursorOf("time", batch.at(-1)!);
      }
      return all.reverse();
    },

    eachSubmittedLine: eachLineByTime,

    async inFlight() {
      return (await getMany(await redis.sMembers(keys.inflight))).filter((o) => o.state === "submitting");
    },

    async pending() {
      const found = await getMany(await redis.sMembers(keys.unknown));
      return found.filter((o) => o.state === "unknown").sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },
  };
}
