/**
 * `npm run bench`: the bot as production runs it (`node dist/main.js`, compiled first) and a bare
 * grammY bot (bench/bare-bot.ts, compiled), side by side in the same run, each against its own fake Bot
 * API over real HTTP; the bot also against the sandbox provider and the real Redis. Measures the
 * figures of the target table and writes them to docs/benchmarks.md (the section "What each
 * change bought" is kept as it is). It measures, it never asserts: the exit code is 0 whatever
 * the figures, and 1 only when the bench itself failed.
 *
 * Environment: BENCH_ROUNDS (chats ordering at once, default 1,10,100,1000), BENCH_IDLE_CHATS
 * (chats left mid-order, default 10000), BENCH_START_RUNS (default 10), BENCH_MIN_ORDERS (orders
 * per round at least, default 200), BENCH_REPEAT (each round that many times, medians reported,
 * default 1), BENCH_REDIS_URL, BENCH_PROFILE (a directory: CPU profiles of the bot in the rounds).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createClient } from "@keyv/redis";
import { loadCatalog } from "../src/catalog/catalog.js";
import { createSandboxProvider, type SandboxProvider } from "../src/topup/sandbox.js";
import {
  createFakeBotApi,
  type ApiCall,
  type FakeBotApi,
  type FakeUser,
  type SentMessage,
} from "../test/e2e/fake-bot-api.js";
import { createLedger } from "../src/orders/create-ledger.js";
import { createStorage } from "../src/storage/storage.js";
import { startArgs } from "../test/e2e/bot-process.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOC = `${ROOT}docs/benchmarks.md`;
const MAIN = `${ROOT}dist/main.js`;
/** The bench's own JavaScript (compiled bare bot and probe), in a temporary directory. */
const BUILD = mkdtempSync(join(tmpdir(), "topup-bench-"));
const PROBE = pathToFileURL(join(BUILD, "probe.mjs")).href;
const BARE = join(BUILD, "bare-bot.mjs");

const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const ROUNDS = (process.env.BENCH_ROUNDS ?? "1,10,100,1000")
  .split(",")
  .map((s) => Number(s.trim()))
  .filter((n) => n > 0);
const IDLE_CHATS = Number(process.env.BENCH_IDLE_CHATS ?? 10_000);
const START_RUNS = Math.max(1, Number(process.env.BENCH_START_RUNS ?? 10));
/** Start-up runs that also wait ~2 s idle for the idle RSS (the first ones). */
const IDLE_RSS_RUNS = Math.min(3, START_RUNS);
const MIN_ORDERS = Math.max(1, Number(process.env.BENCH_MIN_ORDERS ?? 200));
/** Each round this many times (bot, bare, bot, bare, …); the figures are the medians. */
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1));
const PROFILE_DIR = process.env.BENCH_PROFILE;
const RUN_PREFIX = `bench:${Date.now()}:`;
const WARM_CHATS = 10;
const CONFIRM_SAMPLES = 5;
const IDLE_WARM_CHATS = 100;
const IDLE_BATCH = 500;
const STEP_TIMEOUT_MS = 60_000;
const MB = 2 ** 20;

