/**
 * `npm run bench:replicas`: what the update stream costs (src/updates/: several processes, nothing
 * lost). The order rounds of `npm run bench` (chats ordering at once, 5 updates an order, each
 * waiting for the bot's answer), in webhook mode, with the compiled bot as production runs it:
 *
 * - **1 process** and **3 processes** of this bot (behind a round-robin balancer written here),
 *   every update stored in Redis before Telegram gets its 200, handled from the stream;
 * - **today**, when BENCH_BASELINE names a checkout of the bot before the stream (its dist/ built
 *   and its node_modules installed, e.g. BENCH_BASELINE=../main): one process that answers the POST
 *   at once and handles the update in memory. Without it, that column is left out.
 *
 * Each configuration gets a redis-server of its own (a free port, nothing else on it), so the
 * Redis figures are exact: commands per update (INFO), and round trips per update counted in the
 * bot processes (bench/probe.ts, preloaded: write batches on their Redis sockets, all processes
 * summed). Latency: from the update queued at the fake Telegram to the bot's answer recorded by
 * it. The fake posts each chat's updates one at a time, as many chats at once as there are.
 * It measures, it never asserts; with BENCH_WRITE=1 it writes its table into docs/benchmarks.md
 * (the section "Several processes"), otherwise it only prints it.
 *
 * Environment: BENCH_ROUNDS (chats at once, default 1,10,100), BENCH_MIN_ORDERS (orders per round
 * at least, default 200), BENCH_BASELINE, BENCH_WRITE.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createClient } from "@keyv/redis";
import { createSandboxProvider, type SandboxProvider } from "../src/topup/sandbox.js";
import { startArgs } from "../test/e2e/bot-process.js";
import { createFakeBotApi, type FakeBotApi, type FakeUser, type SentMessage } from "../test/e2e/fake-bot-api.js";
import { createRoundRobin } from "../test/e2e/round-robin.js";
import { freePort, ownRedis } from "../test/helpers/redis.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOC = `${ROOT}docs/benchmarks.md`;
const SECTION = "## Several processes";
const BUILD = mkdtempSync(join(tmpdir(), "topup-bench-replicas-"));
const PROBE = pathToFileURL(join(BUILD, "probe.mjs")).href;
const ROUNDS = (process.env.BENCH_ROUNDS ?? "1,10,100")
  .split(",")
  .map((s) => Number(s.trim()))
  .filter((n) => n > 0);
const MIN_ORDERS = Math.max(1, Number(process.env.BENCH_MIN_ORDERS ?? 200));
const WARM_ORDERS = Math.max(1, Number(process.env.BENCH_WARM_ORDERS ?? 100));
const BASELINE = process.env.BENCH_BASELINE === undefined ? undefined : resolve(process.env.BENCH_BASELINE);
const STEP_TIMEOUT_MS = 60_000;
const WEBHOOK_PATH = "/tg/hook";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};

interface Config {
  name: string;
  /** The checkout whose dist/main.js runs. */
  root: string;
  processes: number;
}

interface Probe {
  redisRoundTrips: number;
  cpuUserUs: number;
  cpuSystemUs: number;
}

interface Proc {
  child: ChildProcess;
  output(): string;
  waitOutput(pattern: RegExp, from?: number): Promise<RegExpExecArray>;
  exited: Promise<void>;
}

