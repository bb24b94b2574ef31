import { useState } from "preact/hooks";
import { ApiFailure } from "../client.js";
import { Empty, Field, Loaded, Notice, Row, Section, failureText, requestId, useApp, useBusy, useLoad } from "../ui.js";

/**
 * A reseller tops up their saldo: a deposit request (the same rules as /deposit in the chat: the
 * exact amount to transfer, once per tap), their requests and their state, Cancel of one that
 * still waits for its proof. The proof itself goes to the bot in the chat, as a reply.
 */
export function TopUpSection(props: { onChange: () => void }) {
  const { api, words } = useApp();
  const { t, rp } = words;
  const [mine, reload] = useLoad(() => api.myRequests(), []);
  const [amount, setAmount] = useState("");
  const [ask] = useState(() => ({ id: requestId() }));
  const [notice, setNotice] = useState<{ kind: "done" | "error"; text: string } | undefined>();
  const [busy, guard] = useBusy();

  const send = guard(async () => {
    try {
      const made = await api.askDeposit(Number(amount.replace(/[^0-9]/g, "")), ask.id);
      const r = made.request;
      setNotice({
        kind: "done",
        text: t("page-topup-made", { exact: rp(r.exact), amount: rp(r.amount), code: String(r.code), id: r.id }),
      });
      setAmount("");
      ask.id = requestId();
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" });
      const text =
        failure.body.error === "no-pay-info"
          ? t("page-topup-no-pay-info")
          : failure.body.error === "too-many"
            ? t("page-topup-too-many")
            : (failure.body.issues?.[0]?.message ?? failureText(words, failure));
      setNotice({ kind: "error", text });
    }
    reload();
    props.onChange();
  });

  const cancel = guard(async (id: string) => {
    await api.cancelRequest(id).catch(() => undefined);
    reload();
  });

  return (
    <Loaded load={mine} retry={reload}>
      {(data) => (
        <>
          <Section title={t("page-topup-title")}>
            <div class="card request">
              {data.payInfo === null ? (
                <Notice kind="warning">{t("page-topup-no-pay-info")}</Notice>
              ) : (
                <>
                  <p class="hint">{data.payInfo.text}</p>
                  <Field label={t("page-topup-amount", { min: rp(data.limits.min), max: rp(data.limits.max) })}>
                    <input
                      type="text"
                      inputMode="numeric"
                      value={amount}
                      onInput={(e) => setAmount(e.currentTarget.value)}
                      data-testid="topup-amount"
                    />
                  </Field>
                  <div class="actions">
                    <button
                      type="button"
                      disabled={busy || !/[0-9]/.test(amount)}
                      onClick={() => void send()}
                      data-testid="topup-ask"
                    >
                      {t("page-topup-ask")}
                    </button>
                  </div>
                </>
              )}
              {notice === undefined ? null : <Notice kind={notice.kind}>{notice.text}</Notice>}
            </div>
          </Section>
          <Section title={t("page-my-requests")}>
            {data.requests.length === 0 ? (
              <Empty text={t("page-requests-none")} />
            ) : (
              data.requests.map((r) => (
                <Row
                  key={r.id}
                  testid={`my-request-${r.id}`}
                  label={rp(r.exact)}
                  hint={`${r.id} · ${t(`page-request-state-${r.state}`)}`}
                  value={
                    r.state === "proof" ? (
                      <button
                        type="button"
                        class="secondary destructive"
                        disabled={busy}
                        onClick={() => void cancel(r.id)}
                        data-testid={`cancel-${r.id}`}
                      >
                        {t("page-request-cancel")}
                      </button>
                    ) : undefined
                  }
                />
              ))
            )}
          </Section>
        </>
      )}
    </Loaded>
  );
}