const TARGETS = {
  peakRss100Mb: 100,
  idleRssMb: 70,
  rssPerIdleChatKb: 10,
  redisPerIdleChatB: 600,
  startMs: 400,
  cpuRatio: 1.8,
  speedRatio: 0.6,
  commandsPerUpdate: 5,
  confirmRoundTrips: 4,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

// ---------------------------------------------------------------------------------------------
// Processes

interface Probe {
  redisRoundTrips: number;
  cpuUserUs: number;
  cpuSystemUs: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

interface Proc {
  child: ChildProcess;
  pid: number;
  spawnedAt: number;
  output(): string;
  /** Resolves when the output after `from` matches. */
  waitOutput(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<void>;
}

const live = new Set<Proc>();

/** The bot's node flags, as `npm start` has them (BENCH_BOT_FLAGS overrides them, to compare). */
const BOT_FLAGS =
  process.env.BENCH_BOT_FLAGS !== undefined
    ? process.env.BENCH_BOT_FLAGS.split(/\s+/).filter((f) => f !== "")
    : startArgs().slice(0, -1);

function startProc(script: string, env: Record<string, string>, opts: { probe: boolean; flags?: string[] }): Proc {
  const args = [
    ...(opts.probe ? ["--import", PROBE] : []),
    ...(script === MAIN ? BOT_FLAGS : []),
    ...(opts.flags ?? []),
    script,
  ];
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString("utf8");
    for (const w of [...waiters]) w();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise<void>((resolve) =>
    child.once("close", () => {
      for (const w of [...waiters]) w();
      resolve();
    }),
  );
  const proc: Proc = {
    child,
    pid: child.pid!,
    spawnedAt,
    output: () => out,
    exited,
    waitOutput(pattern, from = 0, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(out.slice(from));
          if (m !== null) {
            done();
            resolve(m);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(
              new Error(
                `${script} exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${out.slice(-3000)}`,
              ),
            );
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${script} did not print ${pattern} within ${timeoutMs} ms:\n${out.slice(-3000)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
  live.add(proc);
  void exited.then(() => live.delete(proc));
  return proc;
}

async function stopProc(proc: Proc): Promise<void> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGTERM");
  const timer = setTimeout(() => proc.child.kill("SIGKILL"), 12_000);
  await proc.exited;
  clearTimeout(timer);
}

/** What the preloaded probe reports (SIGUSR2; SIGWINCH: after a full GC). */
async function probe(proc: Proc, gc = false): Promise<Probe> {
  const from = proc.output().length;
  proc.child.kill(gc ? "SIGWINCH" : "SIGUSR2");
  const m = await proc.waitOutput(/\{"benchProbe":(\{[^}]*\})\}/, from, 10_000);
  return JSON.parse(m[1]!) as Probe;
}

const cpuMs = (p: Probe) => (p.cpuUserUs + p.cpuSystemUs) / 1000;

/** CPU time all processes of the machine spent (user + nice + system, all cores, /proc/stat), in ms. */
function machineBusyMs(): number {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal, in 1/100 s; interrupts are left out as they
  // are not in any process's own CPU time either.
  const [user, nice, system] = fields;
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0)) * 10;
}

/** VmRSS and VmHWM (the lifetime peak) from /proc, in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") * 1024, peak: kb("VmHWM") * 1024 };
}

/**
 * bench/bare-bot.ts and bench/probe.ts to plain JavaScript, like the bot's dist/: esbuild, one file
 * each, not bundled (the bare bot loads grammY from node_modules, linked beside it, as dist/ does).
 */
function compileBenchFiles(): void {
  symlinkSync(join(ROOT, "node_modules"), join(BUILD, "node_modules"), "dir");
  for (const name of ["bare-bot", "probe"]) {
    const args = [
      `bench/${name}.ts`,
      "--format=esm",
      "--platform=node",
      "--target=node20",
      `--outfile=${join(BUILD, `${name}.mjs`)}`,
      "--log-level=warning",
    ];
    const esbuild = spawnSync(join(ROOT, "node_modules/.bin/esbuild"), args, { cwd: ROOT, stdio: "inherit" });
    if (esbuild.status !== 0) throw new Error(`esbuild could not compile bench/${name}.ts`);
  }
}

/** A fingerprint of dist/: if something rebuilds it during the run, the figures mix two versions. */
function distFingerprint(): string {
  const hash = createHash("sha1");
  const files = (readdirSync(`${ROOT}dist`, { recursive: true }) as string[]).filter((f) => f.endsWith(".js")).sort();
  for (const file of files) hash.update(file).update(readFileSync(`${ROOT}dist/${file}`));
  return hash.digest("hex").slice(0, 12);
}

// ---------------------------------------------------------------------------------------------
// Redis

type RedisClient = ReturnType<typeof createClient>;
let redis: RedisClient;

interface RedisInfo {
  commands: number;
  /** Calls by command name (INFO commandstats). */
  byName: Map<string, number>;
  usedMemory: number;
  cpuS: number;
  version: string;
}

/** One INFO on the bench's own connection; the INFO itself is one command in the next figure. */
async function redisInfo(): Promise<RedisInfo> {
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
const commandsBetween = (a: RedisInfo, b: RedisInfo) => b.commands - a.commands - 1;
/** Commands per second from other clients while no bot runs: the INFO figures are server-wide. */
async function redisBackground(): Promise<number> {
  const a = await redisInfo();
  await sleep(1000);
  return commandsBetween(a, await redisInfo());
}
/** Calls by command between two INFOs, the bench's INFO left out. */
function commandsByName(a: RedisInfo, b: RedisInfo): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, calls] of b.byName) {
    const d = calls - (a.byName.get(name) ?? 0) - (name === "info" ? 1 : 0);
    if (d > 0) out[name] = d;
  }
  return out;
}

async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
  return keys;
}

