import { useState } from "preact/hooks";
import { ApiFailure, type AnswerOf } from "../client.js";
import type { Words } from "../i18n.js";
import { Empty, Loaded, Notice, Row, Section, failureText, useApp, useBusy, useLoad } from "../ui.js";

/** One attempt at a partner's callback, as the deliveries call answers it. */
type Delivery = AnswerOf<"apiDeliveries">["deliveries"][number];

/** What the partner's system answered, in a word or two: `✓ 200`, `✗ HTTP 500`, `✗ not reached`. */
function outcomeText(d: Delivery, words: Words): string {
  const { t } = words;
  if (d.ok) return t("page-callbacks-ok", { status: d.status });
  return d.status === 0 ? t("page-callbacks-not-reached") : t("page-callbacks-refused", { status: d.status });
}

/** Why a partner's system was not reached (`no answer in 10 s`), or undefined. */
function whyNotReached(d: Delivery, words: Words): string | undefined {
  if (d.status !== 0 || d.error === null) return undefined;
  return d.error === "private" || d.error === "unresolved" || d.error === "timeout"
    ? words.t(`page-callbacks-why-${d.error}`)
    : d.error;
}

/**
 * A partner's last callbacks (each attempt: when, their ref_id, what their system answered), and
 * "Send again" on an order's newest one: its callback is owed again now, with the same event_id.
 */
export function CallbackDeliveries(props: { userId: number }) {
  const { api, words } = useApp();
  const { t, time } = words;
  const [list, reload] = useLoad(() => api.apiDeliveries(props.userId), [props.userId]);
  const [said, setSaid] = useState<{ kind: "done" | "error"; text: string } | undefined>();
  const [busy, guard] = useBusy();

  const again = guard(async (d: Delivery) => {
    try {
      await api.sendCallbackAgain(props.userId, d.shopRefId);
      setSaid({ kind: "done", text: t("page-callbacks-sent-again", { ref: d.refId }) });
    } catch (err) {
      const f = err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" });
      setSaid({ kind: "error", text: failureText(words, f) });
    }
    reload();
  });

  return (
    <Section title={t("page-callbacks-title")} class="callback-deliveries">
      {said === undefined ? null : <Notice kind={said.kind}>{said.text}</Notice>}
      <Loaded load={list} retry={reload}>
        {({ deliveries }) => {
          if (deliveries.length === 0) return <Empty text={t("page-callbacks-none")} />;
          const newest = new Set<string>();
          return (
            <>
              {deliveries.map((d) => {
                const first = !newest.has(d.shopRefId);
                newest.add(d.shopRefId);
                return (
                  <Row
                    key={`${d.shopRefId}:${d.at}:${d.attempt}`}
                    testid="callback-delivery"
                    label={
                      <>
                        <code>{d.refId}</code>
                        {d.test ? <span class="tag"> {t("page-callbacks-test")}</span> : null}
                      </>
                    }
                    hint={
                      <>
                        {[time(d.at), t("page-callbacks-attempt", { n: d.attempt }), whyNotReached(d, words)]
                          .filter((part) => part !== undefined)
                          .join(" · ")}
                        <code class="row-ref">{d.shopRefId}</code>
                      </>
                    }
                    value={
                      <span class="delivery">
                        <span class={d.ok ? "plus" : "minus"} data-testid="callback-outcome">
                          {outcomeText(d, words)}
                        </span>
                        {first ? (
                          <button
                            type="button"
                            class="secondary"
                            disabled={busy}
                            onClick={() => void again(d)}
                            data-testid="callback-again"
                          >
                            {t("page-callbacks-again")}
                          </button>
                        ) : null}
                      </span>
                    }
                  />
                );
              })}
            </>
          );
        }}
      </Loaded>
    </Section>
  );
}
