import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { randomCrockford } from "../crockford.js";
import { luaScript } from "../storage/redis.js";
import type { Storage } from "../storage/storage.js";

/**
 * A reseller with API access (the H2H API): their `mitra_id`, whether access is on, where their
 * system wants to hear of an order whose first answer was not final, and their test key's
 * `mitra_id` and callback when they have one. Neither key is kept, only its hash; the signing
 * secrets are kept but never read out of this module except to sign a callback.
 */
export interface Partner {
  userId: number;
  mitraId: string;
  on: boolean;
  callbackUrl?: string;
  /** When the key in use was made (ms); 0 while the reseller has only a test key. */
  keyAt: number;
  /** The partner's test key, when they have one, and where its orders' callbacks go. */
  test?: { mitraId: string; callbackUrl?: string };
}

/** The partner a request's credentials name, and whether it named them by their test key. */
export interface AuthPartner extends Partner {
  testKey: boolean;
}

/**
 * A new key, to be shown once to the admin who asked for it, and never again: its `mitra_id`, the
 * secret it is checked with, and the secret its callbacks are signed with.
 */
export interface IssuedKey {
  mitraId: string;
  secretKey: string;
  signingSecret: string;
  /** Whether the reseller had such a key before (rotated), or this is their first. */
  rotated: boolean;
  /** A test key: its orders order nothing. */
  test: boolean;
}

export interface PartnerStore {
  /**
   * Creates the reseller's key, or rotates it (same mitra_id, a new secret and a new signing
   * secret); access is on, also after it was turned off.
   */
  issue(userId: number, now: number): Promise<IssuedKey>;
  /** Creates or rotates the reseller's test key (its own `T…` mitra_id, secret and signing secret). */
  issueTest(userId: number, now: number): Promise<IssuedKey>;
  /** Turns access off (both keys stop working at once); false when the reseller never had a key. */
  turnOff(userId: number): Promise<boolean>;
  /**
   * Sets or (undefined) removes the callback URL of the key, or of the test key (`test`); false
   * when the reseller has no such key.
   */
  setCallback(userId: number, url: string | undefined, test?: boolean): Promise<boolean>;
  get(userId: number): Promise<Partner | undefined>;
  /** Every reseller that ever had a key. */
  list(): Promise<Partner[]>;
  /**
   * The partner a request's credentials name (by their key or their test key), when the key is
   * theirs and their access is on. The key's hash is compared in constant time; an unknown
   * mitra_id costs the same comparison.
   */
  authenticate(mitraId: string, secretKey: string): Promise<AuthPartner | undefined>;
  /**
   * Signs a callback body with the partner's signing secret, or their test key's (`test`): hex
   * HMAC-SHA256; undefined without such a key.
   */
  sign(userId: number, body: string, test?: boolean): Promise<string | undefined>;
  /**
   * Rewrites every record of the time keys were kept in clear: the key is kept as its hash and,
   * until the next rotation, is the signing secret too (the partner's signature checks go on
   * working); the clear key is gone. How many were rewritten. A record read is rewritten so too.
   */
  upgradeOldKeys(): Promise<number>;
}

/** The longest callback URL kept: a reseller's own address, not a place to store data. */
export const MAX_CALLBACK_URL = 500;

/** Why a typed callback URL is refused. */
export type CallbackRefusal = "too-long" | "not-url" | "not-http";

/**
 * A callback URL as an admin typed it (the chat's `/apikey ID callback URL`, the Mini App's field):
 * an `http://` or `https://` address of at most MAX_CALLBACK_URL characters, read by `URL`, kept
 * as `URL` writes it (the form a request to it will use). Both places refuse the same things.
 */
