import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dayRange } from "../../src/calendar.js";
import { createLedger } from "../../src/ledger/create-ledger.js";
import { createMemoryLedger } from "../../src/ledger/memory.js";
import type { Ledger } from "../../src/orders/ledger.js";
import { paidFromSaldo } from "../../src/orders/order.js";
import { createReconcile, type MutationItem, type ReconcilePage } from "../../src/partners/reconcile.js";
import { trxIdOf } from "../../src/server/h2h/answers.js";
import { seedShop, type Seeded } from "../ledger/ledger-views.js";
import type { FullLedgerFactory } from "../ledger/wallets.contract.js";
import { redisStorage } from "../helpers/redis.js";

const TZ = "Asia/Jakarta";
const DAY = 24 * 60 * 60 * 1000;
const START = Date.parse("2026-03-08T01:00:00Z");
const PAGE = 7;
/** What each movement of a statement is in the list (a spend is not there: it moved no saldo). */
const LINE_OF: Record<string, string> = {
  deposit: "deposit",
  correction: "adjustment",
  hold: "order",
  release: "refund",
};

/** Every page of a day's list, read as a partner reads them: until `pages`. */
async function allPages<T>(read: (page: number) => Promise<ReconcilePage<T>>): Promise<T[]> {
  const first = await read(1);
  const items = [...first.items];
  for (let page = 2; page <= first.pages; page++) {
    const next = await read(page);
    expect(next.total).toBe(first.total);
    items.push(...next.items);
  }
  expect(items).toHaveLength(first.total);
  expect((await read(first.pages + 1)).items).toEqual([]);
  return items;
}

/**
 * The reconcile lists against each ledger: a reseller's orders of a day are the ledger's orders of
 * that day paid from their saldo, and the movements of a day are their statement's, whichever
 * form (hot, or packed by compaction) the orders and the statement are in.
 */
function describeReconcile(name: string, factory: FullLedgerFactory, packsStatements: boolean) {
  describe(`a partner's books of a day: ${name}`, () => {
    let ledger: Ledger;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ ledger, cleanup } = await factory()));
    afterEach(() => cleanup());

    const reconcileOf = () =>
      createReconcile({
        ledger: ledger.orders,
        wallets: ledger.wallets,
        timeZone: TZ,
        trxIdOf: (o) => trxIdOf(o, "TG"),
        pageSize: PAGE,
      });

    /** Each reseller's days as the two lists give them. */
    async function books(seeded: Seeded) {
      const reconcile = reconcileOf();
      const out: Record<string, { transactions: unknown[]; mutations: MutationItem[] }> = {};
      for (const userId of seeded.resellers)
        for (const day of seeded.days) {
          out[`${userId} ${day}`] = {
            transactions: await allPages((p) => reconcile.transactions({ userId }, day, p)),
            mutations: await allPages((p) => reconcile.mutations({ userId }, day, p)),
          };
        }
      return out;
    }

    it("when a reseller's days are read page by page, then they are the ledger's orders and statement of each day, before and after compaction", async () => {
      const seeded = await seedShop(ledger, { start: START, count: 1000, leaveInFlight: false });
      expect(seeded.days.length).toBeGreaterThan(2);
      const before = await books(seeded);
      let movements = 0;
      for (const userId of seeded.resellers) {
        const statement = (await ledger.wallets.statementPage(userId, 0, 100_000)).movements.reverse();
        let saldo = 0;
        for (const day of seeded.days) {
          const range = dayRange(day, TZ)!;
          const orders = (await ledger.orders.submittedBetween(range.fromMs, range.toMs)).filter(
            (o) => o.userId === userId && paidFromSaldo(o),
          );
          const { transactions, mutations } = before[`${userId} ${day}`]!;
          expect(transactions).toEqual(
            orders.map((o) =>
              expect.objectContaining({
                ref_id: "",
                trx_id: trxIdOf(o, "TG"),
                state: o.state === "success" || o.state === "failed" ? o.state : "pending",
                price: o.price,
                time: o.submittedAt,
              }),
            ),
          );
          const moved = statement.filter((m) => {
            const t = Date.parse(m.at);
            return t >= range.fromMs && t <= range.toMs && m.kind !== "spend";
          });
          expect(mutations.map((m) => [m.kind, m.amount, m.balance_after])).toEqual(
            moved.map((m) => [LINE_OF[m.kind], m.amount, m.saldo]),
          );
          for (const m of mutations) {
            saldo += m.amount;
            expect(m.balance_after).toBe(saldo);
            if (m.kind === "deposit" || m.kind === "adjustment") expect(m.note).toMatch(/^DP\w+ transfer BCA$/);
            else expect(m.trx_id).toMatch(/^TG-\d{6}-\d+$/);
          }
          movements += mutations.length;
        }
        expect(saldo).toBe((await ledger.wallets.get(userId)).saldo);
      }
      expect(movements).toBeGreaterThan(4 * PAGE);
      // A test key's books are empty, whatever its reseller's real ones hold.
      const busy = seeded.days[1]!;
      expect(before[`7001 ${busy}`]!.transactions.length).toBeGreaterThan(0);
      const empty = { date: busy, page: 1, pages: 0, total: 0, items: [] };
      expect(await reconcileOf().transactions({ userId: 7001, testKey: true }, busy, 1)).toEqual(empty);
      expect(await reconcileOf().mutations({ userId: 7001, testKey: true }, busy, 1)).toEqual(empty);

      // Compacted (orders packed, statements packed but for their newest 20): the same books.
      const pass = await ledger.compact({ before: new Date(START + 60 * DAY), now: new Date(START + 60 * DAY) });
      expect(pass.orders).toBeGreaterThan(0);
      // The memory ledger keeps its statements as they are.
      if (packsStatements) expect(pass.movements).toBeGreaterThanOrEqual(2 * 256);
      expect(await books(seeded)).toEqual(before);
    });
  });
}

describeReconcile(
  "Redis (Lua scripts on the real Redis)",
  async () => {
    const { storage, cleanup } = await redisStorage("reconcile");
    return { ledger: createLedger(storage, { timeZone: TZ }), cleanup };
  },
  true,
);
describeReconcile(
  "memory",
  async () => ({ ledger: createMemoryLedger({ timeZone: TZ }), cleanup: async () => {} }),
  false,
);
