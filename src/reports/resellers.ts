import type { Access, AccessEntry } from "../access/access.js";
import type { People, Person } from "../access/people.js";
import { tiersOf } from "../catalog/catalog.js";
import type { OrderLedger } from "../orders/ledger.js";
import { heldRefs, statementLines, type StatementLine } from "../orders/statement.js";
import type { Movement, Wallet, Wallets } from "../orders/wallet.js";
import type { Shop } from "../shop/shop.js";

/** What the shop owes its resellers: their saldo and what is held for orders in doubt. */
export interface Owed {
  saldo: number;
  held: number;
  total: number;
}

/** A reseller as the back office lists them: name, tier, money, and where the right comes from. */
export interface ResellerRow {
  userId: number;
  /** Their name and @username as last seen in the chat, when known. */
  name?: string;
  username?: string;
  /** Their price tier; empty for someone who is no longer a reseller (money left with the shop). */
  tier: string;
  saldo: number;
  held: number;
  /** Where the right comes from: RESELLER_IDS, an admin's /allow in the chat, or none any more. */
  source: "env" | "chat" | "none";
}

export interface ResellerList {
  resellers: ResellerRow[];
  totals: Owed;
  /** The catalogue's price tiers, sorted. */
  tiers: string[];
}

/** A page of a reseller's statement, newest first: one line per order (orders/statement.ts). */
export interface StatementPage {
  reseller: ResellerRow;
  movements: StatementLine[];
  page: number;
  total: number;
  pageSize: number;
}

/** A reseller's saldo and their newest statement lines (the chat's /saldo). */
export interface RecentStatement {
  reseller: ResellerRow;
  lines: StatementLine[];
}

export interface ResellerReportsDeps {
  ledger: Pick<OrderLedger, "getMany">;
  wallets: Pick<Wallets, "get" | "all" | "totals" | "statement" | "statementPage">;
  access: Pick<Access, "list">;
  people: Pick<People, "get">;
  shop: Pick<Shop, "catalog">;
}

export function resellerRow(
  userId: number,
  wallet: Wallet | undefined,
  entry: AccessEntry | undefined,
  person?: Person,
): ResellerRow {
  return {
    userId,
    ...(person === undefined ? {} : { name: person.name }),
    ...(person?.username === undefined ? {} : { username: person.username }),
    tier: entry?.tier ?? "",
    saldo: wallet?.saldo ?? 0,
    held: wallet?.held ?? 0,
    source: entry?.role !== "reseller" ? "none" : entry.source === "chat" ? "chat" : "env",
  };
}

export function createResellerReports(deps: ResellerReportsDeps) {
  const { wallets, access, people } = deps;

  /** The readable lines of some movements: each held order's state says whether it is spent yet. */
  async function lines(movements: Parameters<typeof statementLines>[0]): Promise<StatementLine[]> {
    const orders = await deps.ledger.getMany(heldRefs(movements));
    const states = new Map(orders.map((o) => [o.refId, o.state]));
    return statementLines(movements, (ref) => states.get(ref));
  }

  /** The newest movements (oldest first) that make a reseller's `last` newest lines: see recent. */
  async function newestWithLines(userId: number, last: number): Promise<Movement[]> {
    for (let read = last; ; read *= 4) {
      const movements = await wallets.statement(userId, read);
      let from = movements.length;
      let found = 0;
      while (from > 0 && found < last) if (movements[--from]!.kind !== "spend") found += 1;
      if (found >= last || movements.length < read) return movements.slice(from);
    }
  }

  /** The reseller (or former one, with money left) and their access entry, named. */
  async function row(userId: number, wallet?: Wallet): Promise<{ row: ResellerRow; entry?: AccessEntry }> {
    const [entry, known, named] = await Promise.all([
      access.list().then((list) => list.find((e) => e.userId === userId)),
      wallet ?? wallets.get(userId),
      people.get([userId]),
    ]);
    return { row: resellerRow(userId, known, entry, named.get(userId)), ...(entry === undefined ? {} : { entry }) };
  }

  return {
    async owed(): Promise<Owed> {
      const { saldo, held } = await wallets.totals();
      return { saldo, held, total: saldo + held };
    },

    /** Resellers, and whoever still has money with the shop after losing the right, with the totals owed. */
    async list(): Promise<ResellerList> {
      const [entries, all, totals, catalog] = await Promise.all([
        access.list(),
        wallets.all(),
        wallets.totals(),
        deps.shop.catalog(),
      ]);
      const byId = new Map(all.map((w) => [w.userId, w]));
      const resellers = entries.filter((e) => e.role === "reseller");
      const listed = new Set(resellers.map((e) => e.userId));
      const unlisted = all.filter((w) => !listed.has(w.userId));
      const named = await people.get([...listed, ...unlisted.map((w) => w.userId)]);
      return {
        resellers: [
          ...resellers.map((e) => resellerRow(e.userId, byId.get(e.userId), e, named.get(e.userId))),
          ...unlisted.map((w) => resellerRow(w.userId, w, undefined, named.get(w.userId))),
        ],
        totals: { ...totals, total: totals.saldo + totals.held },
        tiers: [...tiersOf(catalog)].sort(),
      };
    },

    /**
     * A page of a reseller's statement, newest first; undefined for someone who is not a reseller
     * and never had a movement.
     */
    async statementPage(userId: number, page: number, pageSize: number): Promise<StatementPage | undefined> {
      const [{ row: reseller, entry }, statement] = await Promise.all([
        row(userId),
        wallets.statementPage(userId, page, pageSize),
      ]);
      if (entry?.role !== "reseller" && statement.total === 0) return undefined;
      return { reseller, movements: await lines(statement.movements), page, total: statement.total, pageSize };
    },

    /**
     * A reseller's saldo and their `last` newest statement lines, oldest first. An order's spend
     * makes no line of its own (statementLines), so the newest `last` movements may hold fewer
     * lines, or none (spends of orders held earlier, e.g. unknowns an admin settled): more
     * movements are read, each time in one read, until there are `last` lines or no more movements.
     */
    async recent(userId: number, last: number): Promise<RecentStatement> {
      const [{ row: reseller }, movements] = await Promise.all([row(userId), newestWithLines(userId, last)]);
      return { reseller, lines: await lines(movements) };
    },
  };
}

export type ResellerReports = ReturnType<typeof createResellerReports>;