// ---------------------------------------------------------------------------------------------
// Watching a fake Bot API cheaply

interface Waiter {
  chatId: number;
  check: () => SentMessage | undefined;
  resolve: (m: SentMessage) => void;
  reject: (err: Error) => void;
  deadline: number;
}

/**
 * The driver must stay far from being the bottleneck (2 cores for driver, fake, bot and Redis).
 * The fake's call log is replaced by a hook: a call that names a chat marks that chat, and one
 * check per event-loop turn looks only at the marked chats that someone waits on. The calls are
 * not kept (nothing here reads them), so the driver's heap does not grow with every update.
 */
class Watch {
  readonly waiters = new Map<number, Waiter[]>();
  private readonly dirty = new Set<number>();
  private scheduled = false;
  /** performance.now() of the first getUpdates the fake received. */
  firstGetUpdates: Promise<number>;
  /** Bot API calls received, getUpdates apart. */
  apiCalls = 0;
  getUpdatesCalls = 0;

  constructor(readonly fake: FakeBotApi) {
    let resolveFirst!: (at: number) => void;
    let seenFirst = false;
    this.firstGetUpdates = new Promise((resolve) => (resolveFirst = resolve));
    Object.defineProperty(fake.calls, "push", {
      configurable: true,
      value: (...calls: ApiCall[]) => {
        for (const call of calls) {
          if (call.method === "getUpdates") {
            this.getUpdatesCalls += 1;
            if (!seenFirst) {
              seenFirst = true;
              resolveFirst(performance.now());
            }
            continue;
          }
          this.apiCalls += 1;
          const chatId = Number((call.payload as { chat_id?: unknown } | undefined)?.chat_id);
          if (this.waiters.has(chatId)) this.mark(chatId);
        }
        return 0;
      },
    });
    watches.add(this);
  }

  private mark(chatId: number) {
    this.dirty.add(chatId);
    if (this.scheduled) return;
    this.scheduled = true;
    // The fake records the message synchronously after logging the call: by then it is there.
    setImmediate(() => {
      this.scheduled = false;
      const chats = [...this.dirty];
      this.dirty.clear();
      for (const chatId of chats) this.run(chatId);
    });
  }

  private run(chatId: number) {
    const list = this.waiters.get(chatId);
    if (list === undefined) return;
    for (const w of [...list]) {
      const hit = w.check();
      if (hit === undefined) continue;
      this.remove(w);
      w.resolve(hit);
    }
  }

  remove(w: Waiter) {
    const list = this.waiters.get(w.chatId);
    if (list === undefined) return;
    list.splice(list.indexOf(w), 1);
    if (list.length === 0) this.waiters.delete(w.chatId);
  }

  /** Resolves with the first message `check` returns, looking again whenever the chat changes. */
  wait(chatId: number, check: () => SentMessage | undefined, what: string): Promise<SentMessage> {
    const now = check();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        chatId,
        check,
        resolve,
        reject: (err) =>
          reject(
            new Error(
              `${what}: ${err.message}; last messages: ${JSON.stringify(
                this.fake
                  .messagesTo(chatId)
                  .slice(-3)
                  .map((m) => m.text),
              )}`,
            ),
          ),
        deadline: Date.now() + STEP_TIMEOUT_MS,
      };
      const list = this.waiters.get(chatId) ?? [];
      list.push(w);
      this.waiters.set(chatId, list);
    });
  }

  close() {
    watches.delete(this);
  }
}

const watches = new Set<Watch>();
setInterval(() => {
  const now = Date.now();
  for (const watch of watches) {
    for (const list of [...watch.waiters.values()]) {
      for (const w of [...list]) {
        if (w.deadline > now) continue;
        watch.remove(w);
        w.reject(new Error(`no answer within ${STEP_TIMEOUT_MS} ms`));
      }
    }
  }
}, 1000).unref();

