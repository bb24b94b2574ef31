import { useEffect, useRef, useState } from "preact/hooks";
import type { OrderView } from "../../server/mini-app/views.js";
import { ApiFailure, type Api } from "../client.js";
import { OrderCard } from "../order-card.js";
import {
  Empty,
  Field,
  Loaded,
  Notice,
  Section,
  failureText,
  requestId,
  useApp,
  useBack,
  useBusy,
  useLoad,
  useMainAction,
} from "../ui.js";
import { CopyButton } from "./copy.js";

type Calls = ReturnType<Api["order"]>;
type Catalog = Awaited<ReturnType<Calls["catalog"]>>;
type Game = Catalog["games"][number];
type Product = Game["products"][number];
type Summary = Awaited<ReturnType<Calls["draft"]>>;

/** Where the page keeps the order being confirmed, so a reload (or a bot restart) finds it again. */
const KEPT = "order-in-hand";

/** How often an order still being sent is asked about again. */
const POLL_MS = 1500;

type Step =
  | { kind: "choose" }
  | { kind: "player"; game: Game; product: Product }
  | { kind: "summary"; game: Game; product: Product; summary: Summary; typed: string }
  | { kind: "result"; refId: string; order?: OrderView };

/** A zone typed `ID ZONE`, `ID (ZONE)` or `ID/ZONE` for a game that writes it `ID(ZONE)` (as the bot reads it). */
const ZONE_TYPED = /^([^\s()/]+)\s*(?:\(\s*([^\s()/]+)\s*\)|(?:\s+|\s*\/\s*)([^\s()/]+))$/u;

/** Whether the player id fits the game's rule, as typed: the bot checks it again and never rewrites it otherwise. */
function fitsRule(game: Game, typed: string): boolean {
  const trimmed = typed.trim();
  const m = game.rule?.zone === true ? ZONE_TYPED.exec(trimmed) : null;
  const id = m === null ? trimmed : `${m[1]}(${m[2] ?? m[3]})`;
  if (!/^\S{1,64}$/u.test(id)) return false;
  if (game.rule === undefined) return true;
  try {
    return new RegExp(`^(?:${game.rule.pattern})$`, "u").test(id);
  } catch {
    // A pattern this browser cannot read: the bot's check decides.
    return true;
  }
}

/**
 * Ordering from the page, for resellers (their tier's prices, paid from their saldo) and admins:
 * game and product, the player id checked against the game's rule as it is typed, the summary
 * with the saldo before and after and the same order of a moment ago, Confirm (Telegram's main
 * button), then the result. The bot sends one order per Confirm however often it is tapped or the
 * request repeated; the page keeps the order's ref id while it waits, so a reload or a restart of
 * the bot comes back to the same order and shows how it ended.
 */
