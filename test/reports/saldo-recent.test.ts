import { createDepositRequestStore } from "../../src/deposits/request-store.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAccess } from "../../src/access/access.js";
import { createPeople } from "../../src/access/people.js";
import { createUserList } from "../../src/access/user-list.js";
import { createLedger } from "../../src/ledger/create-ledger.js";
import type { Ledger } from "../../src/orders/ledger.js";
import type { OrderRecord } from "../../src/orders/order.js";
import { createReports, type Reports } from "../../src/reports/reports.js";
import { draft, TEST_CATALOG } from "../orders/fixtures.js";
import { writePastDeposit, writePastOrder } from "../helpers/ledger-history.js";
import { redisStorage } from "../helpers/redis.js";

const TZ = "Asia/Jakarta";
const NOW = new Date("2026-03-12T08:00:00Z");
const BUDI = { userId: 3001, chatId: 3001, userName: "Budi", role: "reseller" as const, tier: "reseller" };

describe("a reseller's /saldo, the newest lines of their statement", () => {
  let cleanup: () => Promise<void>;
  let ledger: Ledger;
  let reports: Reports;

  beforeEach(async () => {
    let storage;
    ({ storage, cleanup } = await redisStorage("saldo-recent"));
    ledger = createLedger(storage, { timeZone: TZ });
    reports = createReports({
      ledger: ledger.orders,
      partnerUsers: async () => [],
      wallets: ledger.wallets,
      requests: createDepositRequestStore(storage),
      access: createAccess({
        users: createUserList(storage),
        adminIds: [1],
        allowedUserIds: [],
        resellerIds: [BUDI.userId],
        now: () => NOW,
      }),
      people: createPeople(storage),
      shop: { state: async () => ({ catalog: TEST_CATALOG }) as never, catalog: async () => TEST_CATALOG },
      timeZone: TZ,
      refIdPrefix: "TG",
      now: () => NOW,
    });
    await writePastDeposit(
      ledger.wallets,
      {
        id: "DPR3001",
        resellerId: BUDI.userId,
        amount: 1_000_000,
        note: "",
        adminId: 1,
        chatId: 1,
        createdAt: "2026-03-01T01:00:00Z",
      },
      { at: "2026-03-01T01:00:00Z" },
    );
  });
  afterEach(() => cleanup());

  it("when an admin settles a dozen orders whose result was unknown, then /saldo still shows the last ten lines, not 'no movements'", async () => {
    // Twelve orders held one after the other, their result unknown (a provider outage)…
    const orders: OrderRecord[] = [];
    for (let i = 0; i < 12; i++) {
      const at = new Date(Date.parse("2026-03-11T03:00:00Z") + i * 60_000).toISOString();
      const order = draft({ ...BUDI, price: 19_000, refId: `TGSR${String(i).padStart(4, "0")}`, createdAt: at });
      await writePastOrder(ledger.orders, {
        draft: order,
        submittedAt: at,
        outcome: { state: "unknown", at, result: { reason: "timeout" } },
      });
      orders.push(order);
    }
    // …then settled as carried out: each one's spend comes after every hold.
    for (const order of orders) {
      const settled = await ledger.orders.settle(order, {
        state: "success",
        at: "2026-03-11T09:00:00Z",
        adminId: 1,
        result: { sn: "S" },
      });
      expect(settled.kind).toBe("settled");
    }

    const recent = await reports.resellers.recent(BUDI.userId, 10);
    expect(recent.reseller.saldo).toBe(1_000_000 - 12 * 19_000);
    expect(recent.lines.map((l) => [l.kind, l.ref])).toEqual(orders.slice(2).map((o) => ["spent", o.refId]));
  });
});
