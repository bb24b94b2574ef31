import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApiKeys, type ApiKeys } from "../../src/access/api-keys.js";
import { createPartnerStore, type PartnerStore } from "../../src/access/partners.js";
import { checkCallbackTarget, type LookupFn } from "../../src/partners/callback-target.js";
import { createOrigins } from "../../src/storage/origins.js";
import { redisStorage } from "../helpers/redis.js";

const BUDI = 5005;
const STAFF = 5006;

/** The names these tests use, each resolving to the address it says: no DNS is asked. */
const lookup: LookupFn = async (host) => {
  const known: Record<string, string[]> = {
    "x.example": ["203.0.113.10"],
    "t.example": ["203.0.113.12"],
    "intranet.example": ["10.1.2.3"],
    "split.example": ["203.0.113.11", "::ffff:127.0.0.1"],
  };
  const addresses = known[host];
  if (addresses === undefined) throw Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" });
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

describe("an admin's changes to a reseller's API access (the chat's /apikey and the app's page alike)", () => {
  let keys: ApiKeys;
  let partners: PartnerStore;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const made = await redisStorage("api-keys");
    cleanup = made.cleanup;
    partners = createPartnerStore(made.storage);
    const access = {
      buyerOf: async (userId: number) =>
        userId === BUDI ? { role: "reseller" as const, tier: "reseller" } : { role: "staff" as const },
    };
    keys = createApiKeys({
      partners,
      access,
      origins: createOrigins(made.storage),
      now: () => new Date(),
      checkTarget: (url) => checkCallbackTarget(url, { allowPrivate: false, lookup }),
    });
  });
  afterEach(() => cleanup());

  it("when a key is asked for a reseller, then it works; asked again by the same request, no second key is made", async () => {
    const first = await keys.issue(BUDI, "u:1");
    expect(first.kind).toBe("issued");
    if (first.kind !== "issued") return;
    expect(await keys.issue(BUDI, "u:1")).toEqual({ kind: "repeated" });
    expect(await partners.authenticate(first.key.mitraId, first.key.secretKey)).toMatchObject({ userId: BUDI });
    // A new request rotates: same mitra_id, the old key refused.
    const second = await keys.issue(BUDI, "u:2");
    if (second.kind !== "issued") throw new Error(second.kind);
    expect(second.key.mitraId).toBe(first.key.mitraId);
    expect(await partners.authenticate(first.key.mitraId, first.key.secretKey)).toBeUndefined();
  });

  it("when the user is not a reseller, then nothing is made", async () => {
    expect(await keys.issue(STAFF, "u:3")).toEqual({ kind: "not-reseller" });
    expect(await partners.get(STAFF)).toBeUndefined();
  });

  it("when a callback is set, refused, removed or given for someone without a key, then each says so", async () => {
    expect(await keys.setCallback(BUDI, "https://x.example/cb")).toEqual({ kind: "no-key" });
    await keys.issue(BUDI, undefined);
    expect(await keys.setCallback(BUDI, "ftp://x.example/cb")).toEqual({ kind: "bad-url" });
    expect(await keys.setCallback(BUDI, " https://x.example/cb ")).toEqual({
      kind: "set",
      url: "https://x.example/cb",
    });
    expect((await partners.get(BUDI))?.callbackUrl).toBe("https://x.example/cb");
    expect(await keys.setCallback(BUDI, "none")).toEqual({ kind: "removed" });
    expect((await partners.get(BUDI))?.callbackUrl).toBeUndefined();
    expect(await keys.turnOff(BUDI)).toBe(true);
    expect(await keys.turnOff(STAFF)).toBe(false);
  });

  it("when a callback leads into a private network or to no address, then it is refused and the one kept stays", async () => {
    await keys.issue(BUDI, undefined);
    await keys.setCallback(BUDI, "https://x.example/cb");
    for (const url of [
      "http://127.0.0.1:8080/cb",
      "http://[::1]/cb",
      "https://intranet.example/cb",
      "https://split.example/cb",
    ])
      expect(await keys.setCallback(BUDI, url)).toEqual({ kind: "private" });
    expect(await keys.setCallback(BUDI, "https://nowhere.example/cb")).toEqual({ kind: "unresolved" });
    expect((await partners.get(BUDI))?.callbackUrl).toBe("https://x.example/cb");
  });

  it("when a test key is asked for, then it is made once per request, for a reseller only, and its callback is its own", async () => {
    expect(await keys.issueTest(STAFF, "t:0")).toEqual({ kind: "not-reseller" });
    expect(await keys.setCallback(BUDI, "https://t.example/cb", true)).toEqual({ kind: "no-key" });
    const test = await keys.issueTest(BUDI, "t:1");
    if (test.kind !== "issued") throw new Error(test.kind);
    expect(test.key).toMatchObject({ test: true, rotated: false });
    expect(await keys.issueTest(BUDI, "t:1")).toEqual({ kind: "repeated" });
    expect(await partners.authenticate(test.key.mitraId, test.key.secretKey)).toMatchObject({ testKey: true });
    expect(await keys.setCallback(BUDI, "https://t.example/cb", true)).toEqual({
      kind: "set",
      url: "https://t.example/cb",
    });
    expect(await partners.get(BUDI)).toMatchObject({ test: { callbackUrl: "https://t.example/cb" } });
    expect((await partners.get(BUDI))?.callbackUrl).toBeUndefined();
    expect(await keys.setCallback(BUDI, "none", true)).toEqual({ kind: "removed" });
    expect((await partners.get(BUDI))?.test?.callbackUrl).toBeUndefined();
  });
});
