import { afterEach, describe, expect, it } from "vitest";
import { createRecentOrders } from "../../src/storage/recent-orders.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { redisStorage } from "../helpers/redis.js";

const SARI = { userId: 1002, userName: "Sari" };
const BUDI = { userId: 5005, userName: "Budi" };

describe.each(["redis", "memory"] as const)("the latest order per product and player (%s)", (kind) => {
  let cleanup: () => Promise<void> = async () => undefined;
  afterEach(() => cleanup());

  async function store(): Promise<Storage> {
    if (kind === "memory") {
      const storage = await createStorage({ redisUrl: undefined, prefix: "recent-orders:" });
      cleanup = () => storage.close();
      return storage;
    }
    const made = await redisStorage("recent-orders");
    cleanup = made.cleanup;
    return made.storage;
  }

  it("when orders are noted, then the latest is anyone's for the shop and each user's own for them, per product and player", async () => {
    const recent = createRecentOrders(await store());
    await recent.note(
      { ...BUDI, refId: "TG1", at: "2026-11-28T07:00:00Z", productCode: "ml86", playerId: "123(4)" },
      60_000,
    );
    await recent.note(
      { ...SARI, refId: "TG2", at: "2026-11-28T07:01:00Z", productCode: "ML86", playerId: "123(4)" },
      60_000,
    );
    expect(await recent.latest("ML86", "123(4)")).toEqual({ ...SARI, refId: "TG2", at: "2026-11-28T07:01:00Z" });
    expect(await recent.latest("ml86", "123(4)", BUDI.userId)).toEqual({
      ...BUDI,
      refId: "TG1",
      at: "2026-11-28T07:00:00Z",
    });
    // Another product, another player, a user who ordered nothing: none.
    expect(await recent.latest("ML172", "123(4)")).toBeUndefined();
    expect(await recent.latest("ML86", "123(5)")).toBeUndefined();
    expect(await recent.latest("ML86", "123(4)", 9999)).toBeUndefined();
  });
});
