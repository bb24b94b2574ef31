import { useRef, useState } from "preact/hooks";
import { ApiFailure, type AnswerOf } from "../client.js";
import { Field, Notice, Row, Section, failureText, requestId, useApp, useBusy } from "../ui.js";
import { CallbackDeliveries } from "./deliveries.js";

/** A reseller's access to the shop's API, as the reseller call answers it (never a key). */
type ApiAccess = AnswerOf<"reseller">["api"];

type Said = { kind: "done" | "error" | "info" | "warning"; text: string };

const failureOf = (err: unknown) => (err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" }));

/**
 * A reseller's API access (H2H): on or off, their mitra_id and callback URL, and their last callbacks. A new key (access on,
 * or a new key while on) is sent by the bot to the admin's own chat with it, never to this page;
 * replacing a key in use is asked twice, since the reseller's system stops working with the old one.
 */
export function ApiAccessSection(props: { userId: number; api: ApiAccess; enabled: boolean; onChanged: () => void }) {
  const { api: calls, words } = useApp();
  const { t } = words;
  const access = props.api;
  const [said, setSaid] = useState<Said | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [callback, setCallback] = useState(access?.callbackUrl ?? "");
  const [callbackError, setCallbackError] = useState<string | undefined>();
  const [busy, guard] = useBusy();
  /** The request id of a new key whose answer was lost: sent again, it makes no second key. */
  const asked = useRef<string | undefined>(undefined);

  const newKey = guard(async () => {
    const id = asked.current ?? requestId();
    asked.current = id;
    try {
      const made = await calls.apiOn(props.userId, id);
      asked.current = undefined;
      setSaid({ kind: "done", text: t(made.repeated ? "page-api-key-repeated" : "page-api-key-sent") });
      setConfirming(false);
      props.onChanged();
    } catch (err) {
      const f = failureOf(err);
      // Only a lost answer keeps the request id: the bot may have made the key, and says so then.
      if (f.status !== 0) asked.current = undefined;
      setConfirming(false);
      if (f.status === 502 && f.body.error === "not-sent") {
        setSaid({ kind: "error", text: t("page-api-not-sent") });
        props.onChanged();
      } else setSaid({ kind: "error", text: failureText(words, f) });
    }
  });

  const turnOff = guard(async () => {
    try {
      await calls.apiOff(props.userId);
      setSaid({ kind: "done", text: t("page-api-turned-off") });
      props.onChanged();
    } catch (err) {
      setSaid({ kind: "error", text: failureText(words, failureOf(err)) });
    }
  });

  const saveCallback = guard(async (url: string | null) => {
    try {
      const saved = await calls.setApiCallback(props.userId, url);
      setCallback(saved.api?.callbackUrl ?? "");
      setCallbackError(undefined);
      setSaid({ kind: "done", text: t(url === null ? "page-api-callback-removed" : "page-api-callback-saved") });
      props.onChanged();
    } catch (err) {
      const f = failureOf(err);
      const why = f.body.why;
      if (f.status === 422)
        setCallbackError(
          t(why === "private" || why === "unresolved" ? `page-api-callback-${why}` : "page-api-callback-invalid"),
        );
      else setSaid({ kind: "error", text: failureText(words, f) });
    }
  });

  const state = access === null ? t("page-api-none") : t(access.on ? "page-api-on" : "page-api-off");
  return (
    <>
      {props.enabled ? null : <Notice kind="warning">{t("page-api-disabled")}</Notice>}
      {said === undefined ? null : <Notice kind={said.kind}>{said.text}</Notice>}
      <Section title={t("page-api-title")} class="api-access">
        <Row label={t("page-api-access")} value={<span data-testid="api-state">{state}</span>} />
        {access === null ? null : (
          <>
            <Row label={t("page-api-mitra")} value={<code data-testid="api-mitra">{access.mitraId}</code>} />
            <Field label={t("page-api-callback")} error={callbackError}>
              <input
                type="url"
                value={callback}
                maxLength={500}
                placeholder="https://"
                onInput={(e) => setCallback(e.currentTarget.value)}
                data-testid="api-callback"
              />
            </Field>
            <p class="hint">{t("page-api-callback-hint")}</p>
            <div class="actions">
              <button
                type="button"
                class="secondary"
                disabled={busy || callback.trim() === "" || callback.trim() === access.callbackUrl}
                onClick={() => void saveCallback(callback.trim())}
                data-testid="api-callback-save"
              >
                {t("page-api-callback-save")}
              </button>
              {access.callbackUrl === null ? null : (
                <button
                  type="button"
                  class="secondary"
                  disabled={busy}
                  onClick={() => void saveCallback(null)}
                  data-testid="api-callback-remove"
                >
                  {t("page-api-callback-remove")}
                </button>
              )}
            </div>
          </>
        )}
        {confirming ? <Notice kind="warning">{t("page-api-rotate-warning")}</Notice> : null}
        <div class="actions">
          {access?.on === true && !confirming ? (
            <button type="button" disabled={busy} onClick={() => setConfirming(true)} data-testid="api-on">
              {t("page-api-rotate")}
            </button>
          ) : (
            <button type="button" disabled={busy} onClick={() => void newKey()} data-testid="api-on">
              {t(confirming ? "page-api-rotate-confirm" : access === null ? "page-api-create" : "page-api-turn-on")}
            </button>
          )}
          {confirming ? (
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              {t("page-cancel")}
            </button>
          ) : access?.on === true ? (
            <button
              type="button"
              class="secondary"
              disabled={busy}
              onClick={() => void turnOff()}
              data-testid="api-off"
            >
              {t("page-api-turn-off")}
            </button>
          ) : null}
        </div>
      </Section>
      {access === null ? null : <CallbackDeliveries userId={props.userId} />}
    </>
  );
}