function startProc(root: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ["--import", PROBE, ...startArgs().slice(0, -1), join(root, "dist/main.js")], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const waiters = new Set<() => void>();
  const onData = (c: Buffer) => {
    out += c.toString("utf8");
    for (const w of [...waiters]) w();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise<void>((r) => child.once("close", () => r()));
  return {
    child,
    exited,
    output: () => out,
    waitOutput(pattern, from = 0) {
      return new Promise((resolvePattern, reject) => {
        const check = () => {
          const m = pattern.exec(out.slice(from));
          if (m !== null) {
            waiters.delete(check);
            clearTimeout(timer);
            resolvePattern(m);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${pattern} within 30 s:\n${out.slice(-3000)}`));
        }, 30_000);
        waiters.add(check);
        check();
      });
    },
  };
}

async function probe(proc: Proc): Promise<Probe> {
  const from = proc.output().length;
  proc.child.kill("SIGUSR2");
  const m = await proc.waitOutput(/\{"benchProbe":(\{[^}]*\})\}/, from);
  return JSON.parse(m[1]!) as Probe;
}

async function stop(proc: Proc): Promise<void> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGTERM");
  const timer = setTimeout(() => proc.child.kill("SIGKILL"), 12_000);
  await proc.exited;
  clearTimeout(timer);
}

const buttons = (m: SentMessage) =>
  ((m.reply_markup?.inline_keyboard ?? []) as Array<Array<{ text: string; callback_data?: string }>>).flat();
const hasButton = (m: SentMessage, data: (d: string) => boolean) =>
  buttons(m).some((b) => b.callback_data !== undefined && data(b.callback_data));

/**
 * Waiting for the bot's answers cheaply (the driver shares the 2 cores with the bots): the fake's
 * call log is replaced by a hook that marks the chat a call names, and once per event-loop turn
 * only the marked chats' waiters look at their chat (as bench/bench.ts does). Calls are not kept.
 */
function watch(fake: FakeBotApi) {
  const waiters = new Map<number, Array<{ check: () => SentMessage | undefined; done: (m: SentMessage) => void }>>();
  const dirty = new Set<number>();
  let scheduled = false;
  const run = () => {
    scheduled = false;
    const chats = [...dirty];
    dirty.clear();
    for (const chat of chats) {
      const list = waiters.get(chat) ?? [];
      for (const w of [...list]) {
        const hit = w.check();
        if (hit === undefined) continue;
        list.splice(list.indexOf(w), 1);
        w.done(hit);
      }
      if (list.length === 0) waiters.delete(chat);
    }
  };
  Object.defineProperty(fake.calls, "push", {
    configurable: true,
    value: (...calls: Array<{ payload?: { chat_id?: unknown } }>) => {
      for (const call of calls) {
        const chat = Number(call.payload?.chat_id);
        if (!waiters.has(chat)) continue;
        dirty.add(chat);
        if (!scheduled) {
          scheduled = true;
          // The fake records the message right after logging the call: by then it is there.
          setImmediate(run);
        }
      }
      return 0;
    },
  });
  return (chat: number, match: (m: SentMessage) => boolean, what: string): Promise<SentMessage> => {
    const check = () => {
      const list = fake.messagesTo(chat);
      for (let i = list.length - 1; i >= 0; i--) if (match(list[i]!)) return list[i];
      return undefined;
    };
    const now = check();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolveWait, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${what}: no answer within ${STEP_TIMEOUT_MS} ms`)),
        STEP_TIMEOUT_MS,
      );
      const list = waiters.get(chat) ?? [];
      list.push({
        check,
        done: (m) => {
          clearTimeout(timer);
          resolveWait(m);
        },
      });
      waiters.set(chat, list);
    });
  };
}

type Wait = ReturnType<typeof watch>;

/** The order of `npm run bench`: /order, game, product, player id, Confirm; each step's latency. */
async function orderFlow(fake: FakeBotApi, wait: Wait, user: FakeUser, lat: number[]): Promise<void> {
  const chat = user.id;
  const after = () => fake.lastMessageTo(chat)?.message_id ?? 0;
  const step = async (send: () => void, match: (m: SentMessage) => boolean, what: string) => {
    const t0 = performance.now();
    send();
    const m = await wait(chat, match, what);
    lat.push(performance.now() - t0);
    return m;
  };
  let base = after();
  const menu = await step(
    () => fake.sendText(user, "/order"),
    (m) => m.message_id > base && /Choose a game/.test(m.text) && hasButton(m, (d) => d === "g:0"),
    "game menu",
  );
  const products = await step(
    () => fake.tapButton(user, menu, "g:0"),
    (m) => m.message_id === menu.message_id && hasButton(m, (d) => d === "p:ML86"),
    "product menu",
  );
  await step(
    () => fake.tapButton(user, products, "p:ML86"),
    (m) => m.message_id >= menu.message_id && /Send the player id/.test(m.text),
    "player id prompt",
  );
  base = after();
  const summary = await step(
    () => fake.sendText(user, "12345678(1234)"),
    (m) => m.message_id > base && /Please check your order/.test(m.text) && hasButton(m, (d) => d.startsWith("c:")),
    "summary",
  );
  const confirm = buttons(summary).find((b) => b.callback_data?.startsWith("c:") === true)!.callback_data!;
  base = after();
  await step(
    () => fake.tapButton(user, summary, confirm),
    (m) => m.message_id > base && /Top-up successful/.test(m.text),
    "result",
  );
}

interface RoundResult {
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

async function round(config: Config, chats: number, r: number): Promise<RoundResult> {
  const redis = await ownRedis();
  const fake = createFakeBotApi();
  await fake.start();
  const wait = watch(fake);
  const sandbox: SandboxProvider = createSandboxProvider({
    mitraId: "bench",
    secretKey: "bench-secret",
    products: [{ code: "ML86", name: "86 Diamonds", priceRp: 19_500 }],
    initialBalance: 1_000_000_000_000,
  });
  await sandbox.listen(0, "127.0.0.1");
  const perSlot = Math.max(1, Math.ceil(MIN_ORDERS / chats));
  const first = 1_000_000 + r * 100_000;
  const users: FakeUser[] = Array.from({ length: chats * perSlot + WARM_ORDERS }, (_, i) => ({
    id: first + i,
    first_name: `Chat ${i}`,
    language_code: "en",
  }));
  const ports = await Promise.all(Array.from({ length: config.processes }, () => freePort()));
  const rr = createRoundRobin(ports.map((p) => `http://127.0.0.1:${p}`));
  await rr.start();
  const env = {
    BOT_TOKEN: fake.token,
    BOT_API_ROOT: fake.url,
    REDIS_URL: redis.url,
    BENCH_REDIS_PORT: new URL(redis.url).port,
    ALLOWED_USER_IDS: users.map((u) => u.id).join(","),
    TOPUP_BASE_URL: sandbox.url,
    TOPUP_MITRA_ID: "bench",
    TOPUP_SECRET_KEY: "bench-secret",
    WEBHOOK_URL: `http://bot.example.com:8443${WEBHOOK_PATH}`,
    WEBHOOK_SECRET: "bench-webhook-secret",
    LOG_LEVEL: "info",
  };
  const procs: Proc[] = [];
  try {
    for (const port of ports) {
      const proc = startProc(config.root, { ...env, PORT: String(port) });
      procs.push(proc);
      await proc.waitOutput(/bot started/);
    }
    fake.deliverWebhooks({ via: `${rr.url}${WEBHOOK_PATH}`, retryMs: 100, maxConnections: Math.max(40, chats) });
    const warm = users.slice(-WARM_ORDERS);
    await Promise.all(warm.map((u) => orderFlow(fake, wait, u, [])));
    await sleep(500);

    const redisBefore = await redisCommands(redis.url);
    const before = await Promise.all(procs.map(probe));
    const calls = sandbox.calls.length;
    const latency: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: chats }, async (_, slot) => {
        for (let k = 0; k < perSlot; k++) await orderFlow(fake, wait, users[k * chats + slot]!, latency);
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    await sleep(300);
    const after = await Promise.all(procs.map(probe));
    // Two INFOs (the first one counts in the second's figure) and the probes' own nothing.
    const commands = (await redisCommands(redis.url)) - redisBefore - 1;
    const orders = chats * perSlot;
    const updates = orders * 5;
    const sum = (ps: Probe[], f: (p: Probe) => number) => ps.reduce((s, p) => s + f(p), 0);
    const res: RoundResult = {
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
    process.stdout.write(
      `  ${config.name.padEnd(12)} ${String(chats).padStart(4)} chats: ${res.updatesPerSecond.toFixed(1)} updates/s, ` +
        `p50/p99 ${res.p50.toFixed(1)}/${res.p99.toFixed(1)} ms, ${res.commandsPerUpdate.toFixed(2)} Redis commands and ` +
        `${res.roundTripsPerUpdate.toFixed(2)} round trips per update, ${res.cpuMsPerUpdate.toFixed(2)} ms CPU per update ` +
        `(all processes), ${res.providerCallsPerOrder.toFixed(2)} provider calls per order\n`,
    );
    return res;
  } finally {
    await fake.stopDelivering();
    for (const p of procs) await stop(p);
    await rr.stop();
    await fake.stop();
    await sandbox.close();
    await redis.stop();
  }
}

/** What the section of docs/benchmarks.md says before its table (the same words as committed there). */
export const COST_TEXT = `What the update stream (src/updates/) costs per update, so that several processes can share one
Redis and a process killed at any moment loses no update it acknowledged. Per update, against the
bot before it (which answered the webhook at once and handled the update in memory):

- the intake: one Lua step (dedupe by update_id, XADD, the lane's ZADD) before the POST is answered;
- the delivery: one XREADGROUP on a connection of its own, shared by all the updates that arrive
  together (under load, less than one per update);
- the lane: one Lua step takes the member's lane and reads its first update;
- done: one Lua step marks it done, removes and acknowledges it and reads the next one (so a
  member's next update costs no lane step of its own).

That is 2 to 4 more Redis round trips per update (the target: at most 4; fewer when many updates
arrive together), about 20 more Redis commands inside them (Redis counts every command a Lua step
runs: today's ~8.6 per update become ~29), and a longer way for each update (POST → Redis → a
process → Redis) in exchange for nothing lost. Several processes on one machine cost more CPU per
update than one (each process has its own caches, JIT and event loop, and updates of one member
move between processes): on 2 shared cores, three processes used about 1.5 times the CPU of one. Background work adds a little beside the updates:
each process claims idle entries every second and renews its locks every 2 s while it works; the
poller and the shared-work lease are renewed every few seconds.

Figures: \`BENCH_WRITE=1 BENCH_BASELINE=<a checkout of the bot before the stream, built> npm run
bench:replicas\` on a quiet machine writes them below.
`;

function compileProbe(): void {
  symlinkSync(join(ROOT, "node_modules"), join(BUILD, "node_modules"), "dir");
  const esbuild = spawnSync(
    join(ROOT, "node_modules/.bin/esbuild"),
    ["bench/probe.ts", "--format=esm", "--platform=node", "--target=node20", `--outfile=${join(BUILD, "probe.mjs")}`],
    { cwd: ROOT, stdio: "inherit" },
  );
  if (esbuild.status !== 0) throw new Error("esbuild could not compile bench/probe.ts");
}

function table(results: RoundResult[], configs: Config[]): string {
  const today = configs.find((c) => c.name === "today");
  const lines = [
    "| chats | configuration | updates/s | vs today | latency p50 / p99 ms | Redis commands / update | Redis round trips / update | vs today | CPU ms / update (all processes) | provider calls / order |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const chats of ROUNDS) {
    const base = today === undefined ? undefined : results.find((r) => r.config === "today" && r.chats === chats);
    for (const c of configs) {
      const r = results.find((x) => x.config === c.name && x.chats === chats);
      if (r === undefined) continue;
      const speed = base === undefined ? "–" : `${(r.updatesPerSecond / base.updatesPerSecond).toFixed(2)}×`;
      const trips =
        base === undefined
          ? "–"
          : `${r.roundTripsPerUpdate - base.roundTripsPerUpdate >= 0 ? "+" : ""}${(r.roundTripsPerUpdate - base.roundTripsPerUpdate).toFixed(2)}`;
      lines.push(
        `| ${chats} | ${c.name} | ${r.updatesPerSecond.toFixed(1)} | ${speed} | ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} | ` +
          `${r.commandsPerUpdate.toFixed(2)} | ${r.roundTripsPerUpdate.toFixed(2)} | ${trips} | ${r.cpuMsPerUpdate.toFixed(2)} | ${r.providerCallsPerOrder.toFixed(2)} |`,
      );
    }
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, "dist/main.js"))) throw new Error("dist/main.js is missing: npm run build first");
  if (BASELINE !== undefined && !existsSync(join(BASELINE, "dist/main.js")))
    throw new Error(`BENCH_BASELINE=${BASELINE}: no dist/main.js there (build that checkout first)`);
  compileProbe();
  const configs: Config[] = [
    ...(BASELINE === undefined ? [] : [{ name: "today", root: BASELINE, processes: 1 }]),
    { name: "1 process", root: ROOT, processes: 1 },
    { name: "3 processes", root: ROOT, processes: 3 },
  ];
  const started = Date.now();
  const results: RoundResult[] = [];
  let r = 0;
  for (const chats of ROUNDS) for (const config of configs) results.push(await round(config, chats, r++));
  const text = table(results, configs);
  process.stdout.write(`\n${text}\n`);
  if (process.env.BENCH_WRITE === "1") {
    const doc = readFileSync(DOC, "utf8");
    const at = doc.indexOf(`\n${SECTION}`);
    const end = at < 0 ? -1 : doc.indexOf("\n## ", at + SECTION.length + 1);
    const section =
      `\n${SECTION}\n\n${COST_TEXT}\nMeasured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with \`npm run bench:replicas\` ` +
      `on ${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"}; Node ${process.version}; the run took ` +
      `${((Date.now() - started) / 60_000).toFixed(1)} min.${BASELINE === undefined ? ' No BENCH_BASELINE: no "today" column.' : ""}\n\n${text}\n`;
    const next =
      at < 0 ? `${doc.trimEnd()}\n${section}` : `${doc.slice(0, at)}${section}${end < 0 ? "" : doc.slice(end)}`;
    writeFileSync(DOC, next);
  }
}

main()
  .catch((err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(BUILD, { recursive: true, force: true }));
