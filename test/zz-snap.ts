import { spawn } from "node:child_process";
import { createFakeBotApi } from "./e2e/fake-bot-api.js";
const fake = createFakeBotApi(); await fake.start();
const flags = (process.env.FLAGS ?? "").split(" ").filter(Boolean);
const child = spawn("node", [...flags, "--heapsnapshot-signal=SIGUSR2", process.env.ENTRY ?? "dist/main.js"], { env: { PATH: process.env.PATH!, BOT_TOKEN: fake.token, BOT_API_ROOT: fake.url, ADMIN_IDS: "1", REDIS_URL: "redis://127.0.0.1:6379", REDIS_KEY_PREFIX: `zzmem:${Date.now()}:`, LOG_LEVEL: "warn", TOPUP_BASE_URL: "http://127.0.0.1:9", TOPUP_MITRA_ID: "m", TOPUP_SECRET_KEY: "s" }, stdio: ["ignore", "pipe", "pipe"] });
await fake.waitFor(() => fake.isPolling(), 20000);
await new Promise(r => setTimeout(r, 2500));
child.kill("SIGUSR2"); await new Promise(r => setTimeout(r, 6000));
child.kill("SIGKILL"); await fake.stop();