export function OrderPage() {
  const { api, words, session } = useApp();
  const { t } = words;
  const calls = api.order(session.role);
  const [catalog, reload] = useLoad(() => calls.catalog(), []);
  const [step, setStep] = useState<Step>(() => {
    const kept = sessionStorage.getItem(KEPT);
    return kept === null ? { kind: "choose" } : { kind: "result", refId: kept };
  });
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, guard] = useBusy();
  // One request id per summary asked for: sent again (a retry after a network error), the same draft comes back.
  const ask = useRef({ id: requestId(), for: "" });

  const restart = () => {
    sessionStorage.removeItem(KEPT);
    ask.current = { id: requestId(), for: "" };
    setTyped("");
    setError(undefined);
    setStep({ kind: "choose" });
    reload();
  };

  const toSummary = guard(async (game: Game, product: Product) => {
    if (!fitsRule(game, typed))
      return setError(t("page-order-bad-player", { example: game.rule?.example ?? "123456789" }));
    const key = `${product.code}|${typed}`;
    if (ask.current.for !== key) ask.current = { id: requestId(), for: key };
    try {
      const summary = await calls.draft({ requestId: ask.current.id, code: product.code, playerId: typed });
      setError(undefined);
      // This request's draft was confirmed (or cancelled) already: how it stands, not a new summary.
      if (summary.order.state !== "draft")
        return setStep({ kind: "result", refId: summary.order.refId, order: summary.order });
      setStep({ kind: "summary", game, product, summary, typed });
    } catch (err) {
      setError(refusalText(err, game));
    }
  });

  const confirm = guard(async (refId: string) => {
    sessionStorage.setItem(KEPT, refId);
    // Whatever the answer, a new summary needs a new request.
    ask.current = { id: requestId(), for: "" };
    try {
      const { order } = await calls.confirm(refId);
      if (order.state === "draft") sessionStorage.removeItem(KEPT);
      setStep({ kind: "result", refId, order });
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" });
      if (failure.status === 0 || failure.status >= 500) {
        // The answer was lost, not the order: the page asks the bot how it stands.
        setStep({ kind: "result", refId });
        return;
      }
      sessionStorage.removeItem(KEPT);
      setError(refusalText(failure));
    }
  });

  const cancel = guard(async (refId: string) => {
    await calls.cancel(refId).catch(() => undefined);
    setStep(step.kind === "summary" ? { kind: "player", game: step.game, product: step.product } : { kind: "choose" });
  });

  function refusalText(err: unknown, game?: Game): string {
    const failure = err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" });
    const body = failure.body as { error: string; reason?: string | null; saldo?: number; price?: number };
    switch (body.error) {
      case "paused":
        return t("page-order-paused", { reason: body.reason ?? "–" });
      case "not-offered":
        return t("page-order-not-offered");
      case "unavailable":
        return t("page-order-unavailable");
      case "short":
        return t("page-order-short", { saldo: words.rp(body.saldo ?? 0), price: words.rp(body.price ?? 0) });
      case "too-soon":
        return t("page-order-too-soon");
      case "invalid":
        return t("page-order-bad-player", { example: game?.rule?.example ?? "123456789" });
      default:
        return failureText(words, failure);
    }
  }

  // The main button: Continue under the player id, Confirm (or Order again) under the summary.
  useMainAction(
    step.kind === "player"
      ? {
          text: t("page-order-continue"),
          onClick: () => void toSummary(step.game, step.product),
          disabled: typed.trim() === "",
          busy,
        }
      : step.kind === "summary" && step.summary.order.state === "draft"
        ? {
            text: t(step.summary.before === undefined ? "page-order-confirm" : "page-order-again"),
            onClick: () => void confirm(step.summary.order.refId),
            busy,
          }
        : undefined,
  );
  useBack(
    step.kind === "player"
      ? () => setStep({ kind: "choose" })
      : step.kind === "summary"
        ? () => void cancel(step.summary.order.refId)
        : undefined,
  );

  if (step.kind === "result")
    return <OrderResult step={step} onDone={restart} onSeen={(order) => setStep({ ...step, order })} />;

  return (
    <Loaded load={catalog} retry={reload}>
      {(list) => {
        if (step.kind === "choose") {
          return (
            <>
              <h1>{t("page-order-title")}</h1>
              {list.saldo === undefined ? null : (
                <p class="hint" data-testid="order-saldo">
                  {t("page-order-saldo", { saldo: words.rp(list.saldo) })}
                </p>
              )}
              {list.paused === null ? null : (
                <Notice kind="warning">{t("page-order-paused", { reason: list.paused.reason ?? "–" })}</Notice>
              )}
              {list.games.length === 0 ? <Empty text={t("page-prices-none")} /> : null}
              {list.games.map((g) => (
                <Section key={g.name} title={g.name}>
                  {g.products.map((p) => (
                    <button
                      type="button"
                      key={p.code}
                      class={`row product state-${p.state}`}
                      disabled={p.state !== "ok" || list.paused !== null}
                      onClick={() => {
                        setError(undefined);
                        setStep({ kind: "player", game: g, product: p });
                      }}
                      data-testid={`order-product-${p.code}`}
                    >
                      <span class="row-main">
                        <span class="row-label">
                          <code>{p.code}</code> · {p.name}
                        </span>
                        {p.state === "ok" ? null : <span class="row-hint">{t(`page-order-product-${p.state}`)}</span>}
                      </span>
                      <span class="row-value">{p.price === null ? "–" : words.rp(p.price)}</span>
                      <span class="chevron" aria-hidden="true">
                        ›
                      </span>
                    </button>
                  ))}
                </Section>
              ))}
            </>
          );
        }
        if (step.kind === "player") {
          const { game, product } = step;
          const wrong = typed.trim() !== "" && !fitsRule(game, typed);
          return (
            <>
              <h1>{t("page-order-player-title")}</h1>
              <p class="hint">
                <b>{product.code}</b> · {product.name} ({game.name})
              </p>
              <div class="card">
                <Field
                  label={t("page-order-player-label")}
                  error={
                    error ??
                    (wrong ? t("page-order-bad-player", { example: game.rule?.example ?? "123456789" }) : undefined)
                  }
                >
                  <input
                    type="text"
                    inputMode={game.rule !== undefined && /^\d/.test(game.rule.example) ? "numeric" : "text"}
                    autoComplete="off"
                    autoCapitalize="off"
                    spellcheck={false}
                    maxLength={100}
                    value={typed}
                    placeholder={game.rule?.example ?? ""}
                    onInput={(e) => {
                      setTyped(e.currentTarget.value);
                      setError(undefined);
                    }}
                    onKeyDown={(e) => {
                      if (e.key === "Enter") void toSummary(game, product);
                    }}
                    data-testid="order-player"
                  />
                </Field>
                <p class="hint">{t("page-order-player-example", { example: game.rule?.example ?? "123456789" })}</p>
              </div>
            </>
          );
        }
        const { summary } = step;
        const o = summary.order;
        return (
          <>
            <h1>{t("page-order-summary-title")}</h1>
            <div class="card summary" data-testid="order-summary">
              <p>
                <b>{o.productCode}</b> · {o.productName} ({o.gameName})
              </p>
              <p>{t("page-order-player", { player: o.playerId })}</p>
              <p>{t("page-order-price", { price: o.price === null ? "–" : words.rp(o.price) })}</p>
              {summary.saldo === undefined ? null : (
                <p data-testid="order-saldo-after">
                  {t("page-order-saldo-after", {
                    before: words.rp(summary.saldo.before),
                    after: words.rp(summary.saldo.after),
                  })}
                </p>
              )}
              <p class="hint">
                {t("page-order-ref")} <code>{o.refId}</code>
              </p>
            </div>
            {summary.saldo !== undefined && summary.saldo.after < 0 ? (
              <Notice kind="warning">{t("page-order-short-before", { price: words.rp(o.price ?? 0) })}</Notice>
            ) : null}
            {summary.before === undefined ? null : (
              <div data-testid="order-before">
                <Notice kind="warning">
                  {t(summary.before.byYou ? "page-order-before-you" : "page-order-before-other", {
                    time: words.time(summary.before.at),
                    minutes: summary.before.minutesAgo,
                    name: summary.before.userName ?? "",
                    refId: summary.before.refId,
                  })}
                </Notice>
              </div>
            )}
            {error === undefined ? null : <Notice kind="error">{error}</Notice>}
            {busy ? (
              <p class="state loading" role="status" data-testid="order-processing">
                {t("page-order-processing", { refId: o.refId })}
              </p>
            ) : (
              <div class="actions order-actions">
                <button type="button" class="secondary" onClick={() => void cancel(o.refId)} data-testid="order-cancel">
                  {t("page-order-cancel")}
                </button>
              </div>
            )}
          </>
        );
      }}
    </Loaded>
  );
}

