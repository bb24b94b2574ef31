import { useState } from "preact/hooks";
import type { OrderView } from "../../server/mini-app/views.js";
import { ApiFailure } from "../client.js";
import { OrderCard } from "../order-card.js";
import { DepositRequestsSection } from "./deposit-requests.js";
import { Empty, Field, Loaded, Notice, failureText, useApp, useBack, useBusy, useLoad, useMainAction } from "../ui.js";

type Form = { refId: string; outcome: "success" | "failed"; value: string };

/**
 * Orders whose result is unknown. Each is settled once, success with its SN or failed with a
 * reason, as /settle does (the same service: the user is told in the chat, the order leaves
 * /pending there too); a second settlement, here or in the chat, is refused.
 */
export function PendingPage() {
  const { api, words } = useApp();
  const { t } = words;
  const [pending, reload] = useLoad(() => api.pending(), []);
  const [form, setForm] = useState<Form | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<{ kind: "done" | "error"; text: string } | undefined>();
  const [busy, guard] = useBusy();

  const settle = guard(async (f: Form) => {
    try {
      const verdict =
        f.outcome === "success" ? { outcome: f.outcome, sn: f.value } : { outcome: f.outcome, reason: f.value };
      const done = await api.settle(f.refId, verdict);
      setNotice({
        kind: "done",
        text: `${t("page-pending-settled", { ref: done.order.refId, state: t(`page-state-${done.order.state}`) })} ${t(`page-pending-told-${done.told}`)}`,
      });
      setForm(undefined);
      reload();
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" });
      if (failure.status === 422) setError(failure.body.issues?.[0]?.message ?? t("page-error-server"));
      else if (failure.status === 409) {
        setNotice({ kind: "error", text: t("page-pending-already", { ref: f.refId }) });
        setForm(undefined);
        reload();
      } else setError(`${failureText(words, failure)} ${t("page-kept")}`);
    }
  });

  useBack(form === undefined ? undefined : () => setForm(undefined));
  useMainAction(
    form === undefined
      ? undefined
      : {
          text: t(form.outcome === "success" ? "page-pending-settle-success" : "page-pending-settle-failed"),
          onClick: () => void settle(form),
          busy,
          disabled: form.value.trim() === "",
        },
  );

  const open = (order: OrderView, outcome: "success" | "failed") => {
    setError(undefined);
    setNotice(undefined);
    setForm({ refId: order.refId, outcome, value: "" });
  };

  return (
    <>
      <h1>{t("page-pending-title")}</h1>
      <DepositRequestsSection />
      {notice === undefined ? null : <Notice kind={notice.kind}>{notice.text}</Notice>}
      <Loaded load={pending} retry={reload}>
        {(data) =>
          data.orders.length === 0 ? (
            <Empty text={t("page-pending-none")} />
          ) : (
            <>
              <p class="hint">{t("page-pending-help")}</p>
              {data.orders.map((order) => (
                <OrderCard key={order.refId} order={order} words={words}>
                  {form?.refId === order.refId ? (
                    <div class="settle-form">
                      <Field
                        label={t(form.outcome === "success" ? "page-pending-sn" : "page-pending-reason")}
                        error={error}
                      >
                        <input
                          type="text"
                          value={form.value}
                          maxLength={form.outcome === "success" ? 64 : 200}
                          onInput={(e) => setForm({ ...form, value: e.currentTarget.value })}
                          data-testid="settle-value"
                        />
                      </Field>
                    </div>
                  ) : (
                    <div class="actions">
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => open(order, "success")}
                        data-testid={`settle-success-${order.refId}`}
                      >
                        {t("page-pending-success")}
                      </button>
                      <button
                        type="button"
                        class="secondary destructive"
                        onClick={() => open(order, "failed")}
                        data-testid={`settle-failed-${order.refId}`}
                      >
                        {t("page-pending-failed")}
                      </button>
                    </div>
                  )}
                </OrderCard>
              ))}
            </>
          )
        }
      </Loaded>
    </>
  );
}
