/**
 * docs/benchmarks.md, written from the figures of one run (the section "What each change bought"
 * is kept as it is), and the summary printed at the end of the run.
 */
import { existsSync, readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import type { Kind } from "./bots.js";
import { H2H_TARGET_NAMES, H2H_TARGETS, h2hGoals, type H2hComparison, type H2hResult } from "./h2h.js";
import type { IdleResult } from "./idle-chats.js";
import type { ProvidersResult } from "./providers.js";
import { picturesSection, type PicturesResult } from "./pictures.js";
import type { ConfirmResult } from "./redis-commands.js";
import type { ReplicaResult } from "./replicas.js";
import type { RoundResult } from "./rounds.js";
import {
  CONFIRM_SAMPLES,
  DOC,
  IDLE_BATCH,
  IDLE_RSS_RUNS,
  IDLE_WARM_CHATS,
  MB,
  MIN_ORDERS,
  REDIS_URL,
  REPEAT,
  START_RUNS,
  TARGETS,
  WARM_CHATS,
  FIRST_LOAD_BUDGET_B,
  YEAR_CALLS,
  YEAR_IN_FLIGHT,
  YEAR_QUESTION_BUDGET_MS,
  YEAR_WARM_CALLS,
} from "./settings.js";
import type { StartResult } from "./start-up.js";
import { CAST, HOURS, MIX, TIME_ZONE } from "./year-seed.js";
import { ANSWER_TIMEOUT_MS, COMMAND_GAP_MS, HOT_DAYS, type Timing, type YearResult } from "./year.js";
import { f, median, percentile } from "./stats.js";

const HAND_SECTION = "## What each change bought";

/** The hand-written section of the existing doc, verbatim (heading to the next "## " or the end). */
function handSection(): string {
  const placeholder = `${HAND_SECTION}\n\n(filled in by hand)\n`;
  if (!existsSync(DOC)) return placeholder;
  const doc = readFileSync(DOC, "utf8");
  const lines = doc.split("\n");
  const start = lines.findIndex((l) => l.trimEnd() === HAND_SECTION);
  if (start < 0) return placeholder;
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    if (/^## /.test(lines[i]!)) {
      end = i;
      break;
    }
  }
  let text = lines.slice(start, end).join("\n");
  if (!text.endsWith("\n")) text += "\n";
  return text;
}

export interface Report {
  starts: Record<Kind, StartResult>;
  rounds: Array<{ ours: RoundResult; bare: RoundResult }>;
  confirm: ConfirmResult;
  confirmReseller: ConfirmResult;
  idle: Record<Kind, IdleResult>;
  redisVersion: string;
  minutes: number;
  /** Set when dist/ changed during the run. */
  warning?: string;
  /** Commands per second Redis got from other clients while the bench ran nothing (at the start and the end). */
  redisBackground: number[];
  /** 1 and 3 processes in webhook mode; undefined with BENCH_REPLICAS=0. */
  replicas: ReplicaResult | undefined;
  /** Partners ordering through the H2H API; undefined with BENCH_H2H=0. */
  h2h?: H2hResult | undefined;
  /** A failover and two providers against one; undefined with BENCH_PROVIDERS=0. */
  providers?: ProvidersResult | undefined;
  /** The receipt drawn; undefined with BENCH_PICTURES=0. */
  pictures?: PicturesResult | undefined;
  /** The seeded year; undefined with BENCH_YEAR=0. */
  year: YearResult | undefined;
}

const mark = (ok: boolean | undefined) => (ok === undefined ? "–" : ok ? "✅" : "❌");

function targetRows(rep: Report): string[][] {
  const { starts, rounds, confirm, confirmReseller, idle } = rep;
  const r100 = rounds.find((r) => r.ours.chats === 100);
  const idleRss = median(starts.ours.idleRss);
  const bareIdleRss = median(starts.bare.idleRss);
  const perChat = (i: IdleResult) => (i.rssAfter - i.rssBefore) / i.chats;
  const redisPerChat = (idle.ours.redisAfter - idle.ours.redisBefore) / idle.ours.chats;
  const startMs = median(starts.ours.ms);
  const cpuRatios = rounds.map((r) => r.ours.cpuMsPerUpdate / r.bare.cpuMsPerUpdate);
  const speedRatios = rounds.map((r) => r.ours.updatesPerSecond / r.bare.updatesPerSecond);
  const totalUpdates = rounds.reduce((a, r) => a + r.ours.updates, 0);
  const commands = rounds.reduce((a, r) => a + r.ours.commandsPerUpdate * r.ours.updates, 0) / totalUpdates;
  const confirmTrips = median(confirm.roundTrips);
  const confirmCommands = median(confirm.commands);
  const list = (xs: number[], d: number, suffix = "") => xs.map((x) => `${f(x, d)}${suffix}`).join(" / ");
  const chatsList = rounds.map((r) => r.ours.chats).join(" / ");
  return [
    [
      "peak RSS, 100 chats ordering at once",
      r100 === undefined ? "not run (100 not in BENCH_ROUNDS)" : `${f(r100.ours.peak / MB)} MB`,
      r100 === undefined ? "" : `${f(r100.bare.peak / MB)} MB`,
      `≤ ${TARGETS.peakRss100Mb} MB`,
      mark(r100 === undefined ? undefined : r100.ours.peak / MB <= TARGETS.peakRss100Mb),
    ],
    [
      "RSS after start, idle",
      `${f(idleRss / MB)} MB`,
      `${f(bareIdleRss / MB)} MB`,
      `≤ ${TARGETS.idleRssMb} MB`,
      mark(idleRss / MB <= TARGETS.idleRssMb),
    ],
    [
      `RSS per chat left mid-order (${idle.ours.chats.toLocaleString("en-US")} chats)`,
      `${f(perChat(idle.ours) / 1024, 2)} kB`,
      `${f(perChat(idle.bare) / 1024, 2)} kB`,
      `≤ ${TARGETS.rssPerIdleChatKb} kB`,
      mark(perChat(idle.ours) / 1024 <= TARGETS.rssPerIdleChatKb),
    ],
    [
      `Redis bytes per chat left mid-order (${idle.ours.chats.toLocaleString("en-US")} chats)`,
      `${f(redisPerChat, 0)} B`,
      "0 (keeps nothing)",
      `≤ ${TARGETS.redisPerIdleChatB} B`,
      mark(redisPerChat <= TARGETS.redisPerIdleChatB),
    ],
    [
      `start → first getUpdates (median of ${starts.ours.ms.length})`,
      `${f(startMs, 0)} ms`,
      `${f(median(starts.bare.ms), 0)} ms`,
      `≤ ${TARGETS.startMs} ms`,
      mark(startMs <= TARGETS.startMs),
    ],
    [
      `bot CPU per update vs bare grammY (rounds ${chatsList} chats)`,
      `${list(cpuRatios, 2, "×")} (worst ${f(Math.max(...cpuRatios), 2)}×)`,
      "1×",
      `≤ ${TARGETS.cpuRatio}×`,
      mark(Math.max(...cpuRatios) <= TARGETS.cpuRatio),
    ],
    [
      `updates/s vs bare grammY, every round (${chatsList} chats)`,
      `${list(speedRatios, 2)} (worst ${f(Math.min(...speedRatios), 2)})`,
      "1",
      `≥ ${TARGETS.speedRatio}`,
      mark(Math.min(...speedRatios) >= TARGETS.speedRatio),
    ],
    [
      "Redis commands per update (all rounds) / round trips of the Confirm update",
      `${f(commands, 2)} / ${f(confirmTrips, 0)} (Confirm: ${f(confirmCommands, 0)} commands)`,
      "0 / 0",
      `≤ ${TARGETS.commandsPerUpdate} / ≤ ${TARGETS.confirmRoundTrips}`,
      mark(commands <= TARGETS.commandsPerUpdate && confirmTrips <= TARGETS.confirmRoundTrips),
    ],
    [
      "Redis round trips of the Confirm update: a reseller's order (paid from the saldo) / a staff order",
      `${f(median(confirmReseller.roundTrips), 0)} / ${f(confirmTrips, 0)} (reseller Confirm: ${f(median(confirmReseller.commands), 0)} commands)`,
      "–",
      "reseller ≤ staff + 1",
      mark(median(confirmReseller.roundTrips) <= confirmTrips + 1),
    ],
  ];
}

