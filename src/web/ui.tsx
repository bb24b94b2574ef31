import type { ComponentChildren } from "preact";
import { createContext } from "preact";
import { useCallback, useContext, useEffect, useRef, useState } from "preact/hooks";
import { parseAmount, type AmountRefusal, type AmountRules } from "../amounts.js";
import type { Session } from "../server/mini-app/views.js";
import { ApiFailure, type Api } from "./client.js";
import type { Words } from "./i18n.js";
import { insideTelegram, on, setBackButton, setMainButton } from "./telegram.js";

/** What every part of the page shares: the API, the words, who is looking, and the buttons. */
export interface AppContext {
  api: Api;
  words: Words;
  session: Session;
  buttons: Buttons;
}

export const App = createContext<AppContext | undefined>(undefined);

export function useApp(): AppContext {
  const app = useContext(App);
  if (app === undefined) throw new Error("no App context");
  return app;
}

/** The primary action of a screen: Telegram's main button inside Telegram, a button of the page elsewhere. */
export interface MainAction {
  text: string;
  onClick: () => void;
  disabled?: boolean;
  busy?: boolean;
}

/**
 * The back and main buttons, for the screen on top. Inside Telegram they are Telegram's own (set
 * with events, pressed with events); in a browser the page draws them (AppShell).
 */
export interface Buttons {
  readonly inTelegram: boolean;
  setBack(handler: (() => void) | undefined): void;
  setMain(action: MainAction | undefined): void;
  /** What the page must draw itself (a browser): the current back handler and main action. */
  subscribe(listener: () => void): () => void;
  back: (() => void) | undefined;
  main: MainAction | undefined;
}

export function createButtons(): Buttons {
  const inTelegram = insideTelegram();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of listeners) l();
  };
  const buttons: Buttons = {
    inTelegram,
    back: undefined,
    main: undefined,
    setBack(handler) {
      buttons.back = handler;
      if (inTelegram) setBackButton(handler !== undefined);
      notify();
    },
    setMain(action) {
      buttons.main = action;
      if (inTelegram)
        setMainButton(
          action === undefined
            ? undefined
            : {
                text: action.text,
                active: action.disabled !== true && action.busy !== true,
                progress: action.busy === true,
              },
        );
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  on("back_button_pressed", () => buttons.back?.());
  on("main_button_pressed", () => {
    const main = buttons.main;
    if (main !== undefined && main.disabled !== true && main.busy !== true) main.onClick();
  });
  return buttons;
}

/** While this screen shows, Telegram's back button (or the page's) runs `handler`. */
export function useBack(handler: (() => void) | undefined): void {
  const { buttons } = useApp();
  const latest = useRef(handler);
  latest.current = handler;
  const present = handler !== undefined;
  useEffect(() => {
    if (!present) return;
    buttons.setBack(() => latest.current?.());
    return () => buttons.setBack(undefined);
  }, [present]);
}

/** While this screen shows, the main button says `action.text` and runs `action.onClick`. */
export function useMainAction(action: MainAction | undefined): void {
  const { buttons } = useApp();
  const latest = useRef(action);
  latest.current = action;
  const key = action === undefined ? "" : `${action.text}|${action.disabled === true}|${action.busy === true}`;
  useEffect(() => {
    if (action === undefined) return;
    buttons.setMain({ ...action, onClick: () => latest.current?.onClick() });
    return () => buttons.setMain(undefined);
  }, [key]);
}

export type Load<T> = { state: "loading" } | { state: "ready"; data: T } | { state: "failed"; failure: ApiFailure };

const asFailure = (err: unknown) => (err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" }));

/** Loads what a screen shows; `reload` asks again (after a change, or after a failure). */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): [Load<T>, () => void] {
  const [state, setState] = useState<Load<T>>({ state: "loading" });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => (s.state === "ready" ? s : { state: "loading" }));
    load().then(
      (data) => live && setState({ state: "ready", data }),
      (err: unknown) => live && setState({ state: "failed", failure: asFailure(err) }),
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);
  return [state, useCallback(() => setRound((r) => r + 1), [])];
}

/** What a failure says to a person: the bot's reason where it gave one. */
export function failureText(words: Words, failure: ApiFailure): string {
  const { t } = words;
  if (failure.status === 0) return t("page-error-network");
  if (failure.status === 401) return t("page-error-unauthorized");
  if (failure.status === 403) return t("page-error-forbidden");
  if (failure.status === 404) return t("page-error-not-found");
  return t("page-error-server");
}

/** The three states of anything loaded: loading, failed (with a retry), ready. */
export function Loaded<T>(props: { load: Load<T>; retry: () => void; children: (data: T) => ComponentChildren }) {
  const { words } = useApp();
  if (props.load.state === "loading")
    return (
      <p class="state loading" role="status">
        {words.t("page-loading")}
      </p>
    );
  if (props.load.state === "failed") {
    return (
      <div class="state failed" role="alert">
        <p>{failureText(words, props.load.failure)}</p>
        <button type="button" class="secondary" onClick={props.retry}>
          {words.t("page-retry")}
        </button>
      </div>
    );
  }
  return <>{props.children(props.load.data)}</>;
}

export function Empty(props: { text: string }) {
  return <p class="state empty">{props.text}</p>;
}

/** A group of lines under a small heading, as Telegram's own settings screens look. */
export function Section(props: { title?: string; children: ComponentChildren; class?: string }) {
  return (
    <section class={`section ${props.class ?? ""}`}>
      {props.title === undefined ? null : <h2>{props.title}</h2>}
      <div class="card">{props.children}</div>
    </section>
  );
}

