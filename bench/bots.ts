/**
 * The two bots the bench compares, each started fresh against a fake Bot API of its own: the bot
 * (`node dist/main.js`, the sandbox provider, the shared Redis) and the bare grammY bot.
 */
import type { SandboxProvider } from "../src/topup/sandbox.js";
import { createFakeBotApi, type FakeBotApi, type FakeUser } from "../test/e2e/fake-bot-api.js";
import { Watch } from "./chat-driver.js";
import { BARE, startProc, stopProc, type Proc } from "./processes.js";
import type { RedisClient } from "./redis-info.js";
import { MAIN, PROFILE_DIR, REDIS_URL } from "./settings.js";

/** What every measurement shares: the bench's own connection to Redis and the provider the bots order from. */
export interface Harness {
  redis: RedisClient;
  sandbox: SandboxProvider;
}

export function botEnv(
  fake: FakeBotApi,
  prefix: string,
  users: FakeUser[],
  sandbox: SandboxProvider,
): Record<string, string> {
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

export type Kind = "ours" | "bare";
export const READY: Record<Kind, RegExp> = { ours: /bot started/, bare: /bare bot started/ };

export async function launch(
  h: Harness,
  kind: Kind,
  users: FakeUser[],
  prefix: string,
  opts: { probe: boolean; profile?: boolean; resellers?: FakeUser[]; env?: Record<string, string> },
): Promise<{ watch: Watch; proc: Proc }> {
  const fake = createFakeBotApi();
  await fake.start();
  const watch = new Watch(fake);
  const env =
    kind === "ours" ? botEnv(fake, prefix, users, h.sandbox) : { BOT_TOKEN: fake.token, BOT_API_ROOT: fake.url };
  if (opts.env !== undefined) Object.assign(env, opts.env);
  if (opts.resellers !== undefined) env.RESELLER_IDS = opts.resellers.map((u) => u.id).join(",");
  if (opts.probe) Object.assign(env, { BENCH_REDIS_PORT: new URL(REDIS_URL).port || "6379" });
  const flags =
    opts.profile === true && PROFILE_DIR !== undefined ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const proc = startProc(kind === "ours" ? MAIN : BARE, env, { probe: opts.probe, flags });
  await proc.waitOutput(READY[kind]);
  return { watch, proc };
}

export async function shutdown(run: { watch: Watch; proc: Proc }): Promise<void> {
  await stopProc(run.proc);
  run.watch.close();
  await run.watch.fake.stop();
}