/** The bot's messages in the chat newer than message id `afterId`, newest first, matching. */
function newer(
  fake: FakeBotApi,
  chatId: number,
  afterId: number,
  match: (m: SentMessage) => boolean,
): SentMessage | undefined {
  const list = fake.messagesTo(chatId);
  let hit: SentMessage | undefined;
  for (let i = list.length - 1; i >= 0 && list[i]!.message_id > afterId; i--) if (match(list[i]!)) hit = list[i];
  return hit;
}
const buttons = (m: SentMessage) =>
  ((m.reply_markup?.inline_keyboard ?? []) as Array<Array<{ text: string; callback_data?: string }>>).flat();
const hasButton = (m: SentMessage, data: (d: string) => boolean) =>
  buttons(m).some((b) => b.callback_data !== undefined && data(b.callback_data));
const lastId = (fake: FakeBotApi, chatId: number) => fake.lastMessageTo(chatId)?.message_id ?? 0;

// ---------------------------------------------------------------------------------------------
// What a chat does

/** Step latencies (ms): from the update being queued at the fake to the answer recorded by it. */
type Latencies = number[];

async function timed(
  lat: Latencies | undefined,
  send: () => void,
  wait: () => Promise<SentMessage>,
): Promise<SentMessage> {
  const t0 = performance.now();
  send();
  const m = await wait();
  lat?.push(performance.now() - t0);
  return m;
}

/** The whole order: /order, game, product, player id, Confirm. Five updates. */
async function orderFlow(watch: Watch, user: FakeUser, lat?: Latencies): Promise<void> {
  const { fake } = watch;
  const chat = user.id;
  let base = 0;
  const menu = await timed(
    lat,
    () => (base = fake.sendText(user, "/order").message!.message_id),
    () =>
      watch.wait(
        chat,
        () => newer(fake, chat, base, (m) => /Choose a game/.test(m.text) && hasButton(m, (d) => d === "g:0")),
        "game menu",
      ),
  );
  const products = await timed(
    lat,
    () => fake.tapButton(user, menu, "g:0"),
    () =>
      watch.wait(
        chat,
        () =>
          newer(
            fake,
            chat,
            menu.message_id - 1,
            (m) => m.message_id === menu.message_id && hasButton(m, (d) => d === "p:ML86"),
          ),
        "product menu",
      ),
  );
  base = lastId(fake, chat);
  await timed(
    lat,
    () => fake.tapButton(user, products, "p:ML86"),
    // The question is the menu, edited (a tapped product), or a new message (the bot may do either).
    () =>
      watch.wait(
        chat,
        () => newer(fake, chat, menu.message_id - 1, (m) => /Send the player id/.test(m.text)),
        "player id prompt",
      ),
  );
  const summary = await timed(
    lat,
    () => (base = fake.sendText(user, "12345678(1234)").message!.message_id),
    () =>
      watch.wait(
        chat,
        () =>
          newer(
            fake,
            chat,
            base,
            (m) => /Please check your order/.test(m.text) && hasButton(m, (d) => d.startsWith("c:")),
          ),
        "summary",
      ),
  );
  const confirm = buttons(summary).find((b) => b.callback_data?.startsWith("c:") === true)!.callback_data!;
  base = lastId(fake, chat);
  await timed(
    lat,
    () => fake.tapButton(user, summary, confirm),
    () => watch.wait(chat, () => newer(fake, chat, base, (m) => /Top-up successful/.test(m.text)), "result"),
  );
}

/** The bare bot gets the same mix: two messages and three taps, each waiting for its reply. */
async function bareFlow(watch: Watch, user: FakeUser, lat?: Latencies): Promise<void> {
  const { fake } = watch;
  const chat = user.id;
  let base = 0;
  const reply = () => watch.wait(chat, () => newer(fake, chat, base, () => true), "bare reply");
  const first = await timed(lat, () => (base = fake.sendText(user, "/order").message!.message_id), reply);
  for (const data of ["g:0", "p:ML86"]) {
    base = lastId(fake, chat);
    await timed(lat, () => fake.tapButton(user, first, data), reply);
  }
  await timed(lat, () => (base = fake.sendText(user, "12345678(1234)").message!.message_id), reply);
  base = lastId(fake, chat);
  await timed(lat, () => fake.tapButton(user, first, "c:TGX"), reply);
}

