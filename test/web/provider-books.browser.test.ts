import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxProvider, type SandboxProvider } from "../../src/topup/sandbox.js";
import { ADMIN, staffWorld, type World } from "../e2e/world.js";
import { launchBrowser, openApp } from "./browser.js";
import { shopScene, type Scene } from "./scene.js";

/**
 * A shop with two providers on the admin's Today page (a real browser against the bot started as in
 * production): ML86 goes to the backup (main is asked under a code it does not sell, and refuses),
 * every other product to main.
 */

let browser: Browser;
let world: World;
let scene: Scene;
let backup: SandboxProvider;

beforeAll(async () => {
  browser = await launchBrowser();
  world = await staffWorld();
  backup = createSandboxProvider({
    mitraId: "M-backup",
    secretKey: "sk-backup-books",
    initialBalance: 1_000_000,
    products: [{ code: "MLBB86", name: "86 Diamonds", priceRp: 19_000 }],
  });
  await backup.listen(0, "127.0.0.1");
  world.onCleanup(() => backup.close());
  const catalog = JSON.parse(await readFile("catalog.json", "utf8")) as {
    games: Array<{ products: Array<{ code: string; routes?: unknown }> }>;
  };
  catalog.games.flatMap((g) => g.products).find((p) => p.code === "ML86")!.routes = [
    { provider: "main", code: "NOPE86" },
    { provider: "backup", code: "MLBB86" },
  ];
  const file = join(await mkdtemp(join(tmpdir(), "provider-books-web-")), "catalog.json");
  await writeFile(file, JSON.stringify(catalog));
  scene = await shopScene(world, {
    history: false,
    env: {
      CATALOG_FILE: file,
      TOPUP_PROVIDERS: "main,backup",
      TOPUP_BACKUP_BASE_URL: backup.url,
      TOPUP_BACKUP_MITRA_ID: "M-backup",
      TOPUP_BACKUP_SECRET_KEY: "sk-backup-books",
    },
  });
});
afterAll(async () => {
  await browser.close();
  await world.cleanup();
});

const textOf = async (page: Page, testid: string) => {
  const row = page.getByTestId(testid);
  await row.waitFor();
  return (await row.innerText()).replace(/\s+/g, " ");
};

describe("each provider's books on Today", () => {
  it("when a backup sold today, then Today lists each provider's balance and today's orders, cost and margin at it", async () => {
    const app = await openApp(browser, { base: scene.base, botToken: world.fake.token, user: ADMIN });
    try {
      const { page } = app;
      // The scene's ML86 went to the backup: 20,000 sold at 19,000; its balance 981,000.
      await expect
        .poll(() => textOf(page, "today-provider-backup"), { timeout: 15_000 })
        .toMatch(/backup 1 order today · cost Rp 19,000 · margin Rp 1,000 · balance seen .+ Rp 981,000/);
      expect(await textOf(page, "today-provider-main")).toMatch(/^main \d+ orders? today · cost Rp [\d,]+ · margin/);
      expect(backup.calls.map((c) => c.itemCode)).toEqual(["MLBB86"]);
      await page.getByTestId("today-provider-backup").scrollIntoViewIfNeeded();
      await app.shot("admin-today-providers-light");
    } finally {
      await app.close();
    }
  });
});
