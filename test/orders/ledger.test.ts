import { createMemoryLedger } from "../../src/orders/ledger-memory.js";
import { createLedger } from "../../src/orders/create-ledger.js";
import { dayIn } from "../../src/orders/report.js";
import { describe, expect, it } from "vitest";
import { draft } from "./fixtures.js";
import { redisStorage } from "../helpers/redis.js";
import { describeFiguresContract } from "./figures.contract.js";
import { describeLedgerContract } from "./ledger.contract.js";
import { describeWalletContract } from "./wallets.contract.js";

const onRedis = async () => {
  const { storage, cleanup } = await redisStorage("ledger");
  return { ledger: createLedger(storage), cleanup };
};
const inMemory = async () => ({ ledger: createMemoryLedger(), cleanup: async () => {} });

describeLedgerContract("Redis (Lua scripts on the real Redis)", async () => {
  const { ledger, cleanup } = await onRedis();
  return { ledger: ledger.orders, cleanup };
});
describeLedgerContract("memory", async () => ({ ledger: createMemoryLedger().orders, cleanup: async () => {} }));

describeWalletContract("Redis (Lua scripts on the real Redis)", onRedis);
describeWalletContract("memory", inMemory);

describeFiguresContract("Redis (Lua scripts on the real Redis)", async (timeZone) => {
  const { storage, cleanup } = await redisStorage("figures");
  return { ledger: createLedger(storage, { timeZone }), cleanup };
});
describeFiguresContract("memory", async (timeZone) => ({
  ledger: createMemoryLedger({ dayOf: (iso) => dayIn(timeZone, new Date(iso)) }),
  cleanup: async () => {},
}));

describe("the ledger brought up from the layout before day figures (Redis)", () => {
  it("when a Redis holds orders and deposits without day figures, then the upgrade builds them once, equal to a recount", async () => {
    const { storage, prefix, cleanup } = await redisStorage("upgrade");
    try {
      const ledger = createLedger(storage, { timeZone: "Asia/Jakarta" });
      const at = "2026-03-10T03:00:00.000Z";
      const success = draft({ price: 20000 });
      const unknown = draft({ price: 20000, userId: 502, chatId: 502 });
      for (const o of [success, unknown]) {
        await ledger.orders.saveDraft(o, 60_000);
        await ledger.orders.claim(o.refId, { userId: o.userId, at });
      }
      await ledger.orders.finish(success, { state: "success", at, result: { sn: "1" } });
      await ledger.orders.finish(unknown, { state: "unknown", at, result: { reason: "timeout" } });
      const expected = await ledger.orders.dayFigures("2026-03-10");
      // As an older bot left it: no day on the orders, no figures, no version.
      if (storage.kind !== "redis") throw new Error("redis expected");
      for (const o of [success, unknown]) await storage.redis.hDel(`${prefix}o:${o.refId}`, "dy");
      await storage.redis.del([
        `${prefix}day:2026-03-10`,
        `${prefix}dayd:2026-03-10`,
        `${prefix}ledger-version`,
        `${prefix}orders-by-player:${success.playerId}`,
      ]);
      expect((await ledger.orders.dayFigures("2026-03-10")).total).toBe(0);

      expect(await ledger.upgrade()).toEqual({ orders: 2, deposits: 0 });
      expect(await ledger.orders.dayFigures("2026-03-10")).toEqual(expected);
      const byPlayer = await ledger.orders.findOrders({ playerId: success.playerId, page: 0, pageSize: 10 });
      expect(byPlayer.orders.map((o) => o.refId).sort()).toEqual([success.refId, unknown.refId].sort());
      // Once: a second start finds nothing to do, and a settlement now moves the figures.
      expect(await ledger.upgrade()).toBeUndefined();
      await ledger.orders.settle(unknown, { state: "success", at, adminId: 1, result: { sn: "2" } });
      expect((await ledger.orders.dayFigures("2026-03-10")).byState).toEqual({
        success: 2,
        failed: 0,
        unknown: 0,
        submitting: 0,
      });
    } finally {
      await cleanup();
    }
  });
});