/** One line of a card: a label and its value. */
export function Row(props: {
  label: ComponentChildren;
  value?: ComponentChildren;
  hint?: ComponentChildren;
  onClick?: () => void;
  testid?: string;
}) {
  const body = (
    <>
      <span class="row-main">
        <span class="row-label">{props.label}</span>
        {props.hint === undefined ? null : <span class="row-hint">{props.hint}</span>}
      </span>
      {props.value === undefined ? null : <span class="row-value">{props.value}</span>}
    </>
  );
  return props.onClick === undefined ? (
    <div class="row" data-testid={props.testid}>
      {body}
    </div>
  ) : (
    <button type="button" class="row link" onClick={props.onClick} data-testid={props.testid}>
      {body}
      <span class="chevron" aria-hidden="true">
        ›
      </span>
    </button>
  );
}

/** A labelled input with the server's (or the page's) message under it. */
export function Field(props: { label: string; error?: string | undefined; children: ComponentChildren }) {
  return (
    <label class={`field ${props.error === undefined ? "" : "invalid"}`}>
      <span class="field-label">{props.label}</span>
      {props.children}
      {props.error === undefined ? null : (
        <span class="field-error" role="alert">
          {props.error}
        </span>
      )}
    </label>
  );
}

/** What an amount box's text reads as (the chat's own reader), or undefined while the box is empty. */
export function readTyped(
  typed: string,
  rules: AmountRules = {},
): { ok: true; amount: number } | { ok: false; why: AmountRefusal; typed: string } | undefined {
  return typed.trim() === "" ? undefined : parseAmount(typed, rules);
}

/**
 * Why a typed amount is refused, in words, with an example of one that reads (`format`: the
 * box's own examples, e.g. a correction's `-5rb`).
 */
export function amountRefusal(
  words: Words,
  why: AmountRefusal,
  rules: AmountRules = {},
  format = "page-amount-format",
): string {
  const { t, rp } = words;
  if (why === "too-large" && rules.max !== undefined) return t("page-amount-too-large", { max: rp(rules.max) });
  if (why === "negative" || why === "zero") return t("page-amount-above-zero");
  return t(format);
}

/**
 * A box where rupiah are typed as people type them (`Rp 50.000,00`, `50rb`, `1,5jt`): a text box
 * (a phone's keyboard keeps its letters), the rupiah it reads as shown beside it while typing, and
 * why it reads as no amount, with an example, once the box is left or its form is sent
 * (`refuse`). The amount itself is read by the caller with `readTyped` and the same rules.
 */
export function AmountField(props: {
  label: string;
  typed: string;
  onTyped: (typed: string) => void;
  testid: string;
  rules?: AmountRules;
  /** The server's word on the amount, or the form's own (shown under the box). */
  error?: string | undefined;
  /** Say now why the text is no amount (the form was sent with it, or the box says so at once). */
  refuse?: boolean;
  /** The key of the box's own examples, when they differ from the common ones. */
  format?: string;
  placeholder?: string;
  /** Show the rupiah read only when the text is not already those plain digits (a table of prices). */
  quiet?: boolean;
}) {
  const { words } = useApp();
  const [left, setLeft] = useState(false);
  const read = readTyped(props.typed, props.rules);
  const refused =
    read !== undefined && !read.ok && (left || props.refuse === true)
      ? amountRefusal(words, read.why, props.rules, props.format)
      : undefined;
  return (
    <Field label={props.label} error={refused ?? props.error}>
      <span class="amount-box">
        <input
          type="text"
          autoComplete="off"
          value={props.typed}
          placeholder={props.placeholder ?? "50rb"}
          onInput={(e) => {
            setLeft(false);
            props.onTyped(e.currentTarget.value);
          }}
          onBlur={() => setLeft(true)}
          data-testid={props.testid}
        />
        <output class="field-read" aria-live="polite" data-testid={`${props.testid}-read`}>
          {read?.ok !== true || (props.quiet === true && String(read.amount) === props.typed.trim())
            ? ""
            : props.rules?.signed === true
              ? words.signed(read.amount)
              : words.rp(read.amount)}
        </output>
      </span>
    </Field>
  );
}

/**
 * A message about a save: what went wrong (and that nothing typed was lost), that it worked, or
 * (`warning`) what to look at twice before Confirm.
 */
export function Notice(props: { kind: "error" | "done" | "info" | "warning"; children: ComponentChildren }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.children}
    </div>
  );
}

/**
 * After a save is refused: `show()` scrolls the first field marked invalid (in the order of the
 * page, within `root` when it is attached) to the middle of the screen and focuses its input, once
 * the marks are drawn, so the admin starts typing where the fix is; with no such field, the top
 * of `root` (where the notice says why).
 */
export function useFirstInvalid<T extends HTMLElement>() {
  const root = useRef<T>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked === 0) return;
    const scope = root.current ?? document;
    const input = scope.querySelector<HTMLElement>("input.invalid, .invalid input, .invalid select, .invalid textarea");
    if (input === null) return root.current?.scrollIntoView();
    input.scrollIntoView({ block: "center" });
    input.focus({ preventScroll: true });
  }, [asked]);
  return { root, show: useCallback(() => setAsked((n) => n + 1), []) };
}

/**
 * One save at a time: `guard(work)` runs work unless one is on its way (a second tap in the same
 * moment does nothing: it cannot even send a second request); `busy` shows it.
 */
export function useBusy(): [
  boolean,
  <A extends unknown[]>(work: (...args: A) => Promise<void>) => (...args: A) => Promise<void>,
] {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const guard =
    <A extends unknown[]>(work: (...args: A) => Promise<void>) =>
    async (...args: A) => {
      if (running.current) return;
      running.current = true;
      setBusy(true);
      try {
        await work(...args);
      } finally {
        running.current = false;
        setBusy(false);
      }
    };
  return [busy, guard];
}

/** A random name for one Confirm: a repeated request with it is applied once. */
export function requestId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