/** /order and the game menu, then nothing more: a chat left in the middle of an order. */
async function leaveMidOrder(watch: Watch, user: FakeUser, bare: boolean): Promise<void> {
  const { fake } = watch;
  const base = fake.sendText(user, "/order").message!.message_id;
  await watch.wait(user.id, () => newer(fake, user.id, base, (m) => bare || /Choose a game/.test(m.text)), "game menu");
}

const userRange = (first: number, n: number): FakeUser[] =>
  Array.from({ length: n }, (_, i) => ({ id: first + i, first_name: `Chat ${first + i}`, language_code: "en" }));

// ---------------------------------------------------------------------------------------------
// The bots

let sandbox: SandboxProvider;

function botEnv(fake: FakeBotApi, prefix: string, users: FakeUser[]): Record<string, string> {
  const allowed = users.map((u) => u.id).join(",");
  // One environment string may hold at most 128 KiB (Linux MAX_ARG_STRLEN).
  if (allowed.length > 120_000)
    throw new Error(`too many bench users for ALLOWED_USER_IDS (${users.length}); lower BENCH_IDLE_CHATS`);
  return {
    BOT_TOKEN: fake.token,
    BOT_API_ROOT: fake.url,
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    ALLOWED_USER_IDS: allowed,
    TOPUP_BASE_URL: sandbox.url,
    TOPUP_MITRA_ID: "bench",
    TOPUP_SECRET_KEY: "bench-secret",
    LOG_LEVEL: "info",
    // For experiments only (never in a recorded run): BENCH_BOT_ENV='{"LOG_LEVEL":"warn"}'.
    ...(process.env.BENCH_BOT_ENV === undefined
      ? {}
      : (JSON.parse(process.env.BENCH_BOT_ENV) as Record<string, string>)),
  };
}

type Kind = "ours" | "bare";
const READY: Record<Kind, RegExp> = { ours: /bot started/, bare: /bare bot started/ };

async function launch(
  kind: Kind,
  users: FakeUser[],
  prefix: string,
  opts: { probe: boolean; profile?: boolean; resellers?: FakeUser[] },
): Promise<{ watch: Watch; proc: Proc }> {
  const fake = createFakeBotApi();
  await fake.start();
  const watch = new Watch(fake);
  const env = kind === "ours" ? botEnv(fake, prefix, users) : { BOT_TOKEN: fake.token, BOT_API_ROOT: fake.url };
  if (opts.resellers !== undefined) env.RESELLER_IDS = opts.resellers.map((u) => u.id).join(",");
  if (opts.probe) Object.assign(env, { BENCH_REDIS_PORT: new URL(REDIS_URL).port || "6379" });
  const flags =
    opts.profile === true && PROFILE_DIR !== undefined ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const proc = startProc(kind === "ours" ? MAIN : BARE, env, { probe: opts.probe, flags });
  await proc.waitOutput(READY[kind]);
  return { watch, proc };
}

async function shutdown(run: { watch: Watch; proc: Proc }): Promise<void> {
  await stopProc(run.proc);
  run.watch.close();
  await run.watch.fake.stop();
}

// ---------------------------------------------------------------------------------------------
// Phases

interface StartResult {
  kind: Kind;
  ms: number[];
  idleRss: number[];
}

/**
 * Spawn → first getUpdates, each run a fresh process exactly as production starts it, the bot and
 * the bare bot one after the other. In the first IDLE_RSS_RUNS runs both are then left idle for
 * ~2 s after printing that they started (side by side: neither does anything then) for the idle RSS.
 */
