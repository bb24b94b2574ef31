import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Update } from "grammy/types";
import type { Logger } from "../logger.js";

export interface HttpServerOptions {
  /** True when the store (Redis) answers. */
  health: () => Promise<boolean>;
  /** Webhook mode: Telegram's POSTs on `path`, only with the right secret header. */
  webhook?: { path: string; secret: string; onUpdate: (update: Update) => void };
  logger: Logger;
}

export interface HttpServer {
  listen(port: number, host?: string): Promise<number>;
  /** Stops taking requests (webhook POSTs get 503 from now on) and closes the server. */
  close(): Promise<void>;
  /** Stop accepting webhook updates but keep answering /healthz until close(). */
  stopIntake(): void;
  server: Server;
}

const MAX_BODY = 1024 * 1024;
const RECENT_UPDATES = 1000;

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The bot's one HTTP server: `GET /healthz` in both modes, and in webhook mode Telegram's POSTs.
 * A webhook update is acknowledged at once and handled afterwards: a provider call can take
 * longer than Telegram waits, and an unanswered POST would be delivered again.
 */
export function createHttpServer(opts: HttpServerOptions): HttpServer {
  let accepting = true;
  const recent = new Set<number>();

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  async function readBody(req: IncomingMessage): Promise<string | undefined> {
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) return undefined;
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString("utf8");
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    try {
      if (path === "/healthz") {
        if (req.method !== "GET" && req.method !== "HEAD") return json(res, 405, { error: "method not allowed" });
        const up = await opts.health().catch((err: unknown) => {
          opts.logger.warn({ err }, "health check failed");
          return false;
        });
        return json(res, up ? 200 : 503, up ? { status: "ok", redis: "up" } : { status: "unavailable", redis: "down" });
      }
      const webhook = opts.webhook;
      if (webhook === undefined || path !== webhook.path) return json(res, 404, { error: "not found" });
      if (req.method !== "POST") return json(res, 405, { error: "method not allowed" });
      if (!sameSecret(req.headers["x-telegram-bot-api-secret-token"] as string | undefined, webhook.secret)) {
        opts.logger.warn({ path }, "webhook call with a wrong or missing secret token refused");
        return json(res, 401, { error: "unauthorized" });
      }
      if (!accepting) return json(res, 503, { error: "shutting down" });
      const body = await readBody(req);
      let update: Update;
      try {
        update = JSON.parse(body ?? "") as Update;
      } catch {
        // Not JSON: the sender is told so; nothing of ours failed.
        return json(res, 400, { error: "body is not a Telegram update" });
      }
      if (typeof update?.update_id !== "number") return json(res, 400, { error: "body is not a Telegram update" });
      json(res, 200, { ok: true });
      // Telegram may deliver an update again (a slow answer, a retry): handle each id once.
      if (recent.has(update.update_id)) return;
      recent.add(update.update_id);
      if (recent.size > RECENT_UPDATES) recent.delete(recent.values().next().value!);
      webhook.onUpdate(update);
    } catch (err) {
      opts.logger.error({ err }, "http request failed");
      if (!res.headersSent) json(res, 500, { error: "internal error" });
    }
  };
  const server = createServer((req, res) => void handle(req, res));

  return {
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
