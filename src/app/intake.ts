import { run, type RunnerHandle } from "@grammyjs/runner";
import { Api, GrammyError, type Bot } from "grammy";
import type { Update } from "grammy/types";
import type { BotContext } from "../bot/context.js";
import type { UnavailableNotice } from "../bot/notices/unavailable.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { retry } from "../retry.js";
import type { HttpServerOptions } from "../server/http-server.js";
import type { Liveness } from "../storage/liveness.js";
import type { Storage } from "../storage/storage.js";
import { createDirectIntake } from "../updates/direct.js";
import type { Serving, UpdatePipeline } from "../updates/pipeline.js";
import {
  forgetWebhookRegistration,
  freshWebhookSecret,
  registerWebhookOnce,
  sharedWebhookSecret,
} from "../updates/webhook-setup.js";

/** The kinds of update the bot asks Telegram for, in both modes. */
export const ALLOWED_UPDATES = ["message", "edited_message", "callback_query", "my_chat_member"] as const;

/** What every way of taking updates needs from the rest of the app. */
export interface IntakeDeps {
  config: Config;
  bot: Bot<BotContext>;
  /** Handles one update in this process (the bot's first middleware tracks it for shutdown). */
  handle: (update: Update, info?: { attempt: number }) => Promise<void>;
  /** Tells a user once that the bot is unavailable for a moment (an update that could not be stored). */
  unavailable: UnavailableNotice;
  logger: Logger;
  /** Waits between attempts at setWebhook while Telegram fails for now; after the last one the start fails. */
  webhookRetryDelaysMs?: readonly number[] | undefined;
}

/** setWebhook again after 1, 2, 4, 8, 15 s, then every 30 s: about three minutes in all. */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  1000, 2000, 4000, 8000, 15_000, 30_000, 30_000, 30_000, 30_000, 30_000,
];

/** The webhook's URL as the logs show it: its path may hold a secret (some put the token there). */
export function redactedWebhookUrl(url: string): string {
  const u = new URL(url);
  return u.pathname === "/" ? u.origin : `${u.origin}/[redacted]`;
}

/** A refusal Telegram will give again however often it is asked (a bad URL, a wrong token): not retried. */
const refusedForGood = (err: unknown) =>
  err instanceof GrammyError && err.error_code >= 400 && err.error_code < 500 && err.error_code !== 429;

/** What the log line at start says about the bot (name, store, catalogue, process). */
export type StartedInfo = Record<string, unknown>;

/** How updates reach this process, chosen once by the runtime. */
export interface Intake {
  /** With Redis: the update stream every update goes through (App.updates). */
  pipeline: UpdatePipeline | undefined;
  /** Webhook mode: the route of Telegram's POSTs on the HTTP server. */
  webhook: HttpServerOptions["webhook"];
  /** What this process does among the others (/healthz). */
  serving(): Exclude<Serving, "draining">;
  /** Starts taking updates, and logs that the bot started and how. */
  start(started: StartedInfo): Promise<void>;
  /** Stops taking updates; the ones being handled finish (with Redis, the rest go to the other processes). */
  stop(): Promise<void>;
}

/** One process, long polling with grammY's runner. */
export function runnerPolling(deps: IntakeDeps): Intake {
  const { bot, logger } = deps;
  let runner: RunnerHandle | undefined;
  return {
    pipeline: undefined,
    webhook: undefined,
    serving: () => "ready",
    async start(started) {
      // A webhook left over from webhook mode would stop getUpdates; a refusal here is not fatal.
      await bot.api.deleteWebhook().catch((err: unknown) => logger.warn({ err }, "deleteWebhook failed"));
      runner = run(bot, { runner: { fetch: { allowed_updates: ALLOWED_UPDATES } } });
      logger.info({ ...started, mode: "polling" }, "bot started (long polling)");
    },
    async stop() {
      if (runner?.isRunning()) await runner.stop();
    },
  };
}

/**
 * Registers the webhook with Telegram (setWebhook with the secret and the update kinds). A failure
 * for now (a network error, Telegram's 5xx or 429) is tried again with growing waits and logged
 * with the URL redacted; a refusal (400 bad webhook, 401) stops the start at once, saying why.
 * A plain Api (no auto-retry of its own): this loop alone decides the waits.
 */