const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join(
    "\n",
  );

function roundRows(rep: Report): string[][] {
  return rep.rounds.map(({ ours, bare }) => [
    String(ours.chats),
    `${ours.orders} / ${ours.updates}`,
    f(ours.updatesPerSecond),
    f(bare.updatesPerSecond),
    f(ours.updatesPerSecond / bare.updatesPerSecond, 2),
    f(ours.cpuMsPerUpdate, 2),
    f(bare.cpuMsPerUpdate, 2),
    `${f(ours.cpuMsPerUpdate / bare.cpuMsPerUpdate, 2)}×`,
    `${f(percentile(ours.latency, 50))} / ${f(percentile(ours.latency, 95))}`,
    `${f(percentile(bare.latency, 50))} / ${f(percentile(bare.latency, 95))}`,
    `${f(percentile(ours.handlerMs, 50), 0)} / ${f(percentile(ours.handlerMs, 95), 0)}`,
    f(ours.commandsPerUpdate, 2),
    f(ours.providerCallsPerOrder, 2),
    `${f(ours.rss / MB)} / ${f(ours.peak / MB)}`,
    `${f(bare.rss / MB)} / ${f(bare.peak / MB)}`,
  ]);
}

function cpuRows(rep: Report): string[][] {
  return rep.rounds.map(({ ours, bare }) => [
    String(ours.chats),
    f(ours.cpuMsPerUpdate, 3),
    f(ours.redisCpuMsPerUpdate, 3),
    f(ours.driverCpuMsPerUpdate, 3),
    f(ours.roundTripsPerUpdate, 2),
    `${f(ours.apiCallsPerUpdate, 2)} + ${f(ours.getUpdatesPerUpdate, 2)}`,
    f(bare.cpuMsPerUpdate, 3),
    f(bare.driverCpuMsPerUpdate, 3),
    `${f(bare.apiCallsPerUpdate, 2)} + ${f(bare.getUpdatesPerUpdate, 2)}`,
    `${f(ours.otherCores, 2)} / ${f(bare.otherCores, 2)}`,
    f(ours.seconds, 1),
    f(bare.seconds, 1),
  ]);
}

function commandRows(rep: Report): string {
  const first = rep.rounds[0]?.ours;
  const perOrder: Record<string, number> = {};
  if (first !== undefined)
    for (const [name, calls] of Object.entries(first.commandsByName)) perOrder[name] = calls / first.orders;
  const mid = median(rep.confirm.commands);
  const sample =
    rep.confirm.byName[rep.confirm.commands.findIndex((c) => c === Math.round(mid))] ?? rep.confirm.byName[0] ?? {};
  const names = [...new Set([...Object.keys(perOrder), ...Object.keys(sample)])].sort(
    (a, b) => (perOrder[b] ?? 0) - (perOrder[a] ?? 0),
  );
  const rows = names.map((n) => [`\`${n}\``, f(perOrder[n] ?? 0, 2), String(sample[n] ?? 0)]);
  const total = [
    "**all**",
    f(
      Object.values(perOrder).reduce((a, b) => a + b, 0),
      2,
    ),
    String(Object.values(sample).reduce((a, b) => a + b, 0)),
  ];
  return table(["command", "per order", "Confirm update"], [...rows, total]);
}

