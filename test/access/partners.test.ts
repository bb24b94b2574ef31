import { createHash } from "node:crypto";
import { createClient } from "@keyv/redis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createPartnerStore,
  hmacHex,
  MAX_CALLBACK_URL,
  parseCallbackUrl,
  type PartnerStore,
} from "../../src/access/partners.js";
import { createStorage } from "../../src/storage/storage.js";
import { keysOf, REDIS_URL, redisStorage } from "../helpers/redis.js";

const BUDI = 5005;
const DEWI = 5006;
const NOW = Date.parse("2026-11-26T03:00:00Z");

const implementations: Array<
  [string, () => Promise<{ store: () => PartnerStore; prefix?: string; cleanup: () => Promise<void> }>]
> = [
  [
    "Redis",
    async () => {
      const { storage, prefix, cleanup } = await redisStorage("partners");
      // Each call is another process on the same Redis: what one writes, the others read.
      return { store: () => createPartnerStore(storage), prefix, cleanup };
    },
  ],
  [
    "memory",
    async () => {
      const storage = await createStorage({ redisUrl: undefined, prefix: "m:" });
      return { store: () => createPartnerStore(storage), cleanup: () => storage.close() };
    },
  ],
];

for (const [name, make] of implementations) {
  describe(`resellers' API keys: ${name}`, () => {
    let store: () => PartnerStore;
    let prefix: string | undefined;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ store, prefix, cleanup } = await make()));
    afterEach(() => cleanup());

    it("when a key is issued, then it authenticates (in another process too), and a wrong key, another mitra_id or an empty one do not", async () => {
      const first = await store().issue(BUDI, NOW);
      expect(first.rotated).toBe(false);
      expect(first.mitraId).toMatch(/^P[0-9A-Z]{10}$/);
      expect(first.secretKey.length).toBeGreaterThanOrEqual(40);
      const other = store();
      expect(await other.authenticate(first.mitraId, first.secretKey)).toMatchObject({
        userId: BUDI,
        mitraId: first.mitraId,
        on: true,
        keyAt: NOW,
      });
      expect(await other.authenticate(first.mitraId, `${first.secretKey}x`)).toBeUndefined();
      expect(await other.authenticate(first.mitraId, "")).toBeUndefined();
      expect(await other.authenticate("P0000000000", first.secretKey)).toBeUndefined();
      expect(await other.authenticate("not a mitra id", first.secretKey)).toBeUndefined();
      expect(await other.authenticate("", "")).toBeUndefined();
      // What the store hands out about a partner never holds the key.
      expect(JSON.stringify([await other.get(BUDI), await other.list()])).not.toContain(first.secretKey);
    });

    it("when a key is rotated, then the mitra_id stays, the old key is refused and the new one works", async () => {
      const first = await store().issue(BUDI, NOW);
      const second = await store().issue(BUDI, NOW + 1000);
      expect(second).toMatchObject({ mitraId: first.mitraId, rotated: true });
      expect(second.secretKey).not.toBe(first.secretKey);
      expect(await store().authenticate(first.mitraId, first.secretKey)).toBeUndefined();
      expect(await store().authenticate(second.mitraId, second.secretKey)).toMatchObject({ userId: BUDI });
      expect((await store().get(BUDI))?.keyAt).toBe(NOW + 1000);
    });

    it("when access is turned off, then the key is refused; issued again, a new key works and the old one does not", async () => {
      expect(await store().turnOff(BUDI)).toBe(false); // never had a key
      const first = await store().issue(BUDI, NOW);
      expect(await store().turnOff(BUDI)).toBe(true);
      expect(await store().authenticate(first.mitraId, first.secretKey)).toBeUndefined();
      expect(await store().get(BUDI)).toMatchObject({ on: false, mitraId: first.mitraId });
      const again = await store().issue(BUDI, NOW + 5000);
      expect(again).toMatchObject({ mitraId: first.mitraId, rotated: true });
      expect(await store().authenticate(first.mitraId, first.secretKey)).toBeUndefined();
      expect(await store().authenticate(again.mitraId, again.secretKey)).toMatchObject({ on: true });
    });

    it("when a callback is set and removed, then the partner shows it, a key-less reseller gets none, and a callback is signed with the key", async () => {
      expect(await store().setCallback(BUDI, "https://example.com/cb")).toBe(false);
      expect(await store().get(BUDI)).toBeUndefined();
      const key = await store().issue(BUDI, NOW);
      expect(await store().setCallback(BUDI, "https://example.com/cb")).toBe(true);
      expect((await store().get(BUDI))?.callbackUrl).toBe("https://example.com/cb");
      // Rotating keeps the callback.
      await store().issue(BUDI, NOW + 1);
      expect((await store().get(BUDI))?.callbackUrl).toBe("https://example.com/cb");
      expect(await store().setCallback(BUDI, undefined)).toBe(true);
      expect((await store().get(BUDI))?.callbackUrl).toBeUndefined();
      const latest = await store().issue(BUDI, NOW + 2);
      expect(await store().sign(BUDI, '{"a":1}')).toBe(hmacHex(latest.signingSecret, '{"a":1}'));
      expect(await store().sign(BUDI, '{"a":1}')).not.toBe(hmacHex(key.signingSecret, '{"a":1}'));
      // The signing secret is a secret of its own, not the key.
      expect(latest.signingSecret).not.toBe(latest.secretKey);
      expect(await store().sign(BUDI, '{"a":1}')).not.toBe(hmacHex(latest.secretKey, '{"a":1}'));
      expect(await store().sign(DEWI, "{}")).toBeUndefined();
    });

    it("when two resellers have keys, then each key is their own and the list has both, by user id", async () => {
      const dewi = await store().issue(DEWI, NOW);
      const budi = await store().issue(BUDI, NOW);
      expect(dewi.mitraId).not.toBe(budi.mitraId);
      expect(await store().authenticate(budi.mitraId, dewi.secretKey)).toBeUndefined();
      expect(await store().authenticate(dewi.mitraId, dewi.secretKey)).toMatchObject({ userId: DEWI });
      expect((await store().list()).map((p) => p.userId)).toEqual([BUDI, DEWI]);
      if (prefix !== undefined) expect((await keysOf(prefix, "h2h:*")).length).toBe(5);
    });

    it("when a test key is made, then it has its own T mitra_id, secret, signing secret and callback, names the same partner as a test, and access off refuses it too", async () => {
      const test = await store().issueTest(BUDI, NOW);
      expect(test).toMatchObject({ rotated: false, test: true });
      expect(test.mitraId).toMatch(/^T[0-9A-Z]{10}$/);
      // A reseller with a test key only: a partner, on, without a key of their own yet.
      const onlyTest = await store().get(BUDI);
      expect(onlyTest).toMatchObject({ userId: BUDI, on: true, keyAt: 0, test: { mitraId: test.mitraId } });
      expect(await store().authenticate(test.mitraId, test.secretKey)).toMatchObject({ userId: BUDI, testKey: true });
      expect(await store().authenticate(onlyTest!.mitraId, test.secretKey)).toBeUndefined();
      expect(await store().sign(BUDI, "{}")).toBeUndefined();

      // The first key keeps the mitra_id made with the test key, and is a first key, not a rotation.
      const live = await store().issue(BUDI, NOW + 1);
      expect(live).toMatchObject({ mitraId: onlyTest!.mitraId, rotated: false, test: false });
      expect(await store().authenticate(live.mitraId, live.secretKey)).toMatchObject({ testKey: false });
      expect(await store().authenticate(test.mitraId, live.secretKey)).toBeUndefined();
      expect(await store().authenticate(live.mitraId, test.secretKey)).toBeUndefined();
      expect(await store().authenticate(test.mitraId, test.secretKey)).toMatchObject({ testKey: true });

      expect(await store().sign(BUDI, "{}", true)).toBe(hmacHex(test.signingSecret, "{}"));
      expect(await store().sign(BUDI, "{}")).toBe(hmacHex(live.signingSecret, "{}"));
      expect(await store().setCallback(BUDI, "https://test.example/cb", true)).toBe(true);
      expect(await store().setCallback(BUDI, "https://live.example/cb")).toBe(true);
      expect(await store().get(BUDI)).toMatchObject({
        callbackUrl: "https://live.example/cb",
        test: { mitraId: test.mitraId, callbackUrl: "https://test.example/cb" },
      });
      expect(await store().setCallback(DEWI, "https://test.example/cb", true)).toBe(false);
      await store().issue(DEWI, NOW);
      expect(await store().setCallback(DEWI, "https://test.example/cb", true)).toBe(false);

      // Rotated: same T mitra_id, new secret and signing secret.
      const again = await store().issueTest(BUDI, NOW + 2);
      expect(again).toMatchObject({ mitraId: test.mitraId, rotated: true, test: true });
      expect(again.signingSecret).not.toBe(test.signingSecret);
      expect(await store().authenticate(test.mitraId, test.secretKey)).toBeUndefined();
      expect(await store().authenticate(again.mitraId, again.secretKey)).toMatchObject({ testKey: true });

      await store().turnOff(BUDI);
      expect(await store().authenticate(again.mitraId, again.secretKey)).toBeUndefined();
      expect(await store().authenticate(live.mitraId, live.secretKey)).toBeUndefined();
      expect(JSON.stringify([await store().get(BUDI), await store().list()])).not.toMatch(
        new RegExp([again.secretKey, again.signingSecret, live.secretKey, live.signingSecret].join("|")),
      );
    });
  });
}

