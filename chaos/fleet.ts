/**
 * The bot processes of a chaos run, and what the chaos does to them: one process killed and
 * restarted (the classic run), or several processes on one Redis (`--replicas N`), in webhook
 * mode behind a round-robin balancer or in long-polling mode (one poller, standbys), with SIGKILLs
 * of random processes (the poller more often), one rolling restart (SIGTERM to each in turn, each
 * must exit 0 within 10 s) and one Redis restart.
 */
import { request } from "undici";
import { startBotProcess, type BotProcess } from "../test/e2e/bot-process.js";
import type { FakeBotApi } from "../test/e2e/fake-bot-api.js";
import { freePort } from "../test/helpers/redis.js";
import { createRoundRobin, type RoundRobin } from "../test/e2e/round-robin.js";

export type FleetMode = "single" | "webhook" | "polling";

export interface Fleet {
  mode: FleetMode;
  size: number;
  start(): Promise<void>;
  /** SIGKILLs one running process now (a driver's aimed kill just after a Confirm); false when none ran. */
  killNow(): boolean;
  /**
   * SIGKILLs the process that made a Bot API call (the fake's `call.via`) and waits until it is
   * gone; false when it is not running. Called before the fake answers the call, it kills a
   * process that Telegram took a message from before the process knew it went out.
   */
  killSender(via: string | undefined): Promise<boolean>;
  /** One round of the chaos loop: restart what is down, then the next fault. */
  step(): Promise<void>;
  /** After the chaos: every process running again. */
  ensureRunning(): Promise<void>;
  /** Everything every process printed (killed ones included). */
  outputs(): string[];
  /** For each of outputs(): that process was SIGKILLed. */
  killed(): boolean[];
  /** SIGTERM to every process; their exit codes. */
  stop(): Promise<Array<number | null>>;
  kills(): number;
  aimedKills(): number;
  redisRestarts(): number;
  /** Report lines of its own (takeovers, the rolling restart). */
  figures(): string[];
  /** The HTTP ports (`PORT`) of the processes running now (the H2H partners send to them). */
  ports(): number[];
  /** What must not happen: an exit code other than 0 after SIGTERM, a stop over 10 s, a takeover over 15 s. */
  violations(): string[];
}