async function startUps(): Promise<Record<Kind, StartResult>> {
  const res: Record<Kind, StartResult> = {
    ours: { kind: "ours", ms: [], idleRss: [] },
    bare: { kind: "bare", ms: [], idleRss: [] },
  };
  for (let i = 0; i < START_RUNS; i++) {
    const started: Array<{ kind: Kind; watch: Watch; proc: Proc; readyAt: number }> = [];
    for (const kind of ["ours", "bare"] as const) {
      const fake = createFakeBotApi();
      await fake.start();
      const watch = new Watch(fake);
      const env =
        kind === "ours"
          ? botEnv(fake, `${RUN_PREFIX}start:`, userRange(100_000, 1))
          : { BOT_TOKEN: fake.token, BOT_API_ROOT: fake.url };
      const proc = startProc(kind === "ours" ? MAIN : BARE, env, { probe: false });
      const first = await Promise.race([
        watch.firstGetUpdates,
        proc.exited.then(() => {
          throw new Error(`${kind} exited at start:\n${proc.output()}`);
        }),
        sleep(30_000).then(() => {
          throw new Error(`${kind}: no getUpdates within 30 s:\n${proc.output()}`);
        }),
      ]);
      res[kind].ms.push(first - proc.spawnedAt);
      await proc.waitOutput(READY[kind]);
      started.push({ kind, watch, proc, readyAt: performance.now() });
      if (i >= IDLE_RSS_RUNS) await shutdown({ watch, proc });
    }
    if (i < IDLE_RSS_RUNS) {
      for (const s of started) {
        await sleep(s.readyAt + 2000 - performance.now());
        res[s.kind].idleRss.push(memoryOf(s.proc.pid).rss);
      }
      await Promise.all(started.map((s) => shutdown(s)));
    }
  }
  return res;
}

