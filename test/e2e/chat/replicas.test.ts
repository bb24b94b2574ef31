import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FEATURES } from "../../../src/bot/all-features.js";
import { defineFeature } from "../../../src/bot/feature.js";
import { createUserPrefs } from "../../../src/bot/user-prefs.js";
import { createLease } from "../../../src/storage/leases.js";
import { StaleStateError } from "../../../src/storage/storage-adapter.js";
import { createStorage, type Storage } from "../../../src/storage/storage.js";
import { createUpdateStream } from "../../../src/updates/update-stream.js";
import { freePort, REDIS_URL } from "../../helpers/redis.js";
import { postToWebhook } from "../../helpers/webhook.js";
import { ADMIN, staffWorld, type World } from "../world.js";

const post = async (port: number, body: string, secret?: string) =>
  (await postToWebhook(`http://127.0.0.1:${port}/tg/hook`, body, secret)).status;

describe("several processes on one Redis (apps in this process, each with its own connections)", () => {
  let world: World;
  const opened: Storage[] = [];
  beforeEach(async () => (world = await staffWorld()));
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    await world.cleanup();
  });

  async function storage(): Promise<Storage & { kind: "redis" }> {
    const s = await createStorage({ redisUrl: REDIS_URL, prefix: world.prefix });
    if (s.kind !== "redis") throw new Error("redis expected");
    opened.push(s);
    return s;
  }

  const webhookEnv = (port: number) => ({
    WEBHOOK_URL: "https://bot.example.com/tg/hook",
    PORT: String(port),
  });

  it("when the run before this one was killed holding the upgrade, poller and background-work leases (ten minutes each), then this one takes them at once: it starts, polls and answers", async () => {
    const killed = await createStorage({ redisUrl: REDIS_URL, prefix: world.prefix, owner: "killed-run" });
    if (killed.kind !== "redis") throw new Error("redis expected");
    for (const name of ["upgrade", "poller", "maintenance"])
      expect(await createLease(killed, name, { ttlMs: 10 * 60_000 }).acquire()).toBe(true);
    // Killed in the middle of the ledger's upgrade: its connection closes at once, its leases stay.
    killed.redis.destroy();

    const bot = await world.run();
    world.fake.sendText(ADMIN, "/help");
    await world.waitText(ADMIN, /How to order/);
    const s = await storage();
    const owner = bot.app!.owner;
    // The upgrade was finished by this run and its lease given back; the others are this run's now.
    expect(await s.redis.get(`${world.prefix}lease:upgrade`)).toBeNull();
    expect(await s.redis.get(`${world.prefix}lease:poller`)).toMatch(new RegExp(`^${owner}:`));
    await world.fake.waitFor(() => /runs the shared background work now/.test(bot.output()));
    expect(await s.redis.get(`${world.prefix}lease:maintenance`)).toMatch(new RegExp(`^${owner}:`));
    for (const name of ["upgrade", "poller", "maintenance"])
      expect(bot.output()).toContain(`"what":"lease ${name}","from":"killed-run"`);
  });

  it("when two processes start in webhook mode without WEBHOOK_SECRET, then the webhook is registered once and both answer its secret", async () => {
    const ports = [await freePort(), await freePort()];
    await world.run(webhookEnv(ports[0]!));
    await world.run(webhookEnv(ports[1]!));
    const registrations = world.fake.calls.filter((c) => c.method === "setWebhook");
    expect(registrations).toHaveLength(1);
    const secret = String(registrations[0]!.payload.secret_token);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const start = world.fake.sendText(ADMIN, "/start");
    expect(await post(ports[0]!, JSON.stringify(start), "another-secret")).toBe(401);
    expect(await post(ports[1]!, JSON.stringify(start), secret)).toBe(200);
    // Telegram posts it again (the first answer was lost on the way): the other process takes it, once.
    expect(await post(ports[0]!, JSON.stringify(start), secret)).toBe(200);
    await world.waitText(ADMIN, /Hi Admin/);
    const help = world.fake.sendText(ADMIN, "/help");
    expect(await post(ports[0]!, JSON.stringify(help), secret)).toBe(200);
    await world.waitText(ADMIN, /How to order/);
    expect(world.fake.messagesTo(ADMIN.id).filter((m) => /Hi Admin/.test(m.text))).toHaveLength(1);
  });

  it("when a POST has a wrong secret, is not an update, or is 10 MB, then it is refused before anything reaches Redis", async () => {
    const port = await freePort();
    await world.run({ ...webhookEnv(port), WEBHOOK_SECRET: "hook-secret_123" });
    const update = JSON.stringify(world.fake.sendText(ADMIN, "/start"));
    expect(await post(port, update, "wrong")).toBe(401);
    expect(await post(port, update)).toBe(401);
    expect(await post(port, "not json", "hook-secret_123")).toBe(400);
    expect(await post(port, JSON.stringify({ update_id: "7" }), "hook-secret_123")).toBe(400);
    expect(await post(port, JSON.stringify({ update_id: -1 }), "hook-secret_123")).toBe(400);
    const huge = JSON.stringify({ update_id: 99, message: { text: "x".repeat(10 * 1024 * 1024) } });
    expect(await post(port, huge, "hook-secret_123")).toBe(413);
    const s = await storage();
    const stream = createUpdateStream(s.redis, world.prefix);
    expect(await stream.backlog()).toEqual({ length: 0, pending: 0 });
    expect(await stream.status(1)).toBeUndefined();
    expect(await stream.status(99)).toBeUndefined();
    expect(world.fake.messagesTo(ADMIN.id)).toHaveLength(0);
  });

  it("when a user changes their language in one process, then another process that just read it speaks the new one at once", async () => {
    const [a, b] = [await storage(), await storage()];
    // A cache far longer than the test: only the change's message can make it right.
    const prefsA = createUserPrefs(a, () => undefined, { cacheMs: 120_000 });
    const prefsB = createUserPrefs(b, () => undefined, { cacheMs: 120_000 });
    try {
      // Each process listens for changes (a read starts it); from then on, reads are kept.
      for (const p of [prefsA, prefsB]) {
        await p.languageFor(ADMIN.id, "en");
        while (!p.listening()) await new Promise((r) => setTimeout(r, 10));
      }
      expect(await prefsA.languageFor(ADMIN.id, "en")).toBe("en");
      expect(await prefsB.languageFor(ADMIN.id, "en")).toBe("en");
      await prefsB.setLanguage(ADMIN.id, "id");
      const started = performance.now();
      while ((await prefsA.languageFor(ADMIN.id, "en")) !== "id") {
        expect(performance.now() - started).toBeLessThan(20_000);
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(await prefsB.languageFor(ADMIN.id, "en")).toBe("id");
    } finally {
      await prefsA.close();
      await prefsB.close();
    }
  });

  it("when an update's dialogue state was changed by another process meanwhile, then the update is handled again, and the user is not told of an error", async () => {
    let attempts = 0;
    // What the revisioned dialogue storage throws when another process wrote the state after this
    // one read it (test/storage shows when): here on the first attempt, as a race would.
    const racy = defineFeature({
      name: "racy",
      needs: [],
      commands: [{ name: "racy" }],
      setup(at) {
        at("anyone").command("racy", async (ctx) => {
          if (attempts++ === 0) throw new StaleStateError("changed by another process since it was read");
          await ctx.reply("racy handled");
        });
      },
    });
    const port = await freePort();
    await world.run(
      { ...webhookEnv(port), WEBHOOK_SECRET: "hook-secret_123" },
      { features: [...FEATURES, racy], replicas: { claimIdleMs: 100, claimEveryMs: 20 } },
    );
    expect(await post(port, JSON.stringify(world.fake.sendText(ADMIN, "/racy")), "hook-secret_123")).toBe(200);
    await world.waitText(ADMIN, /racy handled/);
    expect(attempts).toBe(2);
    expect(world.fake.messagesTo(ADMIN.id).map((m) => m.text)).toEqual(["racy handled"]);
  });
});
