import { createHash } from "node:crypto";
import { createClient } from "@keyv/redis";
import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPartnerStore, type PartnerStore } from "../../src/access/partners.js";
import { createPartnerCallbacks } from "../../src/partners/callbacks-owed.js";
import { createDeliveries } from "../../src/partners/deliveries.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import type { FakeUser, SentMessage } from "../e2e/fake-bot-api.js";
import { ADMIN, createWorld, SECRET, STAFF, type World } from "../e2e/world.js";
import { signInitData } from "../helpers/init-data.js";
import { freePort, REDIS_URL } from "../helpers/redis.js";

const RESELLER: FakeUser = { id: 5005, first_name: "Budi", language_code: "id" };
let requests = 0;
/** A fresh request id, as the page makes one for each action. */
const rid = () => `key-request-${++requests}`;

describe("the Mini App's Resellers page: API access on and off, the callback, and a new key only in the admin's chat", () => {
  let world: World;
  let base: string;
  let storage: Storage;
  let partners: PartnerStore;
  /** Every answer body: none may hold a key. */
  const bodies: string[] = [];

  beforeEach(async () => {
    world = await createWorld();
    const port = await freePort();
    Object.assign(world.env, {
      ADMIN_IDS: String(ADMIN.id),
      ALLOWED_USER_IDS: String(STAFF.id),
      RESELLER_IDS: String(RESELLER.id),
      PORT: String(port),
      WEBAPP_URL: "https://shop.example.com",
    });
    base = `http://127.0.0.1:${port}/app/api`;
    bodies.length = 0;
    storage = await createStorage({ redisUrl: REDIS_URL, prefix: world.prefix });
    partners = createPartnerStore(storage);
  });
  afterEach(async () => {
    for (const text of bodies) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toMatch(/secret/i);
    }
    await storage.close();
    await world.cleanup();
  });

  async function call(path: string, opts: { user?: FakeUser; method?: string; body?: unknown } = {}) {
    const user = opts.user ?? ADMIN;
    const res = await request(`${base}${path}`, {
      method: (opts.method ?? (opts.body === undefined ? "GET" : "POST")) as "GET",
      headers: {
        authorization: `tma ${signInitData(user, world.fake.token)}`,
        ...(opts.body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
    });
    const text = await res.body.text();
    bodies.push(text);
    return { status: res.statusCode, json: JSON.parse(text), text };
  }

  /** The key's hash as the store keeps it (the key itself is kept nowhere). */
  async function keptKey(userId: number): Promise<string | undefined> {
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    try {
      return (await redis.hGet(`${world.prefix}h2h:p:${userId}`, "kh")) ?? undefined;
    } finally {
      await redis.close();
    }
  }

  const keyMessages = () => world.fake.messagesTo(ADMIN.id).filter((m) => /secret_key/.test(m.text));
  const credentials = (m: SentMessage) => ({
    mitraId: /mitra_id: <code>(P[0-9A-Z]{10})<\/code>/.exec(m.text)![1]!,
    secretKey: /secret_key: <code>([A-Za-z0-9_-]{40,})<\/code>/.exec(m.text)![1]!,
  });

  it("when an admin turns access on, then the key goes to their private chat with protect_content, the answer holds none, and a repeated request makes no second key", async () => {
    const bot = await world.run();
    const listed = await call("/admin/resellers");
    expect(listed.json.apiEnabled).toBe(false);
    expect(listed.json.resellers.find((r: any) => r.userId === RESELLER.id)).toMatchObject({ api: null });

    const requestId = rid();
    const on = await call(`/admin/resellers/${RESELLER.id}/api/on`, { body: { requestId } });
    expect(on.status).toBe(200);
    expect(on.json).toEqual({
      api: { mitraId: expect.stringMatching(/^P[0-9A-Z]{10}$/), on: true, callbackUrl: null },
      repeated: false,
    });
    const sent = await world.waitText(ADMIN, /secret_key/);
    const { mitraId, secretKey } = credentials(sent);
    expect(mitraId).toBe(on.json.api.mitraId);
    expect(createHash("sha256").update(secretKey).digest("hex")).toBe(await keptKey(RESELLER.id));
    expect(sent.text).toContain("https://shop.example.com/v1/transaction/partner?destination=");
    expect(sent.text).toMatch(/shown only this once/);
    const sendCall = world.fake.calls.find(
      (c) => c.method === "sendMessage" && String(c.payload.text).includes(secretKey),
    );
    expect([true, "true"]).toContain(sendCall?.payload.protect_content);
    expect(Number(sendCall?.payload.chat_id)).toBe(ADMIN.id);
    expect(await partners.authenticate(mitraId, secretKey)).toMatchObject({ userId: RESELLER.id });

    // The same request again (a lost answer, sent again): nothing more is made or sent.
    const again = await call(`/admin/resellers/${RESELLER.id}/api/on`, { body: { requestId } });
    expect(again.json).toMatchObject({ repeated: true, api: { mitraId, on: true } });
    await world.fake.waitForIdle();
    expect(keyMessages()).toHaveLength(1);
    expect(await partners.authenticate(mitraId, secretKey)).toBeDefined();

    const detail = await call(`/admin/resellers/${RESELLER.id}`);
    expect(detail.json).toMatchObject({ api: { mitraId, on: true, callbackUrl: null }, apiEnabled: false });
    expect((await call("/admin/resellers")).json.resellers[0].api).toEqual({ mitraId, on: true, callbackUrl: null });
    for (const body of bodies) expect(body).not.toContain(secretKey);
    expect(bot.output()).not.toContain(secretKey);
  });

  it("when an admin sets, refuses and removes a callback and turns access off, then the chat's rules apply and the key stops working", async () => {
    await world.run();
    // No key yet: nothing to set a callback on or turn off.
    expect(
      (
        await call(`/admin/resellers/${RESELLER.id}/api/callback`, {
          method: "PUT",
          body: { url: "https://x.example/cb" },
        })
      ).status,
    ).toBe(404);
    expect((await call(`/admin/resellers/${RESELLER.id}/api/off`, { method: "POST" })).status).toBe(404);

    await call(`/admin/resellers/${RESELLER.id}/api/on`, { body: { requestId: rid() } });
    const { mitraId, secretKey } = credentials(await world.waitText(ADMIN, /secret_key/));
    const put = (url: string | null) =>
      call(`/admin/resellers/${RESELLER.id}/api/callback`, { method: "PUT", body: { url } });
    const set = await put("https://reseller.example.com/cb?x=1");
    expect(set.json).toEqual({ api: { mitraId, on: true, callbackUrl: "https://reseller.example.com/cb?x=1" } });
    for (const bad of [
      "ftp://reseller.example.com/cb",
      "reseller.example.com",
      `https://e.example/${"a".repeat(500)}`,
    ]) {
      const refused = await put(bad);
      expect(refused.status).toBe(422);
      expect(refused.json.issues).toEqual([{ path: "url", message: expect.stringMatching(/http:\/\/ or https:\/\//) }]);
    }
    // An address inside a private network, or a name without one: refused, and the page is told which.
    expect(await put("http://192.168.1.20/cb")).toMatchObject({
      status: 422,
      json: { error: "invalid", why: "private" },
    });
    expect(await put("https://nowhere.example/cb")).toMatchObject({
      status: 422,
      json: { error: "invalid", why: "unresolved", issues: [{ path: "url" }] },
    });
    expect((await partners.get(RESELLER.id))?.callbackUrl).toBe("https://reseller.example.com/cb?x=1");
    expect((await put(null)).json.api.callbackUrl).toBeNull();
    expect((await partners.get(RESELLER.id))?.callbackUrl).toBeUndefined();

    const off = await call(`/admin/resellers/${RESELLER.id}/api/off`, { method: "POST" });
    expect(off.json).toEqual({ api: { mitraId, on: false, callbackUrl: null } });
    expect(await partners.authenticate(mitraId, secretKey)).toBeUndefined();
  });

  it("when the target is no reseller, the caller no admin, or the key cannot reach the admin's chat, then nothing leaks and the page is told", async () => {
    const bot = await world.run();
    const stranger = await call("/admin/resellers/7777/api/on", { body: { requestId: rid() } });
    expect(stranger).toMatchObject({ status: 404, json: { error: "not-reseller" } });
    expect((await call(`/admin/resellers/${STAFF.id}/api/on`, { body: { requestId: rid() } })).status).toBe(404);
    for (const user of [RESELLER, STAFF])
      expect((await call(`/admin/resellers/${RESELLER.id}/api/on`, { user, body: { requestId: rid() } })).status).toBe(
        403,
      );
    expect(await partners.list()).toEqual([]);

    // The admin never opened the bot's chat (Telegram refuses): the page hears so, no log line has the key.
    world.fake.blockChat(ADMIN.id);
    const lost = await call(`/admin/resellers/${RESELLER.id}/api/on`, { body: { requestId: rid() } });
    expect(lost).toMatchObject({ status: 502, json: { error: "not-sent" } });
    const kept = await keptKey(RESELLER.id);
    expect(kept).toBeDefined();
    await world.fake.waitFor(() => /a new API key was not sent/.test(bot.output()));
    // The key that was made, as the refused message held it.
    const made = world.fake.calls
      .map((c) => /secret_key: <code>([A-Za-z0-9_-]{40,})<\/code>/.exec(String(c.payload.text))?.[1])
      .find((key) => key !== undefined && createHash("sha256").update(key).digest("hex") === kept);
    expect(made).toBeDefined();
    expect(bot.output()).not.toContain(made!);
    // It was only ever tried in the admin's own chat.
    const tried = world.fake.calls.filter((c) => JSON.stringify(c.payload).includes(made!));
    expect(tried.map((c) => [c.method, Number(c.payload.chat_id)])).toEqual([["sendMessage", ADMIN.id]]);
  });

  it("when an admin looks at a partner's last callbacks and sends one again, then it is owed again now; another partner's order, or a non-admin, is refused", async () => {
    await world.run();
    const deliveries = createDeliveries(storage);
    const at = Date.parse("2026-11-20T08:00:00.000Z");
    await deliveries.record(RESELLER.id, {
      eventId: "ev_000000000000000000000001",
      refId: "budi-1",
      shopRefId: "TGAAAA1",
      at,
      attempt: 1,
      status: 0,
      ok: false,
      error: "timeout",
    });
    await deliveries.record(RESELLER.id, {
      eventId: "ev_000000000000000000000001",
      refId: "budi-1",
      shopRefId: "TGAAAA1",
      at: at + 60_000,
      attempt: 2,
      status: 200,
      ok: true,
    });
    await deliveries.record(STAFF.id, {
      eventId: "ev_000000000000000000000002",
      refId: "other-1",
      shopRefId: "TGBBBB1",
      at,
      attempt: 1,
      status: 500,
      ok: false,
    });
    const listed = await call(`/admin/resellers/${RESELLER.id}/api/deliveries`);
    expect(listed).toMatchObject({ status: 200 });
    expect(listed.json.deliveries).toEqual([
      {
        at: "2026-11-20T08:01:00.000Z",
        refId: "budi-1",
        shopRefId: "TGAAAA1",
        attempt: 2,
        status: 200,
        ok: true,
        error: null,
        test: false,
      },
      {
        at: "2026-11-20T08:00:00.000Z",
        refId: "budi-1",
        shopRefId: "TGAAAA1",
        attempt: 1,
        status: 0,
        ok: false,
        error: "timeout",
        test: false,
      },
    ]);

    const owed = createPartnerCallbacks(storage);
    const before = Date.now();
    const again = await call(`/admin/resellers/${RESELLER.id}/api/deliveries/TGAAAA1/again`, { method: "POST" });
    expect(again).toMatchObject({ status: 200, json: { owed: "TGAAAA1" } });
    const due = await owed.due(Date.now(), 10);
    expect(due).toMatchObject([{ refId: "TGAAAA1", attempts: 0 }]);
    expect(due[0]!.dueAt).toBeGreaterThanOrEqual(before);

    // Only an order this partner was sent a callback of: another's is not found, and nothing more is owed.
    for (const path of [
      `/admin/resellers/${RESELLER.id}/api/deliveries/TGBBBB1/again`,
      `/admin/resellers/${RESELLER.id}/api/deliveries/TGZZZZ9/again`,
    ])
      expect((await call(path, { method: "POST" })).status).toBe(404);
    for (const user of [RESELLER, STAFF]) {
      expect((await call(`/admin/resellers/${RESELLER.id}/api/deliveries`, { user })).status).toBe(403);
      expect(
        (await call(`/admin/resellers/${RESELLER.id}/api/deliveries/TGAAAA1/again`, { user, method: "POST" })).status,
      ).toBe(403);
    }
    expect((await owed.due(Date.now() + 3_600_000, 10)).map((o) => o.refId)).toEqual(["TGAAAA1"]);
  });

  it("when H2H_ENABLED is true, then the page is told the API is on", async () => {
    await world.run({ H2H_ENABLED: "true" });
    expect((await call("/admin/resellers")).json.apiEnabled).toBe(true);
    await call(`/admin/resellers/${RESELLER.id}/api/on`, { body: { requestId: rid() } });
    const sent = await world.waitText(ADMIN, /secret_key/);
    expect(sent.text).not.toMatch(/H2H_ENABLED/);
  });
});
