import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStorage } from "../../src/storage/storage.js";
import { createUpdateStream } from "../../src/updates/update-stream.js";
import { freePort, ownRedis } from "../helpers/redis.js";
import type { SentMessage } from "./fake-bot-api.js";
import { createRoundRobin, type RoundRobin } from "./round-robin.js";
import { ADMIN, button, STAFF, staffWorld, type RunningBot, type World } from "./world.js";

/** The done marks of the world's update stream, refreshed in the background (for waits). */
async function streamOf(world: World) {
  const storage = await createStorage({ redisUrl: world.env.REDIS_URL!, prefix: world.env.REDIS_KEY_PREFIX! });
  if (storage.kind !== "redis") throw new Error("redis expected");
  const stream = createUpdateStream(storage.redis, world.env.REDIS_KEY_PREFIX!);
  const done = new Set<number>();
  const timer = setInterval(() => {
    void (async () => {
      for (let id = 1; id <= 200; id++) if ((await stream.status(id)) === "done") done.add(id);
    })().catch(() => undefined);
  }, 100);
  world.onCleanup(async () => {
    clearInterval(timer);
    await storage.close();
  });
  return { stream, done };
}

/** What /healthz of a process says: its HTTP status and body, or undefined when it does not answer. */
async function health(
  port: number,
): Promise<{ status: number; body: { status: string; serving: string } } | undefined> {
  try {
    const r = await request(`http://127.0.0.1:${port}/healthz`);
    return { status: r.statusCode, body: (await r.body.json()) as { status: string; serving: string } };
  } catch {
    return undefined;
  }
}

/** The summaries of `/order ML86 <player>` a user got, by player id, in the order they arrived. */
const summaryPlayers = (messages: SentMessage[]) =>
  messages
    .filter((m) => /Please check your order|Periksa pesanan Anda/.test(m.text))
    .map((m) => /(?:Player id|ID pemain): <code>([^<]+)<\/code>/.exec(m.text)?.[1] ?? "?");

