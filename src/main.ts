import { config as loadDotenv } from "dotenv";
import { buildApp } from "./app.js";
import { StartupError } from "./app/startup.js";
import { parseConfig } from "./config.js";
import { watchLauncher } from "./launcher.js";
import { createLogger } from "./logger.js";
import { staleBuildWarning } from "./stale-build.js";

/** Stops at start with a short message and exit code 1: no stack trace for an operator's mistake. */
function fail(title: string, lines: string[]): never {
  process.stderr.write(`${title}\n${lines.map((l) => `  - ${l}`).join("\n")}\n`);
  process.exit(1);
}

/** How long a stop may take before the process exits anyway (10 s: an orchestrator's usual grace period before it kills). */
const STOP_LIMIT_MS = 10_000;

/** Reads the environment, builds the app, starts it, and stops it once on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  loadDotenv({ quiet: true });
  const parsed = parseConfig(process.env);
  if (!parsed.ok) fail("Configuration error: the bot cannot start.", parsed.errors);
  const logger = createLogger(parsed.config.logLevel);
  const stale = import.meta.url.endsWith("/dist/main.js") ? staleBuildWarning(import.meta.url) : undefined;
  if (stale !== undefined) logger.warn(stale);
  const app = await buildApp(parsed.config, { logger });

  const stop = (reason: string) => {
    logger.info({ reason }, "shutting down: no new updates, finishing the ones in flight");
    setTimeout(() => {
      logger.error("shutdown took longer than 10 s, forcing exit");
      process.exit(1);
    }, STOP_LIMIT_MS).unref();
    app.stop().then(
      () => {
        logger.info("stopped");
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
  watchLauncher(() => stop("launcher process gone"));
  await app.start();
}

main().catch((err: unknown) => {
  if (err instanceof StartupError) fail(err.title, err.lines);
  // A bug or an infrastructure failure at start: name it in one line, no stack, no secrets.
  process.stderr.write(`The bot stopped: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n`);
  process.exit(1);
});