export function renderDoc(rep: Report): string {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM`;
  const { idle, starts, confirm } = rep;
  const idleLine = (i: IdleResult) =>
    `- ${i.kind === "ours" ? "bot" : "bare grammY"}: RSS ${f(i.rssBefore / MB)} MB before, ${f(i.rssAfter / MB)} MB after (peak ${f(i.peak / MB)} MB); ` +
    `JS heap used ${f(i.heapBefore / MB)} → ${f(i.heapAfter / MB)} MB; ` +
    `after a forced full GC ${f(i.heapBeforeGc / MB)} MB before and ${f(i.heapAfterGc / MB)} MB at the very end: ` +
    `${f((i.heapAfterGc - i.heapBeforeGc) / i.chats, 0)} B per chat kept on the JS heap${i.heapAfterGc <= i.heapBeforeGc ? " (nothing measurable)" : ""}; ` +
    `${f(i.chats / i.seconds, 0)} chats/s`;
  const keyRows = idle.ours.keys.map((k) => [`\`${k.pattern}\``, String(k.count), f(k.bytesEach, 0)]);
  return `# Benchmarks

How to run: \`npm run bench\` (Redis must answer on ${REDIS_URL}; \`npm run build\` runs first, so the bot measured is
the current code). About 11 minutes in all with the defaults (measured on a quiet machine here): 2 for the rounds, start-up and
idle chats, about 6.5 for the seeded year (it starts a \`redis-server\`
of its own, so the binary must be installed); a quick run (about 45 s): \`BENCH_ROUNDS=1,10 BENCH_IDLE_CHATS=500 BENCH_YEAR=0 BENCH_REPLICAS=0 npm run bench\`.
Other settings: \`BENCH_MIN_ORDERS\` (orders per round at least, default 200), \`BENCH_REPEAT\` (each round that many
times, bot and bare alternating, medians reported; default 1${REPEAT === 1 ? "" : `, this run ${REPEAT}`}), \`BENCH_REDIS_URL\`,
\`BENCH_PROFILE=/tmp/prof\` (Chrome CPU profiles of the bot in the rounds); the year: \`BENCH_YEAR=0\` leaves it out,
\`BENCH_YEAR_DAYS\` (default 365), \`BENCH_YEAR_PER_DAY\` (orders a day, default 2000), \`BENCH_YEAR_IN_FLIGHT\` (orders
written at once, default 1000), \`BENCH_YEAR_CALLS\` (timed calls per question, default 40), \`BENCH_DRIVER_GC=0\` (the driver does not
collect its own garbage before each timed call); a small year in about 2 minutes:
\`BENCH_YEAR_DAYS=30 BENCH_YEAR_PER_DAY=500\`. Several processes (about 2.5 minutes, each configuration with a
\`redis-server\` of its own): \`BENCH_REPLICAS=0\` leaves them out, \`BENCH_REPLICAS_ROUNDS\` (default 1,10,100),
\`BENCH_REPLICAS_ORDERS\` (default 500), \`BENCH_REPLICAS_WARM\` (warm-up orders, default 100), \`BENCH_BASELINE\` (a checkout of
the bot before the update stream, built, measured beside it as "today"). The script writes this file and keeps the
section "${HAND_SECTION.slice(3)}" as it is; it never fails on a missed target (it measures, it does not assert).

Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine}; Node ${process.version}, Redis ${rep.redisVersion};
the run took ${f(rep.minutes)} min.${rep.warning === undefined ? "" : ` **Warning: ${rep.warning}.**`} The 2 cores are shared by everything: the bench driver with the fake Bot API and the
sandbox provider (one process), the bot, and Redis. Figures move from run to run, for both bots: between two
full runs here a round's updates/s differed by up to half while other work shared the machine (see "other
processes" below); compare changes with \`BENCH_REPEAT=3\`.
Redis figures are server-wide: other clients sent ${rep.redisBackground.map((x) => f(x, 0)).join(" and ")} commands/s in a 1 s quiet check at the start
and at the end of the run${rep.redisBackground.some((x) => x > 0) ? " (not zero: the commands per update may include some of theirs)" : ""}.

What each figure means:

- **bot**: \`node dist/main.js\` with production settings (long polling with the runner, Redis, \`LOG_LEVEL=info\`), the
  provider being the sandbox (zero latency) started by the bench; **bare grammY**: \`bench/bare-bot.ts\`, the same
  runner and one handler that replies ("ok"; a button tap is answered, then replied to): the framework's floor.
  Both plain JavaScript (the bare bot compiled by esbuild, not bundled), each against its own fake Bot API (\`test/e2e/fake-bot-api.ts\`) over loopback HTTP.
- **peak RSS, 100 chats ordering at once**: VmHWM (/proc) of a bot process started fresh for the 100-chat round,
  read right after it: the lifetime peak of a process that only started, warmed up with ${WARM_CHATS} orders and ran that round.
- **RSS after start, idle**: VmRSS ~2 s after the process printed "bot started", before any update; median of the first
  ${IDLE_RSS_RUNS} start-up runs (plain \`node dist/main.js\`, nothing preloaded; the bare bot of the same run idles beside it).
- **RSS per chat left mid-order**: a fresh process, ${IDLE_WARM_CHATS} chats send \`/order\` first (warm-up), one forced full GC,
  ~2 s idle, VmRSS; then ${idle.ours.chats.toLocaleString("en-US")} chats each send \`/order\` and stop at the game menu (${IDLE_BATCH} at a time,
  each waiting for its menu); when all are answered, ~3 s idle, VmRSS again; (after − before) / chats. kB = 1024 B, MB = 2^20 B.
- **Redis bytes per chat left mid-order**: Redis \`used_memory\` over the same two readings, divided by the chats.
- **start → first getUpdates**: from \`spawn\` of a fresh \`node dist/main.js\` (resp. the bare bot) to the first getUpdates
  call the fake receives; median of ${START_RUNS} runs each (bot and bare alternate).
- **bot CPU per update**: user + system CPU time of the bot process over the round (\`process.cpuUsage()\`, reported by
  the preloaded \`bench/probe.ts\`, compiled), divided by the updates of the round; ratio bot / bare grammY, per round.
- **updates/s**: updates of the round / wall time from its first update to its last answer; ratio bot / bare, per round.
- **Redis commands per update**: Redis \`INFO total_commands_processed\` over the rounds (the bench's own INFO left out)
  / updates; **round trips of the Confirm update**: with one chat and nothing else going on, write batches on the bot's
  Redis sockets (\`bench/probe.ts\`: commands sent in one event-loop turn go out together, one round trip) from just
  before the Confirm tap to ~300 ms after its result arrived; median of ${CONFIRM_SAMPLES} orders.
- **rounds**: N chats order at once, each waiting for the bot's answer before its next step (\`/order\`, game, product,
  player id, Confirm: 5 updates an order). A round has at least ${MIN_ORDERS} orders: a chat that is done starts the next
  order as a new user (one user ordering non-stop would hit the flood limit, 30 messages in 2 s). Every round runs in
  a fresh process of each bot, after a warm-up of ${WARM_CHATS} orders; the bot first, then the bare bot.
- **latency**: per step, from the update being queued at the fake to the bot's answer recorded by the fake (the
  driver's view, both bots); **handler ms**: the bot's own "update handled" log figure (whole ms).
- **provider calls / order**: sandbox requests / orders; must be 1.00 (the submit-once guard under load).

## Targets

${table(["figure", "bot", "bare grammY", "target", "met"], targetRows(rep))}

## Rounds

${table(
  [
    "chats",
    "orders / updates",
    "bot updates/s",
    "bare updates/s",
    "bot / bare",
    "bot CPU ms / update",
    "bare CPU ms / update",
    "CPU bot / bare",
    "bot latency p50 / p95 ms",
    "bare latency p50 / p95 ms",
    "bot handler ms p50 / p95",
    "Redis commands / update",
    "provider calls / order",
    "bot RSS / peak MB",
    "bare RSS / peak MB",
  ],
  roundRows(rep),
)}

Where the CPU goes, per update of each round (ms): the bot process, Redis (\`used_cpu_user + used_cpu_sys\`), and the
bench process (driver, fake Bot API and sandbox provider: the other users of the 2 cores), and Redis round trips
per update counted in the bot (with many chats at once the client sends the commands of several updates in one batch),
and the HTTP calls each bot made to the Bot API per update (sends, edits, callback answers; then getUpdates).
"Other processes" is the CPU time of all processes (/proc/stat user + nice + system) during the round minus that of the
bot, Redis and the bench process, per second of the round: what else competed for the 2 cores (about 0 on a quiet
machine; /proc/stat counts in 10 ms ticks).

${table(
  [
    "chats",
    "bot",
    "Redis",
    "bench process (bot run)",
    "bot Redis round trips / update",
    "bot Bot API calls + getUpdates / update",
    "bare bot",
    "bench process (bare run)",
    "bare Bot API calls + getUpdates / update",
    "other processes, cores busy (bot run / bare run)",
    "bot round s",
    "bare round s",
  ],
  cpuRows(rep),
)}

## Start-up

Spawn → first getUpdates, every run (ms): bot ${starts.ours.ms.map((x) => f(x, 0)).join(", ")}; bare grammY ${starts.bare.ms.map((x) => f(x, 0)).join(", ")}.
RSS ~2 s after start (MB): bot ${starts.ours.idleRss.map((x) => f(x / MB)).join(", ")}; bare grammY ${starts.bare.idleRss.map((x) => f(x / MB)).join(", ")}.

## Redis commands

The Confirm update with one chat (${CONFIRM_SAMPLES} orders): Redis round trips ${confirm.roundTrips.join(", ")}; Redis commands ${confirm.commands.join(", ")}.
The same for a reseller's order (its price held from the saldo in the claim's own script, spent in the outcome's):
round trips ${rep.confirmReseller.roundTrips.join(", ")}; Redis commands ${rep.confirmReseller.commands.join(", ")}.
By command (\`INFO commandstats\`; Redis counts the commands a Lua script runs as commands too, besides the EVALSHA
itself): per order in the ${rep.rounds[0]?.ours.chats ?? "first"}-chat round, and in one Confirm update (the sample with the median count).

${commandRows(rep)}

## ${idle.ours.chats.toLocaleString("en-US")} chats left in the middle of an order

Each sent \`/order\` and stopped at the game menu.

${idleLine(idle.ours)}
${idleLine(idle.bare)}
- Redis: used_memory +${f((idle.ours.redisAfter - idle.ours.redisBefore) / MB, 2)} MB, ${f((idle.ours.redisAfter - idle.ours.redisBefore) / idle.ours.chats, 0)} B per chat${
    idle.ours.dialogueTtlMs === undefined
      ? ""
      : `; a dialogue key expires ${f(idle.ours.dialogueTtlMs / 3_600_000)} h after its last update`
  }. The bot's keys after the run, by shape (MEMORY USAGE of up to 20 keys each, bytes):

${table(["key", "keys", "bytes each"], keyRows)}

${replicasSection(rep.replicas)}

${h2hSection(rep.h2h)}

${providersSection(rep.providers)}

${picturesSection(rep.pictures, table)}

${yearSection(rep.year)}

${handSection()}`;
}