describe("several bot processes on one Redis (`node dist/main.js` ×3): nothing lost, nothing doubled", () => {
  let world: World;
  let rr: RoundRobin | undefined;
  beforeEach(async () => (world = await staffWorld()));
  afterEach(async () => {
    await world.fake.stopDelivering();
    await rr?.stop();
    rr = undefined;
    await world.cleanup();
  });

  /** `n` processes in webhook mode behind a round-robin balancer, Telegram (the fake) posting to it. */
  async function webhookReplicas(n: number, extra: Record<string, string> = {}) {
    const ports = await Promise.all(Array.from({ length: n }, () => freePort()));
    rr = createRoundRobin(ports.map((p) => `http://127.0.0.1:${p}`));
    await rr.start();
    const bots: RunningBot[] = [];
    for (const port of ports) {
      bots.push(
        await world.runProcess({
          // The URL Telegram is given; the fake posts through the balancer instead.
          WEBHOOK_URL: "http://bot.example.com:8443/tg/hook",
          PORT: String(port),
          LOG_LEVEL: "info",
          ...extra,
        }),
      );
    }
    world.fake.deliverWebhooks({ via: `${rr.url}/tg/hook`, retryMs: 100 });
    return { ports, bots };
  }

  it("when three processes share the webhook, then it is registered once with one secret, every process takes POSTs, and an order goes through once", async () => {
    const { ports } = await webhookReplicas(3);
    expect(world.fake.calls.filter((c) => c.method === "setWebhook")).toHaveLength(1);
    const secret = world.fake.webhookSecret();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);

    await world.order(ADMIN, "ML86", "12345678(1234)");
    await world.waitText(ADMIN, /Top-up successful/);
    world.fake.sendText(STAFF, "/help");
    await world.waitText(STAFF, /Cara memesan/);
    expect(world.sandbox.calls).toHaveLength(1);
    // Every POST was accepted by whichever process the balancer chose: they all answer one secret.
    expect(world.fake.webhookPosts.every((p) => p.status === 200)).toBe(true);
    expect([...rr!.counts.values()].filter((n) => n > 0)).toHaveLength(3);
    for (const port of ports)
      expect(await health(port)).toEqual({ status: 200, body: { status: "ok", redis: "up", serving: "ready" } });
  });

  it("when the process handling a Confirm is killed after Telegram got its answer, then another process takes the member's updates, in order, and the provider is called once", async () => {
    const slow = await world.slowSandbox(2500);
    const { bots } = await webhookReplicas(3, { TOPUP_BASE_URL: slow.url });
    // Staff order (in Bahasa Indonesia), so that the admin's notice shows when recovery settled it.
    const summary = await world.summaryFor(STAFF, "ML86", "12345678(1234)");
    const refId = /Ref pesanan: <code>([A-Z0-9]+)<\/code>/.exec(summary.text)![1]!;
    world.fake.tapButton(STAFF, summary, button(summary, /^c:/));
    await world.fake.waitFor(() => slow.calls.length === 1);
    // The member's next update, acknowledged while the Confirm is at the provider: it waits in the lane.
    const help = world.fake.sendText(STAFF, "/help");
    await world.fake.waitFor(() =>
      world.fake.webhookPosts.some((p) => p.updateId === help.update_id && p.status === 200),
    );
    const handler = bots.find((b) => b.output().includes(`"refId":"${refId}","state":"submitting"`))!;
    expect(handler).toBeDefined();
    await handler.kill("SIGKILL");

    // Another process takes the lane from the dead one at once: the Confirm again (the order is
    // in flight: its result is unknown, told as a restart, never sent again), then /help.
    const notSummary = () => world.fake.messagesTo(STAFF.id).filter((m) => m.message_id !== summary.message_id);
    await world.fake.waitFor(() => notSummary().some((m) => /Hasil belum diketahui/.test(m.text)));
    await world.waitText(STAFF, /Cara memesan/);
    const texts = notSummary().map((m) => m.text);
    expect(texts.findIndex((t) => /Hasil belum diketahui/.test(t))).toBeLessThan(
      texts.findIndex((t) => /Cara memesan/.test(t)),
    );
    expect(texts.some((t) => /sedang diproses/.test(t))).toBe(false);
    expect(texts.filter((t) => /Cara memesan/.test(t))).toHaveLength(1);
    // Once its call must be over the order is recorded unknown and the admins get it to check; the
    // member, who already read that its result is unknown, is not told it a second time.
    await world.fake.waitForMessage(ADMIN.id, (m) => /Order with unknown result/.test(m.text), 30_000);
    const unknown = notSummary().filter((m) => /belum diketahui/.test(m.text));
    expect(unknown).toHaveLength(1);
    expect(unknown[0]!.text).toContain("bot dimulai ulang saat pesanan sedang dikirim");
    expect(slow.calls).toHaveLength(1);
  });

  it("when processes are restarted one after the other (SIGTERM) while a member orders, then each exits 0 and every update is answered once, in order", async () => {
    const { ports, bots } = await webhookReplicas(3);
    const sent: string[] = [];
    let restarting = true;
    const traffic = (async () => {
      for (let i = 0; restarting || i < 12; i++) {
        const player = `${String(10_000_000 + i)}(1234)`;
        sent.push(player);
        world.fake.sendText(STAFF, `/order ML86 ${player}`);
        await world.fake.waitFor(() => summaryPlayers(world.fake.messagesTo(STAFF.id)).length > i, 30_000);
      }
    })();
    for (let i = 0; i < 3; i++) {
      // Let some updates go to the process first, then stop it in the middle of the traffic.
      const before = summaryPlayers(world.fake.messagesTo(STAFF.id)).length;
      await world.fake.waitFor(() => summaryPlayers(world.fake.messagesTo(STAFF.id)).length >= before + 2, 30_000);
      const old = bots[i]!.process!;
      old.child.kill("SIGTERM");
      expect(await old.exited).toBe(0);
      expect(old.output()).toMatch(/"msg":"stopped"/);
      bots[i] = await world.runProcess({
        WEBHOOK_URL: "http://bot.example.com:8443/tg/hook",
        PORT: String(ports[i]),
        LOG_LEVEL: "info",
      });
    }
    restarting = false;
    await traffic;
    expect(summaryPlayers(world.fake.messagesTo(STAFF.id))).toEqual(sent);
    // Restarts within ten minutes of a registration do not register the webhook again.
    expect(world.fake.calls.filter((c) => c.method === "setWebhook")).toHaveLength(1);
  });

  it("when two processes are alive, then the standby that keeps asking never takes the poller's turn, and an order goes through once", async () => {
    // A Redis of the test's own: its command counts are these two processes' alone.
    const redis = await ownRedis({ appendOnly: false });
    world.onCleanup(() => redis.stop());
    const ports = [await freePort(), await freePort()];
    const bots: RunningBot[] = [];
    for (const port of ports)
      bots.push(await world.runProcess({ REDIS_URL: redis.url, PORT: String(port), LOG_LEVEL: "info" }));
    const states = async () => Promise.all(ports.map(async (p) => (await health(p))?.body.serving ?? "gone"));
    await world.fake.waitFor(() => world.fake.isPolling(), 20_000);
    let seen = await states();
    for (let i = 0; i < 100 && [...seen].sort().join() !== "ready,standby"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await states();
    }
    expect([...seen].sort()).toEqual(["ready", "standby"]);

    const storage = await createStorage({ redisUrl: redis.url, prefix: world.prefix });
    if (storage.kind !== "redis") throw new Error("redis expected");
    world.onCleanup(() => storage.close());
    const lease = await storage.redis.get(`${world.prefix}lease:poller`);
    const askedAlive = async () =>
      Number(/cmdstat_client\|list:calls=(\d+)/.exec(await storage.redis.info("commandstats"))?.[1] ?? 0);
    const before = await askedAlive();

    await world.order(ADMIN, "ML86", "12345678(1234)");
    await world.waitText(ADMIN, /Top-up successful/);
    // The standby asks for the lease every second and, finding it held, whether its holder is alive.
    for (let i = 0; (await askedAlive()) < before + 5; i++) {
      expect(i).toBeLessThan(400);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await storage.redis.get(`${world.prefix}lease:poller`)).toBe(lease);
    expect(await states()).toEqual(seen);
    for (const bot of bots) expect(bot.output()).not.toMatch(/taken over at once/);
    expect(world.sandbox.calls).toHaveLength(1);
  });

  it("when the polling process is killed, then one standby polls from where it stopped and no update is lost or handled twice", async () => {
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    const bots: RunningBot[] = [];
    for (const port of ports) bots.push(await world.runProcess({ PORT: String(port), LOG_LEVEL: "info" }));
    const states = async () => Promise.all(ports.map(async (p) => (await health(p))?.body.serving ?? "gone"));
    await world.fake.waitFor(() => world.fake.isPolling(), 20_000);
    let seen: string[] = [];
    for (let i = 0; i < 100 && seen.filter((s) => s === "ready").length !== 1; i++) {
      seen = await states();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen.filter((s) => s === "ready")).toHaveLength(1);
    expect(seen.filter((s) => s === "standby")).toHaveLength(2);

    const sent: string[] = [];
    const order = (i: number) => {
      const player = `${String(20_000_000 + i)}(1234)`;
      sent.push(player);
      world.fake.sendText(STAFF, `/order ML86 ${player}`);
    };
    for (let i = 0; i < 5; i++) order(i);
    await world.fake.waitFor(() => summaryPlayers(world.fake.messagesTo(STAFF.id)).length === 5);
    // Killed between two updates: an update a process was killed in the middle of is handled again
    // by another (its answer may then come twice; the ledger keeps orders and money once).
    const stream = await streamOf(world);
    await world.fake.waitFor(() => stream.done.size >= 5);
    const poller = ports.findIndex((_, i) => seen[i] === "ready");
    await bots[poller]!.kill("SIGKILL");
    // Sent while nobody polls: they wait at Telegram for the standby that takes over.
    for (let i = 5; i < 10; i++) order(i);

    await world.fake.waitFor(() => summaryPlayers(world.fake.messagesTo(STAFF.id)).length === 10, 30_000);
    const after = await states();
    expect(after[poller]).toBe("gone");
    expect(after.filter((s) => s === "ready")).toHaveLength(1);
    expect(summaryPlayers(world.fake.messagesTo(STAFF.id))).toEqual(sent);
  });
});
