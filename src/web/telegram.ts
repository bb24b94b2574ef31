/**
 * The page's side of Telegram's Mini App protocol, without loading telegram-web-app.js from
 * Telegram's host (everything the page needs is served by the bot): the launch parameters Telegram
 * puts in the URL fragment, the theme, and the few events the page sends (ready, expand, the back
 * and main buttons) and receives (their presses, a theme change). Outside Telegram (a browser, the
 * tests) the same page works with its own buttons.
 */

/** Telegram's theme colours (tgWebAppThemeParams), as far as the page uses them. */
export interface ThemeParams {
  bg_color?: string;
  text_color?: string;
  hint_color?: string;
  link_color?: string;
  button_color?: string;
  button_text_color?: string;
  secondary_bg_color?: string;
  section_bg_color?: string;
  section_header_text_color?: string;
  subtitle_text_color?: string;
  destructive_text_color?: string;
  accent_text_color?: string;
  header_bg_color?: string;
}

export interface LaunchParams {
  /** The init data exactly as Telegram signed it: every API call carries it. */
  initData: string;
  theme: ThemeParams;
  platform: string;
}

type Listener = (data: unknown) => void;

declare global {
  interface Window {
    TelegramWebviewProxy?: { postEvent(eventType: string, eventData: string): void };
    Telegram?: { WebView?: { receiveEvent(eventType: string, eventData: unknown): void } };
  }
}

/** Reads the launch parameters from the fragment (`#tgWebAppData=…&tgWebAppThemeParams=…`). */
export function launchParams(hash = window.location.hash): LaunchParams {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  let theme: ThemeParams = {};
  try {
    theme = JSON.parse(params.get("tgWebAppThemeParams") ?? "{}") as ThemeParams;
  } catch {
    theme = {};
  }
  return {
    initData: params.get("tgWebAppData") ?? "",
    theme,
    platform: params.get("tgWebAppPlatform") ?? "unknown",
  };
}

/** The page is shown by a Telegram client (mobile webview, or Telegram's web client around it). */
export const insideTelegram = (): boolean => window.TelegramWebviewProxy !== undefined || window.parent !== window;

/** Sends one event to the Telegram client, if there is one. */
function postEvent(eventType: string, eventData: unknown = {}): void {
  const data = JSON.stringify(eventData);
  if (window.TelegramWebviewProxy !== undefined) window.TelegramWebviewProxy.postEvent(eventType, data);
  else if (window.parent !== window) window.parent.postMessage(JSON.stringify({ eventType, eventData }), "*");
}

const listeners = new Map<string, Set<Listener>>();

function receive(eventType: string, eventData: unknown): void {
  for (const listener of listeners.get(eventType) ?? []) listener(eventData);
}

/** Listens for events from the Telegram client; returns how to stop. */
export function on(eventType: string, listener: Listener): () => void {
  let set = listeners.get(eventType);
  if (set === undefined) listeners.set(eventType, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
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

/** Starts talking to Telegram: events in, the page ready and as tall as the screen. */
export function startBridge(): void {
  window.Telegram = { ...window.Telegram, WebView: { receiveEvent: receive } };
  window.addEventListener("message", (event) => {
    try {
      const { eventType, eventData } = JSON.parse(String(event.data)) as { eventType?: string; eventData?: unknown };
      if (typeof eventType === "string") receive(eventType, eventData);
    } catch {
      // Not one of Telegram's: ignored.
    }
  });
  on("theme_changed", (data) => applyTheme((data as { theme_params?: ThemeParams }).theme_params ?? {}));
  postEvent("web_app_ready");
  postEvent("web_app_expand");
}

/** Telegram's back button: shown while `visible`. */
export function setBackButton(visible: boolean): void {
  postEvent("web_app_setup_back_button", { is_visible: visible });
}

/** Telegram's main button at the bottom of the screen: hidden with `undefined`. */
export function setMainButton(button: { text: string; active: boolean; progress: boolean } | undefined): void {
  postEvent(
    "web_app_setup_main_button",
    button === undefined
      ? { is_visible: false }
      : { is_visible: true, is_active: button.active, text: button.text, is_progress_visible: button.progress },
  );
}
