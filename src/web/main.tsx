import { render } from "preact";
import { ApiFailure, createApi } from "./client.js";
import { AppShell } from "./app-shell.js";
import { loadWords, type Lang } from "./i18n.js";
import "./styles.css";
import { applyTheme, launchParams, startBridge } from "./telegram.js";
import { App, createButtons, failureText } from "./ui.js";

/**
 * Start: the theme and the bridge to Telegram first (no flash of the wrong colours), then who is
 * looking (the bot checks the init data), then their language's texts, then the page for their role.
 */
async function start(root: HTMLElement): Promise<void> {
  const params = launchParams();
  applyTheme(params.theme);
  startBridge();
  const api = createApi(params.initData);
  // Before the bot says the chat's language: Telegram's language of the user, else the browser's.
  let telegramLang = navigator.language;
  try {
    const user = JSON.parse(new URLSearchParams(params.initData).get("user") ?? "{}") as { language_code?: string };
    telegramLang = user.language_code ?? telegramLang;
  } catch {
    // No user in the init data: the browser's language.
  }
  const browserLang: Lang = telegramLang.toLowerCase().startsWith("id") ? "id" : "en";
  let session;
  try {
    session = await api.session();
  } catch (err) {
    // Not even the texts of the session's language: the browser's language tells what to say.
    const words = await loadWords(browserLang, "Asia/Jakarta");
    const failure = err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" });
    root.textContent = "";
    render(
      <div class="state failed denied" role="alert">
        <h1>{words.t(failure.status === 403 ? "page-denied-title" : "page-failed-title")}</h1>
        <p>{failureText(words, failure)}</p>
      </div>,
      root,
    );
    return;
  }
  const words = await loadWords(session.lang, session.timeZone);
  root.textContent = "";
  document.documentElement.lang = session.lang;
  document.title = session.shopName;
  render(
    <App.Provider value={{ api, words, session, buttons: createButtons() }}>
      <AppShell />
    </App.Provider>,
    root,
  );
}

const root = document.getElementById("app");
if (root !== null) {
  start(root).catch((err: unknown) => {
    root.textContent = `The page could not start: ${err instanceof Error ? err.message : String(err)}`;
  });
}
