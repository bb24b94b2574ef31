import { timingSafeEqual } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { Update } from "grammy/types";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Logger } from "../logger.js";
import { parseUpdate } from "../updates/lane.js";
import type { Serving } from "../updates/pipeline.js";

export interface HttpServerOptions {
  /** True when the store (Redis) answers. */
  health: () => Promise<boolean>;
  /** "standby" for a long-polling process that waits for its turn (default "ready"); "draining" comes from stopIntake(). */
  serving?: () => Exclude<Serving, "draining">;
  /**
   * Webhook mode: Telegram's POSTs on `path`, only with the right secret header. `intake` makes
   * the update safe (stores it, or hands it on); the POST is answered 200 only once it resolved,
   * and 503 when it threw (Telegram sends the update again).
   */
  webhook?: {
    path: string;
    secret: string;
    intake: (update: Update, body: string) => Promise<void>;
    /** Called when the intake threw (answered 503): its user may be told so (Telegram posts it again). */
    onNotStored?: (update: Update) => void;
  };
  /** More routes on the same server (the Mini App under /app), mounted as they are. */
  routes?: ReadonlyArray<{ path: string; app: Hono }>;
  logger: Logger;
}

export interface HttpServer {
  /** The routes, callable without a port (`app.request(...)`), as the tests do. */
  app: Hono;
  listen(port: number, host?: string): Promise<number>;
  /** Stops taking requests (webhook POSTs get 503 from now on) and closes the server. */
  close(): Promise<void>;
  /** Stop accepting webhook updates but keep answering /healthz until close(). */
  stopIntake(): void;
  server: Server;
}

/** The largest webhook body taken: Telegram's updates are far smaller. */
export const MAX_UPDATE_BYTES = 1024 * 1024;

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const methodNotAllowed = (c: Context) => c.json({ error: "method not allowed" }, 405);

/**
 * The bot's one HTTP server, on Hono: `GET /healthz` in both modes, in webhook mode Telegram's
 * POSTs, and whatever routes are mounted beside them (the Mini App). A webhook update is
 * answered once the intake made it safe (with Redis: stored in the update stream, see
 * updates/update-stream.ts), never after it is handled: a provider call can take longer than
 * Telegram waits, and an unanswered POST would be delivered again. Refused before anything
 * reaches the intake: a wrong secret (401), a stopping bot (503), a body over 1 MB (413), a body
 * that is not an update (400).
 *
 * /healthz answers `status` "ok" with 200 ("unavailable" with 503 when Redis does not answer)
 * and `serving`: what this process does among the others.
 * - 200 `{"status":"ok","redis":"up","serving":"ready"}`: it takes updates;
 *   `"serving":"standby"`: long polling, another process polls (healthy: it takes over when the
 *   poller dies, and it handles updates too).
 * - 503 `{"status":"draining","redis":…,"serving":"draining"}` from SIGTERM on (a load balancer
 *   stops sending it POSTs).
 * - 503 `{"status":"unavailable","redis":"down","serving":…}` when Redis does not answer.
 */
export function createHttpServer(opts: HttpServerOptions): HttpServer {
  let accepting = true;
  // Not strict: /app and /app/ reach the same route (the Mini App sends the first to the second).
  const app = new Hono({ strict: false });

  app.on(["GET", "HEAD"], "/healthz", async (c) => {
    const up = await opts.health().catch((err: unknown) => {
      opts.logger.warn({ err }, "health check failed");
      return false;
    });
    const redis = up ? "up" : "down";
    if (!accepting) return c.json({ status: "draining", redis, serving: "draining" }, 503);
    const serving = opts.serving?.() ?? "ready";
    if (!up) return c.json({ status: "unavailable", redis, serving }, 503);
    return c.json({ status: "ok", redis, serving }, 200);
  });
  app.all("/healthz", methodNotAllowed);

  const webhook = opts.webhook;
  if (webhook !== undefined) {
    const secret: MiddlewareHandler = async (c, next) => {
      if (!sameSecret(c.req.header("x-telegram-bot-api-secret-token"), webhook.secret)) {
        opts.logger.warn({ path: webhook.path }, "webhook call with a wrong or missing secret token refused");
        return c.json({ error: "unauthorized" }, 401);
      }
      if (!accepting) return c.json({ error: "shutting down" }, 503);
      await next();
    };
    const limit = bodyLimit({
      maxSize: MAX_UPDATE_BYTES,
      onError: (c) => c.json({ error: "body too large" }, 413),
    });
    app.post(webhook.path, secret, limit, async (c) => {
      const body = await c.req.text();
      const update = parseUpdate(body);
      // Not JSON, or no update_id: the sender is told so; nothing of ours failed.
      if (update === undefined) return c.json({ error: "body is not a Telegram update" }, 400);
      try {
        await webhook.intake(update, body);
      } catch (err) {
        // Not safe yet (Redis does not answer): not acknowledged, so Telegram delivers it again.
        opts.logger.error({ err, updateId: update.update_id }, "webhook update not stored; answered 503");
        webhook.onNotStored?.(update);
        return c.json({ error: "temporarily unavailable" }, 503);
      }
      return c.json({ ok: true });
    });
    app.all(webhook.path, methodNotAllowed);
  }

  for (const route of opts.routes ?? []) app.route(route.path, route.app);

  app.notFound((c) => c.json({ error: "not found" }, 404));
  app.onError((err, c) => {
    opts.logger.error({ err, path: c.req.path }, "http request failed");
    return c.json({ error: "internal error" }, 500);
  });

  const server = createAdaptorServer({ fetch: app.fetch }) as Server;

  return {
    app,
    server,
    listen(port, host = "0.0.0.0") {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
      });
    },
    stopIntake() {
      accepting = false;
    },
    close() {
      accepting = false;
      server.closeIdleConnections();
      return new Promise((resolve) => {
        server.close(() => resolve());
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      });
    },
  };
}
