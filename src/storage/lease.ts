import { randomUUID } from "node:crypto";
import { luaScript } from "./redis.js";
import type { Storage } from "./storage.js";

/**
 * A right to do some background work alone among the bot's processes, for a while: taken with
 * `SET key owner NX PX ttl`, kept by renewing it before it runs out, given back by its owner only
 * (a process whose lease ran out can never take another's). In memory (one process) it is always
 * granted. Small on purpose: one place to swap for the multi-process leases when they come.
 */
export interface Lease {
  /** Takes the lease (or keeps it, if this owner already holds it); false when another process holds it. */
  acquire(): Promise<boolean>;
  /** Extends the lease by its time to live; false when it was lost meanwhile. */
  renew(): Promise<boolean>;
  /** Gives the lease back, if this owner still holds it. */
  release(): Promise<void>;
}

// KEYS: the lease; ARGV: owner, ttl (ms)
const ACQUIRE = luaScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`);

const RENEW = luaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`);

const RELEASE = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`);

export function createLease(storage: Storage, name: string, ttlMs: number, owner: string = randomUUID()): Lease {
  if (storage.kind === "memory") {
    return { acquire: async () => true, renew: async () => true, release: async () => {} };
  }
  const { redis } = storage;
  const key = `${storage.prefix}${name}`;
  return {
    acquire: async () => Number(await ACQUIRE(redis, [key], [owner, ttlMs])) === 1,
    renew: async () => Number(await RENEW(redis, [key], [owner, ttlMs])) === 1,
    release: async () => void (await RELEASE(redis, [key], [owner])),
  };
}
