/**
 * The H2H API (#31), one phase of `npm run bench`: partners' systems ordering by HTTP.
 *
 * Side by side, `REPEAT` times (each time the sandbox, then a fresh bot, then a fresh bare handler;
 * the medians reported), three targets answering the same orders:
 *
 * - **sandbox direct**: the bench calls the sandbox provider itself (real HTTP, no latency): the
 *   provider's own time, which the others include;
 * - **bare handler** (bench/bare-h2h.ts): a plain `node:http` server making the one provider call the
 *   bot makes per order, with the bot's Agent settings, and nothing else: the floor;
 * - **bot** ("one shop"): `node dist/main.js`, as the other rounds run it, with H2H_ENABLED and a few
 *   partners (resellers with a key and a saldo), each order a distinct ref id.
 *
 * Each is measured for its **peak** (closed loops at `H2H_PEAK_IN_FLIGHT` requests in flight over
 * keep-alive connections, the best kept) with its process's CPU per order (the probe), at **fixed
 * rates** (open loops: a request starts on its schedule whatever the others do, and its latency counts
 * from that scheduled start, so a stall shows), and one request at a time for Redis per order
 * (commands from INFO, server-wide; round trips from the probe, with no concurrent orders to share a
 * batch).
 *
 * Then, once, the **chain**: a second bot process whose provider (TOPUP_BASE_URL) is the first one's
 * H2H API, with its own partners: partner → shop B → shop A → sandbox, beside the one shop and the
 * sandbox under the same load (`H2H_IN_FLIGHT` in flight).
 *
 * The keys and saldos are written from here through the shop's own stores (src/access/partners.ts,
 * the ledger), under the bot's key prefix, as `/apikey` and a confirmed deposit write them.
 * Settings: see settings.ts (BENCH_H2H_*).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";
import { createPartnerStore, type IssuedKey } from "../src/access/partners.js";
import { createLedger } from "../src/ledger/create-ledger.js";
import { createStorage } from "../src/storage/storage.js";
import { createFakeBotApi, type FakeBotApi } from "../test/e2e/fake-bot-api.js";
import { fundReseller } from "../test/helpers/ledger-history.js";
import { freePort } from "../test/helpers/redis.js";
import { botEnv, READY, type Harness } from "./bots.js";
import { BARE_H2H, cpuMs, probe, startProc, stopProc, type Probe, type Proc } from "./processes.js";
import { commandsBetween, commandsByName, keysUnder, redisInfo } from "./redis-info.js";
import {
  H2H_IN_FLIGHT,
  H2H_ORDERS,
  H2H_PARTNERS,
  H2H_PEAK_IN_FLIGHT,
  H2H_RATE_SECONDS,
  H2H_RATES,
  H2H_WARM,
  MAIN,
  REDIS_URL,
  REPEAT,
  RUN_PREFIX,
  TARGETS,
} from "./settings.js";
import { f, median, percentile } from "./stats.js";

const PLAYER = "12345678(1234)";
const ITEM = "ML86";
const ADMIN = 630_000;
const SALDO = 1_000_000_000_000;

/** One load: `orders` requests, `inFlight` at a time. */
export interface H2hLoad {
  orders: number;
  seconds: number;
  ordersPerSecond: number;
  /** Each request's time, ms, request sent to body read. */
  latency: number[];
  /** Answers that were not `status: 1` (or not HTTP 200). */
  failed: number;
  /** The first such answer, to say why. */
  firstFailure?: string;
}

/** The three targets of the side-by-side comparison. */
export type H2hTarget = "direct" | "bare" | "bot";
export const H2H_TARGETS: readonly H2hTarget[] = ["direct", "bare", "bot"];
export const H2H_TARGET_NAMES: Record<H2hTarget, string> = {
  direct: "sandbox direct",
  bare: "bare handler",
  bot: "bot",
};

