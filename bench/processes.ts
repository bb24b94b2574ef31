/**
 * The processes the bench runs: the bot as production starts it (`node dist/main.js` with the
 * flags of `npm start`), the bare grammY bot and the bare H2H handler, optionally with the probe
 * preloaded; what /proc says of them; and the bench's own JavaScript (bare bot, bare H2H handler and
 * probe, compiled by esbuild).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startArgs } from "../test/e2e/bot-process.js";
import { MAIN, ROOT } from "./settings.js";

/** The bench's own JavaScript (compiled bare bot, bare H2H handler and probe), in a temporary directory. */
const BUILD = mkdtempSync(join(tmpdir(), "topup-bench-"));
const PROBE = pathToFileURL(join(BUILD, "probe.mjs")).href;
export const BARE = join(BUILD, "bare-bot.mjs");
export const BARE_H2H = join(BUILD, "bare-h2h.mjs");

export interface Probe {
  redisRoundTrips: number;
  cpuUserUs: number;
  cpuSystemUs: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

export interface Proc {
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

export function startProc(
  script: string,
  env: Record<string, string>,
  opts: { probe: boolean; flags?: string[] },
): Proc {
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

export async function stopProc(proc: Proc): Promise<void> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGTERM");
  const timer = setTimeout(() => proc.child.kill("SIGKILL"), 12_000);
  await proc.exited;
  clearTimeout(timer);
}

/** What the preloaded probe reports (SIGUSR2; SIGWINCH: after a full GC). */
export async function probe(proc: Proc, gc = false): Promise<Probe> {
  const from = proc.output().length;
  proc.child.kill(gc ? "SIGWINCH" : "SIGUSR2");
  const m = await proc.waitOutput(/\{"benchProbe":(\{[^}]*\})\}/, from, 10_000);
  return JSON.parse(m[1]!) as Probe;
}

export const cpuMs = (p: Probe) => (p.cpuUserUs + p.cpuSystemUs) / 1000;

/** CPU time all processes of the machine spent (user + nice + system, all cores, /proc/stat), in ms. */
export function machineBusyMs(): number {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal, in 1/100 s; interrupts are left out as they
  // are not in any process's own CPU time either.
  const [user, nice, system] = fields;
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0)) * 10;
}

/** VmRSS and VmHWM (the lifetime peak) from /proc, in bytes. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") * 1024, peak: kb("VmHWM") * 1024 };
}

/**
 * bench/bare-bot.ts, bench/bare-h2h.ts and bench/probe.ts to plain JavaScript, like the bot's dist/:
 * esbuild, one file each, not bundled (the bare bot loads grammY and the bare H2H handler undici from
 * node_modules, linked beside them, as dist/ does).
 */
export function compileBenchFiles(): void {
  symlinkSync(join(ROOT, "node_modules"), join(BUILD, "node_modules"), "dir");
  for (const name of ["bare-bot", "bare-h2h", "probe"]) {
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
export function distFingerprint(): string {
  const hash = createHash("sha1");
  const files = (readdirSync(`${ROOT}dist`, { recursive: true }) as string[]).filter((f) => f.endsWith(".js")).sort();
  for (const file of files) hash.update(file).update(readFileSync(`${ROOT}dist/${file}`));
  return hash.digest("hex").slice(0, 12);
}

/** Other things to stop with the bench's processes (a redis-server of its own); see `alsoStop`. */
const others = new Set<() => Promise<void>>();

/** `stop` runs with stopAll (a failed or interrupted run) unless the returned function is called first. */
export function alsoStop(stop: () => Promise<void>): () => void {
  others.add(stop);
  return () => others.delete(stop);
}

/** Every process the bench started and that still runs: stopped by `stopAll` (the end, or Ctrl-C). */
export async function stopAll(): Promise<void> {
  for (const proc of [...live]) await stopProc(proc).catch(() => undefined);
  for (const stop of [...others]) await stop().catch(() => undefined);
}

export function removeBenchFiles(): void {
  rmSync(BUILD, { recursive: true, force: true });
}
