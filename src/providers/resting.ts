import { luaScript } from "../storage/redis.js";
import type { Storage } from "../storage/storage.js";

/** How long a provider rests before the next order tries it again. */
export const REST_MS = 5 * 60_000;
/** Results in a row that were not known (a call never sent counts) after which a provider rests. */
export const MISSES_TO_REST = 3;

/**
 * What one call taught about its provider: it answered something known (a sale or a refusal),
 * nothing known (a timeout, a 5xx, an unreadable answer, a pending one, or a call never sent), or
 * that its own deposit with it is empty.
 */
export type Health = "known" | "unknown" | "empty";

/** A change the admins are told of, once: a provider started resting, or answered again. */
export type HealthChange =
  | { kind: "resting"; provider: string; until: string; why: "unanswered" | "empty" }
  | { kind: "back"; provider: string };

/** The provider chosen for an attempt, and whether anything needs writing after a known answer. */
export interface Choice {
  /** Index in the list given to `choose`. */
  index: number;
  /** It has missed nothing lately and is not resting: a known answer changes nothing (no write). */
  clean: boolean;
}

/**
 * Which providers are resting, shared by every process of the shop. A provider rests after
 * MISSES_TO_REST results in a row that were not known, or after saying its deposit is empty: for
 * REST_MS, then one order at a time tries it (a trial slot, held until that call is observed or its
 * time is up) until it answers; then it is back. Times come from the caller's clock.
 */
export interface Resting {
  /**
   * The first of `providers` (in order) that may take an order now: one not resting, or one whose
   * rest is over and whose trial slot this caller took (held for `trialMs`). Undefined: every one rests.
   */
  choose(providers: readonly string[], trialMs: number): Promise<Choice | undefined>;
  /** The providers of `providers` resting now (a rest that is over is not: the next order tries them). */
  resting(providers: readonly string[]): Promise<Set<string>>;
  /**
   * Records what a call taught (and frees the provider's trial slot). `mayRest`: another route can sell
   * what it sells (a provider that cannot rest only has its count kept). The change to tell, once
   * across processes: this call made it start resting, or brought it back.
   */
  observe(provider: string, health: Health, mayRest: boolean): Promise<HealthChange | undefined>;
  /** Frees the provider's trial slot taken by an order that was not sent after all. */
  release(provider: string): Promise<void>;
}

// KEYS: each provider's state, then each one's trial slot; ARGV: now ms, trial ms
// A provider's state: m = misses in a row, u = resting until (ms), r = '1' while resting (until it answers).
const CHOOSE = luaScript(`
local n = #KEYS / 2
local now = tonumber(ARGV[1])
for i = 1, n do
  local s = redis.call('HMGET', KEYS[i], 'm', 'u', 'r')
  if s[3] ~= '1' then return {i - 1, (s[1] == false or s[1] == '0') and 1 or 0} end
  if tonumber(s[2] or '0') <= now and redis.call('SET', KEYS[n + i], '1', 'NX', 'PX', ARGV[2]) then
    return {i - 1, 0}
  end
end
return {-1, 0}
`);

// KEYS: state, trial slot; ARGV: health, may rest ('1'), now ms, until ms, misses to rest
const OBSERVE = luaScript(`
redis.call('DEL', KEYS[2])
local resting = redis.call('HGET', KEYS[1], 'r') == '1'
if ARGV[1] == 'known' then
  redis.call('DEL', KEYS[1])
  if resting then return {'back'} end
  return {''}
end
local misses = redis.call('HINCRBY', KEYS[1], 'm', 1)
if ARGV[2] ~= '1' then return {''} end
if resting then
  redis.call('HSET', KEYS[1], 'u', ARGV[4])
  return {''}
end
if ARGV[1] == 'empty' or misses >= tonumber(ARGV[5]) then
  redis.call('HSET', KEYS[1], 'r', '1', 'u', ARGV[4])
  return {'resting'}
end
return {''}
`);

const RESTING = luaScript(`
local out = {}
for i = 1, #KEYS do
  local s = redis.call('HMGET', KEYS[i], 'u', 'r')
  if s[2] == '1' and tonumber(s[1] or '0') > tonumber(ARGV[1]) then out[#out + 1] = i - 1 end
end
return out
`);

interface State {
  misses: number;
  until: number;
  resting: boolean;
  trialUntil: number;
}

/** The resting providers in Redis (one hash per provider) or, without Redis, in this process. */
export function createResting(storage: Storage, now: () => Date): Resting {
  const changeOf = (kind: string, provider: string, health: Health, until: number): HealthChange | undefined =>
    kind === "back"
      ? { kind: "back", provider }
      : kind === "resting"
        ? {
            kind: "resting",
            provider,
            until: new Date(until).toISOString(),
            why: health === "empty" ? "empty" : "unanswered",
          }
        : undefined;

  if (storage.kind === "redis") {
    const { redis, prefix } = storage;
    const stateKey = (p: string) => `${prefix}provider-rest:${p}`;
    const trialKey = (p: string) => `${prefix}provider-trial:${p}`;
    return {
      async choose(providers, trialMs) {
        const [index, clean] = (await CHOOSE(
          redis,
          [...providers.map(stateKey), ...providers.map(trialKey)],
          [now().getTime(), Math.max(1, Math.round(trialMs))],
        )) as [number, number];
        return index < 0 ? undefined : { index, clean: clean === 1 };
      },
      async resting(providers) {
        const found = (await RESTING(redis, providers.map(stateKey), [now().getTime()])) as number[];
        return new Set(found.map((i) => providers[i]!));
      },
      async observe(provider, health, mayRest) {
        const until = now().getTime() + REST_MS;
        const [kind] = (await OBSERVE(
          redis,
          [stateKey(provider), trialKey(provider)],
          [health, mayRest ? "1" : "0", now().getTime(), until, MISSES_TO_REST],
        )) as [string];
        return changeOf(kind, provider, health, until);
      },
      release: async (provider) => void (await redis.del(trialKey(provider))),
    };
  }

  const states = new Map<string, State>();
  const stateOf = (p: string): State => {
    let s = states.get(p);
    if (s === undefined) states.set(p, (s = { misses: 0, until: 0, resting: false, trialUntil: 0 }));
    return s;
  };
  return {
    async choose(providers, trialMs) {
      const t = now().getTime();
      for (const [index, p] of providers.entries()) {
        const s = stateOf(p);
        if (!s.resting) return { index, clean: s.misses === 0 };
        if (s.until <= t && s.trialUntil <= t) {
          s.trialUntil = t + trialMs;
          return { index, clean: false };
        }
      }
      return undefined;
    },
    async resting(providers) {
      const t = now().getTime();
      return new Set(providers.filter((p) => stateOf(p).resting && stateOf(p).until > t));
    },
    async observe(provider, health, mayRest) {
      const s = stateOf(provider);
      const until = now().getTime() + REST_MS;
      s.trialUntil = 0;
      if (health === "known") {
        const wasResting = s.resting;
        states.delete(provider);
        return wasResting ? { kind: "back", provider } : undefined;
      }
      s.misses += 1;
      if (!mayRest) return undefined;
      if (s.resting) {
        s.until = until;
        return undefined;
      }
      if (health === "empty" || s.misses >= MISSES_TO_REST) {
        s.resting = true;
        s.until = until;
        return changeOf("resting", provider, health, until);
      }
      return undefined;
    },
    release: async (provider) => void (stateOf(provider).trialUntil = 0),
  };
}