interface RoundResult {
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
 * round runs in a fresh process after a warm-up of WARM_CHATS whole orders, so VmHWM after it is
 * the peak of that round (start-up and warm-up are smaller).
 */
async function round(kind: Kind, chats: number, r: number): Promise<RoundResult> {
  const perSlot = Math.max(1, Math.ceil(MIN_ORDERS / chats));
  const first = 1_000_000 + r * 100_000;
  const users = userRange(first, chats * perSlot);
  const warm = userRange(first - 1000, WARM_CHATS);
  const flow = kind === "ours" ? orderFlow : bareFlow;
  const run = await launch(kind, [...warm, ...users], `${RUN_PREFIX}r${r}:`, { probe: true, profile: kind === "ours" });
  const { watch, proc } = run;
  await Promise.all(warm.map((u) => flow(watch, u)));
  await sleep(500);

  const logFrom = proc.output().length;
  const callsBefore = sandbox.calls.length;
  const redisBefore = await redisInfo();
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
  const redisAfter = await redisInfo();
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
    providerCallsPerOrder: kind === "ours" ? (sandbox.calls.length - callsBefore) / orders : 0,
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
  const f = (x: number, d = 1) => x.toFixed(d);
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
function mergeRounds(runs: RoundResult[]): RoundResult {
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

interface ConfirmResult {
  roundTrips: number[];
  commands: number[];
  byName: Array<Record<string, number>>;
}

/**
 * One chat, nothing else going on: Redis round trips and commands of the Confirm update, of a staff
 * member's order or of a reseller's (paid from a saldo credited through the ledger beforehand).
 */
async function confirmProbe(buyer: "staff" | "reseller" = "staff"): Promise<ConfirmResult> {
  const user: FakeUser = { id: buyer === "staff" ? 600_000 : 610_000, first_name: "Probe", language_code: "en" };
  const warm = userRange(user.id + 1, 3);
  const prefix = `${RUN_PREFIX}confirm-${buyer}:`;
  const run = await launch("ours", buyer === "staff" ? [user, ...warm] : warm, prefix, {
    probe: true,
    ...(buyer === "reseller" ? { resellers: [user] } : {}),
  });
  const { watch, proc } = run;
  const { fake } = watch;
  if (buyer === "reseller") await creditSaldo(prefix, user.id, 10_000_000);
  for (const u of warm) await orderFlow(watch, u);
  const res: ConfirmResult = { roundTrips: [], commands: [], byName: [] };
  for (let i = 0; i < CONFIRM_SAMPLES; i++) {
    let base = fake.sendText(user, `/order ML86 12345678(1234)`).message!.message_id;
    const summary = await watch.wait(
      user.id,
      () =>
        newer(
          fake,
          user.id,
          base,
          (m) => /Please check your order/.test(m.text) && hasButton(m, (d) => d.startsWith("c:")),
        ),
      "summary",
    );
    await sleep(300);
    const redisBefore = await redisInfo();
    const before = await probe(proc);
    base = lastId(fake, user.id);
    const confirm = buttons(summary).find((b) => b.callback_data?.startsWith("c:") === true)!.callback_data!;
    fake.tapButton(user, summary, confirm);
    await watch.wait(user.id, () => newer(fake, user.id, base, (m) => /Top-up successful/.test(m.text)), "result");
    await sleep(300);
    const after = await probe(proc);
    const redisAfter = await redisInfo();
    res.roundTrips.push(after.redisRoundTrips - before.redisRoundTrips);
    res.commands.push(commandsBetween(redisBefore, redisAfter));
    res.byName.push(commandsByName(redisBefore, redisAfter));
  }
  await shutdown(run);
  return res;
}

/** A deposit for a reseller, through the ledger's own API (as /deposit and its Confirm do). */
async function creditSaldo(prefix: string, userId: number, amount: number): Promise<void> {
  const storage = await createStorage({ redisUrl: REDIS_URL, prefix });
  try {
    const { wallets } = createLedger(storage);
    const at = new Date().toISOString();
    const id = `DPBENCH${Date.now()}`;
    await wallets.saveDeposit(
      { id, resellerId: userId, amount, note: "bench", adminId: 1, chatId: 1, createdAt: at, state: "draft" },
      60_000,
    );
    const done = await wallets.confirmDeposit(id, { adminId: 1, at });
    if (done.kind !== "done") throw new Error(`bench deposit not credited: ${done.kind}`);
  } finally {
    await storage.close();
  }
}

interface IdleResult {
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
  keys: Array<{ pattern: string; count: number; bytesEach: number }>;
  dialogueTtlMs?: number;
  seconds: number;
}

/**
 * `IDLE_CHATS` chats each send /order and stop at the game menu. A fresh process; the /order
 * path is warmed by IDLE_WARM_CHATS chats first (left mid-order too, before the first reading).
 * Readings after ~2 s idle before, and after all are answered and ~3 s idle.
 */
async function idleChats(kind: Kind): Promise<IdleResult> {
  const users = userRange(2_000_000, IDLE_CHATS);
  const warm = userRange(1_990_000, IDLE_WARM_CHATS);
  const prefix = `${RUN_PREFIX}idle:`;
  const run = await launch(kind, [...warm, ...users], prefix, { probe: true });
  const { watch, proc } = run;
  const bare = kind === "bare";
  await Promise.all(warm.map((u) => leaveMidOrder(watch, u, bare)));
  // One full GC before the first reading: "before" holds no garbage of the start and warm-up,
  // so the difference is not flattered by it (and the heap kept per chat can be read at the end).
  const gcBefore = await probe(proc, true);
  await sleep(2000);
  const redisBefore = await redisInfo();
  const probeBefore = await probe(proc);
  const memBefore = memoryOf(proc.pid);
  const t0 = performance.now();
  for (let i = 0; i < users.length; i += IDLE_BATCH)
    await Promise.all(users.slice(i, i + IDLE_BATCH).map((u) => leaveMidOrder(watch, u, bare)));
  const seconds = (performance.now() - t0) / 1000;
  await sleep(3000);
  const memAfter = memoryOf(proc.pid);
  const redisAfter = await redisInfo();
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
    const groups = new Map<string, string[]>();
    for (const key of await keysUnder(prefix)) {
      const pattern = key.slice(prefix.length).replace(/\d+/g, "N");
      const list = groups.get(pattern) ?? [];
      list.push(key);
      groups.set(pattern, list);
    }
    for (const [pattern, keys] of groups) {
      const sample = keys.slice(0, 20);
      const sizes = await Promise.all(sample.map((k) => redis.memoryUsage(k)));
      res.keys.push({
        pattern,
        count: keys.length,
        bytesEach: sizes.reduce<number>((a, b) => a + (b ?? 0), 0) / sample.length,
      });
    }
    res.keys.sort((a, b) => b.count * b.bytesEach - a.count * a.bytesEach);
    const sampleId = users[0]!.id;
    const dialogueKey = (groups.get([...groups.keys()].find((p) => p.endsWith("N:N")) ?? "") ?? []).find((k) =>
      k.endsWith(`${sampleId}:${sampleId}`),
    );
    if (dialogueKey !== undefined) res.dialogueTtlMs = await redis.pTTL(dialogueKey);
  }
  await shutdown(run);
  const f = (x: number, d = 1) => x.toFixed(d);
  process.stdout.write(
    `  ${kind.padEnd(4)} ${res.chats} chats mid-order: RSS ${f(res.rssBefore / MB)} → ${f(res.rssAfter / MB)} MB ` +
      `(${f((res.rssAfter - res.rssBefore) / res.chats / 1024, 2)} kB/chat), heap ${f(res.heapBefore / MB)} → ${f(res.heapAfter / MB)} MB` +
      (bare ? "" : `, Redis +${f((res.redisAfter - res.redisBefore) / res.chats, 0)} B/chat`) +
      ` (${f(res.chats / seconds, 0)} chats/s)\n`,
  );
  return res;
}

// ---------------------------------------------------------------------------------------------
// The document

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

interface Report {
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
}

const f = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : "n/a");
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

function renderDoc(rep: Report): string {
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
the current code). About 1.5 minutes with the defaults; a quick run (about 45 s): \`BENCH_ROUNDS=1,10 BENCH_IDLE_CHATS=500 npm run bench\`.
Other settings: \`BENCH_MIN_ORDERS\` (orders per round at least, default 200), \`BENCH_REPEAT\` (each round that many
times, bot and bare alternating, medians reported; default 1${REPEAT === 1 ? "" : `, this run ${REPEAT}`}), \`BENCH_REDIS_URL\`,
\`BENCH_PROFILE=/tmp/prof\` (Chrome CPU profiles of the bot in the rounds). The script writes this file and keeps the
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

${handSection()}`;
}