export function printSummary(rep: Report) {
  const rows = targetRows(rep);
  const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  process.stdout.write("\n");
  for (const r of rows)
    process.stdout.write(
      `${r[4]} ${r[0]!.padEnd(w[0]!)}  ${r[1]!.padEnd(w[1]!)}  bare ${r[2]!.padEnd(w[2]!)}  target ${r[3]}\n`,
    );
  process.stdout.write(
    "\nchats  bot u/s  bare u/s  ratio  cpu bot  cpu bare  cpu ratio  p50/p95 bot      cmds/upd  calls/order  rss/peak MB\n",
  );
  for (const { ours, bare } of rep.rounds) {
    process.stdout.write(
      `${String(ours.chats).padStart(5)}  ${f(ours.updatesPerSecond).padStart(7)}  ${f(bare.updatesPerSecond).padStart(8)}  ${f(ours.updatesPerSecond / bare.updatesPerSecond, 2).padStart(5)}  ` +
        `${f(ours.cpuMsPerUpdate, 2).padStart(7)}  ${f(bare.cpuMsPerUpdate, 2).padStart(8)}  ${f(ours.cpuMsPerUpdate / bare.cpuMsPerUpdate, 2).padStart(9)}  ` +
        `${`${f(percentile(ours.latency, 50))}/${f(percentile(ours.latency, 95))}`.padEnd(15)}  ${f(ours.commandsPerUpdate, 2).padStart(8)}  ${f(ours.providerCallsPerOrder, 2).padStart(11)}  ${f(ours.rss / MB)}/${f(ours.peak / MB)}\n`,
    );
  }
  if (rep.h2h !== undefined) {
    const { direct, shop, chain, oneAtATime: one } = rep.h2h;
    const pp = (l: H2hResult["direct"]) => `${f(percentile(l.latency, 50), 2)} / ${f(percentile(l.latency, 95), 2)} ms`;
    const { bare, bot } = rep.h2h.compare.median;
    const goals = h2hGoals(rep.h2h.compare)
      .map((g) => `${mark(g.met)} ${g.what} ${g.value} (target ${g.target})`)
      .join("; ");
    process.stdout.write(
      `\nH2H against a bare handler: peak bot ${f(bot.peak)}, bare ${f(bare.peak)} orders/s; CPU ms/order bot ${f(bot.cpuMsPerOrder, 3)}, ` +
        `bare ${f(bare.cpuMsPerOrder, 3)}; bot per order ${f(bot.commandsPerOrder, 1)} Redis commands, ${f(bot.roundTripsPerOrder, 2)} round trips; ${goals}`,
    );
    process.stdout.write(
      `\nH2H: one shop ${f(shop.ordersPerSecond)} orders/s, p50/p95 ${pp(shop)} (sandbox alone ${pp(direct)}), ` +
        `${f(shop.commandsPerOrder, 1)} Redis commands/order; chain B → A ${f(chain.ordersPerSecond)} orders/s, p50/p95 ${pp(chain)}; ` +
        `one at a time: sandbox ${pp(one.direct)}, one shop ${pp(one.shop)}, chain ${pp(one.chain)}\n`,
    );
  }
  if (rep.providers !== undefined) {
    const line = (l: ProvidersResult["lines"][number]) =>
      `${l.config} ${f(percentile(l.ms, 50), 1)} ms, ${f(median(l.roundTrips), 0)} round trips`;
    process.stdout.write(`\nSeveral providers (Confirm, median): ${rep.providers.lines.map(line).join("; ")}\n`);
  }
  if (rep.warning !== undefined) process.stdout.write(`\nWARNING: ${rep.warning}\n`);
  process.stdout.write(`\nwritten to ${DOC}\n`);
}

