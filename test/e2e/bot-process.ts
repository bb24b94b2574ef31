import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * What `npm start` runs after `node`: the node flags and the entry point, read from package.json,
 * so tests and the benchmark start the bot exactly as it ships (the Dockerfile's CMD is checked
 * against the same script).
 */
export function startArgs(): string[] {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    scripts: { start: string };
  };
  const [node, ...args] = pkg.scripts.start.trim().split(/\s+/);
  if (node !== "node" || args.at(-1) !== "dist/main.js")
    throw new Error(`npm start is not "node [flags] dist/main.js": ${pkg.scripts.start}`);
  return args;
}

export interface BotProcess {
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once the output matches, or rejects with the output so far. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
  child: ChildProcess;
}

/**
 * Starts the real bot the way an operator does (`npm start` runs `node dist/main.js`, compiled by
 * the install step or `npm run build`; `npm test` builds first), with only the given environment:
 * nothing of the test runner's environment leaks in except PATH/HOME.
 */
export function startBotProcess(env: Record<string, string>): BotProcess {
  const child = spawn(process.execPath, startArgs(), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "test", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString("utf8");
    for (const w of waiters) w();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  // "close", not "exit": it comes after the output pipes are drained, so output() is complete.
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => {
      for (const w of waiters) w();
      resolve(code);
    }),
  );

  return {
    child,
    exited,
    output: () => out,
    waitForOutput(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(out)) {
            cleanup();
            resolve();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            cleanup();
            reject(new Error(`bot exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${out}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`bot did not print ${pattern} within ${timeoutMs} ms:\n${out}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async kill(signal = "SIGKILL") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Starts the bot and waits until it is polling. */
export async function startBot(env: Record<string, string>): Promise<BotProcess> {
  const bot = startBotProcess(env);
  await bot.waitForOutput(/bot started/);
  return bot;
}
