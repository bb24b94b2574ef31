import { Api } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { createLease } from "../../src/storage/leases.js";
import { createLiveness } from "../../src/storage/liveness.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { createPoller, type Poller } from "../../src/updates/poller.js";
import { createUpdateStream, type UpdateStream } from "../../src/updates/update-stream.js";
import { createFakeBotApi, type FakeBotApi } from "../e2e/fake-bot-api.js";
import { deleteByPrefix, REDIS_URL, uniquePrefix } from "../helpers/redis.js";

const USER = { id: 4242, first_name: "Rina", language_code: "id" };

describe("long polling among processes: one poller under a lease, the offset stored with each batch", () => {
  let fake: FakeBotApi;
  let prefix: string;
  const opened: Storage[] = [];
  const pollers: Poller[] = [];

  beforeEach(async () => {
    fake = createFakeBotApi({ maxPollSeconds: 1 });
    await fake.start();
    prefix = uniquePrefix("poller");
  });
  afterEach(async () => {
    for (const p of pollers.splice(0)) await p.stop();
    for (const s of opened.splice(0)) await s.close();
    await fake.stop();
    await deleteByPrefix(prefix);
  });

  /**
   * A process's poller: its own Redis connection (destroying it is the process's death, as Redis
   * sees it). `named`: its connection carries its name, and it tells live processes from gone ones.
   */
  async function poller(name: string, roles: string[], leaseMs = 600, named = false) {
    const storage = await createStorage({ redisUrl: REDIS_URL, prefix, ...(named ? { owner: name } : {}) });
    if (storage.kind !== "redis") throw new Error("redis expected");
    opened.push(storage);
    const stream = createUpdateStream(storage.redis, prefix);
    const p = createPoller({
      api: new Api(fake.token, { apiRoot: fake.url }),
      stream,
      lease: createLease(storage, "poller", {
        ttlMs: leaseMs,
        owner: name,
        ...(named ? { liveness: createLiveness(storage, createLogger("silent")) } : {}),
      }),
      retryMs: 30,
      allowedUpdates: ["message"],
      logger: createLogger("silent"),
      timeoutS: 1,
      onRole: (role) => roles.push(`${name} ${role}`),
    });
    pollers.push(p);
    p.start();
    return { p, redis: storage.redis, stream };
  }

  async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
    const started = performance.now();
    while (!(await check())) {
      if (performance.now() - started > 20_000) throw new Error(`never happened: ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it("when the poller dies with a batch it could not store, then a standby takes over from the stored offset and every update is stored once", async () => {
    const roles: string[] = [];
    const a = await poller("a", roles);
    await until(() => roles.includes("a polling"), "a polls");
    const b = await poller("b", roles);
    const stream: UpdateStream = b.stream;

    for (const text of ["1", "2", "3"]) fake.sendText(USER, text);
    await until(async () => (await stream.offset()) === 4, "the first batch stored with its offset");
    expect(roles).toEqual(["a polling"]);

    // a loses Redis for good (as if killed): it may still fetch updates, but it can neither store
    // them nor confirm them to Telegram (it asks for the next batch only after storing).
    a.redis.destroy();
    for (const text of ["4", "5"]) fake.sendText(USER, text);
    await until(() => roles.includes("b polling"), "b takes over once a's lease ran out");
    await until(async () => (await stream.offset()) === 6, "the second batch stored by b");

    const backlog = await stream.backlog();
    expect(backlog.length).toBe(5);
    for (let id = 1; id <= 5; id++) expect(await stream.status(id)).toBe("queued");
    expect(fake.pendingUpdates()).toBe(0);
    expect(fake.confirmedOffset()).toBe(6);
  });

  it("when the poller is killed holding a lease good for a minute, then a standby polls at once, from the stored offset", async () => {
    const roles: string[] = [];
    const a = await poller("a", roles, 60_000, true);
    await until(() => roles.includes("a polling"), "a polls");
    const b = await poller("b", roles, 60_000, true);
    fake.sendText(USER, "1");
    await until(async () => (await b.stream.offset()) === 2, "stored by a");
    // Killed: its connection closes at once and it asks Telegram for nothing more; its lease stays in Redis.
    a.redis.destroy();
    await a.p.stop();
    expect(Number(await b.redis.pTTL(`${prefix}lease:poller`))).toBeGreaterThan(30_000);
    fake.sendText(USER, "2");
    await until(() => roles.includes("b polling"), "b takes over without waiting out the minute");
    await until(async () => (await b.stream.offset()) === 3, "stored by b");
    expect(await b.stream.status(2)).toBe("queued");
    await until(() => fake.pendingUpdates() === 0, "confirmed to Telegram by b's next getUpdates");
  });

  it("when a poller stops, then it gives the lease back and a standby polls at once, without waiting for it to run out", async () => {
    const roles: string[] = [];
    // A lease of a minute: b could not take it by waiting it out within the test.
    const a = await poller("a", roles, 60_000);
    await until(() => roles.includes("a polling"), "a polls");
    const b = await poller("b", roles, 60_000);
    fake.sendText(USER, "1");
    await until(async () => (await b.stream.offset()) === 2, "stored by a");
    await a.p.stop();
    fake.sendText(USER, "2");
    await until(async () => (await b.stream.offset()) === 3, "stored by b");
    expect(roles).toEqual(["a polling", "b polling"]);
    expect(await b.stream.status(2)).toBe("queued");
  });
});