describe("a callback URL as an admin types it (the chat and the Mini App read it alike)", () => {
  it("when it is an http or https address of at most 500 characters, then it is kept as URL writes it", () => {
    expect(parseCallbackUrl(" https://example.com/topup/callback?x=1 ")).toEqual({
      ok: true,
      url: "https://example.com/topup/callback?x=1",
    });
    expect(parseCallbackUrl("http://10.0.0.5:8080")).toEqual({ ok: true, url: "http://10.0.0.5:8080/" });
    expect(parseCallbackUrl("HTTPS://Example.COM/cb")).toEqual({ ok: true, url: "https://example.com/cb" });
    const longest = `https://example.com/${"a".repeat(MAX_CALLBACK_URL - 20)}`;
    expect(longest).toHaveLength(MAX_CALLBACK_URL);
    expect(parseCallbackUrl(longest)).toEqual({ ok: true, url: longest });
  });

  it("when it is anything else, then it is refused with the reason", () => {
    expect(parseCallbackUrl(`https://example.com/${"a".repeat(MAX_CALLBACK_URL)}`)).toEqual({
      ok: false,
      why: "too-long",
    });
    for (const typed of ["example.com/cb", "https:example.com", "http:///cb", "https://exa mple.com", "", "none?"])
      expect(parseCallbackUrl(typed)).toEqual({ ok: false, why: "not-url" });
    for (const typed of ["ftp://example.com/cb", "javascript:alert(1)", "file:///etc/passwd"])
      expect(parseCallbackUrl(typed)).toEqual({ ok: false, why: "not-http" });
  });
});

