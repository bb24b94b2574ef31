import { useState } from "preact/hooks";
import { ApiFailure } from "../client.js";
import {
  AmountField,
  Empty,
  Loaded,
  Notice,
  Section,
  failureText,
  readTyped,
  requestId,
  useApp,
  useBusy,
  useLoad,
} from "../ui.js";

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
  // Sent with a text that reads as no amount: the box says why (and nothing is sent).
  const [refuse, setRefuse] = useState(false);
  // An amount read but outside the shop's limits: said at the box, before anything is sent.
  const [outside, setOutside] = useState<string | undefined>();
  const [ask] = useState(() => ({ id: requestId() }));
  const [notice, setNotice] = useState<{ kind: "done" | "error"; text: string } | undefined>();
  const [busy, guard] = useBusy();

  const send = guard(async (limits: { min: number; max: number }) => {
    const read = readTyped(amount);
    if (read?.ok !== true) return setRefuse(true);
    if (read.amount < limits.min || read.amount > limits.max)
      return setOutside(t("page-topup-outside", { amount: rp(read.amount), min: rp(limits.min), max: rp(limits.max) }));
    try {
      const made = await api.askDeposit(read.amount, ask.id);
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
            : failure.body.error === "too-soon" && failure.body.until !== undefined
              ? t("page-topup-too-soon", { at: words.time(failure.body.until) })
              : failure.body.error === "no-code"
                ? t("page-topup-no-code")
                : (failure.body.issues?.[0]?.message ?? failureText(words, failure));
      setNotice({ kind: "error", text });
    }
    reload();
    props.onChange();
  });

  const upload = guard(async (id: string, file: File | undefined) => {
    if (file === undefined) return;
    try {
      await api.sendProof(id, file);
      setNotice({ kind: "done", text: t("page-proof-sent", { id }) });
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" });
      setNotice({
        kind: "error",
        text:
          failure.status === 415 || failure.status === 413
            ? t("page-proof-type")
            : failure.status === 429
              ? t("page-proof-busy")
              : failure.status === 409
                ? t("page-request-taken", { id })
                : failureText(words, failure),
      });
    }
    reload();
  });

  const cancel = guard(async (id: string) => {
    // Whether or not the cancel went through, the list read again shows what the request is now.
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
                  <AmountField
                    label={t("page-topup-amount", { min: rp(data.limits.min), max: rp(data.limits.max) })}
                    typed={amount}
                    onTyped={(typed) => {
                      setAmount(typed);
                      setRefuse(false);
                      setOutside(undefined);
                    }}
                    refuse={refuse}
                    error={outside}
                    testid="topup-amount"
                  />
                  <div class="actions">
                    <button
                      type="button"
                      class="primary"
                      disabled={busy || amount.trim() === ""}
                      onClick={() => void send(data.limits)}
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
                <div class="card request" key={r.id} data-testid={`my-request-${r.id}`}>
                  <div class="card-head">
                    <strong>{rp(r.exact)}</strong>
                    <span class="hint">
                      {t(r.byHand ? "page-request-state-hand" : `page-request-state-${r.state}`)}
                    </span>
                  </div>
                  <div class="hint">
                    <code>{r.id}</code>
                  </div>
                  {r.state !== "proof" ? null : (
                    <div class="actions">
                      <label class="button" data-testid={`proof-label-${r.id}`}>
                        {t("page-proof-send")}
                        <input
                          type="file"
                          accept="image/jpeg,image/png,image/webp,application/pdf"
                          hidden
                          disabled={busy}
                          onChange={(e) => void upload(r.id, e.currentTarget.files?.[0])}
                          data-testid={`proof-file-${r.id}`}
                        />
                      </label>
                      <button
                        type="button"
                        class="secondary destructive"
                        disabled={busy}
                        onClick={() => void cancel(r.id)}
                        data-testid={`cancel-${r.id}`}
                      >
                        {t("page-request-cancel")}
                      </button>
                    </div>
                  )}
                </div>
              ))
            )}
          </Section>
        </>
      )}
    </Loaded>
  );
}