function printSummary(rep: Report) {
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
  if (rep.warning !== undefined) process.stdout.write(`\nWARNING: ${rep.warning}\n`);
  process.stdout.write(`\nwritten to ${DOC}\n`);
}

// ---------------------------------------------------------------------------------------------

async function cleanup() {
  for (const proc of [...live]) await stopProc(proc).catch(() => undefined);
  if (redis?.isOpen === true) {
    const keys = await keysUnder(RUN_PREFIX);
    for (let i = 0; i < keys.length; i += 1000) await redis.del(keys.slice(i, i + 1000));
    await redis.close();
  }
  await sandbox?.close();
  rmSync(BUILD, { recursive: true, force: true });
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

  const backgroundBefore = await redisBackground();
  const at = () => `[${f((performance.now() - began) / 1000, 0)} s]`;
  process.stdout.write(`${at()} start-up: ${START_RUNS} runs of each bot\n`);
  const starts = await startUps();
  process.stdout.write(
    `  bot ${f(median(starts.ours.ms), 0)} ms, bare ${f(median(starts.bare.ms), 0)} ms to the first getUpdates; idle RSS bot ${f(median(starts.ours.idleRss) / MB)} MB, bare ${f(median(starts.bare.idleRss) / MB)} MB\n`,
  );

  process.stdout.write(`${at()} rounds: ${ROUNDS.join(", ")} chats at once\n`);
  const rounds: Report["rounds"] = [];
  for (const [r, chats] of ROUNDS.entries()) {
    const ours: RoundResult[] = [];
    const bare: RoundResult[] = [];
    for (let i = 0; i < REPEAT; i++) {
      ours.push(await round("ours", chats, r));
      bare.push(await round("bare", chats, r));
    }
    rounds.push({ ours: mergeRounds(ours), bare: mergeRounds(bare) });
  }

  process.stdout.write(`${at()} the Confirm update, one chat\n`);
  const confirm = await confirmProbe("staff");
  process.stdout.write(`  round trips ${confirm.roundTrips.join(", ")}; commands ${confirm.commands.join(", ")}\n`);
  process.stdout.write(`${at()} the Confirm update of a reseller's order, one chat\n`);
  const confirmReseller = await confirmProbe("reseller");
  process.stdout.write(
    `  round trips ${confirmReseller.roundTrips.join(", ")}; commands ${confirmReseller.commands.join(", ")}\n`,
  );

  process.stdout.write(`${at()} ${IDLE_CHATS} chats left mid-order\n`);
  const idle = { ours: await idleChats("ours"), bare: await idleChats("bare") };

  const redisVersion = (await redisInfo()).version;
  const background = [backgroundBefore, await redisBackground()];
  const report: Report = {
    starts,
    rounds,
    confirm,
    confirmReseller,
    idle,
    redisVersion,
    minutes: (performance.now() - began) / 60_000,
    redisBackground: background,
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
