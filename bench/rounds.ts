/**
 * Rounds: N chats order at once through the bot, then through the bare grammY bot, each in a fresh
 * process: throughput, CPU per update (bot, Redis, the bench itself, the rest of the machine),
 * latency, Redis commands and round trips, provider calls per order, RSS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { launch, shutdown, type Harness, type Kind } from "./bots.js";
import { bareFlow, orderFlow, userRange, type Latencies } from "./chat-driver.js";
import { cpuMs, machineBusyMs, memoryOf, probe } from "./processes.js";
import { commandsBetween, commandsByName, redisInfo } from "./redis-info.js";
import { MB, MIN_ORDERS, RUN_PREFIX, WARM_CHATS } from "./settings.js";
import { f, median, percentile } from "./stats.js";

export interface RoundResult {
  kind: Kind;
  chats: number;
  orders: number;
  updates: number;
  seconds: number;
  updatesPerSecond: number;
  cpuMsPerUpdate: number;
  driverCpuMsPerUpdate: number;
  redisCpuMsPerUpdate: number;
  latency: Latencies;
  handlerMs: number[];
  commandsPerUpdate: number;
  /** Redis calls by command over the round. */
  commandsByName: Record<string, number>;
  roundTripsPerUpdate: number;
  /** Bot API calls (getUpdates apart) per update, and getUpdates calls per update. */
  apiCallsPerUpdate: number;
  getUpdatesPerUpdate: number;
  providerCallsPerOrder: number;
  /** Cores kept busy on average during the round by processes other than this bot, Redis and the bench. */
  otherCores: number;
  rss: number;
  peak: number;
}

/**
 * `chats` chats order at once, each waiting for every answer before its next step; the round
 * has at least MIN_ORDERS orders (a chat slot that is done starts the next order with a new user:
 * one user ordering non-stop would be stopped by the flood limit, which no person reaches). Each
 * round (and each repetition of it) runs in a fresh process after a warm-up of WARM_CHATS whole orders, so VmHWM after it is
 * the peak of that round (start-up and warm-up are smaller).
 */
export async function round(h: Harness, kind: Kind, chats: number, r: number, repeat = 0): Promise<RoundResult> {
  const perSlot = Math.max(1, Math.ceil(MIN_ORDERS / chats));
  const first = 1_000_000 + r * 100_000;
  const users = userRange(first, chats * perSlot);
  const warm = userRange(first - 1000, WARM_CHATS);
  const flow = kind === "ours" ? orderFlow : bareFlow;
  // Each repetition on keys of its own: its fake Telegram numbers messages from 1 again, and a
  // message already seen under the same chat would be taken for a redelivered update.
  const run = await launch(h, kind, [...warm, ...users], `${RUN_PREFIX}r${r}.${repeat}:`, {
    probe: true,
    profile: kind === "ours",
  });
  const { watch, proc } = run;
  await Promise.all(warm.map((u) => flow(watch, u)));
  await sleep(500);

  const logFrom = proc.output().length;
  const callsBefore = h.sandbox.calls.length;
  const redisBefore = await redisInfo(h.redis);
  const before = await probe(proc);
  const driverBefore = process.cpuUsage();
  const busyBefore = machineBusyMs();
  const windowStart = performance.now();
  const apiBefore = watch.apiCalls;
  const pollsBefore = watch.getUpdatesCalls;
  const latency: Latencies = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: chats }, async (_, slot) => {
      for (let k = 0; k < perSlot; k++) await flow(watch, users[k * chats + slot]!, latency);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const polls = watch.getUpdatesCalls - pollsBefore;
  await sleep(300); // what the last updates do after their answer (logs, marks) is theirs too
  const driverCpu = process.cpuUsage(driverBefore);
  const apiCalls = watch.apiCalls - apiBefore;
  const after = await probe(proc);
  const redisAfter = await redisInfo(h.redis);
  const busy = machineBusyMs() - busyBefore;
  const windowMs = performance.now() - windowStart;
  const mem = memoryOf(proc.pid);
  const orders = chats * perSlot;
  const updates = orders * 5;
  const handlerMs = [
    ...proc
      .output()
      .slice(logFrom)
      .matchAll(/"ms":(\d+)[^\n]*"msg":"update handled"/g),
  ].map((m) => Number(m[1]));
  await shutdown(run);
  const res: RoundResult = {
    kind,
    chats,
    orders,
    updates,
    seconds,
    updatesPerSecond: updates / seconds,
    cpuMsPerUpdate: (cpuMs(after) - cpuMs(before)) / updates,
    driverCpuMsPerUpdate: (driverCpu.user + driverCpu.system) / 1000 / updates,
    redisCpuMsPerUpdate: kind === "ours" ? ((redisAfter.cpuS - redisBefore.cpuS) * 1000) / updates : 0,
    latency,
    handlerMs,
    commandsPerUpdate: kind === "ours" ? commandsBetween(redisBefore, redisAfter) / updates : 0,
    commandsByName: kind === "ours" ? commandsByName(redisBefore, redisAfter) : {},
    roundTripsPerUpdate: (after.redisRoundTrips - before.redisRoundTrips) / updates,
    apiCallsPerUpdate: apiCalls / updates,
    getUpdatesPerUpdate: polls / updates,
    providerCallsPerOrder: kind === "ours" ? (h.sandbox.calls.length - callsBefore) / orders : 0,
    otherCores:
      Math.max(
        0,
        busy -
          (cpuMs(after) - cpuMs(before)) -
          (driverCpu.user + driverCpu.system) / 1000 -
          (redisAfter.cpuS - redisBefore.cpuS) * 1000,
      ) / windowMs,
    rss: mem.rss,
    peak: mem.peak,
  };
  process.stdout.write(
    `  ${kind.padEnd(4)} ${String(chats).padStart(5)} chats: ${f(res.updatesPerSecond)} updates/s, cpu ${f(res.cpuMsPerUpdate, 2)} ms/update, ` +
      `p50/p95 ${f(percentile(latency, 50))}/${f(percentile(latency, 95))} ms, rss ${f(res.rss / MB)} (peak ${f(res.peak / MB)}) MB` +
      (kind === "ours"
        ? `, ${f(res.commandsPerUpdate, 2)} redis commands/update, ${f(res.providerCallsPerOrder, 2)} provider calls/order`
        : "") +
      "\n",
  );
  return res;
}

/** Several runs of one round: the median of every figure, the latencies of all runs together. */
export function mergeRounds(runs: RoundResult[]): RoundResult {
  if (runs.length === 1) return runs[0]!;
  const merged: RoundResult = {
    ...runs[0]!,
    latency: runs.flatMap((x) => x.latency),
    handlerMs: runs.flatMap((x) => x.handlerMs),
  };
  const numeric = merged as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(runs[0]!)) {
    if (typeof value === "number")
      numeric[key] = median(runs.map((x) => (x as unknown as Record<string, number>)[key]!));
  }
  return merged;
}
