/**
 * What `npm run bench` measures and how much of it, from the environment: BENCH_ROUNDS (chats
 * ordering at once, default 1,10,100,1000), BENCH_IDLE_CHATS (chats left mid-order, default 10000),
 * BENCH_START_RUNS (default 10), BENCH_MIN_ORDERS (orders per round at least, default 200),
 * BENCH_REPEAT (each round that many times, medians reported, default 1), BENCH_REDIS_URL,
 * BENCH_PROFILE (a directory: CPU profiles of the bot in the rounds); the seeded year: BENCH_YEAR
 * (0 leaves it out), BENCH_YEAR_DAYS (default 365), BENCH_YEAR_PER_DAY (orders a day, default 2000),
 * BENCH_YEAR_IN_FLIGHT (ledger steps at once while seeding, default 1000), BENCH_YEAR_CALLS (timed
 * calls per question, default 40), BENCH_DRIVER_GC (0: the driver does not collect its garbage before
 * each timed call, to see what that changes); several processes (replicas.ts): BENCH_REPLICAS (0 leaves it out),
 * BENCH_REPLICAS_ROUNDS (chats at once, default 1,10,100), BENCH_REPLICAS_ORDERS (orders per round
 * at least, default 500), BENCH_REPLICAS_WARM (warm-up orders, default 100), BENCH_BASELINE (a
 * checkout of the bot before the update stream, built: the "today" column); the H2H API (h2h.ts):
 * BENCH_H2H (0 leaves it out), BENCH_H2H_ORDERS (timed orders, default 2000), BENCH_H2H_WARM (default
 * 200), BENCH_H2H_IN_FLIGHT (requests at once in the chain, default 16), BENCH_H2H_PARTNERS (default
 * 4), BENCH_H2H_PEAK (requests at once for the peak, default 16,32,64), BENCH_H2H_RATES (fixed rates,
 * orders/s, default 100,300,600), BENCH_H2H_RATE_SECONDS (timed seconds per rate, default 4); the
 * H2H comparison is repeated BENCH_REPEAT times too. Read once, when the bench starts.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DOC = `${ROOT}docs/benchmarks.md`;
export const MAIN = `${ROOT}dist/main.js`;

export const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
/** A comma-separated list of positive numbers (the others dropped). */
function numbers(list: string): number[] {
  return list
    .split(",")
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);
}

export const ROUNDS = numbers(process.env.BENCH_ROUNDS ?? "1,10,100,1000");
export const IDLE_CHATS = Number(process.env.BENCH_IDLE_CHATS ?? 10_000);
export const START_RUNS = Math.max(1, Number(process.env.BENCH_START_RUNS ?? 10));
/** Start-up runs that also wait ~2 s idle for the idle RSS (the first ones). */
export const IDLE_RSS_RUNS = Math.min(3, START_RUNS);
export const MIN_ORDERS = Math.max(1, Number(process.env.BENCH_MIN_ORDERS ?? 200));
/** Each round this many times (bot, bare, bot, bare, …); the figures are the medians. */
export const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1));
export const PROFILE_DIR = process.env.BENCH_PROFILE;
/** Every key the bench writes on the shared Redis starts with this; deleted at the end. */
export const RUN_PREFIX = `bench:${Date.now()}:`;
export const WARM_CHATS = 10;
export const CONFIRM_SAMPLES = 5;
export const IDLE_WARM_CHATS = 100;
export const IDLE_BATCH = 500;
export const STEP_TIMEOUT_MS = 60_000;
export const MB = 2 ** 20;