/**
 * The H2H comparison's part of the section: the three targets' peak, CPU and Redis per order, the
 * fixed rates, and the targets met or not.
 */
function h2hCompareText(c: H2hComparison): string {
  const cell = (x: number, d: number) => (Number.isFinite(x) ? f(x, d) : "–");
  const peakRows = H2H_TARGETS.map((t) => {
    const x = c.median[t];
    return [
      H2H_TARGET_NAMES[t],
      f(x.peak),
      c.runs.map((r) => r[t].peakInFlight).join(", "),
      x.byInFlight.map((v) => f(v, 0)).join(" / "),
      `${f(x.peakRatio, 2)}×`,
      cell(x.cpuMsPerOrder, 3),
      cell(x.commandsPerOrder, 1),
      cell(x.roundTripsPerOrder, 2),
      `${f(x.oneP50, 2)} / ${f(x.oneP95, 2)}`,
      String(x.failed),
    ];
  });
  const rateRows = c.rates.flatMap((rate, k) =>
    H2H_TARGETS.map((t) => {
      const r = c.median[t].rates[k]!;
      return [
        `${rate}/s`,
        H2H_TARGET_NAMES[t],
        f(r.answeredPerSecond, 0),
        `${f(r.p50, 2)} / ${f(r.p95, 2)} / ${f(r.p99, 2)}`,
        t === "direct" ? "–" : `+${f(r.overP95, 2)}`,
        t === "direct" ? "–" : `${f(r.overP50, 2)} / ${f(r.overP95, 2)} / ${f(r.overP99, 2)}`,
        String(r.failed),
      ];
    }),
  );
  const goals = h2hGoals(c).map((g) => [g.what, g.value, g.target, mark(g.met)]);
  const byName = Object.entries(c.byName)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, calls]) => `\`${name}\` ${f(calls / c.oneAtATime, 2)}`)
    .join(", ");
  const runs =
    c.repeat === 1
      ? "once, the bot and the bare handler each in a fresh process"
      : `${c.repeat} times in turn (sandbox, bot, bare handler; the bot and the bare handler each time in a fresh process), the medians shown`;
  return `### The bot against a bare handler

Three targets answer the same orders, side by side in the same run, ${runs}:

- **sandbox direct**: the bench calls the sandbox itself (keep-alive): the provider's own time, inside the other two;
- **bare handler** (\`bench/bare-h2h.ts\`): a plain \`node:http\` server making the one provider call the bot makes
  per order (undici \`request\`, the provider client's Agent settings: no keep-alive, the same timeouts) and
  passing the answer on; no key check, no saldo, no Redis: the floor;
- **bot**: one shop, as above.

Peak: closed loops at ${c.peakInFlight.join(", ")} requests in flight, ${count(c.orders)} timed orders after ${count(c.warm)}
untimed ones each, the best kept. CPU per order: the process's user + system CPU (the probe) over that best loop.
Redis per order: one request at a time (${count(c.oneAtATime)} orders), so that no concurrent order shares a batch:
commands from INFO (server-wide: other clients of the shared Redis count too), round trips from the probe (the
batches written to the Redis socket). The sandbox runs inside the bench, so it has no CPU or Redis figure of its own.

${table(
  [
    "target",
    "peak orders/s",
    "at in flight",
    `orders/s at ${c.peakInFlight.join(" / ")}`,
    "ratio to bare",
    "CPU ms / order",
    "Redis commands / order",
    "round trips / order",
    "one at a time p50 / p95 ms",
    "failed",
  ],
  peakRows,
)}

Fixed rates (open loop): request *i* starts at *start + i / rate* whatever the others do, ${f(c.rateWarmSeconds, 1)} s
untimed, then ${f(c.rateSeconds, 1)} s timed; each latency is from the request's scheduled start, so a stall (or a
queue in front of the target) counts. "Over the provider's": the target's percentile minus the sandbox direct's at
the same rate in the same run${c.repeat === 1 ? "" : " (the median of the runs' differences)"}. Answered/s below the rate: the target fell behind.

${table(
  [
    "rate",
    "target",
    "answered/s",
    "p50 / p95 / p99 ms",
    "p95 over the provider's ms",
    "over the provider's p50 / p95 / p99 ms",
    "failed",
  ],
  rateRows,
)}

${table(["target", "measured", "target", ""], goals)}

The bot's Redis commands per order by name, one at a time (the top ones): ${byName === "" ? "none" : byName}.`;
}