function webhookRegistration(deps: IntakeDeps, url: string, secret: string) {
  const { config, logger } = deps;
  const delays = deps.webhookRetryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  const api = new Api(config.botToken, { apiRoot: config.botApiRoot });
  const shown = redactedWebhookUrl(url);
  const describe = (err: unknown) =>
    err instanceof GrammyError
      ? `${err.error_code} ${err.description}`
      : err instanceof Error
        ? err.message
        : String(err);
  return async () => {
    try {
      await retry(() => api.setWebhook(url, { secret_token: secret, allowed_updates: ALLOWED_UPDATES }), {
        delayMs: (attempt) => delays[attempt - 1],
        retryOn: (err) => !refusedForGood(err),
        onRetry: (err, { attempt, delayMs }) =>
          logger.warn(
            { webhook: shown, attempt, delayMs, err: describe(err) },
            "setWebhook failed for now; trying again",
          ),
      });
    } catch (err) {
      const why = refusedForGood(err)
        ? "Telegram refused it"
        : `Telegram did not take it after ${delays.length + 1} attempts`;
      throw new Error(`setWebhook for WEBHOOK_URL (${shown}) failed: ${why} (${describe(err)})`, { cause: err });
    }
  };
}

/**
 * One process, webhook: each POST is handed to the bot at once and answered (the memory store keeps
 * nothing to hand to another process). The secret is WEBHOOK_SECRET, or a fresh one per start.
 */
export function directWebhook(deps: IntakeDeps, webhook: { url: string; secret: string | undefined }): Intake {
  const { logger } = deps;
  const secret = webhook.secret ?? freshWebhookSecret();
  return {
    pipeline: undefined,
    webhook: {
      path: new URL(webhook.url).pathname,
      secret,
      intake: createDirectIntake(
        (update) =>
          void deps
            .handle(update)
            .catch((err: unknown) => logger.error({ err, updateId: update.update_id }, "update failed")),
      ),
      onNotStored: (update) => deps.unavailable.tell(update),
    },
    serving: () => "ready",
    async start(started) {
      await webhookRegistration(deps, webhook.url, secret)();
      logger.info({ ...started, mode: "webhook" }, "bot started (webhook)");
    },
    stop: async () => undefined,
  };
}

/** What the update stream's ways of taking updates share: the stream, this process, and its Redis. */
export interface StreamDeps extends IntakeDeps {
  storage: Extract<Storage, { kind: "redis" }>;
  owner: string;
  liveness: Liveness;
}

/** The getUpdates side of the update stream: one process polls (under a lease), every one handles. */
export function streamPollingSource(deps: StreamDeps) {
  const { config, storage, bot } = deps;
  return {
    // A plain Api (no auto-retry): a failed getUpdates is simply asked again.
    api: new Api(config.botToken, { apiRoot: config.botApiRoot }),
    allowedUpdates: ALLOWED_UPDATES,
    onNotStored: (batch: readonly Update[]) => batch.forEach((update) => deps.unavailable.tell(update)),
    onTakeOver: async () => {
      // A webhook left over from webhook mode would stop getUpdates.
      await bot.api.deleteWebhook();
      await forgetWebhookRegistration(storage);
    },
  };
}

/** Several processes on Redis, long polling: the pipeline's poller takes updates, every process handles them. */
export function streamPolling(deps: StreamDeps, pipeline: UpdatePipeline): Intake {
  return {
    pipeline,
    webhook: undefined,
    serving: () => pipeline.serving(),
    async start(started) {
      // Updates stored by any process before this one started are handled from here on.
      await pipeline.start();
      deps.logger.info(
        { ...started, mode: "polling" },
        "bot started (long polling: one process polls, the others stand by; all of them handle updates)",
      );
    },
    stop: () => pipeline.stop(),
  };
}

/**
 * Several processes on Redis, webhook: a POST is answered once the update is stored in the stream;
 * every process answers the same secret (kept in Redis) and one of them registers the webhook.
 */
export async function streamWebhook(
  deps: StreamDeps,
  pipeline: UpdatePipeline,
  webhook: { url: string; secret: string | undefined },
): Promise<Intake> {
  const { logger } = deps;
  const secret = await sharedWebhookSecret(deps.storage, webhook.secret);
  return {
    pipeline,
    webhook: {
      path: new URL(webhook.url).pathname,
      secret,
      intake: (update, body) => pipeline.intake(update, body),
      onNotStored: (update) => deps.unavailable.tell(update),
    },
    serving: () => pipeline.serving(),
    async start(started) {
      // Updates stored by any process before this one started are handled from here on.
      await pipeline.start();
      const registered = await registerWebhookOnce({
        storage: deps.storage,
        owner: deps.owner,
        parts: [webhook.url, secret, ALLOWED_UPDATES.join(",")],
        liveness: deps.liveness,
        register: webhookRegistration(deps, webhook.url, secret),
      });
      if (registered === "already") logger.info("webhook already registered by another process");
      logger.info({ ...started, mode: "webhook" }, "bot started (webhook)");
    },
    stop: () => pipeline.stop(),
  };
}
