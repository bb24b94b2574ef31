import { afterEach, describe, expect, it } from "vitest";
import { chooseRuntime } from "../../src/app/runtime.js";
import { createTelegramBot } from "../../src/bot/create-bot.js";
import { parseConfig, type Config } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { createLiveness } from "../../src/storage/liveness.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { redisStorage } from "../helpers/redis.js";

const BASE = { BOT_TOKEN: "123456:ABC-def_ghi", ADMIN_IDS: "1001" };
const WEBHOOK = { WEBHOOK_URL: "https://bot.example.com/telegram/hook", WEBHOOK_SECRET: "s3cret", PORT: "8080" };

function configOf(env: Record<string, string>): Config {
  const parsed = parseConfig({ ...BASE, ...env });
  if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
  return parsed.config;
}

/** The runtime's parts for a configuration and a storage, built as buildApp builds them (nothing started). */
async function partsFor(config: Config, storage: Storage) {
  const logger = createLogger("silent");
  const liveness = createLiveness(storage, logger);
  const runtime = chooseRuntime(config, storage, { owner: "test-process", liveness, logger });
  const bot = createTelegramBot({ token: config.botToken, apiRoot: config.botApiRoot });
  const parts = await runtime.build({
    config,
    bot,
    handle: async () => undefined,
    unavailable: { tell: () => undefined, idle: async () => undefined },
    logger,
    orders: { recoverInterrupted: async () => [], inFlight: async () => [], tellInterrupted: async () => undefined },
    deposits: { tellUntold: async () => undefined },
    depositRequests: { sweep: async () => undefined },
    broadcaster: { resume: async () => undefined },
    setMenus: async () => undefined,
    everyMs: 60_000,
  });
  return { runtime, ...parts };
}

describe("the runtime is chosen once, from REDIS_URL and WEBHOOK_URL", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it("when REDIS_URL is unset, then updates go straight to the bot: no update stream, no broadcast lease", async () => {
    const config = configOf({});
    const storage = await createStorage({ redisUrl: undefined, prefix: "test:" });
    const { runtime, intake } = await partsFor(config, storage);
    expect(runtime.broadcastLease).toBeUndefined();
    expect(intake.pipeline).toBeUndefined();
    expect(intake.webhook).toBeUndefined();
    expect(intake.serving()).toBe("ready");
  });

  it("when REDIS_URL is unset and WEBHOOK_URL is set, then Telegram's POSTs on its path are handed to the bot", async () => {
    const config = configOf(WEBHOOK);
    const storage = await createStorage({ redisUrl: undefined, prefix: "test:" });
    const { intake } = await partsFor(config, storage);
    expect(intake.pipeline).toBeUndefined();
    expect(intake.webhook).toMatchObject({ path: "/telegram/hook", secret: "s3cret" });
  });

  it("when REDIS_URL is set, then every update goes through the update stream and each broadcast has a lease", async () => {
    const { storage, cleanup } = await redisStorage("runtime");
    cleanups.push(cleanup);
    const { runtime, intake } = await partsFor(configOf({}), storage);
    expect(intake.pipeline).toBeDefined();
    expect(intake.webhook).toBeUndefined();
    expect(runtime.broadcastLease?.("b1").name).toContain("broadcast:b1");
  });

  it("when REDIS_URL and WEBHOOK_URL are set without a secret, then two processes answer the same secret", async () => {
    const { storage, cleanup } = await redisStorage("runtime-webhook");
    cleanups.push(cleanup);
    const config = configOf({ WEBHOOK_URL: WEBHOOK.WEBHOOK_URL, PORT: WEBHOOK.PORT });
    const first = await partsFor(config, storage);
    const second = await partsFor(config, storage);
    expect(first.intake.pipeline).toBeDefined();
    expect(first.intake.webhook?.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(second.intake.webhook?.secret).toBe(first.intake.webhook?.secret);
  });
});
