import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";
import { signInitData, type InitDataUser } from "../helpers/init-data.js";

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Where the browser tests put their screenshots: test-results/screenshots (not tracked), to look
 * at after a run; with UPDATE_SCREENSHOTS=1, docs/screenshots, the pictures the README shows (then
 * commit them). A plain `npm test` leaves the checkout as it was.
 */
export const SCREENSHOTS = fileURLToPath(
  new URL(
    process.env.UPDATE_SCREENSHOTS === "1" ? "../../docs/screenshots" : "../../test-results/screenshots",
    import.meta.url,
  ),
);

/**
 * Chromium without a window, as the machines here can run it: no sandbox (tests run as root), no
 * GPU, and none of its background calls to Google's hosts (the network is closed: they would fail).
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** Telegram's light and dark themes (the colours its Android client passes). */
export const THEMES = {
  light: {
    bg_color: "#ffffff",
    text_color: "#000000",
    hint_color: "#707579",
    link_color: "#3390ec",
    button_color: "#3390ec",
    button_text_color: "#ffffff",
    secondary_bg_color: "#f1f1f4",
    section_bg_color: "#ffffff",
    section_header_text_color: "#3390ec",
    destructive_text_color: "#e53935",
    accent_text_color: "#3390ec",
  },
  dark: {
    bg_color: "#212121",
    text_color: "#ffffff",
    hint_color: "#aaaaaa",
    link_color: "#8774e1",
    button_color: "#8774e1",
    button_text_color: "#ffffff",
    secondary_bg_color: "#0f0f0f",
    section_bg_color: "#212121",
    section_header_text_color: "#aaaaaa",
    destructive_text_color: "#ff595a",
    accent_text_color: "#8774e1",
  },
} as const;

export interface Opened {
  page: Page;
  context: BrowserContext;
  /** The Authorization header of every call the page made to its API so far, in order. */
  authorizations(): string[];
  /** Saves a screenshot as <SCREENSHOTS>/<name>.png (the whole page). */
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the Mini App the way Telegram opens it: the page at `${base}/app/` with the launch
 * parameters in the URL fragment (init data signed with the bot's token, the theme, the platform),
 * on a phone-sized screen. `telegram`: a Telegram client around the page (its webview proxy
 * records the events the page sends, `window.__events`), so the page uses Telegram's buttons.
 */
export async function openApp(
  browser: Browser,
  opts: {
    base: string;
    botToken: string;
    user: InitDataUser;
    theme?: keyof typeof THEMES;
    width?: number;
    initData?: string;
    telegram?: boolean;
    tab?: string;
    /** tgWebAppVersion, the Bot API version of the Telegram client (default 8.0). */
    version?: string;
  },
): Promise<Opened> {
  const theme = THEMES[opts.theme ?? "light"];
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 360, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    colorScheme: opts.theme === "dark" ? "dark" : "light",
    locale: opts.user.language_code === "id" ? "id-ID" : "en-US",
    acceptDownloads: true,
  });
  const page = await context.newPage();
  // A script error on the page fails the test that meets it, with the page's own message.
  page.on("pageerror", (err) => process.stderr.write(`page error: ${err.message}\n`));
  const authorizations: string[] = [];
  page.on("request", (req) => {
    if (new URL(req.url()).pathname.includes("/app/api/")) authorizations.push(req.headers().authorization ?? "");
  });
  if (opts.telegram === true) {
    await page.addInitScript(() => {
      const w = globalThis as unknown as { __events: Array<[string, unknown]>; TelegramWebviewProxy: unknown };
      w.__events = [];
      // As Telegram's clients do: an event without parameters comes with no data at all.
      w.TelegramWebviewProxy = {
        postEvent: (type: string, data: string | undefined) =>
          w.__events.push([type, data === undefined ? {} : JSON.parse(data)]),
      };
    });
  }
  const initData = opts.initData ?? signInitData(opts.user, opts.botToken);
  const fragment = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: opts.version ?? "8.0",
    tgWebAppPlatform: "android",
    tgWebAppThemeParams: JSON.stringify(theme),
  });
  const tab = opts.tab === undefined ? "" : `#${opts.tab}&`;
  await page.goto(`${opts.base}/app/${tab === "" ? "#" : tab}${fragment.toString()}`);
  return {
    page,
    context,
    authorizations: () => [...authorizations],
    async shot(name) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: false, animations: "disabled" });
    },
    close: () => context.close(),
  };
}

/** The text of the screen (what a person reads, section headings in capitals as shown), without the tab bar. */
export const screenText = async (page: Page) => (await page.locator("main.screen").innerText()).replace(/\s+/g, " ");

/** Waits for the screen to have loaded what it shows (no "Loading…" left) and to contain `text`. */
export async function shows(page: Page, text: string | RegExp): Promise<void> {
  await page.locator("main.screen h1").first().waitFor();
  await expect.poll(async () => screenText(page), { timeout: 15_000 }).toMatch(text);
}
