/**
 * `npm run bench`: the bot as production runs it (`node dist/main.js`, compiled first) and a bare
 * grammY bot (bench/bare-bot.ts, compiled), side by side in the same run, each against its own fake Bot
 * API over real HTTP; the bot also against the sandbox provider and the real Redis. Measures the
 * figures of the target table and writes them to docs/benchmarks.md (the section "What each
 * change bought" is kept as it is). It measures, it never asserts: the exit code is 0 whatever
 * the figures, and 1 only when the bench itself failed.
 *
 * One file per measurement: start-up.ts, rounds.ts, redis-commands.ts (the Confirm update),
 * idle-chats.ts, replicas.ts (1 and 3 processes in webhook mode: what the update stream costs),
 * h2h.ts (partners ordering through the H2H API, one shop and a chain of two), providers.ts (a
 * failover's cost, and a second healthy provider's on the normal path), pictures.ts (the receipt drawn),
 * year.ts (a seeded year of sales, year-seed.ts, and the questions asked of it); benchmarks-doc.ts
 * writes the doc. The environment variables are in settings.ts.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createClient } from "@keyv/redis";
import { loadCatalog } from "../src/catalog/catalog.js";
import { createSandboxProvider } from "../src/topup/sandbox.js";
import { printSummary, renderDoc, type Report } from "./benchmarks-doc.js";
import type { Harness } from "./bots.js";
import { h2h } from "./h2h.js";
import { idleChats } from "./idle-chats.js";
import { compileBenchFiles, distFingerprint, removeBenchFiles, stopAll } from "./processes.js";
import { confirmProbe } from "./redis-commands.js";
import { keysUnder, redisBackground, redisInfo, type RedisClient } from "./redis-info.js";
import { replicaRounds } from "./replicas.js";
import { pictures } from "./pictures.js";
import { providers } from "./providers.js";
import { mergeRounds, round, type RoundResult } from "./rounds.js";
import {
  DOC,
  H2H,
  IDLE_CHATS,
  MAIN,
  MB,
  PICTURES,
  PICTURES_SAMPLES,
  PROVIDERS,
  PROVIDERS_SAMPLES,
  REDIS_URL,
  REPEAT,
  REPLICA_ROUNDS,
  REPLICAS,
  ROOT,
  ROUNDS,
  RUN_PREFIX,
  START_RUNS,
  YEAR,
  YEAR_DAYS,
  YEAR_PER_DAY,
} from "./settings.js";
import { startUps } from "./start-up.js";
import { year } from "./year.js";
import { f, median, percentile } from "./stats.js";

/** What cleanup() must close: set as main() opens it. */
let redis: RedisClient | undefined;
let sandbox: Harness["sandbox"] | undefined;

async function cleanup() {
  await stopAll();
  if (redis?.isOpen === true) {
    const keys = await keysUnder(redis, RUN_PREFIX);
    for (let i = 0; i < keys.length; i += 1000) await redis.del(keys.slice(i, i + 1000));
    await redis.close();
  }
  await sandbox?.close();
  removeBenchFiles();
}