/**
 * How the order ended, or that it is still being sent (asked again until it ends, and again after
 * a lost answer or while the bot restarts): the card with the SN to copy, or "unknown, held".
 */
function OrderResult(props: {
  step: Extract<Step, { kind: "result" }>;
  onDone: () => void;
  onSeen: (o: OrderView) => void;
}) {
  const { api, words, session } = useApp();
  const { t } = words;
  const calls = api.order(session.role);
  const { refId, order } = props.step;
  const [lost, setLost] = useState<string | undefined>();
  const open = order === undefined || order.state === "submitting" || order.state === "draft";

  useEffect(() => {
    if (!open) {
      sessionStorage.removeItem(KEPT);
      return;
    }
    let live = true;
    const look = () =>
      calls.get(refId).then(
        ({ order: now }) => {
          if (!live) return;
          setLost(undefined);
          props.onSeen(now);
        },
        (err: unknown) => {
          if (!live) return;
          const failure = err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" });
          if (failure.status === 404) {
            sessionStorage.removeItem(KEPT);
            props.onDone();
            return;
          }
          setLost(failureText(words, failure));
        },
      );
    const timer = setTimeout(() => void look(), order === undefined ? 0 : POLL_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [refId, order, lost]);

  useMainAction(open ? undefined : { text: t("page-order-new"), onClick: props.onDone });

  if (order === undefined || order.state === "submitting") {
    return (
      <>
        <h1>{t("page-order-result-title")}</h1>
        <p class="state loading" role="status" data-testid="order-processing">
          {t("page-order-processing", { refId })}
        </p>
        {lost === undefined ? null : <Notice kind="warning">{t("page-order-checking", { why: lost })}</Notice>}
      </>
    );
  }
  if (order.state === "draft") {
    return (
      <>
        <h1>{t("page-order-result-title")}</h1>
        <Notice kind="info">{t("page-order-not-sent")}</Notice>
        <div class="actions order-actions">
          <button type="button" class="primary" onClick={props.onDone} data-testid="order-new">
            {t("page-order-new")}
          </button>
        </div>
      </>
    );
  }
  return (
    <>
      <h1>{t("page-order-result-title")}</h1>
      <div data-testid="order-result" data-state={order.state}>
        {order.state === "success" ? (
          <Notice kind="done">{t("page-order-success")}</Notice>
        ) : order.state === "unknown" ? (
          <Notice kind="warning">{t(session.role === "reseller" ? "page-order-held" : "page-order-unknown")}</Notice>
        ) : order.state === "failed" ? (
          <Notice kind="error">{t("page-order-failed")}</Notice>
        ) : (
          <Notice kind="info">{t("page-order-cancelled")}</Notice>
        )}
        <OrderCard order={order} words={words}>
          {order.state === "success" && order.sn !== undefined ? (
            <div class="actions">
              <CopyButton
                text={order.sn}
                label={t("page-order-copy-sn")}
                done={t("page-order-copied")}
                testid="order-copy-sn"
              />
            </div>
          ) : null}
        </OrderCard>
      </div>
    </>
  );
}