/** The section "The H2H API": the bot against a bare handler, then partners ordering through one shop and through a chain of two. */
function h2hSection(h2h: H2hResult | undefined): string {
  const text = `Partners' systems ordering through the H2H API (\`bench/h2h.ts\`): the compiled bot as production runs it,
\`H2H_ENABLED=true\`, its own key prefix on the shared Redis, the sandbox provider over real HTTP with no latency.`;
  if (h2h === undefined) return `## The H2H API\n\n${text}\n\nNot measured in this run (\`BENCH_H2H=0\`).`;
  const { direct, shop, chain } = h2h;
  const q = (l: H2hResult["direct"], n: number) => percentile(l.latency, n);
  const row = (name: string, l: H2hResult["direct"], added: string, cmds: string) => [
    name,
    f(l.ordersPerSecond),
    `${f(q(l, 50), 2)} / ${f(q(l, 95), 2)}`,
    added,
    cmds,
    String(l.failed),
  ];
  const over = (l: H2hResult["direct"], base: H2hResult["direct"]) =>
    `${f(q(l, 50) - q(base, 50), 2)} / ${f(q(l, 95) - q(base, 95), 2)}`;
  const rows = [
    row("the sandbox alone (called straight)", direct, "–", "–"),
    row("one shop: partner → shop A → sandbox", shop, over(shop, direct), f(shop.commandsPerOrder, 1)),
    row("a chain: partner → shop B → shop A → sandbox", chain, over(chain, shop), f(chain.commandsPerOrder, 1)),
  ];
  const byName = Object.entries(shop.byName)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, calls]) => `\`${name}\` ${f(calls / shop.orders, 2)}`)
    .join(", ");
  const one = h2h.oneAtATime;
  const oneRows = [
    row("the sandbox alone", one.direct, "–", "–"),
    row("one shop", one.shop, over(one.shop, one.direct), "–"),
    row("a chain of two shops", one.chain, over(one.chain, one.shop), "–"),
  ];
  return `## The H2H API

${text}
${h2h.partners} partners, each order a ref id of its own, over keep-alive connections (undici).

${h2hCompareText(h2h.compare)}

### One shop and a chain of two

${h2h.inFlight} requests in flight (one run, after the comparison, in fresh processes), ${count(shop.orders)} timed orders after ${count(h2h.warm)} untimed ones, for each line. The sandbox alone is the same load sent straight to the provider in the same run: the shop's line minus it is what the shop
adds. In the chain, shop B's provider (\`TOPUP_BASE_URL\`) is shop A's H2H API with B's key as a reseller of A, and
the partners order from B; its "added" column is over the one shop. Latency: the whole HTTP request, sent to body
read. Redis commands per order: INFO on the shared Redis before and after (server-wide: other clients count too);
the chain's counts both shops.

${table(["path", "orders/s", "p50 / p95 ms", "added p50 / p95 ms", "Redis commands / order", "failed"], rows)}

One shop's Redis commands per order by name (the top ones): ${byName}. Most of them run inside
the ledger's two Lua steps (the claim, which writes the draft, uses the ref id, holds the price and notes
the callback owed; the outcome, with the day's figures): the key, the allowance and the API's sales tally are
the rest.

One request at a time (${count(one.shop.orders)} orders each, no queueing behind other requests): what the shop adds to its
provider's own time.

${table(["path", "orders/s", "p50 / p95 ms", "added p50 / p95 ms", "Redis commands / order", "failed"], oneRows)}`;
}

const share = (part: number, whole: number) => `${f((100 * part) / whole, 1)} %`;
const hour = (h: number) => `${String(h).padStart(2, "0")}:00`;
const count = (n: number) => n.toLocaleString("en-US");

/** p50, p95 and max of a question's calls, and how many there were. */
function timingCells(t: Timing | undefined): string[] {
  if (t === undefined) return ["–", "", "", "", ""];
  return [
    `\`${t.call}\``,
    `${t.samples.length}${t.stoppedEarly ? "*" : ""}`,
    f(percentile(t.samples, 50)),
    f(percentile(t.samples, 95)),
    // A call given up counts as the slowest: its time is at least the limit.
    t.noAnswer ? `no answer in ${f(ANSWER_TIMEOUT_MS / 1000, 0)} s` : f(Math.max(...t.samples)),
  ];
}

/** What the update stream costs, in words (the table below it is measured). */
const REPLICAS_TEXT = `What the update stream (src/updates/) costs per update, so that several processes can share one
Redis and a process killed at any moment loses no update it acknowledged, measured with \`bench/replicas.ts\`: the
order rounds above in webhook mode (the fake Telegram posts each chat's updates one at a time, through a round-robin
balancer), with 1 and 3 processes of this bot, and "today" (a checkout of the bot before the stream, which answered
the webhook at once and handled the update in memory) when \`BENCH_BASELINE\` names one. Each configuration gets a
\`redis-server\` of its own, so the Redis figures are exact; round trips are counted in the bot processes (all of
them summed), CPU too. Per update, against today:

- the intake: one Lua step (dedupe by update_id, XADD, the lane's ZADD) before the POST is answered;
- the delivery: one XREADGROUP on a connection of its own, shared by the updates that arrive together;
- the lane: one Lua step takes the member's lane and reads its first update;
- done: one Lua step marks it done, removes and acknowledges it and reads the next one (so a member's next
  update, if already waiting, costs no lane step of its own).

That is 2 to 4 more Redis round trips per update (the target: at most 4; fewer when many updates arrive
together), about 20 more Redis commands inside them (Redis counts every command a Lua step runs; the table gives
today's and the stream's), and a longer way for each update (POST → Redis → a process → Redis) in exchange for nothing
lost. Background work adds a little: each process claims idle entries every second and renews its locks every 2 s
while it works; the poller's and the shared work's leases are renewed every few seconds. Several processes on one
machine cost more CPU per update than one (each has its own caches, JIT and event loop, and a member's updates
move between processes).`;

