import { afterEach, describe, expect, it } from "vitest";
import { createDeliveries, DELIVERIES_KEPT, type Delivery } from "../../src/partners/deliveries.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { redisStorage } from "../helpers/redis.js";

const attempt = (n: number): Delivery => ({
  eventId: `ev_${String(n).padStart(24, "0")}`,
  refId: `inv-${n}`,
  shopRefId: `TG${n}`,
  at: 1_000 * n,
  attempt: 1,
  status: n % 2 === 0 ? 200 : 0,
  ok: n % 2 === 0,
  ...(n % 2 === 0 ? {} : { error: "timeout" }),
});

describe("each partner's last callback attempts", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  async function engines(): Promise<Array<[string, Storage]>> {
    const redis = await redisStorage("deliveries");
    cleanups.push(redis.cleanup);
    const memory = await createStorage({ redisUrl: undefined, prefix: "deliveries:" });
    cleanups.push(() => memory.close());
    return [
      ["redis", redis.storage],
      ["memory", memory],
    ];
  }

  it("when more attempts than are kept were made, then the newest are listed first, each partner apart", async () => {
    for (const [name, storage] of await engines()) {
      const deliveries = createDeliveries(storage);
      for (let n = 1; n <= DELIVERIES_KEPT + 5; n++) await deliveries.record(7001, attempt(n));
      await deliveries.record(7002, attempt(99));
      const kept = await deliveries.last(7001);
      expect([name, kept.length]).toEqual([name, DELIVERIES_KEPT]);
      expect(kept[0]).toEqual(attempt(DELIVERIES_KEPT + 5));
      expect(kept.at(-1)).toEqual(attempt(6));
      expect(await deliveries.last(7002)).toEqual([attempt(99)]);
      expect(await deliveries.last(7003)).toEqual([]);
      // Another reader of the same store sees the same.
      expect(await createDeliveries(storage).last(7002)).toEqual([attempt(99)]);
    }
  });
});
