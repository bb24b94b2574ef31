import { dayIn } from "../../src/calendar.js";
import { createClient } from "@keyv/redis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLedger } from "../../src/ledger/create-ledger.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { ownRedis } from "../helpers/redis.js";
import { createRedisLedgerV2 } from "../ledger/fixtures/ledger-v2.js";
import { ledgerViews, seedShop, withHoursCounted } from "../ledger/ledger-views.js";
import { startBot, startBotProcess } from "./bot-process.js";
import { createWorld, type World } from "./world.js";

const TZ = "Asia/Jakarta";

describe("a Redis written by the bot before, upgraded by this one as it starts", () => {
  let world: World;
  let redis: Awaited<ReturnType<typeof ownRedis>>;
  let storage: Storage;
  beforeEach(async () => {
    world = await createWorld();
    redis = await ownRedis();
    storage = await createStorage({ redisUrl: redis.url, prefix: world.prefix });
  });
  afterEach(async () => {
    await world.cleanup();
    await storage.close();
    await redis.stop();
  });

  it("when the bot is killed (SIGKILL) in the middle of the upgrade, then the next start finishes it and every order, page, saldo and statement is as the old bot left it", async () => {
    if (storage.kind !== "redis") throw new Error("redis expected");
    const old = createRedisLedgerV2(storage.redis, world.prefix, (iso) => dayIn(TZ, new Date(iso)));
    await old.upgrade();
    // Nothing left in flight: the new bot would recover those at start (and rightly so).
    const seeded = await seedShop(old, {
      start: Date.parse("2026-02-01T01:00:00Z"),
      count: 2_000,
      stepMs: 90_000,
      leaveInFlight: false,
    });
    const before = await ledgerViews(old, seeded, { pageSize: 100 });
    const oldSet = `${world.prefix}orders-by-time`;
    const total = await storage.redis.zCard(oldSet);
    expect(total).toBe(seeded.refIds.length);

    const env = { ...world.env, REDIS_URL: redis.url, ADMIN_IDS: "1001" };
    const first = world.adopt(startBotProcess(env)).process!;
    // Once the upgrade is under way, writes stop (the bot's next step waits) and the bot is killed.
    const watcher = createClient({ url: redis.url });
    await watcher.connect();
    try {
      while ((await watcher.zCard(oldSet)) === total) if (first.child.exitCode !== null) break;
      await watcher.sendCommand(["CLIENT", "PAUSE", "30000", "WRITE"]);
      const left = await watcher.zCard(oldSet);
      await first.kill("SIGKILL");
      await watcher.sendCommand(["CLIENT", "UNPAUSE"]);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThan(total);
      expect(await watcher.get(`${world.prefix}ledger-version`)).toBe("2");
    } finally {
      await watcher.close();
    }

    const second = world.adopt(await startBot(env)).process!;
    expect(second.output()).toMatch(/ledger upgraded from layout 2 to 4: \d+ orders rewritten/);
    const ledger = createLedger(storage, { timeZone: TZ });
    const after = await ledgerViews(ledger, seeded, { pageSize: 100 });
    expect(after).toEqual(withHoursCounted(before));
    expect(await storage.redis.exists(oldSet)).toBe(0);
  }, 120_000);
});
