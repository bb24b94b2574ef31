/**
 * Several providers, one phase of `npm run bench`: what a failover costs, and what the normal path
 * pays for a second provider (the resting check). Three configurations, each a fresh bot process
 * (`node dist/main.js`) on the shared Redis, one chat and nothing else going on:
 *
 * - **one provider**: the bench's sandbox alone (TOPUP_PROVIDERS unset), as every other phase;
 * - **two healthy providers**: `main` the bench's sandbox, `backup` a second sandbox; each order
 *   goes to main; the resting check (one Lua step, after reading the draft) only when this
 *   process has not found main healthy within the last second;
 * - **failover**: `main` a sandbox that sells nothing (it refuses each order at once with
 *   `product/not-found`, a failover code), `backup` the bench's sandbox: each order is refused,
 *   its next attempt written (one ledger step), and sold at the backup.
 *
 * Per configuration, PROVIDERS_SAMPLES orders one after the other after a warm-up: the Confirm
 * update's time (the tap queued at the fake → "Top-up successful" recorded by it), its Redis round
 * trips (counted in the bot, bench/probe.ts) and commands (INFO, server-wide), and the provider
 * calls per order. Settings: BENCH_PROVIDERS=0 leaves it out, BENCH_PROVIDERS_SAMPLES (default 20).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createSandboxProvider, type SandboxProvider } from "../src/topup/sandbox.js";
import type { FakeUser } from "../test/e2e/fake-bot-api.js";
import { launch, shutdown, type Harness } from "./bots.js";
import { confirmData, isSummary, lastId, newer, orderFlow, userRange } from "./chat-driver.js";
import { probe } from "./processes.js";
import { commandsBetween, redisInfo } from "./redis-info.js";
import { PROVIDERS_SAMPLES, RUN_PREFIX } from "./settings.js";

export type ProvidersConfig = "one provider" | "two healthy providers" | "failover";

/** One configuration's orders: each sample one Confirm update. */
export interface ProvidersLine {
  config: ProvidersConfig;
  /** Tap → result, ms. */
  ms: number[];
  roundTrips: number[];
  commands: number[];
  /** Calls every provider received, per order. */
  providerCallsPerOrder: number;
}

export interface ProvidersResult {
  samples: number;
  lines: ProvidersLine[];
}

/** A sandbox with the bench's credentials; `sells: false` refuses every order (product/not-found). */
async function sandboxOf(sells: boolean): Promise<SandboxProvider> {
  const s = createSandboxProvider({
    mitraId: "bench",
    secretKey: "bench-secret",
    products: sells ? [{ code: "ML86", name: "86 Diamonds", priceRp: 19_500 }] : [],
    initialBalance: 1_000_000_000_000,
  });
  await s.listen(0, "127.0.0.1");
  return s;
}

const backupEnv = (url: string) => ({
  TOPUP_PROVIDERS: "main,backup",
  TOPUP_BACKUP_BASE_URL: url,
  TOPUP_BACKUP_MITRA_ID: "bench",
  TOPUP_BACKUP_SECRET_KEY: "bench-secret",
});

async function measure(
  h: Harness,
  config: ProvidersConfig,
  index: number,
  env: Record<string, string>,
  sandboxes: readonly SandboxProvider[],
): Promise<ProvidersLine> {
  const user: FakeUser = { id: 640_000 + index * 100, first_name: "Probe", language_code: "en" };
  const warm = userRange(user.id + 1, 3);
  const run = await launch(h, "ours", [user, ...warm], `${RUN_PREFIX}providers-${index}:`, { probe: true, env });
  const { watch, proc } = run;
  const { fake } = watch;
  try {
    for (const u of warm) await orderFlow(watch, u);
    const line: ProvidersLine = { config, ms: [], roundTrips: [], commands: [], providerCallsPerOrder: 0 };
    const callsBefore = sandboxes.reduce((n, s) => n + s.calls.length, 0);
    for (let i = 0; i < PROVIDERS_SAMPLES; i++) {
      let base = fake.sendText(user, `/order ML86 12345678(1234)`).message!.message_id;
      const summary = await watch.wait(user.id, () => newer(fake, user.id, base, isSummary), "summary");
      await sleep(200);
      const redisBefore = await redisInfo(h.redis);
      const before = await probe(proc);
      base = lastId(fake, user.id);
      const tapped = performance.now();
      fake.tapButton(user, summary, confirmData(summary));
      await watch.wait(user.id, () => newer(fake, user.id, base, (m) => /Top-up successful/.test(m.text)), "result");
      line.ms.push(performance.now() - tapped);
      await sleep(200);
      const after = await probe(proc);
      const redisAfter = await redisInfo(h.redis);
      line.roundTrips.push(after.redisRoundTrips - before.redisRoundTrips);
      line.commands.push(commandsBetween(redisBefore, redisAfter));
    }
    line.providerCallsPerOrder = (sandboxes.reduce((n, s) => n + s.calls.length, 0) - callsBefore) / PROVIDERS_SAMPLES;
    return line;
  } finally {
    await shutdown(run);
  }
}

export async function providers(h: Harness): Promise<ProvidersResult> {
  const healthy = await sandboxOf(true);
  const refusing = await sandboxOf(false);
  try {
    const lines = [
      await measure(h, "one provider", 0, {}, [h.sandbox]),
      await measure(h, "two healthy providers", 1, backupEnv(healthy.url), [h.sandbox, healthy]),
      await measure(h, "failover", 2, { ...backupEnv(h.sandbox.url), TOPUP_BASE_URL: refusing.url }, [
        h.sandbox,
        refusing,
      ]),
    ];
    return { samples: PROVIDERS_SAMPLES, lines };
  } finally {
    await healthy.close();
    await refusing.close();
  }
}
