import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { randomCrockford } from "../crockford.js";
import type { Storage } from "../storage/storage.js";

/**
 * A reseller with API access (the H2H API): their `mitra_id`, whether access is on, and where
 * their system wants to hear of an order whose first answer was not final. The secret key is
 * kept beside it but never read out of this module except to check a request or sign a callback.
 */
export interface Partner {
  userId: number;
  mitraId: string;
  on: boolean;
  callbackUrl?: string;
  /** When the key in use was made (ms). */
  keyAt: number;
  /** The partner's test key, when they have one, and where its orders' callbacks go. */
  test?: { mitraId: string; callbackUrl?: string };
}

/** A new key, to be shown once to the admin who asked for it, and never again. */
export interface IssuedKey {
  mitraId: string;
  secretKey: string;
  /** Whether the reseller had a key before (rotated), or this is their first. */
  rotated: boolean;
}

export interface PartnerStore {
  /** Creates the reseller's key, or rotates it (same mitra_id, a new secret); access is on. */
  issue(userId: number, now: number): Promise<IssuedKey>;
  /** Turns access off (the key stops working at once); false when the reseller never had a key. */
  turnOff(userId: number): Promise<boolean>;
  /** Sets or (undefined) removes the callback URL; false when the reseller never had a key. */
  setCallback(userId: number, url: string | undefined, test?: boolean): Promise<boolean>;
  get(userId: number): Promise<Partner | undefined>;
  /** Every reseller that ever had a key. */
  list(): Promise<Partner[]>;
  /**
   * The partner a request's credentials name, when the key is theirs and their access is on.
   * The key is compared in constant time; an unknown mitra_id costs the same comparison.
   */
  authenticate(mitraId: string, secretKey: string): Promise<Partner | undefined>;
  /** Signs a callback body with the partner's key (hex HMAC-SHA256); undefined without a key. */
  sign(userId: number, body: string, test?: boolean): Promise<string | undefined>;
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

/** 32 random bytes, URL-safe: it travels in a query string. */
const newSecret = (): string => randomBytes(32).toString("base64url");

/** Compared through their digests, so that the comparison takes the same time whatever the lengths. */
function sameKey(given: string, kept: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(kept).digest();
  return timingSafeEqual(a, b);
}

/** The hex HMAC-SHA256 of a body with a key: the callback's `X-Signature`. */
export function hmacHex(key: string, body: string): string {
  return createHmac("sha256", key).update(body).digest("hex");
}

interface Kept extends Partner {
  secretKey: string;
}

/** A partner's record as kept: one hash per reseller, one key from mitra_id to reseller. */
function fromHash(userId: number, h: Record<string, string>): Kept | undefined {
  if (h.m === undefined || h.k === undefined) return undefined;
  return {
    userId,
    mitraId: h.m,
    secretKey: h.k,
    on: h.on === "1",
    keyAt: Number(h.at ?? 0),
    ...(h.cb === undefined || h.cb === "" ? {} : { callbackUrl: h.cb }),
  };
}

const publicPart = ({ secretKey: _secret, ...partner }: Kept): Partner => partner;

/** A mitra_id's shape, checked before any lookup. */
const MITRA_ID = /^P[0-9A-Z]{10}$/;
/** A key to compare against when the mitra_id is unknown, so that the answer takes as long. */
const DUMMY = newSecret();

/**
 * The partners, in Redis (`h2h:p:USER` hash: m = mitra_id, k = key, on, cb = callback, at;
 * `h2h:m:MITRA` → user; `h2h:ps` set of users) so that every process behind the load balancer
 * checks a request the same way, or in memory.
 */
export function createPartnerStore(storage: Storage): PartnerStore {
  const read = storage.kind === "redis" ? redisRecords(storage) : memoryRecords(storage);

  async function byMitra(mitraId: string): Promise<Kept | undefined> {
    if (!MITRA_ID.test(mitraId)) return undefined;
    const userId = await read.userOf(mitraId);
    const kept = userId === undefined ? undefined : await read.get(userId);
    // A lookup left by a mitra_id that was replaced (two first keys made at once) names no partner.
    return kept?.mitraId === mitraId ? kept : undefined;
  }

  return {
    async issue(userId, now) {
      const had = await read.get(userId);
      const mitraId = had?.mitraId ?? newMitraId();
      const secretKey = newSecret();
      await read.put(userId, { mitraId, secretKey, on: true, keyAt: now });
      return { mitraId, secretKey, rotated: had !== undefined };
    },
    async turnOff(userId) {
      const had = await read.get(userId);
      if (had === undefined) return false;
      await read.put(userId, { on: false });
      return true;
    },
    async setCallback(userId, url) {
      const had = await read.get(userId);
      if (had === undefined) return false;
      await read.put(userId, { callbackUrl: url ?? "" });
      return true;
    },
    get: async (userId) => {
      const kept = await read.get(userId);
      return kept === undefined ? undefined : publicPart(kept);
    },
    list: async () => (await read.all()).map(publicPart),
    async authenticate(mitraId, secretKey) {
      const kept = await byMitra(mitraId);
      const match = sameKey(secretKey, kept?.secretKey ?? DUMMY);
      return kept !== undefined && match && kept.on ? publicPart(kept) : undefined;
    },
    async sign(userId, body) {
      const kept = await read.get(userId);
      return kept === undefined ? undefined : hmacHex(kept.secretKey, body);
    },
  };
}

interface Records {
  get(userId: number): Promise<Kept | undefined>;
  userOf(mitraId: string): Promise<number | undefined>;
  /** Writes the given fields (a new mitra_id also gets its lookup key). */
  put(userId: number, fields: Partial<Omit<Kept, "userId">>): Promise<void>;
  all(): Promise<Kept[]>;
}

function redisRecords(storage: Extract<Storage, { kind: "redis" }>): Records {
  const { redis, prefix } = storage;
  const partnerKey = (userId: number) => `${prefix}h2h:p:${userId}`;
  const get = async (userId: number) => fromHash(userId, await redis.hGetAll(partnerKey(userId)));
  return {
    get,
    async userOf(mitraId) {
      const id = await redis.get(`${prefix}h2h:m:${mitraId}`);
      return id === null ? undefined : Number(id);
    },
    async put(userId, f) {
      const fields: Record<string, string> = {};
      if (f.mitraId !== undefined) fields.m = f.mitraId;
      if (f.secretKey !== undefined) fields.k = f.secretKey;
      if (f.on !== undefined) fields.on = f.on ? "1" : "0";
      if (f.keyAt !== undefined) fields.at = String(f.keyAt);
      if (f.callbackUrl !== undefined) fields.cb = f.callbackUrl;
      const multi = redis.multi().hSet(partnerKey(userId), fields).sAdd(`${prefix}h2h:ps`, String(userId));
      if (f.mitraId !== undefined) multi.set(`${prefix}h2h:m:${f.mitraId}`, String(userId));
      await multi.exec();
    },
    async all() {
      const ids = (await redis.sMembers(`${prefix}h2h:ps`)).map(Number).sort((a, b) => a - b);
      const kept = await Promise.all(ids.map(get));
      return kept.filter((k): k is Kept => k !== undefined);
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
  const byUser = new Map<number, Kept>();
  const byMitra = new Map<string, number>();
  return {
    get: async (userId) => {
      const k = byUser.get(userId);
      return k === undefined ? undefined : { ...k };
    },
    userOf: async (mitraId) => byMitra.get(mitraId),
    async put(userId, f) {
      const had = byUser.get(userId);
      const next: Kept = { ...(had ?? { userId, mitraId: "", secretKey: "", on: false, keyAt: 0 }), ...f };
      if (next.callbackUrl === "") delete next.callbackUrl;
      byUser.set(userId, next);
      if (f.mitraId !== undefined) byMitra.set(f.mitraId, userId);
    },
    all: async () => [...byUser.values()].sort((a, b) => a.userId - b.userId).map((k) => ({ ...k })),
  };
}
