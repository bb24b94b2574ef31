import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAccess } from "../../src/orders/access.js";
import { createLowBalanceWatch } from "../../src/orders/low-balance.js";
import type { Store } from "../../src/storage/store.js";
import { redisStore } from "../helpers/redis.js";

describe("access list and low-balance mark on the real Redis", () => {
  let store: Store;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ store, cleanup } = await redisStore("access")));
  afterEach(() => cleanup());

  it("when an admin allows a user in one process, then another process lets them order at once", async () => {
    const one = createAccess({ store, adminIds: [1], allowedUserIds: [2] });
    const other = createAccess({ store, adminIds: [1], allowedUserIds: [2] });
    expect(await other.mayOrder(3)).toBe(false);
    expect(await one.allow(3, 1)).toBe("allowed");
    expect(await other.mayOrder(3)).toBe(true);
    expect(await one.allow(3, 1)).toBe("already");
    expect(await other.deny(3)).toBe("denied");
    expect(await one.mayOrder(3)).toBe(false);
  });

  it("when /deny names an env entry, then the env lists stay the floor", async () => {
    const access = createAccess({ store, adminIds: [1], allowedUserIds: [2] });
    expect(await access.deny(1)).toBe("is-admin");
    expect(await access.deny(2)).toBe("from-env");
    expect(await access.deny(9)).toBe("not-listed");
    expect(await access.mayOrder(1)).toBe(true);
    expect(await access.mayOrder(2)).toBe(true);
    await access.allow(5, 1);
    expect((await access.list()).map((e) => [e.userId, e.source, e.addedBy])).toEqual([
      [1, "admin", undefined],
      [2, "env", undefined],
      [5, "chat", 1],
    ]);
  });

  it("when balances go below, stay below, go above and below again, then two alerts are due", async () => {
    const watch = createLowBalanceWatch(store, 50_000);
    const due = [];
    for (const balance of [80_000, 40_000, 30_000, 60_000, 45_000]) due.push(await watch.crossedBelow(balance));
    expect(due).toEqual([false, true, false, false, true]);
  });

  it("when two sales cross below at the same moment, then only one alert is due", async () => {
    const watch = createLowBalanceWatch(store, 50_000);
    const due = await Promise.all([watch.crossedBelow(40_000), watch.crossedBelow(39_000), createLowBalanceWatch(store, 50_000).crossedBelow(38_000)]);
    expect(due.filter(Boolean)).toHaveLength(1);
  });
});