/** The section "Several processes": the words above and the rounds of each configuration. */
function replicasSection(replicas: ReplicaResult | undefined): string {
  if (replicas === undefined)
    return `## Several processes\n\n${REPLICAS_TEXT}\n\nNot measured in this run (\`BENCH_REPLICAS=0\`).`;
  const rows: string[][] = [];
  for (const r of replicas.rounds) {
    const today = replicas.rounds.find((x) => x.config === "today" && x.chats === r.chats);
    const vs = (a: number, b: number | undefined, d: number, ratio: boolean) =>
      b === undefined ? "–" : ratio ? `${f(a / b, 2)}×` : `${a - b >= 0 ? "+" : ""}${f(a - b, d)}`;
    rows.push([
      String(r.chats),
      r.config,
      f(r.updatesPerSecond),
      vs(r.updatesPerSecond, today?.updatesPerSecond, 2, true),
      `${f(r.p50)} / ${f(r.p99)}`,
      f(r.commandsPerUpdate, 2),
      f(r.roundTripsPerUpdate, 2),
      vs(r.roundTripsPerUpdate, today?.roundTripsPerUpdate, 2, false),
      f(r.cpuMsPerUpdate, 2),
      f(r.providerCallsPerOrder, 2),
    ]);
  }
  const head = [
    "chats",
    "configuration",
    "updates/s",
    "vs today",
    "latency p50 / p99 ms",
    "Redis commands / update",
    "Redis round trips / update",
    "vs today",
    "CPU ms / update (all processes)",
    "provider calls / order",
  ];
  const none = replicas.baseline === undefined ? ' No `BENCH_BASELINE`: no "today" to compare with.' : "";
  return `## Several processes\n\n${REPLICAS_TEXT}${none}\n\n${table(head, rows)}`;
}

/** Rows of a key-shape table: keys, bytes each, their MB and their share of `total` bytes. */
function shapeTable(shapes: YearResult["shapes"], total: number): string[][] {
  return shapes.map((k) => [
    `\`${k.pattern}\``,
    count(k.count),
    f(k.bytesEach, 0),
    f((k.count * k.bytesEach) / MB, 1),
    share(k.count * k.bytesEach, total),
  ]);
}

/** The section "A year of sales": the seed, its bytes by key shape, and each question's times. */
export function yearSection(year: YearResult | undefined): string {
  if (year === undefined) return "## A year of sales\n\nNot measured in this run (`BENCH_YEAR=0`).";
  const { seed, redis, bot } = year;
  const bytes = redis.seeded - redis.empty;
  const shapeRows = shapeTable(year.shapes, bytes);
  const accounted = year.shapes.reduce((sum, k) => sum + k.count * k.bytesEach, 0);
  const questionRows = year.questions.map((q) => [
    q.question,
    ...timingCells(q.app),
    q.app === undefined ? "" : f(q.app.bytes / 1024, 1),
    ...timingCells(q.chat),
  ]);
  const load = year.firstLoadGzip;
  const pending = seed.byState.unknown;
  const { compaction: packed, perOrder } = year;
  const packedBytes = packed.used - redis.empty;
  const packedRows = shapeTable(packed.shapes, packedBytes);
  const p95s = year.questions.flatMap((q) => [q.app, q.chat]).filter((t): t is Timing => t !== undefined);
  const slow = p95s.filter((t) => t.noAnswer || percentile(t.samples, 95) > 50);
  const perOrderRow = (who: string, b: YearResult["perOrder"]["staff"]) => [
    who,
    `${f(b.hot, 0)} ${mark(b.hot <= 1000)}`,
    `${f(b.compacted, 0)} ${mark(b.compacted <= 300)}`,
    f((b.hot * b.orders) / MB, 2),
    f((b.compacted * b.orders) / MB, 2),
  ];
  return `## A year of sales

What a shop owner's questions cost once the ledger holds a year (issue 20: at least 500,000 orders), measured
on a Redis that holds nothing else: the year as it is written, then as the bot's compaction leaves it, and the
questions asked of that.

- **Seed**: a \`redis-server\` of the bench's own (\`--save "" --appendonly no\`, so its \`used_memory\` is the year's
  alone; Redis ${redis.version}), ${seed.days} days (${seed.firstDay} to ${seed.lastDay}, ${TIME_ZONE}) × ${count(seed.perDay)} orders =
  **${count(seed.orders)} finished orders**, written through the ledger's own steps (\`bench/year-seed.ts\` with
  \`test/helpers/ledger-history.ts\`: draft, claim, outcome, the user told, an admin's settlement; a deposit's draft,
  confirmation and notice), at most ${YEAR_IN_FLIGHT} orders in flight, a day's deposits before its first sale:
  **${f(seed.seconds, 0)} s, ${f(seed.orders / seed.seconds, 0)} orders/s**. Times spread over each day from
  ${hour(HOURS.findIndex((w) => w > 0))} to ${hour(HOURS.findLastIndex((w) => w > 0) + 1)}, busiest in the evening.
- **Mix**: staff ${count(seed.byRole.staff)} (${share(seed.byRole.staff, seed.orders)}), admins ${count(seed.byRole.admin)} (${share(seed.byRole.admin, seed.orders)}),
  resellers ${count(seed.byRole.reseller)} (${share(seed.byRole.reseller, seed.orders)}; ${CAST.resellers.length} resellers, the biggest on the gold tier with
  ${count(seed.bigResellerMovements)} statement movements); deposits: ${count(seed.deposits)}, corrections: ${count(seed.corrections)}.
  The provider's answers: ${count(seed.byState.success - seed.settled.success)} success (each reporting the provider balance),
  ${count(seed.byState.failed - seed.settled.failed)} failed (${count(seed.notSent)} of them never sent), ${count(seed.settled.success + seed.settled.failed + pending)} unknown, of which an admin
  settled ${count(seed.settled.success)} as success with an SN and ${count(seed.settled.failed)} as failed with a reason; ${count(pending)} are still pending (the last
  days'). Final states: ${count(seed.byState.success)} success, ${count(seed.byState.failed)} failed, ${count(pending)} unknown. ${count(seed.players)} different player ids (${share(MIX.regular, 1)} of the orders from a pool of regulars).
- **Redis**: \`used_memory\` ${f(redis.empty / MB, 1)} MB empty, ${f(redis.seeded / MB, 1)} MB with the year (the drafts' open-draft
  pointers expired): **${f(bytes / MB, 1)} MB for the year, ${f(bytes / seed.orders, 0)} B per finished order**; ${count(redis.keys)} keys.
  By key shape (MEMORY USAGE … SAMPLES 0 of up to 50 keys each, bytes; ≈ MB = keys × bytes each, ${share(accounted, bytes)} of
  the year's bytes accounted for):

${table(["key", "keys", "bytes each", "≈ MB", "share"], shapeRows)}

- **Compacted**: the bot's first compaction pass (\`LEDGER_HOT_DAYS=${HOT_DAYS}\`, run through the ledger as the bot runs it at
  start) packed ${count(packed.result.orders)} orders and ${count(packed.result.movements)} statement movements in **${f(packed.ms / 1000, 0)} s**. \`used_memory\` after it:
  **${f(packedBytes / MB, 1)} MB for the year ${mark(packedBytes <= 250 * MB)} (target ≤ 250 MB), ${f(packedBytes / seed.orders, 0)} B per finished order** (the last ${HOT_DAYS} days
  still in their recent form); ${count(packed.keys)} keys. By key shape:

${table(["key", "keys", "bytes each", "≈ MB", "share"], packedRows)}

- **Per finished order**, all indexes (and a reseller's statement lines) included: a busy day of ${count(perOrder.staff.orders)} successful orders
  of ${count(perOrder.staff.orders)} player ids on a Redis of its own (\`used_memory\` before and after; a first order and pass before, so the
  shop's fixed keys and Redis's one-time costs are not counted), recent, then after a pass that compacts them all.
  Targets: ≤ 1,000 B recent, ≤ 300 B compacted.

${table(["one user's orders", "B recent", "B compacted", "MB a busy day, recent", "MB a busy day, compacted"], [perOrderRow("staff", perOrder.staff), perOrderRow("a reseller (gold tier)", perOrder.reseller)])}

- **The bot on that Redis**: \`node dist/main.js\` as production starts it (its own fake Bot API, the Mini App on
  \`PORT\` with \`WEBAPP_URL\` set): spawn → "bot started" ${f(bot.startMs, 0)} ms; RSS ${f(bot.rssAfterStart / MB, 1)} MB after
  start, ${f(bot.rssAfter / MB, 1)} MB after the questions (peak ${f(bot.peak / MB, 1)} MB).
- **Questions**: each asked ${YEAR_WARM_CALLS} times untimed, then ${YEAR_CALLS} times timed one after the other (* fewer: a question
  that took more than ${f(YEAR_QUESTION_BUDGET_MS / 1000, 0)} s in all stops after 3), nothing else running on the bot.${
    year.driverPauses.collecting
      ? ` Before
  each call the bench driver (the process of the fake Bot API and of the HTTP client) runs a full garbage collection of
  its own, so that its pauses are not counted as the bot's time (its work right after a collection still is: a
  small call's p50 is 2–3 ms higher for it).`
      : ` The bench driver did not collect its garbage before each call (\`BENCH_DRIVER_GC=0\`).`
  } The driver's collections that fell inside a call (from
  before the call to after its answer was checked): ${f(year.driverPauses.ms)} ms in ${year.driverPauses.calls} calls, the longest ${f(year.driverPauses.longest)} ms. Mini App: a GET
  over loopback HTTP with \`Authorization: tma <initData>\` signed with the bot token (an admin, or the big reseller
  for \`/reseller/…\`), from the request to the last byte of the answer. Chat: the command sent through the fake Bot
  API as the user (at most one command per user every ${COMMAND_GAP_MS} ms, below the flood limit), from the update being queued
  to the bot's answer recorded by the fake (for \`/pending\` its last message, for the CSV button the document);
  page 50 of \`/history\` is the tap on "Older »" from page 49. A call without an answer in ${f(ANSWER_TIMEOUT_MS / 1000, 0)} s is given
  up, and its question with it (asked last: the bot and Redis may go on reading after the client gave up). Times in
  ms; "answer" is the Mini App's body in kB.

${table(
  ["question", "Mini App call", "calls", "p50", "p95", "max", "answer kB", "chat", "calls", "p50", "p95", "max"],
  questionRows,
)}

  p95 above 50 ms (the target of issue 21): ${slow.length === 0 ? "none ✅" : slow.map((t) => `\`${t.call}\` ❌`).join(", ")}.

