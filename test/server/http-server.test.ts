import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { createHttpServer, MAX_UPDATE_BYTES } from "../../src/server/http-server.js";
import { createDirectIntake } from "../../src/updates/direct.js";

const SECRET = "hook-secret_123";

/**
 * The server's routes, called without a port, with the webhook recording what it was handed
 * (through the memory store's direct intake, unless an intake is given).
 */
function server(
  health = async () => true,
  intake?: (update: Update) => Promise<void>,
  serving?: () => "ready" | "standby",
) {
  const handed: Update[] = [];
  /** Updates the server said were not stored (their users are told so). */
  const notStored: number[] = [];
  const http = createHttpServer({
    health,
    ...(serving === undefined ? {} : { serving }),
    logger: createLogger("silent"),
    webhook: {
      path: "/tg/hook",
      secret: SECRET,
      intake: intake ?? createDirectIntake((u) => void handed.push(u)),
      onNotStored: (u) => void notStored.push(u.update_id),
    },
  });
  const post = (body: string, secret: string | null = SECRET) =>
    http.app.request("/tg/hook", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(secret === null ? {} : { "x-telegram-bot-api-secret-token": secret }),
      },
      body,
    });
  return { http, handed, post, notStored };
}

const update = (id: number) => JSON.stringify({ update_id: id, message: { message_id: 1, text: "/start" } });

describe("the HTTP server: webhook and health", () => {
  it("when Telegram posts an update with the secret, then it is handed on once, however often it is posted", async () => {
    const { handed, post } = server();
    expect((await post(update(7))).status).toBe(200);
    expect((await post(update(7))).status).toBe(200);
    expect(handed.map((u) => u.update_id)).toEqual([7]);
  });

  it("when the secret is wrong or missing, the body is not an update, or too large, then nothing is handed on", async () => {
    const { handed, post, http } = server();
    expect((await post(update(1), "wrong")).status).toBe(401);
    expect((await post(update(1), null)).status).toBe(401);
    expect((await post("not json")).status).toBe(400);
    expect((await post(JSON.stringify({ hello: 1 }))).status).toBe(400);
    expect((await post(JSON.stringify({ update_id: 2, pad: "x".repeat(MAX_UPDATE_BYTES) }))).status).toBe(413);
    expect((await http.app.request("/tg/hook")).status).toBe(405);
    expect(handed).toEqual([]);
  });

  it("when the bot is stopping, then updates are refused with 503 (Telegram sends them again) and health says draining", async () => {
    const { handed, post, http } = server();
    expect(await (await http.app.request("/healthz")).json()).toEqual({ status: "ok", redis: "up", serving: "ready" });
    http.stopIntake();
    expect((await post(update(3))).status).toBe(503);
    expect(handed).toEqual([]);
    const health = await http.app.request("/healthz");
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: "draining", redis: "up", serving: "draining" });
  });

  it("when the intake cannot store an update (Redis down), then the POST gets 503, nothing is acknowledged, and the update is named for a notice", async () => {
    const stored: number[] = [];
    let up = false;
    const { post, notStored } = server(
      async () => up,
      async (u) => {
        if (!up) throw new Error("The client is closed");
        stored.push(u.update_id);
      },
    );
    expect((await post(update(5))).status).toBe(503);
    expect(stored).toEqual([]);
    expect(notStored).toEqual([5]);
    up = true;
    // Telegram delivers it again; now it is stored and acknowledged.
    expect((await post(update(5))).status).toBe(200);
    expect(stored).toEqual([5]);
    expect(notStored).toEqual([5]);
  });

  it("when a long-polling process waits for its turn, then /healthz says standby with 200 (it is healthy)", async () => {
    const { http } = server(
      async () => true,
      undefined,
      () => "standby",
    );
    const res = await http.app.request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", redis: "up", serving: "standby" });
  });

  it("when Redis does not answer, then /healthz says 503 and which part is down; other paths are 404", async () => {
    const { http } = server(async () => false);
    const res = await http.app.request("/healthz");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "unavailable", redis: "down", serving: "ready" });
    expect((await http.app.request("/healthz", { method: "POST" })).status).toBe(405);
    expect((await http.app.request("/nothing")).status).toBe(404);
  });
});
