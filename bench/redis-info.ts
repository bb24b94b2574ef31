/**
 * What Redis says of itself (INFO): commands processed, by name, memory, CPU. The figures are
 * server-wide: other clients of the same Redis count too (see `redisBackground`).
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { createClient } from "@keyv/redis";

export type RedisClient = ReturnType<typeof createClient>;

export interface RedisInfo {
  commands: number;
  /** Calls by command name (INFO commandstats). */
  byName: Map<string, number>;
  usedMemory: number;
  cpuS: number;
  version: string;
}

/** One INFO on the bench's own connection; the INFO itself is one command in the next figure. */
export async function redisInfo(redis: RedisClient): Promise<RedisInfo> {
  const info = await redis.info("all");
  const field = (name: string) => new RegExp(`^${name}:([^\\r\\n]+)`, "m").exec(info)?.[1] ?? "0";
  const byName = new Map<string, number>();
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) byName.set(m[1]!, Number(m[2]));
  return {
    commands: Number(field("total_commands_processed")),
    byName,
    usedMemory: Number(field("used_memory")),
    cpuS: Number(field("used_cpu_user")) + Number(field("used_cpu_sys")),
    version: field("redis_version"),
  };
}
/** Commands between two INFOs, the first INFO left out. */
export const commandsBetween = (a: RedisInfo, b: RedisInfo) => b.commands - a.commands - 1;
/** Commands per second from other clients while no bot runs: the INFO figures are server-wide. */
export async function redisBackground(redis: RedisClient): Promise<number> {
  const a = await redisInfo(redis);
  await sleep(1000);
  return commandsBetween(a, await redisInfo(redis));
}
/** Calls by command between two INFOs, the bench's INFO left out. */
export function commandsByName(a: RedisInfo, b: RedisInfo): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, calls] of b.byName) {
    const d = calls - (a.byName.get(name) ?? 0) - (name === "info" ? 1 : 0);
    if (d > 0) out[name] = d;
  }
  return out;
}

export async function keysUnder(redis: RedisClient, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
  return keys;
}

/** Keys of one shape: how many, and the mean MEMORY USAGE of a sample of them (bytes). */
export interface KeyShape {
  pattern: string;
  count: number;
  bytesEach: number;
}

/**
 * Where the Redis bytes under a prefix go: the keys by shape (each part of a key holding a digit,
 * an id, becomes N: `o:N`, `dialogue:N:N`), with MEMORY USAGE of the first `sample` keys of each
 * (SCAN order), biggest share first. `exact`: MEMORY USAGE … SAMPLES 0 (every element of a large
 * set or list counted, not estimated from 5).
 */
export async function keysByShape(
  redis: RedisClient,
  prefix: string,
  opts: { sample: number; exact?: boolean },
): Promise<KeyShape[]> {
  const groups = new Map<string, { count: number; sample: string[] }>();
  for await (const batch of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
    for (const key of batch) {
      const pattern = key.slice(prefix.length).replace(/[^:]*\d[^:]*/g, "N");
      const group = groups.get(pattern) ?? { count: 0, sample: [] };
      group.count += 1;
      if (group.sample.length < opts.sample) group.sample.push(key);
      groups.set(pattern, group);
    }
  }
  const shapes: KeyShape[] = [];
  for (const [pattern, { count, sample }] of groups) {
    const sizes = await Promise.all(
      sample.map((k) => (opts.exact === true ? redis.memoryUsage(k, { SAMPLES: 0 }) : redis.memoryUsage(k))),
    );
    shapes.push({ pattern, count, bytesEach: sizes.reduce<number>((a, b) => a + (b ?? 0), 0) / sample.length });
  }
  return shapes.sort((a, b) => b.count * b.bytesEach - a.count * a.bytesEach);
}