export const YEAR = process.env.BENCH_YEAR !== "0";
export const YEAR_DAYS = Math.max(1, Number(process.env.BENCH_YEAR_DAYS ?? 365));
export const YEAR_PER_DAY = Math.max(1, Number(process.env.BENCH_YEAR_PER_DAY ?? 2000));
export const YEAR_IN_FLIGHT = Math.max(1, Number(process.env.BENCH_YEAR_IN_FLIGHT ?? 1000));
export const YEAR_CALLS = Math.max(1, Number(process.env.BENCH_YEAR_CALLS ?? 40));
/** The driver collects its own garbage before each of the year's calls (driver-gc.ts). */
export const DRIVER_GC = process.env.BENCH_DRIVER_GC !== "0";
/** Untimed calls before each question's timed ones. */
export const YEAR_WARM_CALLS = 3;
/** A question slower than this stops early (after 3 timed calls at least): it reads the whole year. */
export const YEAR_QUESTION_BUDGET_MS = 30_000;
/** The Mini App's first load must stay within this, gzipped (issue 20). */
export const FIRST_LOAD_BUDGET_B = 150_000;

export const REPLICAS = process.env.BENCH_REPLICAS !== "0";
export const REPLICA_ROUNDS = (process.env.BENCH_REPLICAS_ROUNDS ?? "1,10,100")
  .split(",")
  .map((s) => Number(s.trim()))
  .filter((n) => n > 0);
export const REPLICA_ORDERS = Math.max(1, Number(process.env.BENCH_REPLICAS_ORDERS ?? 500));
export const REPLICA_WARM_ORDERS = Math.max(1, Number(process.env.BENCH_REPLICAS_WARM ?? 100));
export const REPLICA_BASELINE =
  process.env.BENCH_BASELINE === undefined ? undefined : resolve(process.env.BENCH_BASELINE);

export const H2H = process.env.BENCH_H2H !== "0";
export const H2H_ORDERS = Math.max(1, Number(process.env.BENCH_H2H_ORDERS ?? 2000));
export const H2H_WARM = Math.max(1, Number(process.env.BENCH_H2H_WARM ?? 200));
export const H2H_IN_FLIGHT = Math.max(1, Number(process.env.BENCH_H2H_IN_FLIGHT ?? 16));
export const H2H_PARTNERS = Math.max(1, Number(process.env.BENCH_H2H_PARTNERS ?? 4));
/** Requests in flight of the closed loops: the best of them is a target's peak. */
export const H2H_PEAK_IN_FLIGHT = numbers(process.env.BENCH_H2H_PEAK ?? "16,32,64");
/** The open loops' rates, orders/s: each request starts on time, whatever the others do. */
export const H2H_RATES = numbers(process.env.BENCH_H2H_RATES ?? "100,300,600");
export const H2H_RATE_SECONDS = Math.max(0.5, Number(process.env.BENCH_H2H_RATE_SECONDS ?? 4));

/** Pictures (bench/pictures.ts): BENCH_PICTURES=0 leaves them out; drawings timed after the first. */
export const PICTURES = process.env.BENCH_PICTURES !== "0";
export const PICTURES_SAMPLES = Math.max(1, Number(process.env.BENCH_PICTURES_SAMPLES ?? 40));

/** Several providers (bench/providers.ts): BENCH_PROVIDERS=0 leaves it out; orders timed per configuration. */
export const PROVIDERS = process.env.BENCH_PROVIDERS !== "0";
export const PROVIDERS_SAMPLES = Math.max(1, Number(process.env.BENCH_PROVIDERS_SAMPLES ?? 20));

export const TARGETS = {
  peakRss100Mb: 100,
  idleRssMb: 70,
  rssPerIdleChatKb: 10,
  redisPerIdleChatB: 600,
  startMs: 400,
  cpuRatio: 1.8,
  speedRatio: 0.6,
  commandsPerUpdate: 5,
  confirmRoundTrips: 4,
  /** The bot's H2H peak orders/s at least this share of the bare handler's. */
  h2hPeakRatio: 0.5,
  /** Redis round trips of one H2H order, one at a time. */
  h2hRoundTrips: 6,
  /** The bot's H2H p95 over the provider's own p95 at `h2hRate` orders/s, ms. */
  h2hP95OverMs: 5,
  h2hRate: 300,
};
