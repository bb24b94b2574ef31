/**
 * Chats left in the middle of an order: BENCH_IDLE_CHATS chats each send /order and stop at the game
 * menu. What each such chat costs the process (RSS, JS heap) and Redis (bytes, keys by shape).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { launch, shutdown, type Harness, type Kind } from "./bots.js";
import { leaveMidOrder, userRange } from "./chat-driver.js";
import { memoryOf, probe } from "./processes.js";
import { keysByShape, redisInfo, type KeyShape } from "./redis-info.js";
import { IDLE_BATCH, IDLE_CHATS, IDLE_WARM_CHATS, MB, RUN_PREFIX } from "./settings.js";
import { f } from "./stats.js";

export interface IdleResult {
  kind: Kind;
  chats: number;
  rssBefore: number;
  rssAfter: number;
  peak: number;
  heapBefore: number;
  heapAfter: number;
  heapBeforeGc: number;
  heapAfterGc: number;
  redisBefore: number;
  redisAfter: number;
  keys: KeyShape[];
  dialogueTtlMs?: number;
  seconds: number;
}

/**
 * `IDLE_CHATS` chats each send /order and stop at the game menu. A fresh process; the /order
 * path is warmed by IDLE_WARM_CHATS chats first (left mid-order too, before the first reading).
 * Readings after ~2 s idle before, and after all are answered and ~3 s idle.
 */
export async function idleChats(h: Harness, kind: Kind): Promise<IdleResult> {
  const users = userRange(2_000_000, IDLE_CHATS);
  const warm = userRange(1_990_000, IDLE_WARM_CHATS);
  const prefix = `${RUN_PREFIX}idle:`;
  const run = await launch(h, kind, [...warm, ...users], prefix, { probe: true });
  const { watch, proc } = run;
  const bare = kind === "bare";
  await Promise.all(warm.map((u) => leaveMidOrder(watch, u, bare)));
  // One full GC before the first reading: "before" holds no garbage of the start and warm-up,
  // so the difference is not flattered by it (and the heap kept per chat can be read at the end).
  const gcBefore = await probe(proc, true);
  await sleep(2000);
  const redisBefore = await redisInfo(h.redis);
  const probeBefore = await probe(proc);
  const memBefore = memoryOf(proc.pid);
  const t0 = performance.now();
  for (let i = 0; i < users.length; i += IDLE_BATCH)
    await Promise.all(users.slice(i, i + IDLE_BATCH).map((u) => leaveMidOrder(watch, u, bare)));
  const seconds = (performance.now() - t0) / 1000;
  await sleep(3000);
  const memAfter = memoryOf(proc.pid);
  const redisAfter = await redisInfo(h.redis);
  const probeAfter = await probe(proc);
  const gcd = await probe(proc, true);
  const res: IdleResult = {
    kind,
    chats: users.length,
    rssBefore: memBefore.rss,
    rssAfter: memAfter.rss,
    peak: memAfter.peak,
    heapBefore: probeBefore.heapUsed,
    heapAfter: probeAfter.heapUsed,
    heapAfterGc: gcd.heapUsed,
    heapBeforeGc: gcBefore.heapUsed,
    redisBefore: redisBefore.usedMemory,
    redisAfter: redisAfter.usedMemory,
    keys: [],
    seconds,
  };
  if (!bare) {
    // Where the Redis bytes go: the keys by shape (ids replaced by N), with MEMORY USAGE of a sample.
    res.keys = await keysByShape(h.redis, prefix, { sample: 20 });
    const sampleId = users[0]!.id;
    const ttl = await h.redis.pTTL(`${prefix}dialogue:${sampleId}:${sampleId}`);
    if (ttl >= 0) res.dialogueTtlMs = ttl;
  }
  await shutdown(run);
  process.stdout.write(
    `  ${kind.padEnd(4)} ${res.chats} chats mid-order: RSS ${f(res.rssBefore / MB)} → ${f(res.rssAfter / MB)} MB ` +
      `(${f((res.rssAfter - res.rssBefore) / res.chats / 1024, 2)} kB/chat), heap ${f(res.heapBefore / MB)} → ${f(res.heapAfter / MB)} MB` +
      (bare ? "" : `, Redis +${f((res.redisAfter - res.redisBefore) / res.chats, 0)} B/chat`) +
      ` (${f(res.chats / seconds, 0)} chats/s)\n`,
  );
  return res;
}