/** One fixed rate (open loop): latencies from each request's scheduled start, ms. */
export interface H2hRateFigures {
  rate: number;
  /** Timed orders (the warm-up's left out). */
  orders: number;
  /** Timed orders over the time from the first one's scheduled start to the last answer: below the rate when the target falls behind. */
  answeredPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** The same percentiles minus the sandbox direct's at the same rate (of the same repetition): the target's own time. */
  overP50: number;
  overP95: number;
  overP99: number;
  failed: number;
}

/** What one target did in one repetition; NaN where a figure does not apply to it. */
export interface H2hFigures {
  /** The best orders/s of the closed loops. */
  peak: number;
  /** Its requests in flight (in the medians, the median of the runs': the doc shows each run's). */
  peakInFlight: number;
  /** Orders/s of each closed loop, in `H2H_PEAK_IN_FLIGHT` order. */
  byInFlight: number[];
  /** `peak` over the bare handler's of the same repetition. */
  peakRatio: number;
  /** The target process's CPU (user + system, the probe) per order over the peak's loop; NaN for the sandbox (it runs in the bench). */
  cpuMsPerOrder: number;
  /** One at a time: Redis commands per order (INFO, server-wide); the bot only. */
  commandsPerOrder: number;
  /** One at a time: Redis round trips per order (the probe); NaN for the sandbox. */
  roundTripsPerOrder: number;
  /** One at a time: p50 and p95, ms. */
  oneP50: number;
  oneP95: number;
  rates: H2hRateFigures[];
  /** Answers that were not `status: 1` (or not HTTP 200), every loop together. */
  failed: number;
  firstFailure?: string;
}

/** The side-by-side comparison: how it was run, each repetition's figures and their medians. */
export interface H2hComparison {
  repeat: number;
  peakInFlight: number[];
  /** Timed orders of each closed loop, after `warm` untimed ones. */
  orders: number;
  warm: number;
  rates: number[];
  rateSeconds: number;
  rateWarmSeconds: number;
  oneAtATime: number;
  runs: Array<Record<H2hTarget, H2hFigures>>;
  median: Record<H2hTarget, H2hFigures>;
  /** The bot's Redis commands by name, one at a time (`oneAtATime` orders), of the repetition whose bot peak is nearest the median. */
  byName: Record<string, number>;
}

export interface H2hResult {
  partners: number;
  inFlight: number;
  warm: number;
  compare: H2hComparison;
  /** The chain phase: the sandbox, one shop and the chain of two, `inFlight` at a time. */
  direct: H2hLoad;
  shop: H2hLoad & { commandsPerOrder: number; byName: Record<string, number> };
  chain: H2hLoad & { commandsPerOrder: number };
  /**
   * The same paths one request at a time (no queueing behind other requests): the latency the shop
   * itself adds to its provider's time.
   */
  oneAtATime: { direct: H2hLoad; shop: H2hLoad; chain: H2hLoad };
}

/** One target against its target figure: what the section and the log say of it. */
export interface H2hGoal {
  what: string;
  value: string;
  target: string;
  met: boolean;
}

/** The H2H targets, from the medians: the bot's peak against the bare handler's, its round trips, its p95 over the provider's. */
export function h2hGoals(c: H2hComparison): H2hGoal[] {
  const bot = c.median.bot;
  const at = bot.rates.find((r) => r.rate === TARGETS.h2hRate);
  return [
    {
      what: "bot's peak orders/s over the bare handler's",
      value: `${f(bot.peakRatio, 2)}×`,
      target: `≥ ${TARGETS.h2hPeakRatio}×`,
      met: bot.peakRatio >= TARGETS.h2hPeakRatio,
    },
    {
      what: "bot's Redis round trips per order (one at a time)",
      value: f(bot.roundTripsPerOrder, 1),
      target: `≤ ${TARGETS.h2hRoundTrips}`,
      met: bot.roundTripsPerOrder <= TARGETS.h2hRoundTrips,
    },
    {
      what: `bot's p95 over the provider's at ${TARGETS.h2hRate} orders/s`,
      value: at === undefined ? "not run (rate not in BENCH_H2H_RATES)" : `+${f(at.overP95, 2)} ms`,
      target: `≤ +${TARGETS.h2hP95OverMs} ms`,
      met: at !== undefined && at.overP95 <= TARGETS.h2hP95OverMs,
    },
  ];
}

