import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, createWorld, type World } from "../e2e/world.js";
import { freePort } from "../helpers/redis.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** What `npm run app-link` runs, read from package.json: `node <script>`, the script compiled into dist. */
async function scriptPath(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const [node, script, ...rest] = (pkg.scripts["app-link"] ?? "").trim().split(/\s+/);
  if (node !== "node" || script === undefined || rest.length > 0)
    throw new Error(`npm run app-link is not "node <script>": ${pkg.scripts["app-link"]}`);
  return join(ROOT, script);
}

/**
 * Runs `npm run app-link -- <args>` as a developer does, in a directory of its own (its .env, if
 * the test writes one, and not the checkout's), with only the given environment.
 */
async function appLink(dir: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [await scriptPath(), ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { code, stdout, stderr };
}

describe("npm run app-link: the shop app in a browser for a trial", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "app-link-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("when BOT_TOKEN is not set, then it says so, prints no link and exits non-zero", async () => {
    const run = await appLink(dir, [String(ADMIN.id)], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("BOT_TOKEN is not set (in the environment or .env)");
    expect(run.stdout).toBe("");
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("when the user id or the minutes are not what they must be, then it says how to call it and exits non-zero", async () => {
    for (const args of [
      [],
      ["admin"],
      [String(ADMIN.id), "0"],
      [String(ADMIN.id), "1441"],
      [String(ADMIN.id), "ten"],
    ]) {
      const run = await appLink(dir, args, { BOT_TOKEN: "123456:ABC-def" });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("usage: npm run app-link -- <USER_ID> [minutes, 1 to 1440, default 10]");
    }
  });

  describe("with the bot running", () => {
    let world: World;
    let port: number;
    beforeEach(async () => {
      world = await createWorld();
      port = await freePort();
      Object.assign(world.env, {
        ADMIN_IDS: String(ADMIN.id),
        PORT: String(port),
        WEBAPP_URL: "https://shop.example.com",
      });
      await world.run();
    });
    afterEach(() => world.cleanup());

    /** The init data of a printed link, and what the bot answers to it. */
    async function session(link: string) {
      const fragment = new URLSearchParams(new URL(link).hash.slice(1));
      const initData = fragment.get("tgWebAppData") ?? "";
      const res = await request(`http://127.0.0.1:${port}/app/api/session`, {
        headers: { authorization: `tma ${initData}` },
      });
      return { fragment, initData, status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
    }

    it("when BOT_TOKEN is in .env, then it prints a link to the local page whose init data the bot accepts for that admin", async () => {
      await writeFile(join(dir, ".env"), `BOT_TOKEN=${world.fake.token}\nPORT=${port}\n`);
      const run = await appLink(dir, [String(ADMIN.id)], {});
      expect(run.code).toBe(0);
      const link = run.stdout.trim();
      expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/app/#tgWebAppData=`));
      const { fragment, status, json } = await session(link);
      expect([...fragment.keys()]).toEqual([
        "tgWebAppData",
        "tgWebAppThemeParams",
        "tgWebAppPlatform",
        "tgWebAppVersion",
      ]);
      expect(status).toBe(200);
      expect(json).toMatchObject({ userId: ADMIN.id, role: "admin" });
      expect(run.stderr).toMatch(/until .* \(10 min\)/);
    });

    it("when minutes are given, then the bot's 24-hour limit ends the link that many minutes from now", async () => {
      const before = Date.now();
      const run = await appLink(dir, [String(ADMIN.id), "3"], { BOT_TOKEN: world.fake.token, PORT: String(port) });
      const after = Date.now();
      expect(run.code).toBe(0);
      const { initData, status } = await session(run.stdout.trim());
      expect(status).toBe(200);
      // The bot refuses init data once auth_date + 24 h has passed: here, 3 minutes after the run.
      const endsAt = (Number(new URLSearchParams(initData).get("auth_date")) + 24 * 3600) * 1000;
      expect(endsAt).toBeGreaterThanOrEqual(before + 3 * 60_000 - 1000);
      expect(endsAt).toBeLessThanOrEqual(after + 3 * 60_000);
    });

    it("when the link is signed with another token, then the bot refuses it", async () => {
      const run = await appLink(dir, [String(ADMIN.id)], {
        BOT_TOKEN: "123456:not-the-bots-token",
        PORT: String(port),
      });
      expect(run.code).toBe(0);
      expect((await session(run.stdout.trim())).status).toBe(401);
    });
  });
});