async function main() {
  const began = performance.now();
  process.stdout.write("building (npm run build)…\n");
  const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0 || !existsSync(MAIN))
    throw new Error("npm run build failed: the bench measures dist/, built from the current code");
  const built = distFingerprint();
  compileBenchFiles();

  redis = createClient({ url: REDIS_URL });
  await redis.connect();
  const catalog = await loadCatalog(`${ROOT}catalog.json`);
  if (!catalog.ok) throw new Error(catalog.errors.join("\n"));
  sandbox = createSandboxProvider({
    mitraId: "bench",
    secretKey: "bench-secret",
    products: catalog.catalog.games.flatMap((g) =>
      g.products.map((p) => ({ code: p.code, name: p.name, priceRp: (p.price ?? 10000) - 500 })),
    ),
    initialBalance: 1_000_000_000_000,
  });
  await sandbox.listen(0, "127.0.0.1");
  const h: Harness = { redis, sandbox };

  const backgroundBefore = await redisBackground(redis);
  const at = () => `[${f((performance.now() - began) / 1000, 0)} s]`;
  process.stdout.write(`${at()} start-up: ${START_RUNS} runs of each bot\n`);
  const starts = await startUps(h);
  process.stdout.write(
    `  bot ${f(median(starts.ours.ms), 0)} ms, bare ${f(median(starts.bare.ms), 0)} ms to the first getUpdates; idle RSS bot ${f(median(starts.ours.idleRss) / MB)} MB, bare ${f(median(starts.bare.idleRss) / MB)} MB\n`,
  );

  process.stdout.write(`${at()} rounds: ${ROUNDS.join(", ")} chats at once\n`);
  const rounds: Report["rounds"] = [];
  for (const [r, chats] of ROUNDS.entries()) {
    const ours: RoundResult[] = [];
    const bare: RoundResult[] = [];
    for (let i = 0; i < REPEAT; i++) {
      ours.push(await round(h, "ours", chats, r, i));
      bare.push(await round(h, "bare", chats, r, i));
    }
    rounds.push({ ours: mergeRounds(ours), bare: mergeRounds(bare) });
  }

  process.stdout.write(`${at()} the Confirm update, one chat\n`);
  const confirm = await confirmProbe(h, "staff");
  process.stdout.write(`  round trips ${confirm.roundTrips.join(", ")}; commands ${confirm.commands.join(", ")}\n`);
  process.stdout.write(`${at()} the Confirm update of a reseller's order, one chat\n`);
  const confirmReseller = await confirmProbe(h, "reseller");
  process.stdout.write(
    `  round trips ${confirmReseller.roundTrips.join(", ")}; commands ${confirmReseller.commands.join(", ")}\n`,
  );

  process.stdout.write(`${at()} ${IDLE_CHATS} chats left mid-order\n`);
  const idle = { ours: await idleChats(h, "ours"), bare: await idleChats(h, "bare") };

  let replicas: Report["replicas"];
  if (REPLICAS) {
    process.stdout.write(`${at()} several processes (webhook mode): ${REPLICA_ROUNDS.join(", ")} chats at once\n`);
    replicas = await replicaRounds((line) => process.stdout.write(`${line}\n`));
  }

  let h2hResult: Report["h2h"];
  if (H2H) {
    process.stdout.write(`${at()} the H2H API: partners ordering by HTTP, one shop and a chain of two\n`);
    h2hResult = await h2h(h, (line) => process.stdout.write(`${line}\n`));
  }

  let providersResult: Report["providers"];
  if (PROVIDERS) {
    process.stdout.write(
      `${at()} several providers: a failover, and two healthy providers against one (${PROVIDERS_SAMPLES} orders each)\n`,
    );
    providersResult = await providers(h);
    for (const l of providersResult.lines)
      process.stdout.write(
        `  ${l.config}: Confirm ${f(percentile(l.ms, 50), 1)} ms p50, round trips ${l.roundTrips.join(", ")}, provider calls/order ${f(l.providerCallsPerOrder, 2)}\n`,
      );
  }

  let picturesResult: Report["pictures"];
  if (PICTURES) {
    process.stdout.write(`${at()} pictures: the receipt, ${PICTURES_SAMPLES} drawings after the first\n`);
    picturesResult = await pictures(PICTURES_SAMPLES);
    for (const t of picturesResult.timings)
      process.stdout.write(
        `  ${t.name}: first ${f(t.coldMs, 0)} ms, then p50 ${f(percentile(t.ms, 50), 1)} ms, ${t.width} × ${t.height}, ${f(t.bytes / 1024, 0)} kB\n`,
      );
  }

  let yearResult: Report["year"];
  if (YEAR) {
    process.stdout.write(`${at()} a year of sales: ${YEAR_DAYS} days × ${YEAR_PER_DAY} orders\n`);
    yearResult = await year(h, catalog.catalog, (line) => process.stdout.write(`${line}\n`));
  }

  const redisVersion = (await redisInfo(redis)).version;
  const background = [backgroundBefore, await redisBackground(redis)];
  const report: Report = {
    starts,
    rounds,
    confirm,
    confirmReseller,
    idle,
    redisVersion,
    minutes: (performance.now() - began) / 60_000,
    redisBackground: background,
    replicas,
    h2h: h2hResult,
    providers: providersResult,
    pictures: picturesResult,
    year: yearResult,
  };
  if (distFingerprint() !== built)
    report.warning = "dist/ was rebuilt by something else during the run: the figures may mix two versions of the bot";
  writeFileSync(DOC, renderDoc(report));
  printSummary(report);
}

let interrupted = false;
process.once("SIGINT", () => {
  interrupted = true;
  process.stderr.write("interrupted: stopping the bots and deleting the bench's keys\n");
  void cleanup().finally(() => process.exit(130));
});

main()
  .then(async () => {
    await cleanup();
    process.exit(0);
  })
  .catch(async (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    if (!interrupted) await cleanup().catch(() => undefined);
    process.exit(1);
  });
