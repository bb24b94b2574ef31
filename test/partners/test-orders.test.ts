import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/catalog.js";
import { createTestOrders, type TestOrders } from "../../src/partners/test-orders.js";
import { createPartnerCallbacks, type PartnerCallbacks } from "../../src/partners/callbacks-owed.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { keysOf, redisStorage } from "../helpers/redis.js";

const BUDI = 5005;
const DEWI = 5006;
const buyer = { role: "reseller" as const, tier: "reseller" };
const PLAYER = "12345678(1234)";

for (const engine of ["Redis", "memory"] as const) {
  describe(`test keys' orders: ${engine}`, () => {
    let storage: Storage;
    let prefix: string | undefined;
    let cleanup: () => Promise<void>;
    let tests: () => TestOrders;
    let callbacks: PartnerCallbacks;
    let clock: number;

    beforeEach(async () => {
      if (engine === "Redis") ({ storage, prefix, cleanup } = await redisStorage("test-orders"));
      else {
        storage = await createStorage({ redisUrl: undefined, prefix: "m:" });
        prefix = undefined;
        cleanup = () => storage.close();
      }
      const loaded = await loadCatalog("catalog.json");
      if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
      const catalog = loaded.catalog;
      clock = Date.parse("2026-11-26T03:00:00Z");
      callbacks = createPartnerCallbacks(storage);
      // Each call is another process on the same store.
      tests = () =>
        createTestOrders({
          storage,
          shop: { state: async () => ({ catalog }) as never },
          callbacks,
          bodyOf: (order, state) => ({ ref: order.partnerRef, state }),
          now: () => new Date(clock),
        });
    });
    afterEach(() => cleanup());

    const ask = (userId: number, partnerRef: string, destination = PLAYER) =>
      tests().order({ userId, buyer, partnerRef, itemCode: "ML86", destination });

    it("when one ref id is sent ten times at once, then one test order is made, and another partner's same ref id is theirs", async () => {
      const answers = await Promise.all(Array.from({ length: 10 }, () => ask(BUDI, "SAME-1")));
      expect(answers.filter((a) => a.kind === "order")).toHaveLength(1);
      expect(answers.filter((a) => a.kind === "used")).toHaveLength(9);
      expect((await ask(DEWI, "SAME-1")).kind).toBe("order");
      const mine = await tests().status(BUDI, "SAME-1");
      expect(mine).toMatchObject({ kind: "order", state: "success", order: { userId: BUDI, productCode: "ML86" } });
      if (prefix !== undefined) {
        // Only its own keys: no order, saldo or ledger key was written.
        const written = await keysOf(prefix, "*");
        expect(written.every((k) => k.startsWith("h2h:t:"))).toBe(true);
        expect(written).toHaveLength(4);
      }
    });

    it("when a PEND order is made, then its callback is owed when it ends and callbackOf has its body from then on", async () => {
      const made = await ask(BUDI, "P-1", `PEND${PLAYER}`);
      if (made.kind !== "order") throw new Error(made.kind);
      expect(made.state).toBe("pending");
      expect(made.order.refId).toMatch(/^TEST/);
      expect(await callbacks.due(clock + 5_000, 10)).toEqual([
        expect.objectContaining({ refId: made.order.refId, dueAt: clock + 5_000 }),
      ]);
      expect(await tests().callbackOf(made.order.refId)).toBeUndefined();
      clock += 5_000;
      expect(await tests().callbackOf(made.order.refId)).toEqual({
        userId: BUDI,
        body: { ref: "P-1", state: "success" },
      });
      const failed = await ask(BUDI, "F-1", `FAIL${PLAYER}`);
      expect(failed).toMatchObject({ kind: "order", state: "failed" });
      // Final at once: no callback owed for it.
      expect((await callbacks.due(clock + 60_000, 10)).map((o) => o.refId)).toEqual([made.order.refId]);
    });
  });
}
