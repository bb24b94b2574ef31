import type { StorageAdapter } from "grammy";
import { packJson, unpackJson } from "./compact-json.js";
import { luaScript } from "./redis.js";
import type { Storage } from "./storage.js";

/**
 * A grammY StorageAdapter over keyv for per-chat state (dialogues, preferences). Every key gets
 * the storage prefix and `name`; every write the TTL, so abandoned chats clean themselves up.
 * `packed`: values are stored deflated (see compact-json.ts), for state kept per open dialogue.
 */
export function keyvStorageAdapter<T>(
  storage: Storage,
  name: string,
  ttlMs: number,
  opts: { packed?: boolean } = {},
): StorageAdapter<T> {
  const key = (k: string) => `${storage.prefix}${name}:${k}`;
  if (opts.packed !== true) {
    return {
      read: async (k) => (await storage.keyv.get<T>(key(k))) ?? undefined,
      write: async (k, value) => void (await storage.keyv.set(key(k), value, ttlMs)),
      delete: async (k) => void (await storage.keyv.delete(key(k))),
    };
  }
  return {
    async read(k) {
      const stored = await storage.keyv.get<string>(key(k));
      return stored === undefined || stored === null ? undefined : unpackJson<T>(stored);
    },
    write: async (k, value) => void (await storage.keyv.set(key(k), packJson(value), ttlMs)),
    delete: async (k) => void (await storage.keyv.delete(key(k))),
  };
}

/**
 * A write of per-chat state refused because another process wrote (or deleted) it after this one
 * read it: the update that read it must be handled again on the newer state (it is not an error
 * to tell the user about). See revisionedStorageAdapter.
 */
export class StaleStateError extends Error {
  override name = "StaleStateError";
}

/** How long an ended dialogue's revision is kept (a deleted state must not come back as revision 0). */
const TOMBSTONE_MS = 10 * 60 * 1000;
/** Read revisions remembered per process, for the updates being handled (more are dropped, oldest first). */
const MAX_REMEMBERED_REVISIONS = 10_000;

// KEYS: the state; ARGV: revision read ('' = none known), packed value ('' = delete), ttl ms, tombstone ms.
// A value is `r<revision>:<packed>`; `r<revision>:` alone is a deleted state; anything else is a value
// written before revisions (keyv's JSON), revision 0.
const WRITE_REVISION = luaScript(`
local current = redis.call('GET', KEYS[1])
local revision = 0
if current then
  local r = string.match(current, '^r(%d+):')
  if r then revision = tonumber(r) end
end
if ARGV[1] ~= '' and tonumber(ARGV[1]) ~= revision then return -1 end
local next = revision + 1
if ARGV[2] == '' then
  if current then redis.call('SET', KEYS[1], 'r' .. next .. ':', 'PX', ARGV[4]) end
  return next
end
redis.call('SET', KEYS[1], 'r' .. next .. ':' .. ARGV[2], 'PX', ARGV[3])
return next
`);

/**
 * The dialogues' state with Redis: like keyvStorageAdapter(packed) but every value carries a
 * revision, and a write (or delete) goes through only if the stored revision is still the one
 * this process read for that key (one Lua step); otherwise it throws StaleStateError. The
 * conversations plugin reads a chat member's state at the start of an update and writes it at the
 * end: if two processes ever handled the same member at once (the update stream gives a member's
 * updates to one process at a time, but a process that stalls past its lane's lock can overlap
 * with the next one), the later write would silently undo the other's step. Refused instead, the
 * update is handed back and handled again on the newer state (bot/create-bot.ts lets this error
 * through its error boundary).
 *
 * The revision read is remembered per key in this process: one update of a member at a time
 * (grammY's sequentialize and the lanes). A write of a key this process did not read (the
 * remembered revision dropped) is not checked. A deleted state leaves a small marker for ten
 * minutes, so it cannot come back as a fresh revision 0 in between. Values written before
 * revisions (keyv's JSON) are read and count as revision 0. The memory store (one process) keeps
 * the plain adapter.
 */
export function revisionedStorageAdapter<T>(storage: Storage, name: string, ttlMs: number): StorageAdapter<T> {
  if (storage.kind !== "redis") return keyvStorageAdapter<T>(storage, name, ttlMs, { packed: true });
  const { redis } = storage;
  const key = (k: string) => `${storage.prefix}${name}:${k}`;
  const read = new Map<string, number>();
  const remember = (k: string, revision: number) => {
    read.delete(k);
    read.set(k, revision);
    if (read.size > MAX_REMEMBERED_REVISIONS) read.delete(read.keys().next().value!);
  };
  const write = async (k: string, packed: string) => {
    const expected = read.get(k);
    read.delete(k);
    const r = Number(
      await WRITE_REVISION(redis, [key(k)], [expected ?? "", packed, Math.round(ttlMs), Math.min(TOMBSTONE_MS, ttlMs)]),
    );
    if (r < 0) throw new StaleStateError(`the state ${name}:${k} was changed by another process since it was read`);
  };
  return {
    async read(k) {
      const stored = await redis.get(key(k));
      if (stored === null) {
        remember(k, 0);
        return undefined;
      }
      const match = /^r(\d+):/.exec(stored);
      if (match === null) {
        // Written by keyv before revisions: {"value": <packed or plain JSON>, "expires": …}.
        remember(k, 0);
        const plain = JSON.parse(stored) as { value?: unknown };
        return typeof plain.value === "string" ? unpackJson<T>(plain.value) : (plain.value as T | undefined);
      }
      remember(k, Number(match[1]));
      const packed = stored.slice(match[0].length);
      return packed === "" ? undefined : unpackJson<T>(packed);
    },
    write: (k, value) => write(k, packJson(value)),
    delete: (k) => write(k, ""),
  };
}
