import {
  hasWebviewProxy,
  isIframe,
  on as onEvent,
  postEvent,
  retrieveLaunchParams,
  retrieveRawInitData,
  type EventName,
} from "@tma.js/bridge";

/**
 * The page's side of Telegram's Mini App protocol, through @tma.js/bridge (the tma.js family's
 * bridge, bundled: nothing is loaded from Telegram's host): the launch parameters Telegram passes
 * (the URL fragment, kept by the bridge for a reload), the theme, and the few events the page sends
 * (ready, expand, the back and main buttons) and receives (their presses, a theme change). Outside
 * Telegram (a browser, the tests) the same page works with its own buttons.
 */

/** Telegram's theme colours (tgWebAppThemeParams), as far as the page uses them. */
export type ThemeParams = Partial<Record<string, string>>;

export interface LaunchParams {
  /** The init data exactly as Telegram signed it (every API call carries it); "" when there is none. */
  initData: string;
  theme: ThemeParams;
}

/** The launch parameters, or none (opened outside Telegram without them: the bot refuses the page). */
export function launchParams(): LaunchParams {
  try {
    const params = retrieveLaunchParams();
    return { initData: retrieveRawInitData() ?? "", theme: { ...params.tgWebAppThemeParams } };
  } catch {
    // The bridge refuses the whole set when its strict parser does, e.g. init data without the
    // `signature` field, which Telegram clients older than Bot API 8.0 send (validly signed by
    // `hash`): read the raw values then, and let the bot judge the init data.
    return rawLaunchParams() ?? { initData: "", theme: {} };
  }
}

/** Where the page keeps the raw launch parameters it read, for a reload that lost the fragment. */
const SAVED_KEY = "topup/launch-params";

/**
 * The launch parameters read as they are, from the places the bridge reads them (the address's
 * fragment or query, the navigation entry, then what this page saved): the init data exactly as
 * Telegram passed it, the theme if it is a JSON object of colours.
 */
function rawLaunchParams(): LaunchParams | undefined {
  const sources = [
    () => window.location.href,
    () => performance.getEntriesByType("navigation")[0]?.name,
    () => sessionStorage.getItem(SAVED_KEY),
  ];
  for (const source of sources) {
    let query: string | null | undefined;
    try {
      query = source();
    } catch {
      continue; // storage refused (a private window): the next place
    }
    if (query === null || query === undefined) continue;
    // `…/app/#tab&tgWebAppData=…` or `…?tgWebAppData=…`: every ? and # separates like &.
    const params = new URLSearchParams(query.replace(/^[^?#]*[?#]/, "").replace(/[?#]/g, "&"));
    const initData = params.get("tgWebAppData");
    if (initData === null || initData === "") continue;
    try {
      sessionStorage.setItem(SAVED_KEY, params.toString());
    } catch {
      // Not saved: a reload without the fragment opens without sign-in, as before.
    }
    return { initData, theme: themeOf(params.get("tgWebAppThemeParams")) };
  }
  return undefined;
}

/** tgWebAppThemeParams: a JSON object of colour names and `#rrggbb` values; anything else, no theme. */
function themeOf(json: string | null): ThemeParams {
  try {
    const value: unknown = JSON.parse(json ?? "{}");
    if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  } catch {
    return {};
  }
}

/**
 * The page is shown by a Telegram client: a mobile or desktop webview (its proxy is there), or
 * Telegram's web client around it (a frame). Launch parameters alone do not say so: a browser
 * opened with them (the tests) draws the page's own buttons.
 */
export const insideTelegram = (): boolean => hasWebviewProxy(window) || isIframe();

/** Sends an event (`post` calls postEvent) to the Telegram client, if there is one. */
function send(post: () => void): void {
  if (!insideTelegram()) return;
  try {
    post();
  } catch {
    // A client too old for this method: the page's own buttons still work.
  }
}

/** Listens for an event of the Telegram client; returns how to stop. */
export function on(event: EventName, listener: () => void): () => void {
  return onEvent(event, listener);
}

/** Sets the theme's colours as CSS variables (and the page's own light or dark scheme). */
export function applyTheme(theme: ThemeParams): void {
  const root = document.documentElement;
  for (const [key, value] of Object.entries(theme)) {
    if (typeof value === "string" && /^#[0-9a-f]{3,8}$/i.test(value))
      root.style.setProperty(`--tg-${key.replace(/_/g, "-")}`, value);
  }
  const bg = theme.bg_color;
  if (bg !== undefined && /^#[0-9a-f]{6}$/i.test(bg)) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(bg.slice(i, i + 2), 16));
    const dark = 0.299 * r! + 0.587 * g! + 0.114 * b! < 128;
    root.dataset.scheme = dark ? "dark" : "light";
  }
}

/** Starts talking to Telegram: theme changes followed, the page ready and as tall as the screen. */
export function startBridge(): void {
  onEvent("theme_changed", (payload) => applyTheme({ ...payload.theme_params }));
  send(() => postEvent("web_app_ready"));
  send(() => postEvent("web_app_expand"));
}

/** Telegram's back button: shown while `visible`. */
export function setBackButton(visible: boolean): void {
  send(() => postEvent("web_app_setup_back_button", { is_visible: visible }));
}

/** Telegram's main button at the bottom of the screen: hidden with `undefined`. */
export function setMainButton(button: { text: string; active: boolean; progress: boolean } | undefined): void {
  send(() =>
    postEvent(
      "web_app_setup_main_button",
      button === undefined
        ? { is_visible: false }
        : { is_visible: true, is_active: button.active, text: button.text, is_progress_visible: button.progress },
    ),
  );
}
