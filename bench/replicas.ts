/**
 * What the update stream costs (src/updates/: several processes, nothing lost), one phase of
 * `npm run bench`. The order rounds (chats ordering at once, 5 updates an order, each waiting for
 * the bot's answer), in webhook mode, with the compiled bot as production runs it:
 *
 * - **1 process** and **3 processes** of this bot (behind a round-robin balancer written here,
 *   test/e2e/round-robin.ts), every update stored in Redis before Telegram gets its 200, handled
 *   from the stream;
 * - **today**, when BENCH_BASELINE names a checkout of the bot before the stream (its dist/ built
 *   and its node_modules installed): one process that answers the POST at once and handles the
 *   update in memory. Without it, that column is left out.
 *
 * Each configuration gets a redis-server of its own (a free port, nothing else on it), so the
 * Redis figures are exact: commands per update (INFO), and round trips per update counted in the
 * bot processes (bench/probe.ts, preloaded: write batches on their Redis sockets, all processes
 * summed). Latency: from the update queued at the fake Telegram to the bot's answer recorded by
 * it (chat-driver.ts: the same order, the same waiting). The fake posts each chat's updates one
 * at a time, as many chats at once as there are.
 * Settings (settings.ts): BENCH_REPLICAS=0 leaves it out, BENCH_REPLICAS_ROUNDS (default 1,10,100),
 * BENCH_REPLICAS_ORDERS (orders per round at least, default 500), BENCH_REPLICAS_WARM (warm-up
 * orders, default 100), BENCH_BASELINE.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import { createSandboxProvider, type SandboxProvider } from "../src/topup/sandbox.js";
import { startArgs } from "../test/e2e/bot-process.js";
import { createFakeBotApi, type FakeUser } from "../test/e2e/fake-bot-api.js";
import { createRoundRobin } from "../test/e2e/round-robin.js";
import { freePort, ownRedis } from "../test/helpers/redis.js";
import { orderFlow, userRange, Watch } from "./chat-driver.js";
import { alsoStop, probe, startProc, stopProc, type Probe, type Proc } from "./processes.js";
import { MAIN, REPLICA_BASELINE, REPLICA_ORDERS, REPLICA_ROUNDS, REPLICA_WARM_ORDERS, ROOT } from "./settings.js";
import { percentile } from "./stats.js";

const WEBHOOK_PATH = "/tg/hook";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Config {
  name: string;
  /** The checkout whose dist/main.js runs. */
  root: string;
  processes: number;
}

export type ReplicaConfig = Config;

export interface ReplicaRound {
  config: string;
  chats: number;
  updates: number;
  updatesPerSecond: number;
  p50: number;
  p99: number;
  commandsPerUpdate: number;
  roundTripsPerUpdate: number;
  cpuMsPerUpdate: number;
  providerCallsPerOrder: number;
}

export interface ReplicaResult {
  configs: string[];
  rounds: ReplicaRound[];
  /** The checkout measured as "today", if any. */
  baseline: string | undefined;
}

async function redisCommands(url: string): Promise<number> {
  const client = createClient({ url });
  await client.connect();
  try {
    const info = await client.info("stats");
    return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0);
  } finally {
    await client.close();
  }
}