- **The Mini App's first load**, gzipped (\`dist/web/size.json\`, \`firstLoadGzip\`: the page, its script, its styles and a
  locale): ${load === undefined ? "not found (no `npm run build` output)" : `${count(load)} B (${f(load / 1024, 1)} kB) of the 150 kB budget of issue 20 ${mark(load <= FIRST_LOAD_BUDGET_B)}`}.`;
}

/** The section "Several providers": a failover's cost, and a second healthy provider's on the normal path. */
function providersSection(p: ProvidersResult | undefined): string {
  const text = `What several providers cost an order (\`bench/providers.ts\`): the compiled bot as production runs it, one
chat and nothing else going on, ${p?.samples ?? "BENCH_PROVIDERS_SAMPLES"} orders one after the other in each configuration (after a warm-up), each a
fresh process on the shared Redis. **One provider**: the bench's sandbox alone, as in every other section. **Two
healthy providers**: \`TOPUP_PROVIDERS=main,backup\`, both sandboxes selling: each order goes to main, under its own
code; the draft is read and the resting check asked (one Lua step that reads each provider's rest) only when this
process has not found main healthy within the last second, else nothing more than with one provider. **Failover**:
main is a sandbox that sells nothing (it refuses each order at once with \`product/not-found\`, one of the failover
codes), the backup sells: each order is refused, its next attempt written (one ledger step), and sold at the backup.
Time: the Confirm update, from the tap queued at the fake Bot API to "Top-up successful" recorded by it (the
sandboxes answer at once, so this is the bot's own time and its provider calls over loopback HTTP). Round trips:
write batches on the bot's Redis sockets (as for the Confirm update above); commands: INFO, server-wide.`;
  if (p === undefined) return `## Several providers\n\n${text}\n\nNot measured in this run (\`BENCH_PROVIDERS=0\`).`;
  const one = p.lines.find((l) => l.config === "one provider");
  const vs = (l: ProvidersResult["lines"][number]) =>
    one === undefined || l === one
      ? "–"
      : `${f(percentile(l.ms, 50) - percentile(one.ms, 50), 1)} ms, ${f(median(l.roundTrips) - median(one.roundTrips), 0)} round trips`;
  const rows = p.lines.map((l) => [
    l.config,
    `${f(percentile(l.ms, 50), 1)} / ${f(percentile(l.ms, 95), 1)}`,
    `${f(median(l.roundTrips), 0)} (${l.roundTrips.join(", ")})`,
    f(median(l.commands), 0),
    f(l.providerCallsPerOrder, 2),
    vs(l),
  ]);
  return `## Several providers

${text}

${table(["configuration", "Confirm p50 / p95 ms", "Redis round trips (median; each)", "Redis commands (median)", "provider calls / order", "added to one provider (p50)"], rows)}`;
}