export interface FleetDeps {
  env: Record<string, string>;
  fake: FakeBotApi;
  random: () => number;
  redis: { stop(): Promise<void>; start(): Promise<void> };
  /** False once the drivers are done: the chaos loop ends. */
  running: () => boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WEBHOOK_PATH = "/tg/hook";

/** One process, SIGKILLed every 0.15 to 0.9 s and restarted 0.1 to 0.8 s later (the classic run). */
export function singleFleet(deps: FleetDeps): Fleet {
  const { fake, random } = deps;
  const started: BotProcess[] = [];
  let bot: BotProcess | undefined;
  let restarting = false;
  let kills = 0;
  let aimed = 0;
  let redisRestarts = 0;
  const alive = () => bot !== undefined && bot.child.exitCode === null && bot.child.signalCode === null;
  const startBot = async () => {
    restarting = true;
    bot = startBotProcess({ ...deps.env, BOT_API_ROOT: `${fake.url}/via/${started.length}` });
    started.push(bot);
    await fake.waitFor(() => fake.isPolling(), 30_000).catch(() => undefined);
    restarting = false;
  };
  return {
    mode: "single",
    size: 1,
    start: startBot,
    killNow() {
      if (!deps.running() || restarting || !alive()) return false;
      void bot!.kill("SIGKILL");
      kills++;
      aimed++;
      return true;
    },
    async killSender(via) {
      if (!deps.running() || restarting || !alive() || via !== String(started.indexOf(bot!))) return false;
      kills++;
      aimed++;
      await bot!.kill("SIGKILL");
      return true;
    },
    async step() {
      await sleep(150 + random() * 750);
      if (!deps.running()) return;
      if (alive()) kills++;
      await bot?.kill("SIGKILL");
      if (redisRestarts === 0 && kills >= 5) {
        await deps.redis.stop();
        await sleep(500);
        await deps.redis.start();
        redisRestarts++;
      }
      await sleep(100 + random() * 700);
      await startBot();
    },
    async ensureRunning() {
      if (!alive()) await startBot();
    },
    outputs: () => started.map((p) => p.output()),
    killed: () => started.map((p) => p.child.signalCode === "SIGKILL"),
    async stop() {
      const codes: Array<number | null> = [];
      if (alive()) codes.push(await bot!.kill("SIGTERM"));
      for (const p of started) await p.kill("SIGKILL");
      return codes;
    },
    kills: () => kills,
    aimedKills: () => aimed,
    redisRestarts: () => redisRestarts,
    figures: () => [],
    ports: () => (alive() && deps.env.PORT !== undefined ? [Number(deps.env.PORT)] : []),
    violations: () => [],
  };
}

interface Member {
  port: number;
  proc: BotProcess | undefined;
  starting: Promise<void> | undefined;
  /** Getting SIGTERM in the rolling restart: no other fault is aimed at it meanwhile. */
  stopping: boolean;
}

/**
 * `size` processes of the compiled bot on one Redis. Webhook mode: behind a round-robin balancer
 * written here (test/e2e/round-robin.ts), Telegram (the fake) posting every update to it until it
 * is answered 200, sometimes posting an update again after its 200. Polling mode: one process
 * polls, the others stand by. Every 1 to 3 s a random process is SIGKILLed (in polling mode the
 * poller one time in two) and started again 0.3 to 1.8 s later; once, all are restarted in turn
 * with SIGTERM; once, Redis is restarted.
 */
export function replicaFleet(deps: FleetDeps, mode: "webhook" | "polling", size: number): Fleet {
  const { fake, random } = deps;
  const members: Member[] = [];
  const all: BotProcess[] = [];
  let rr: RoundRobin | undefined;
  let kills = 0;
  let aimed = 0;
  let redisRestarts = 0;
  let rolled = false;
  let steps = 0;
  const stops: Array<{ code: number | null; ms: number }> = [];
  const takeovers: number[] = [];
  const problems: string[] = [];

  const alive = (m: Member) =>
    m.proc !== undefined &&
    m.starting === undefined &&
    m.proc.child.exitCode === null &&
    m.proc.child.signalCode === null;
  /** Running, and free to be killed (not in the middle of its rolling restart). */
  const killable = (m: Member) => alive(m) && !m.stopping;

  function launch(m: Member): Promise<void> {
    m.starting ??= (async () => {
      const proc = startBotProcess({
        ...deps.env,
        BOT_API_ROOT: `${fake.url}/via/${all.length}`,
        PORT: String(m.port),
        ...(mode === "webhook" ? { WEBHOOK_URL: `http://bot.example.com:8443${WEBHOOK_PATH}` } : {}),
      });
      m.proc = proc;
      all.push(proc);
      await proc.waitForOutput(/bot started/, 30_000).catch((err: unknown) => problems.push(String(err)));
    })().finally(() => (m.starting = undefined));
    return m.starting;
  }

  async function serving(m: Member): Promise<string> {
    try {
      const r = await request(`http://127.0.0.1:${m.port}/healthz`, { headersTimeout: 2000, bodyTimeout: 2000 });
      return ((await r.body.json()) as { serving: string }).serving;
    } catch {
      return "gone";
    }
  }

  /** Polling mode: how long from the poller's death to the next getUpdates (another process polling). */
  function watchTakeover(killedAt: number): void {
    void fake
      .waitFor(() => fake.calls.some((c) => c.method === "getUpdates" && c.at > killedAt + 20), 60_000)
      .then(
        () => {
          const first = fake.calls.find((c) => c.method === "getUpdates" && c.at > killedAt + 20)!;
          takeovers.push(first.at - killedAt);
        },
        () => problems.push("no process polled within 60 s of the poller's death"),
      );
  }

  async function kill(m: Member): Promise<void> {
    const poller = mode === "polling" && (await serving(m)) === "ready";
    const at = Date.now();
    await m.proc!.kill("SIGKILL");
    kills++;
    if (poller) watchTakeover(at);
  }

  async function rollingRestart(): Promise<void> {
    for (const m of members) {
      if (!alive(m)) await launch(m);
      m.stopping = true;
      const t = Date.now();
      m.proc!.child.kill("SIGTERM");
      const code = await m.proc!.exited;
      stops.push({ code, ms: Date.now() - t });
      m.stopping = false;
      await launch(m);
    }
  }

  return {
    mode,
    size,
    async start() {
      for (let i = 0; i < size; i++)
        members.push({ port: await freePort(), proc: undefined, starting: undefined, stopping: false });
      if (mode === "webhook") {
        rr = createRoundRobin(members.map((m) => `http://127.0.0.1:${m.port}`));
        await rr.start();
      }
      for (const m of members) await launch(m);
      if (mode === "webhook")
        fake.deliverWebhooks({ via: `${rr!.url}${WEBHOOK_PATH}`, retryMs: 150, again: () => random() < 0.05 });
      else await fake.waitFor(() => fake.isPolling(), 30_000);
    },
    killNow() {
      if (!deps.running()) return false;
      const up = members.filter(killable);
      if (up.length === 0) return false;
      const m = up[Math.floor(random() * up.length)]!;
      void m.proc!.kill("SIGKILL");
      kills++;
      aimed++;
      return true;
    },
    async killSender(via) {
      if (!deps.running()) return false;
      const m = members.find((x) => x.proc !== undefined && String(all.indexOf(x.proc)) === via);
      if (m === undefined || !killable(m)) return false;
      kills++;
      aimed++;
      await m.proc!.kill("SIGKILL");
      return true;
    },
    async step() {
      await sleep(1000 + random() * 2000);
      if (!deps.running()) return;
      for (const m of members) if (!alive(m) && m.starting === undefined) await launch(m);
      steps++;
      if (!rolled && steps === 6) {
        rolled = true;
        await rollingRestart();
        return;
      }
      if (redisRestarts === 0 && steps === 3) {
        await deps.redis.stop();
        await sleep(500);
        await deps.redis.start();
        redisRestarts++;
        return;
      }
      let victim = members[Math.floor(random() * members.length)]!;
      if (mode === "polling" && random() < 0.5) {
        // The poller; if none polls right now (a takeover under way), the one about to.
        for (const m of members) if (alive(m) && (await serving(m)) === "ready") victim = m;
      }
      if (!alive(victim)) return;
      await kill(victim);
      await sleep(300 + random() * 1500);
      await launch(victim);
    },
    async ensureRunning() {
      for (const m of members) if (!alive(m)) await launch(m);
      if (mode === "polling") await fake.waitFor(() => fake.isPolling(), 30_000).catch(() => undefined);
    },
    outputs: () => all.map((p) => p.output()),
    killed: () => all.map((p) => p.child.signalCode === "SIGKILL"),
    async stop() {
      await fake.stopDelivering();
      const codes: Array<number | null> = [];
      for (const m of members) {
        if (m.starting !== undefined) await m.starting;
        if (m.proc === undefined || !alive(m)) continue;
        m.proc.child.kill("SIGTERM");
        codes.push(await m.proc.exited);
      }
      for (const p of all) await p.kill("SIGKILL");
      await rr?.stop();
      return codes;
    },
    kills: () => kills,
    aimedKills: () => aimed,
    redisRestarts: () => redisRestarts,
    ports: () => members.filter(alive).map((m) => m.port),
    figures() {
      const lines: string[] = [];
      if (stops.length > 0) {
        lines.push(
          `  rolling restart: ${stops.length} processes stopped in turn with SIGTERM (and started again): exit codes ${JSON.stringify(stops.map((s) => s.code))}, longest stop ${Math.max(...stops.map((s) => s.ms))} ms`,
        );
      }
      if (mode === "polling") {
        const sorted = [...takeovers].sort((a, b) => a - b);
        lines.push(
          sorted.length === 0
            ? "  poller SIGKILLed: never (no takeover measured)"
            : `  poller SIGKILLed: ${sorted.length} times; a standby polled after ${(sorted[0]! / 1000).toFixed(1)} to ${(sorted.at(-1)! / 1000).toFixed(1)} s (median ${(sorted[Math.floor(sorted.length / 2)]! / 1000).toFixed(1)} s)`,
        );
      }
      if (mode === "webhook" && rr !== undefined) {
        const posts = fake.webhookPosts;
        const refused = posts.filter((p) => p.status !== 200).length;
        const ok = posts.filter((p) => p.status === 200);
        const again = ok.length - new Set(ok.map((p) => p.updateId)).size;
        lines.push(
          `  webhook POSTs: ${posts.length} (${refused} answered 502/503 or not at all, so posted again; ${again} posted again after their 200); by process ${JSON.stringify([...rr.counts.values()])}`,
        );
      }
      return lines;
    },
    violations() {
      const v = [...problems];
      for (const s of stops) {
        if (s.code !== 0) v.push(`a process stopped with SIGTERM exited ${String(s.code)}, not 0`);
        if (s.ms > 10_000) v.push(`a process took ${s.ms} ms to stop after SIGTERM (over 10 s)`);
      }
      for (const t of takeovers)
        if (t > 15_000) v.push(`a standby took ${t} ms to poll after the poller died (over 15 s)`);
      return v;
    },
  };
}