/** How many orders each one-at-a-time line sends. */
const ONE_AT_A_TIME = 300;
/** Each fixed rate's untimed start, s: the same schedule, its answers not counted. */
const RATE_WARM_SECONDS = 0.5;
/** After the last answer, before the probe: what an order does after its answer (callback notes) is its own too. */
const SETTLE_MS = 300;
/** The bare handler's partner credentials: it checks none, but the query is as long as a partner's. */
const BARE_KEY = { mitraId: "MBAREHANDLER", secretKey: "bare-handler-secret-key-000000000000000" };

const p = (xs: number[], q: number) => percentile(xs, q);

/** `count` GETs of `url(i)`, `inFlight` at a time, over the agent's keep-alive connections. */
async function load(agent: Agent, url: (i: number) => string, count: number, inFlight: number): Promise<H2hLoad> {
  const latency: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  let next = 0;
  const began = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t = performance.now();
      const res = await request(url(i), { dispatcher: agent });
      const text = await res.body.text();
      latency.push(performance.now() - t);
      if (res.statusCode !== 200 || (JSON.parse(text) as { status?: number }).status !== 1) {
        failed++;
        firstFailure ??= `HTTP ${res.statusCode} ${text.slice(0, 300)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = (performance.now() - began) / 1000;
  return { orders: count, seconds, ordersPerSecond: count / seconds, latency, failed, firstFailure };
}

/** A rate's answers: each latency from its request's scheduled start, ms. */
interface RateLoad {
  latency: number[];
  seconds: number;
  failed: number;
  firstFailure?: string;
}

/**
 * Open loop: request i starts at `start + i / rate` whatever the others do (one behind its time
 * starts as soon as the loop gets to it), for a short untimed start and then `seconds` timed; each
 * latency counts from the scheduled start, so a stall of the target (or a queue in front of it) is
 * in the figures rather than slowing the load down.
 */
async function atRate(agent: Agent, url: (i: number) => string, rate: number, seconds: number): Promise<RateLoad> {
  const warm = Math.round(rate * RATE_WARM_SECONDS);
  const total = warm + Math.max(1, Math.round(rate * seconds));
  const start = performance.now();
  const due = (i: number) => start + (i * 1000) / rate;
  const latency: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  let lastAnswer = start;
  const one = async (i: number) => {
    const scheduled = due(i);
    let why: string | undefined;
    try {
      const res = await request(url(i), { dispatcher: agent });
      const text = await res.body.text();
      if (res.statusCode !== 200 || (JSON.parse(text) as { status?: number }).status !== 1)
        why = `HTTP ${res.statusCode} ${text.slice(0, 300)}`;
    } catch (err) {
      // Under a load past the target's capacity a connection may fail: an answer that never came.
      why = err instanceof Error ? err.message : String(err);
    }
    const now = performance.now();
    if (i < warm) return;
    latency.push(now - scheduled);
    lastAnswer = Math.max(lastAnswer, now);
    if (why !== undefined) {
      failed++;
      firstFailure ??= why;
    }
  };
  const sent: Array<Promise<void>> = [];
  let next = 0;
  while (next < total) {
    const now = performance.now();
    while (next < total && due(next) <= now) sent.push(one(next++));
    if (next < total) await sleep(Math.max(0, due(next) - performance.now()));
  }
  await Promise.all(sent);
  return { latency, seconds: (lastAnswer - due(warm)) / 1000, failed, firstFailure };
}

const orderUrl = (base: string, key: { mitraId: string; secretKey: string }, ref: string) =>
  `${base}/v1/transaction/partner?${new URLSearchParams({
    destination: PLAYER,
    ref_id: ref,
    item_code: ITEM,
    mitra_id: key.mitraId,
    secret_key: key.secretKey,
  }).toString()}`;

/** Keys and saldos for `users` in the shop under `prefix`, through its own stores. */
async function partners(prefix: string, users: number[]): Promise<IssuedKey[]> {
  const storage = await createStorage({ redisUrl: REDIS_URL, prefix });
  try {
    const store = createPartnerStore(storage);
    const { wallets } = createLedger(storage);
    const keys: IssuedKey[] = [];
    for (const user of users) {
      keys.push(await store.issue(user, Date.now()));
      await fundReseller(wallets, user, SALDO, ADMIN, Date.now());
    }
    return keys;
  } finally {
    await storage.close();
  }
}

interface Shop {
  base: string;
  proc: Proc;
  fake: FakeBotApi;
}

async function startShop(
  h: Harness,
  prefix: string,
  resellers: number[],
  provider?: { url: string; key: IssuedKey },
): Promise<Shop> {
  const fake = createFakeBotApi();
  await fake.start();
  const port = await freePort();
  const env = {
    ...botEnv(fake, prefix, [], h.sandbox),
    ALLOWED_USER_IDS: String(ADMIN + 1),
    ADMIN_IDS: String(ADMIN),
    RESELLER_IDS: resellers.join(","),
    H2H_ENABLED: "true",
    H2H_RATE_LIMIT: "100000",
    PORT: String(port),
    // The probe counts round trips to this port only.
    BENCH_REDIS_PORT: redisPort(),
    ...(provider === undefined
      ? {}
      : {
          TOPUP_BASE_URL: provider.url,
          TOPUP_MITRA_ID: provider.key.mitraId,
          TOPUP_SECRET_KEY: provider.key.secretKey,
        }),
  };
  const proc = startProc(MAIN, env, { probe: true });
  await proc.waitOutput(READY.ours);
  await proc.waitOutput(/H2H API on/);
  return { base: `http://127.0.0.1:${port}`, proc, fake };
}

async function stopShop(shop: Shop): Promise<void> {
  await stopProc(shop.proc);
  await shop.fake.stop();
}

const redisPort = () => new URL(REDIS_URL).port || "6379";

/** The bare handler (bench/bare-h2h.ts) in a process of its own, with the probe, the bot's provider settings. */
async function startBare(h: Harness): Promise<{ base: string; proc: Proc }> {
  const port = await freePort();
  const proc = startProc(
    BARE_H2H,
    {
      PORT: String(port),
      TOPUP_BASE_URL: h.sandbox.url,
      TOPUP_MITRA_ID: "bench",
      TOPUP_SECRET_KEY: "bench-secret",
      BENCH_REDIS_PORT: redisPort(),
    },
    { probe: true },
  );
  await proc.waitOutput(/bare h2h listening/);
  return { base: `http://127.0.0.1:${port}`, proc };
}

/** Warm-up, then the timed load: the whole H2H request, and Redis commands per order. */
async function timed(h: Harness, agent: Agent, url: (i: number) => string) {
  await load(agent, url, H2H_WARM, H2H_IN_FLIGHT);
  const before = await redisInfo(h.redis);
  const run = await load(agent, (i) => url(H2H_WARM + i), H2H_ORDERS, H2H_IN_FLIGHT);
  const after = await redisInfo(h.redis);
  return {
    ...run,
    commandsPerOrder: commandsBetween(before, after) / H2H_ORDERS,
    byName: commandsByName(before, after),
  };
}

/** What one target is to the comparison: its orders' URLs and, but for the sandbox, its process. */
interface Target {
  /** Starts each ref id: unique per target and repetition (the sandbox spends every ref id it sees). */
  tag: string;
  url: (ref: string, i: number) => string;
  /** The process answering, with the probe; none for the sandbox (it runs in the bench). */
  proc?: Proc;
  /** Redis commands per order are the bot's only: for the others INFO would count other clients alone. */
  redis: boolean;
}

const probeOf = async (t: Target): Promise<Probe | undefined> => (t.proc === undefined ? undefined : probe(t.proc));

/** The closed loops, the best kept, with the target process's CPU per order over it. */
async function peakOf(agent: Agent, t: Target, urls: (phase: string) => (i: number) => string) {
  const loops: Array<{ inFlight: number; run: H2hLoad; cpuMsPerOrder: number }> = [];
  for (const inFlight of H2H_PEAK_IN_FLIGHT) {
    await load(agent, urls(`w${inFlight}`), H2H_WARM, inFlight);
    const before = await probeOf(t);
    const run = await load(agent, urls(`p${inFlight}`), H2H_ORDERS, inFlight);
    const after = await probeOf(t);
    const cpu = before === undefined || after === undefined ? NaN : (cpuMs(after) - cpuMs(before)) / H2H_ORDERS;
    loops.push({ inFlight, run, cpuMsPerOrder: cpu });
  }
  const best = loops.reduce((a, b) => (b.run.ordersPerSecond > a.run.ordersPerSecond ? b : a));
  return { loops, best };
}

/** One target's figures: peak, one at a time (Redis per order), then each fixed rate. */
async function measure(
  h: Harness,
  agent: Agent,
  t: Target,
): Promise<{ figures: H2hFigures; byName: Record<string, number> }> {
  const urls = (phase: string) => (i: number) => t.url(`${t.tag}${phase}-${i}`, i);
  const { loops, best } = await peakOf(agent, t, urls);

  await sleep(SETTLE_MS);
  const redisBefore = await redisInfo(h.redis);
  const before = await probeOf(t);
  const one = await load(agent, urls("o"), ONE_AT_A_TIME, 1);
  await sleep(SETTLE_MS);
  const after = await probeOf(t);
  const redisAfter = await redisInfo(h.redis);

  const rates: H2hRateFigures[] = [];
  const failures: Array<{ failed: number; firstFailure?: string | undefined }> = [...loops.map((l) => l.run), one];
  for (const rate of H2H_RATES) {
    const r = await atRate(agent, urls(`r${rate}`), rate, H2H_RATE_SECONDS);
    failures.push(r);
    rates.push({
      rate,
      orders: r.latency.length,
      answeredPerSecond: r.latency.length / r.seconds,
      p50: p(r.latency, 50),
      p95: p(r.latency, 95),
      p99: p(r.latency, 99),
      overP50: NaN,
      overP95: NaN,
      overP99: NaN,
      failed: r.failed,
    });
  }
  const firstFailure = failures.find((l) => l.firstFailure !== undefined)?.firstFailure;
  const figures: H2hFigures = {
    peak: best.run.ordersPerSecond,
    peakInFlight: best.inFlight,
    byInFlight: loops.map((l) => l.run.ordersPerSecond),
    peakRatio: NaN,
    cpuMsPerOrder: best.cpuMsPerOrder,
    commandsPerOrder: t.redis ? commandsBetween(redisBefore, redisAfter) / ONE_AT_A_TIME : NaN,
    roundTripsPerOrder:
      before === undefined || after === undefined
        ? NaN
        : (after.redisRoundTrips - before.redisRoundTrips) / ONE_AT_A_TIME,
    oneP50: p(one.latency, 50),
    oneP95: p(one.latency, 95),
    rates,
    failed: failures.reduce((a, l) => a + l.failed, 0),
    ...(firstFailure === undefined ? {} : { firstFailure }),
  };
  return { figures, byName: t.redis ? commandsByName(redisBefore, redisAfter) : {} };
}

/** Deletes a repetition's keys once its bot is gone: the shared Redis need not hold every run's orders until the end. */
async function dropKeys(h: Harness, prefix: string): Promise<void> {
  const keys = await keysUnder(h.redis, prefix);
  for (let i = 0; i < keys.length; i += 1000) await h.redis.del(keys.slice(i, i + 1000));
}

/** One repetition: the sandbox, a fresh bot, a fresh bare handler; the figures relative to each other filled in. */
async function compareOnce(
  h: Harness,
  agent: Agent,
  rep: number,
  run: string,
  users: number[],
): Promise<{ figures: Record<H2hTarget, H2hFigures>; byName: Record<string, number> }> {
  const sandboxKey = { mitraId: "bench", secretKey: "bench-secret" };
  const direct = await measure(h, agent, {
    tag: `D${rep}x${run}`,
    url: (ref) => orderUrl(h.sandbox.url, sandboxKey, ref),
    redis: false,
  });

  const prefix = `${RUN_PREFIX}h2h-s${rep}:`;
  const keys = await partners(prefix, users);
  const shop = await startShop(h, prefix, users);
  let bot: Awaited<ReturnType<typeof measure>>;
  try {
    bot = await measure(h, agent, {
      tag: `S${rep}x${run}`,
      url: (ref, i) => orderUrl(shop.base, keys[i % keys.length]!, ref),
      proc: shop.proc,
      redis: true,
    });
  } finally {
    await stopShop(shop);
    await dropKeys(h, prefix);
  }

  const bareProc = await startBare(h);
  let bare: Awaited<ReturnType<typeof measure>>;
  try {
    bare = await measure(h, agent, {
      tag: `X${rep}x${run}`,
      url: (ref) => orderUrl(bareProc.base, BARE_KEY, ref),
      proc: bareProc.proc,
      redis: false,
    });
  } finally {
    await stopProc(bareProc.proc);
  }

  const figures = { direct: direct.figures, bare: bare.figures, bot: bot.figures };
  for (const target of H2H_TARGETS) {
    const x = figures[target];
    x.peakRatio = x.peak / figures.bare.peak;
    x.rates.forEach((r, k) => {
      const base = figures.direct.rates[k]!;
      r.overP50 = r.p50 - base.p50;
      r.overP95 = r.p95 - base.p95;
      r.overP99 = r.p99 - base.p99;
    });
  }
  return { figures, byName: bot.byName };
}

/** Each figure's median over the repetitions (failures added up). */
function medianFigures(runs: H2hFigures[]): H2hFigures {
  const m = (get: (x: H2hFigures) => number) => median(runs.map(get));
  const first = runs[0]!;
  const firstFailure = runs.find((x) => x.firstFailure !== undefined)?.firstFailure;
  return {
    peak: m((x) => x.peak),
    peakInFlight: m((x) => x.peakInFlight),
    byInFlight: first.byInFlight.map((_, k) => m((x) => x.byInFlight[k]!)),
    peakRatio: m((x) => x.peakRatio),
    cpuMsPerOrder: m((x) => x.cpuMsPerOrder),
    commandsPerOrder: m((x) => x.commandsPerOrder),
    roundTripsPerOrder: m((x) => x.roundTripsPerOrder),
    oneP50: m((x) => x.oneP50),
    oneP95: m((x) => x.oneP95),
    rates: first.rates.map((r, k) => {
      const mr = (get: (x: H2hRateFigures) => number) => m((x) => get(x.rates[k]!));
      return {
        rate: r.rate,
        orders: mr((x) => x.orders),
        answeredPerSecond: mr((x) => x.answeredPerSecond),
        p50: mr((x) => x.p50),
        p95: mr((x) => x.p95),
        p99: mr((x) => x.p99),
        overP50: mr((x) => x.overP50),
        overP95: mr((x) => x.overP95),
        overP99: mr((x) => x.overP99),
        failed: runs.reduce((a, x) => a + x.rates[k]!.failed, 0),
      };
    }),
    failed: runs.reduce((a, x) => a + x.failed, 0),
    ...(firstFailure === undefined ? {} : { firstFailure }),
  };
}

const met = (ok: boolean) => (ok ? "met" : "NOT met");

/** The comparison's console lines: one per figure, the targets beside theirs. */
function logComparison(c: H2hComparison, log: (line: string) => void): void {
  const { direct, bare, bot } = c.median;
  const [ratio, trips, over] = h2hGoals(c);
  const of = `median of ${c.repeat}`;
  log(
    `  peak orders/s (best of ${c.peakInFlight.join("/")} in flight, ${of}): sandbox direct ${f(direct.peak)}, ` +
      `bare handler ${f(bare.peak)}, bot ${f(bot.peak)}: bot ${ratio!.value} bare (target ${ratio!.target}: ${met(ratio!.met)})`,
  );
  log(`  CPU ms/order at peak: bare handler ${f(bare.cpuMsPerOrder, 3)}, bot ${f(bot.cpuMsPerOrder, 3)}`);
  log(
    `  Redis per order, one at a time: bot ${f(bot.commandsPerOrder, 1)} commands, ${f(bot.roundTripsPerOrder, 2)} round trips ` +
      `(target ${trips!.target}: ${met(trips!.met)}); bare handler ${f(bare.roundTripsPerOrder, 2)} round trips`,
  );
  log(
    `  one at a time p50/p95 ms: sandbox direct ${f(direct.oneP50, 2)}/${f(direct.oneP95, 2)}, ` +
      `bare handler ${f(bare.oneP50, 2)}/${f(bare.oneP95, 2)}, bot ${f(bot.oneP50, 2)}/${f(bot.oneP95, 2)}`,
  );
  c.rates.forEach((rate, k) => {
    const r = (x: H2hFigures) => x.rates[k]!;
    const pp = (x: H2hFigures) =>
      `${f(r(x).p50, 2)}/${f(r(x).p95, 2)}/${f(r(x).p99, 2)} (${f(r(x).answeredPerSecond, 0)}/s answered)`;
    const goal = rate === TARGETS.h2hRate ? ` (target ${over!.target}: ${met(over!.met)})` : "";
    log(
      `  at ${rate}/s p50/p95/p99 ms: sandbox direct ${pp(direct)}, bare handler ${pp(bare)}, bot ${pp(bot)}; ` +
        `p95 over the provider's: bare handler +${f(r(bare).overP95, 2)}, bot +${f(r(bot).overP95, 2)}${goal}`,
    );
  });
  for (const t of H2H_TARGETS) {
    const x = c.median[t];
    if (x.failed > 0) log(`  ${H2H_TARGET_NAMES[t]}: ${x.failed} failed: ${x.firstFailure}`);
  }
}

/** The side-by-side comparison, `REPEAT` times, each repetition logged in one line and the medians in full. */
async function compare(h: Harness, agent: Agent, run: string, log: (line: string) => void): Promise<H2hComparison> {
  const users = Array.from({ length: H2H_PARTNERS }, (_, i) => 620_001 + i);
  const runs: Array<Record<H2hTarget, H2hFigures>> = [];
  const names: Array<Record<string, number>> = [];
  for (let rep = 0; rep < REPEAT; rep++) {
    const once = await compareOnce(h, agent, rep, run, users);
    runs.push(once.figures);
    names.push(once.byName);
    const { direct, bare, bot } = once.figures;
    log(
      `  side by side ${rep + 1}/${REPEAT}: peak sandbox ${f(direct.peak)}, bare ${f(bare.peak)}, bot ${f(bot.peak)} orders/s; ` +
        `bot ${f(bot.roundTripsPerOrder, 2)} round trips/order`,
    );
  }
  const med = Object.fromEntries(H2H_TARGETS.map((t) => [t, medianFigures(runs.map((r) => r[t]))])) as Record<
    H2hTarget,
    H2hFigures
  >;
  // The repetition whose bot peak is the median's (or nearest), for the commands by name.
  const mid = runs.reduce(
    (a, r, k) => (Math.abs(r.bot.peak - med.bot.peak) < Math.abs(runs[a]!.bot.peak - med.bot.peak) ? k : a),
    0,
  );
  const c: H2hComparison = {
    repeat: REPEAT,
    peakInFlight: H2H_PEAK_IN_FLIGHT,
    orders: H2H_ORDERS,
    warm: H2H_WARM,
    rates: H2H_RATES,
    rateSeconds: H2H_RATE_SECONDS,
    rateWarmSeconds: RATE_WARM_SECONDS,
    oneAtATime: ONE_AT_A_TIME,
    runs,
    median: med,
    byName: names[mid]!,
  };
  logComparison(c, log);
  return c;
}

export async function h2h(h: Harness, log: (line: string) => void): Promise<H2hResult> {
  const connections = 2 * Math.max(H2H_IN_FLIGHT, ...H2H_PEAK_IN_FLIGHT);
  const agent = new Agent({ connections, keepAliveTimeout: 30_000 });
  const users = Array.from({ length: H2H_PARTNERS }, (_, i) => 620_001 + i);
  const shopBAtA = 620_100;
  const usersB = Array.from({ length: H2H_PARTNERS }, (_, i) => 620_201 + i);
  const prefixA = `${RUN_PREFIX}h2h-a:`;
  const prefixB = `${RUN_PREFIX}h2h-b:`;
  const run = `${Date.now()}`;
  const shops: Shop[] = [];
  try {
    const compared = await compare(h, agent, run, log);

    // The chain, beside the provider alone and one shop under the same load: the bench's own
    // sandbox, its own mitra id.
    log(`  the chain, ${H2H_IN_FLIGHT} in flight, beside the sandbox and one shop under the same load:`);
    const sandboxKey = { mitraId: "bench", secretKey: "bench-secret" };
    const direct = await timed(h, agent, (i) => orderUrl(h.sandbox.url, sandboxKey, `HD${run}-${i}`));
    const directOne = await load(agent, (i) => orderUrl(h.sandbox.url, sandboxKey, `HD1${run}-${i}`), ONE_AT_A_TIME, 1);
    log(
      `  sandbox direct: ${f(direct.ordersPerSecond)} orders/s, p50/p95 ${f(p(direct.latency, 50), 2)}/${f(p(direct.latency, 95), 2)} ms`,
    );

    const keysA = await partners(prefixA, [...users, shopBAtA]);
    const shopA = await startShop(h, prefixA, [...users, shopBAtA]);
    shops.push(shopA);
    const byPartner = (base: string, keys: IssuedKey[], tag: string) => (i: number) =>
      orderUrl(base, keys[i % H2H_PARTNERS]!, `${tag}${run}-${i}`);
    const shop = await timed(h, agent, byPartner(shopA.base, keysA, "HA"));
    const shopOne = await load(agent, byPartner(shopA.base, keysA, "HA1"), ONE_AT_A_TIME, 1);
    log(
      `  one shop: ${f(shop.ordersPerSecond)} orders/s, p50/p95 ${f(p(shop.latency, 50), 2)}/${f(p(shop.latency, 95), 2)} ms, ` +
        `${f(shop.commandsPerOrder, 1)} Redis commands/order${shop.failed > 0 ? `, ${shop.failed} failed: ${shop.firstFailure}` : ""}`,
    );

    const keysB = await partners(prefixB, usersB);
    const shopB = await startShop(h, prefixB, usersB, { url: shopA.base, key: keysA[H2H_PARTNERS]! });
    shops.push(shopB);
    const chain = await timed(h, agent, byPartner(shopB.base, keysB, "HB"));
    const chainOne = await load(agent, byPartner(shopB.base, keysB, "HB1"), ONE_AT_A_TIME, 1);
    log(
      `  chain B → A → sandbox: ${f(chain.ordersPerSecond)} orders/s, p50/p95 ${f(p(chain.latency, 50), 2)}/${f(p(chain.latency, 95), 2)} ms, ` +
        `${f(chain.commandsPerOrder, 1)} Redis commands/order${chain.failed > 0 ? `, ${chain.failed} failed: ${chain.firstFailure}` : ""}`,
    );
    log(
      `  one at a time: sandbox ${f(p(directOne.latency, 50), 2)}/${f(p(directOne.latency, 95), 2)} ms, ` +
        `one shop ${f(p(shopOne.latency, 50), 2)}/${f(p(shopOne.latency, 95), 2)} ms, chain ${f(p(chainOne.latency, 50), 2)}/${f(p(chainOne.latency, 95), 2)} ms`,
    );
    return {
      partners: H2H_PARTNERS,
      inFlight: H2H_IN_FLIGHT,
      warm: H2H_WARM,
      compare: compared,
      direct,
      shop,
      chain,
      oneAtATime: { direct: directOne, shop: shopOne, chain: chainOne },
    };
  } finally {
    for (const s of shops.reverse()) await stopShop(s).catch(() => undefined);
    await agent.close();
  }
}