async function round(config: Config, chats: number, r: number, log: (line: string) => void): Promise<ReplicaRound> {
  const redis = await ownRedis();
  const forget = alsoStop(() => redis.stop());
  const fake = createFakeBotApi();
  await fake.start();
  const watch = new Watch(fake);
  const sandbox: SandboxProvider = createSandboxProvider({
    mitraId: "bench",
    secretKey: "bench-secret",
    products: [{ code: "ML86", name: "86 Diamonds", priceRp: 19_500 }],
    initialBalance: 1_000_000_000_000,
  });
  await sandbox.listen(0, "127.0.0.1");
  const perSlot = Math.max(1, Math.ceil(REPLICA_ORDERS / chats));
  const first = 3_000_000 + r * 100_000;
  const users: FakeUser[] = userRange(first, chats * perSlot + REPLICA_WARM_ORDERS);
  const ports = await Promise.all(Array.from({ length: config.processes }, () => freePort()));
  const rr = createRoundRobin(ports.map((p) => `http://127.0.0.1:${p}`));
  await rr.start();
  const env = {
    BOT_TOKEN: fake.token,
    BOT_API_ROOT: fake.url,
    REDIS_URL: redis.url,
    BENCH_REDIS_PORT: new URL(redis.url).port,
    ALLOWED_USER_IDS: users.map((u) => u.id).join(","),
    CATALOG_FILE: join(config.root, "catalog.json"),
    TOPUP_BASE_URL: sandbox.url,
    TOPUP_MITRA_ID: "bench",
    TOPUP_SECRET_KEY: "bench-secret",
    WEBHOOK_URL: `http://bot.example.com:8443${WEBHOOK_PATH}`,
    WEBHOOK_SECRET: "bench-webhook-secret",
    LOG_LEVEL: "info",
  };
  const script = join(config.root, "dist/main.js");
  const procs: Proc[] = [];
  try {
    for (const port of ports) {
      // The flags of `npm start` for either checkout (startProc adds them only to this one's dist/main.js).
      const flags = script === MAIN ? [] : startArgs().slice(0, -1);
      const proc = startProc(script, { ...env, PORT: String(port) }, { probe: true, flags });
      procs.push(proc);
      await proc.waitOutput(/bot started/);
    }
    fake.deliverWebhooks({ via: `${rr.url}${WEBHOOK_PATH}`, retryMs: 100, maxConnections: Math.max(40, chats) });
    const warm = users.slice(-REPLICA_WARM_ORDERS);
    await Promise.all(warm.map((u) => orderFlow(watch, u)));
    await sleep(500);

    const redisBefore = await redisCommands(redis.url);
    const before = await Promise.all(procs.map((p) => probe(p)));
    const calls = sandbox.calls.length;
    const latency: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: chats }, async (_, slot) => {
        for (let k = 0; k < perSlot; k++) await orderFlow(watch, users[k * chats + slot]!, latency);
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    await sleep(300);
    const after = await Promise.all(procs.map((p) => probe(p)));
    // Two INFOs: the first one counts in the second's figure.
    const commands = (await redisCommands(redis.url)) - redisBefore - 1;
    const orders = chats * perSlot;
    const updates = orders * 5;
    const sum = (ps: Probe[], v: (p: Probe) => number) => ps.reduce((total, p) => total + v(p), 0);
    const res: ReplicaRound = {
      config: config.name,
      chats,
      updates,
      updatesPerSecond: updates / seconds,
      p50: percentile(latency, 50),
      p99: percentile(latency, 99),
      commandsPerUpdate: commands / updates,
      roundTripsPerUpdate: (sum(after, (p) => p.redisRoundTrips) - sum(before, (p) => p.redisRoundTrips)) / updates,
      cpuMsPerUpdate:
        (sum(after, (p) => p.cpuUserUs + p.cpuSystemUs) - sum(before, (p) => p.cpuUserUs + p.cpuSystemUs)) /
        1000 /
        updates,
      providerCallsPerOrder: (sandbox.calls.length - calls) / orders,
    };
    log(
      `  ${config.name.padEnd(12)} ${String(chats).padStart(4)} chats: ${res.updatesPerSecond.toFixed(1)} updates/s, ` +
        `p50/p99 ${res.p50.toFixed(1)}/${res.p99.toFixed(1)} ms, ${res.commandsPerUpdate.toFixed(2)} Redis commands and ` +
        `${res.roundTripsPerUpdate.toFixed(2)} round trips per update, ${res.cpuMsPerUpdate.toFixed(2)} ms CPU per update ` +
        `(all processes), ${res.providerCallsPerOrder.toFixed(2)} provider calls per order`,
    );
    return res;
  } finally {
    await fake.stopDelivering();
    watch.close();
    for (const p of procs) await stopProc(p);
    await rr.stop();
    await fake.stop();
    await sandbox.close();
    forget();
    await redis.stop();
  }
}

/** The phase: every round with every configuration ("today" first when BENCH_BASELINE is set). */
export async function replicaRounds(log: (line: string) => void): Promise<ReplicaResult> {
  const baseline = REPLICA_BASELINE;
  if (baseline !== undefined && !existsSync(join(baseline, "dist/main.js")))
    throw new Error(`BENCH_BASELINE=${baseline}: no dist/main.js there (build that checkout first)`);
  const configs: Config[] = [
    ...(baseline === undefined ? [] : [{ name: "today", root: baseline, processes: 1 }]),
    { name: "1 process", root: ROOT, processes: 1 },
    { name: "3 processes", root: ROOT, processes: 3 },
  ];
  const rounds: ReplicaRound[] = [];
  let r = 0;
  for (const chats of REPLICA_ROUNDS) for (const config of configs) rounds.push(await round(config, chats, r++, log));
  return { configs: configs.map((c) => c.name), rounds, baseline };
}