describe("resellers' API keys in Redis: kept only as a hash, and the keys of the time before hashes", () => {
  let made: Awaited<ReturnType<typeof redisStorage>>;
  let redis: ReturnType<typeof createClient>;
  beforeEach(async () => {
    made = await redisStorage("partners-hash");
    redis = createClient({ url: REDIS_URL });
    await redis.connect();
  });
  afterEach(async () => {
    await redis.close();
    await made.cleanup();
  });
  const record = (userId: number) => redis.hGetAll(`${made.prefix}h2h:p:${userId}`);

  it("when keys are made, then Redis holds the SHA-256 of each key and never the key itself", async () => {
    const store = createPartnerStore(made.storage);
    const live = await store.issue(BUDI, NOW);
    const test = await store.issueTest(BUDI, NOW);
    const h = await record(BUDI);
    expect(h.kh).toBe(createHash("sha256").update(live.secretKey).digest("hex"));
    expect(h.tkh).toBe(createHash("sha256").update(test.secretKey).digest("hex"));
    expect(h).toMatchObject({ ss: live.signingSecret, tss: test.signingSecret, m: live.mitraId, tm: test.mitraId });
    expect(h.k).toBeUndefined();
    expect(JSON.stringify(h)).not.toContain(live.secretKey);
    expect(JSON.stringify(h)).not.toContain(test.secretKey);
    expect(await redis.get(`${made.prefix}h2h:m:${test.mitraId}`)).toBe(String(BUDI));
  });

  it("when a record of the time before hashes is upgraded, then its key still authenticates, signs until the next rotation, and is kept in clear no more", async () => {
    const old = "old-clear-key-of-budi-0123456789abcdefghijklmnop";
    await redis.hSet(`${made.prefix}h2h:p:${BUDI}`, { m: "P0123456789", k: old, on: "1", at: String(NOW) });
    await redis.hSet(`${made.prefix}h2h:p:${DEWI}`, { m: "P0123456780", k: "dewi-old-key", on: "0", at: "1" });
    await redis.set(`${made.prefix}h2h:m:P0123456789`, String(BUDI));
    await redis.set(`${made.prefix}h2h:m:P0123456780`, String(DEWI));
    await redis.sAdd(`${made.prefix}h2h:ps`, [String(BUDI), String(DEWI)]);

    const store = createPartnerStore(made.storage);
    expect(await store.upgradeOldKeys()).toBe(2);
    expect(await store.upgradeOldKeys()).toBe(0);
    for (const [userId, key] of [
      [BUDI, old],
      [DEWI, "dewi-old-key"],
    ] as const) {
      const h = await record(userId);
      expect(h.k).toBeUndefined();
      expect(h).toMatchObject({ kh: createHash("sha256").update(key).digest("hex"), ss: key });
    }
    expect(await store.authenticate("P0123456789", old)).toMatchObject({ userId: BUDI, on: true, keyAt: NOW });
    expect(await store.authenticate("P0123456780", "dewi-old-key")).toBeUndefined(); // access stays off
    expect(await store.sign(BUDI, "{}")).toBe(hmacHex(old, "{}"));

    const rotated = await store.issue(BUDI, NOW + 1);
    expect(rotated).toMatchObject({ mitraId: "P0123456789", rotated: true });
    expect(await store.authenticate("P0123456789", old)).toBeUndefined();
    expect(await store.sign(BUDI, "{}")).toBe(hmacHex(rotated.signingSecret, "{}"));
    expect(JSON.stringify(await record(BUDI))).not.toContain(old);
  });

  it("when a record of the time before hashes is read before any upgrade, then the read rewrites it", async () => {
    const old = "read-before-upgrade-key";
    await redis.hSet(`${made.prefix}h2h:p:${BUDI}`, { m: "P0123456789", k: old, on: "1", at: String(NOW) });
    await redis.set(`${made.prefix}h2h:m:P0123456789`, String(BUDI));
    await redis.sAdd(`${made.prefix}h2h:ps`, String(BUDI));
    const store = createPartnerStore(made.storage);
    expect(await store.authenticate("P0123456789", old)).toMatchObject({ userId: BUDI, testKey: false });
    expect((await record(BUDI)).k).toBeUndefined();
    expect(await store.upgradeOldKeys()).toBe(0);
  });
});
