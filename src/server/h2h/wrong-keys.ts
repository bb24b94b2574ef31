import type { Logger } from "../../logger.js";
import { luaScript } from "../../storage/redis.js";
import type { Storage } from "../../storage/storage.js";

/** Wrong keys from one address within a clock minute before its wrong keys are held back. */
export const WRONG_KEYS_PER_MINUTE = 20;
/** How long an address's wrong keys are held back once it passed the limit. */
export const HELD_MS = 60_000;
const MINUTE = 60_000;
/** The longest address or mitra_id counted (what a client sends is not trusted to be short). */
const MAX_NAME = 64;

/**
 * Requests that named a wrong key (a mitra_id or secret_key missing, unknown or wrong), counted
 * per client address and per mitra_id in each clock minute. Past WRONG_KEYS_PER_MINUTE from one
 * address, that address's wrong keys are held back (429) for HELD_MS; a request with a right key
 * is never counted nor held. Shared by every process through Redis (one script per wrong key), or
 * kept in memory.
 */
export interface WrongKeys {
  /** Counts one wrong key; how long (ms) this address's wrong keys are held back now (0: not). */
  count(address: string, mitraId: string, nowMs: number): Promise<number>;
  /**
   * The counts of the minute before `nowMs`'s, once (whichever process asks first), for the log:
   * undefined when that minute had none or was told already.
   */
  lastMinute(
    nowMs: number,
  ): Promise<{ byAddress: Record<string, number>; byMitra: Record<string, number> } | undefined>;
}

const cut = (s: string) => (s.length > MAX_NAME ? `${s.slice(0, MAX_NAME)}…` : s);

// KEYS: the address's count this minute, its hold (the time it ends), the minute's tally.
// ARGV: limit, hold ms, address field, mitra field, now ms. Returns the ms the address is held back.
const COUNT = luaScript(`
redis.call('HINCRBY', KEYS[3], ARGV[3], 1)
if ARGV[4] ~= '' then redis.call('HINCRBY', KEYS[3], ARGV[4], 1) end
redis.call('PEXPIRE', KEYS[3], 180000)
local now = tonumber(ARGV[5])
local ends = tonumber(redis.call('GET', KEYS[2]) or '0')
if ends > now then return ends - now end
local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], 120000)
if n > tonumber(ARGV[1]) then
  redis.call('SET', KEYS[2], tostring(now + tonumber(ARGV[2])), 'PX', 2 * tonumber(ARGV[2]))
  return tonumber(ARGV[2])
end
return 0
`);

// KEYS: the minute's tally, its told mark. Returns the tally once.
const TAKE = luaScript(`
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', 600000) == false then return false end
return redis.call('HGETALL', KEYS[1])
`);

function split(fields: Iterable<[string, number]>) {
  const byAddress: Record<string, number> = {};
  const byMitra: Record<string, number> = {};
  for (const [field, n] of fields) {
    if (field.startsWith("a:")) byAddress[field.slice(2)] = n;
    else if (field.startsWith("m:")) byMitra[field.slice(2)] = n;
  }
  return Object.keys(byAddress).length === 0 ? undefined : { byAddress, byMitra };
}

export function createWrongKeys(storage: Storage): WrongKeys {
  const minuteOf = (ms: number) => Math.floor(ms / MINUTE);
  if (storage.kind === "redis") {
    const { redis, prefix } = storage;
    return {
      async count(address, mitraId, nowMs) {
        const a = cut(address);
        const minute = minuteOf(nowMs);
        const keys = [`${prefix}h2h:wk:${a}:${minute}`, `${prefix}h2h:wkh:${a}`, `${prefix}h2h:wkt:${minute}`];
        const mitra = mitraId.trim() === "" ? "" : `m:${cut(mitraId)}`;
        return Number(await COUNT(redis, keys, [WRONG_KEYS_PER_MINUTE, HELD_MS, `a:${a}`, mitra, nowMs]));
      },
      async lastMinute(nowMs) {
        const minute = minuteOf(nowMs) - 1;
        const raw = (await TAKE(redis, [`${prefix}h2h:wkt:${minute}`, `${prefix}h2h:wkt-told:${minute}`], [])) as
          string[] | null;
        if (raw === null || raw.length === 0) return undefined;
        const fields: Array<[string, number]> = [];
        for (let i = 0; i < raw.length; i += 2) fields.push([raw[i]!, Number(raw[i + 1])]);
        return split(fields);
      },
    };
  }
  const had = memoryOnes.get(storage);
  if (had !== undefined) return had;
  const made = memoryWrongKeys();
  memoryOnes.set(storage, made);
  return made;
}

/** The memory store's counts belong to the store (the API and the background look share them). */
const memoryOnes = new WeakMap<Storage, WrongKeys>();

function memoryWrongKeys(): WrongKeys {
  const minuteOf = (ms: number) => Math.floor(ms / MINUTE);
  const counts = new Map<string, number>();
  const heldUntil = new Map<string, number>();
  const tallies = new Map<number, Map<string, number>>();
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  return {
    async count(address, mitraId, nowMs) {
      const a = cut(address);
      const minute = minuteOf(nowMs);
      for (const old of tallies.keys()) if (old < minute - 2) tallies.delete(old);
      const tally = tallies.get(minute) ?? new Map<string, number>();
      tallies.set(minute, tally);
      add(tally, `a:${a}`);
      if (mitraId.trim() !== "") add(tally, `m:${cut(mitraId)}`);
      for (const [k, u] of heldUntil) if (u <= nowMs) heldUntil.delete(k);
      const until = heldUntil.get(a) ?? 0;
      if (until > nowMs) return until - nowMs;
      const key = `${a}:${minute}`;
      for (const k of counts.keys()) if (!k.endsWith(`:${minute}`)) counts.delete(k);
      add(counts, key);
      if ((counts.get(key) ?? 0) <= WRONG_KEYS_PER_MINUTE) return 0;
      heldUntil.set(a, nowMs + HELD_MS);
      return HELD_MS;
    },
    async lastMinute(nowMs) {
      const minute = minuteOf(nowMs) - 1;
      const tally = tallies.get(minute);
      tallies.delete(minute);
      return tally === undefined ? undefined : split(tally);
    },
  };
}

/** Logs the last minute's wrong keys (no key is ever in them: addresses and mitra_ids only). */
export async function logWrongKeys(wrongKeys: WrongKeys, nowMs: number, logger: Logger): Promise<void> {
  const last = await wrongKeys.lastMinute(nowMs);
  if (last === undefined) return;
  const total = Object.values(last.byAddress).reduce((a, b) => a + b, 0);
  logger.warn({ total, byAddress: last.byAddress, byMitra: last.byMitra }, "H2H wrong keys in the last minute");
}