export function parseCallbackUrl(typed: string): { ok: true; url: string } | { ok: false; why: CallbackRefusal } {
  const raw = typed.trim();
  if (raw.length > MAX_CALLBACK_URL) return { ok: false, why: "too-long" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, why: "not-url" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, why: "not-http" };
  // A scheme alone (`https:foo`) is read with a host, but it is not what was meant: the slashes are asked for.
  if (!/^https?:\/\/[^/?#\s]/i.test(raw) || url.hostname === "") return { ok: false, why: "not-url" };
  if (url.href.length > MAX_CALLBACK_URL) return { ok: false, why: "too-long" };
  return { ok: true, url: url.href };
}

/** A mitra_id: `P` and ten letters or digits, unguessable enough that one cannot be found by trying. */
const newMitraId = (): string => `P${randomCrockford(10)}`;
/** A test key's mitra_id: `T` and ten, so that anyone who reads it knows it orders nothing. */
const newTestMitraId = (): string => `T${randomCrockford(10)}`;

/** 32 random bytes (256 bits), URL-safe: a key travels in a query string. */
const newSecret = (): string => randomBytes(32).toString("base64url");

/** How a key is kept: the hex SHA-256 of it. */
export const keyHash = (key: string): string => createHash("sha256").update(key).digest("hex");

/** The hex HMAC-SHA256 of a body with a key: the callback's `X-Signature`. */
export function hmacHex(key: string, body: string): string {
  return createHmac("sha256", key).update(body).digest("hex");
}

/** Mitra ids whose owner a process keeps in mind at most (then it starts again). */
const MAX_OWNERS_KNOWN = 10_000;

/** A mitra_id's shape (a key's or a test key's), checked before any lookup. */
const MITRA_ID = /^[PT][0-9A-Z]{10}$/;
/** A hash to compare against when the mitra_id is unknown, so that the answer takes as long. */
const DUMMY_HASH = Buffer.from(keyHash(newSecret()), "hex");

/** Whether `given` is the key kept as `hash`, in a time that does not depend on where they differ. */
function sameKey(given: string, hash: string | undefined): boolean {
  const kept = hash === undefined ? undefined : Buffer.from(hash, "hex");
  const usable = kept !== undefined && kept.length === DUMMY_HASH.length;
  const match = timingSafeEqual(Buffer.from(keyHash(given), "hex"), usable ? kept : DUMMY_HASH);
  return usable && match;
}

/**
 * A partner's record as kept, the same in Redis and in memory (a hash of strings): m = mitra_id,
 * kh = the key's hash, ss = the signing secret, on, cb = callback, at = when the key was made;
 * the test key's tm, tkh, tss, tcb, tat. Records of the time before hashes may hold k, the key in
 * clear (read once more, to be rewritten).
 */
type Fields = Record<string, string>;

function publicPart(userId: number, h: Fields): Partner | undefined {
  if (h.m === undefined) return undefined;
  return {
    userId,
    mitraId: h.m,
    on: h.on === "1",
    keyAt: Number(h.at ?? 0),
    ...(h.cb === undefined || h.cb === "" ? {} : { callbackUrl: h.cb }),
    ...(h.tm === undefined
      ? {}
      : { test: { mitraId: h.tm, ...(h.tcb === undefined || h.tcb === "" ? {} : { callbackUrl: h.tcb }) } }),
  };
}

/**
 * The partners, in Redis (`h2h:p:USER` hash of the fields above; `h2h:m:MITRA` → user for both
 * mitra_ids; `h2h:ps` set of users) so that every process behind the load balancer checks a
 * request the same way, or in memory.
 */
export function createPartnerStore(storage: Storage): PartnerStore {
  const read = storage.kind === "redis" ? redisRecords(storage) : memoryRecords(storage);

  /**
   * Whose each mitra_id is, as read before: a mitra_id is made once for one reseller and never
   * given to another, so the record it names is read at once (one round trip instead of two). The
   * record itself is read every time and must name the mitra_id, so a lookup that changed is
   * read again.
   */
  const owners = new Map<string, number>();

  /** The record a mitra_id names, and whether it names the test key. */
  async function byMitra(mitraId: string): Promise<{ userId: number; h: Fields; test: boolean } | undefined> {
    if (!MITRA_ID.test(mitraId)) return undefined;
    const known = owners.get(mitraId);
    const userId = known ?? (await read.userOf(mitraId));
    const h = userId === undefined ? undefined : await read.get(userId);
    const found =
      userId === undefined || h === undefined
        ? undefined
        : h.m === mitraId
          ? { userId, h, test: false }
          : h.tm === mitraId
            ? { userId, h, test: true }
            : undefined;
    if (found === undefined) {
      // A lookup left by a mitra_id that was replaced (two first keys made at once) names no partner.
      if (known === undefined) return undefined;
      owners.delete(mitraId);
      return byMitra(mitraId);
    }
    if (known === undefined) {
      if (owners.size >= MAX_OWNERS_KNOWN) owners.clear();
      owners.set(mitraId, found.userId);
    }
    return found;
  }

  return {
    async issue(userId, now) {
      const had = await read.get(userId);
      const mitraId = had?.m ?? newMitraId();
      const secretKey = newSecret();
      const signingSecret = newSecret();
      await read.put(userId, { m: mitraId, kh: keyHash(secretKey), ss: signingSecret, on: "1", at: String(now) }, [
        mitraId,
      ]);
      return { mitraId, secretKey, signingSecret, rotated: had?.kh !== undefined, test: false };
    },
    async issueTest(userId, now) {
      const had = await read.get(userId);
      // A reseller with a test key only still gets their mitra_id now: the record is whole, and
      // their first key later keeps it. Access is on from the start, as for a first key.
      const first: Fields = had?.m === undefined ? { m: newMitraId(), on: "1", at: "0" } : {};
      const mitraId = had?.tm ?? newTestMitraId();
      const secretKey = newSecret();
      const signingSecret = newSecret();
      await read.put(userId, { ...first, tm: mitraId, tkh: keyHash(secretKey), tss: signingSecret, tat: String(now) }, [
        mitraId,
        ...(first.m === undefined ? [] : [first.m]),
      ]);
      return { mitraId, secretKey, signingSecret, rotated: had?.tkh !== undefined, test: true };
    },
    async turnOff(userId) {
      if ((await read.get(userId)) === undefined) return false;
      await read.put(userId, { on: "0" }, []);
      return true;
    },
    async setCallback(userId, url, test = false) {
      const had = await read.get(userId);
      if (had === undefined || (test && had.tm === undefined)) return false;
      await read.put(userId, { [test ? "tcb" : "cb"]: url ?? "" }, []);
      return true;
    },
    get: async (userId) => {
      const h = await read.get(userId);
      return h === undefined ? undefined : publicPart(userId, h);
    },
    async list() {
      const ids = (await read.ids()).sort((a, b) => a - b);
      const all = await Promise.all(ids.map(async (id) => publicPart(id, (await read.get(id)) ?? {})));
      return all.filter((p): p is Partner => p !== undefined);
    },
    async authenticate(mitraId, secretKey) {
      const found = await byMitra(mitraId);
      const match = sameKey(secretKey, found?.test === true ? found.h.tkh : found?.h.kh);
      if (found === undefined || !match || found.h.on !== "1") return undefined;
      const partner = publicPart(found.userId, found.h);
      return partner === undefined ? undefined : { ...partner, testKey: found.test };
    },
    async sign(userId, body, test = false) {
      const secret = (await read.get(userId))?.[test ? "tss" : "ss"];
      return secret === undefined ? undefined : hmacHex(secret, body);
    },
    upgradeOldKeys: () => read.upgradeAll(),
  };
}

interface Records {
  get(userId: number): Promise<Fields | undefined>;
  userOf(mitraId: string): Promise<number | undefined>;
  /** Writes the given fields, and the lookup of each mitra_id in `mitraIds`. */
  put(userId: number, fields: Fields, mitraIds: string[]): Promise<void>;
  ids(): Promise<number[]>;
  upgradeAll(): Promise<number>;
}

/**
 * A record whose key is still kept in clear (`k`, ARGV[1]) gets its hash (ARGV[2]) and the key as
 * its signing secret, unless a hash is there already (a key made since); the clear key goes either
 * way. Nothing happens when `k` is no longer the one read. KEYS: the partner's hash
 */
const UPGRADE_KEY = luaScript(`
if redis.call('HGET', KEYS[1], 'k') ~= ARGV[1] then return 0 end
if redis.call('HEXISTS', KEYS[1], 'kh') == 0 then
  redis.call('HSET', KEYS[1], 'kh', ARGV[2], 'ss', ARGV[1])
end
redis.call('HDEL', KEYS[1], 'k')
return 1
`);

function redisRecords(storage: Extract<Storage, { kind: "redis" }>): Records {
  const { redis, prefix } = storage;
  const partnerKey = (userId: number) => `${prefix}h2h:p:${userId}`;
  const upgrade = async (userId: number, clear: string) =>
    (await UPGRADE_KEY(redis, [partnerKey(userId)], [clear, keyHash(clear)])) === 1;

  async function get(userId: number): Promise<Fields | undefined> {
    let h = await redis.hGetAll(partnerKey(userId));
    if (h.k !== undefined) {
      await upgrade(userId, h.k);
      h = await redis.hGetAll(partnerKey(userId));
    }
    return h.m === undefined ? undefined : h;
  }
  const ids = async () => (await redis.sMembers(`${prefix}h2h:ps`)).map(Number);

  return {
    get,
    async userOf(mitraId) {
      const id = await redis.get(`${prefix}h2h:m:${mitraId}`);
      return id === null ? undefined : Number(id);
    },
    async put(userId, fields, mitraIds) {
      const multi = redis.multi().hSet(partnerKey(userId), fields).sAdd(`${prefix}h2h:ps`, String(userId));
      for (const mitraId of mitraIds) multi.set(`${prefix}h2h:m:${mitraId}`, String(userId));
      await multi.exec();
    },
    ids,
    async upgradeAll() {
      let upgraded = 0;
      for (const userId of await ids()) {
        const clear = await redis.hGet(partnerKey(userId), "k");
        if (clear !== null && clear !== undefined && (await upgrade(userId, clear))) upgraded++;
      }
      return upgraded;
    },
  };
}

/** The memory store's partners belong to the store (as a Redis key belongs to the database). */
const memoryStores = new WeakMap<Storage, Records>();

function memoryRecords(storage: Storage): Records {
  const existing = memoryStores.get(storage);
  if (existing !== undefined) return existing;
  const created = newMemoryRecords();
  memoryStores.set(storage, created);
  return created;
}

function newMemoryRecords(): Records {
  const byUser = new Map<number, Fields>();
  const byMitra = new Map<string, number>();
  return {
    get: async (userId) => {
      const h = byUser.get(userId);
      return h === undefined ? undefined : { ...h };
    },
    userOf: async (mitraId) => byMitra.get(mitraId),
    async put(userId, fields, mitraIds) {
      byUser.set(userId, { ...byUser.get(userId), ...fields });
      for (const mitraId of mitraIds) byMitra.set(mitraId, userId);
    },
    ids: async () => [...byUser.keys()],
    // Memory is new at every start: no record of the time before hashes.
    upgradeAll: async () => 0,
  };
}
