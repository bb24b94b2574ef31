/** Start-up: spawn → first getUpdates of a fresh process, and its RSS once idle, for both bots. */
import { setTimeout as sleep } from "node:timers/promises";
import { createFakeBotApi } from "../test/e2e/fake-bot-api.js";
import { botEnv, READY, shutdown, type Harness, type Kind } from "./bots.js";
import { userRange, Watch } from "./chat-driver.js";
import { BARE, memoryOf, startProc, type Proc } from "./processes.js";
import { IDLE_RSS_RUNS, MAIN, RUN_PREFIX, START_RUNS } from "./settings.js";

export interface StartResult {
  kind: Kind;
  ms: number[];
  idleRss: number[];
}

/**
 * Spawn → first getUpdates, each run a fresh process exactly as production starts it, the bot and
 * the bare bot one after the other. In the first IDLE_RSS_RUNS runs both are then left idle for
 * ~2 s after printing that they started (side by side: neither does anything then) for the idle RSS.
 */
export async function startUps(h: Harness): Promise<Record<Kind, StartResult>> {
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
          ? botEnv(fake, `${RUN_PREFIX}start:`, userRange(100_000, 1), h.sandbox)
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
        await sleep(Math.max(0, s.readyAt + 2000 - performance.now()));
        res[s.kind].idleRss.push(memoryOf(s.proc.pid).rss);
      }
      await Promise.all(started.map((s) => shutdown(s)));
    }
  }
  return res;
}
