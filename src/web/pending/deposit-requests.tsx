import { useEffect, useState } from "preact/hooks";
import type { AnswerOf } from "../client.js";
import { ApiFailure } from "../client.js";
import { Empty, Field, Loaded, Notice, Section, failureText, useApp, useBusy, useLoad } from "../ui.js";

type RequestRow = AnswerOf<"depositRequests">["requests"][number];
type Decision = { id: string; kind: "other" | "reject"; value: string };

/** A request's proof, fetched with the init data and shown from memory (never a URL of Telegram's). */
function Proof(props: { id: string }) {
  const { api, words } = useApp();
  const [url, setUrl] = useState<string | undefined>();
  const [pdf, setPdf] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let made: string | undefined;
    api.proof(props.id).then(
      (blob) => {
        made = URL.createObjectURL(blob);
        setPdf(blob.type === "application/pdf");
        setUrl(made);
      },
      () => setFailed(true),
    );
    return () => {
      if (made !== undefined) URL.revokeObjectURL(made);
    };
  }, [props.id]);
  if (failed) return <p class="hint">{words.t("page-request-proof-failed")}</p>;
  if (url === undefined) return <p class="hint">…</p>;
  if (pdf)
    return (
      <a href={url} download={`${props.id}.pdf`} data-testid={`proof-${props.id}`}>
        {words.t("page-request-proof-pdf")}
      </a>
    );
  return <img class="proof" src={url} alt={words.t("page-request-proof")} data-testid={`proof-${props.id}`} />;
}

/** The shop's payment instructions, as resellers read them with every request; an image is set in the chat. */
function PayInfoEditor(props: { text: string; onSaved: () => void }) {
  const { api, words } = useApp();
  const { t } = words;
  const [text, setText] = useState(props.text);
  const [notice, setNotice] = useState<{ kind: "done" | "error"; text: string } | undefined>();
  const [busy, guard] = useBusy();
  const save = guard(async () => {
    try {
      await api.setPayInfo(text);
      setNotice({ kind: "done", text: t("page-payinfo-saved") });
      props.onSaved();
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" });
      setNotice({ kind: "error", text: failure.body.issues?.[0]?.message ?? failureText(words, failure) });
    }
  });
  return (
    <div class="card request">
      <Field label={t("page-payinfo-label")}>
        <textarea
          rows={3}
          maxLength={800}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          data-testid="payinfo-text"
        />
      </Field>
      <p class="hint">{t("page-payinfo-hint")}</p>
      {notice === undefined ? null : <Notice kind={notice.kind}>{notice.text}</Notice>}
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={busy || text.trim() === ""}
          onClick={() => void save()}
          data-testid="payinfo-save"
        >
          {t("page-payinfo-save")}
        </button>
      </div>
    </div>
  );
}

/**
 * The deposit requests waiting for an admin: the proof, the reseller and their saldo, the exact
 * amount; Approve (that amount), Other amount (what the bank shows) and Reject (with a reason for
 * the reseller), decided once by the same service as the chat's buttons.
 */
export function DepositRequestsSection() {
  const { api, words } = useApp();
  const { t, rp } = words;
  const [requests, reload] = useLoad(() => api.depositRequests(), []);
  const [decision, setDecision] = useState<Decision | undefined>();
  const [notice, setNotice] = useState<{ kind: "done" | "error"; text: string } | undefined>();
  const [busy, guard] = useBusy();

  const decide = guard(async (r: RequestRow, how: "approve" | Decision) => {
    try {
      if (how === "approve" || how.kind === "other") {
        const amount = how === "approve" ? undefined : Number(how.value.replace(/[^0-9]/g, ""));
        const done = await api.approveRequest(r.id, amount);
        setNotice({
          kind: "done",
          text: t("page-request-approved", { id: r.id, amount: rp(done.request.credited ?? 0), saldo: rp(done.saldo) }),
        });
      } else {
        await api.rejectRequest(r.id, how.value.trim() === "" ? undefined : how.value.trim());
        setNotice({ kind: "done", text: t("page-request-rejected", { id: r.id }) });
      }
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" });
      setNotice({
        kind: "error",
        text: failure.status === 409 ? t("page-request-taken", { id: r.id }) : failureText(words, failure),
      });
    }
    setDecision(undefined);
    reload();
  });

  return (
    <Loaded load={requests} retry={reload}>
      {(data) => (
        <>
          <Section title={t("page-requests-title")}>
            {notice === undefined ? null : <Notice kind={notice.kind}>{notice.text}</Notice>}
            {data.payInfo === null ? <Notice kind="warning">{t("page-requests-no-pay-info")}</Notice> : null}
            {data.requests.length === 0 ? (
              <Empty text={t("page-requests-none")} />
            ) : (
              data.requests.map((r) => (
                <div class="card request" key={r.id} data-testid={`request-${r.id}`}>
                  <div class="card-head">
                    <strong>{rp(r.exact)}</strong>
                    <span class="hint">
                      {t(r.byHand ? "page-request-state-hand" : `page-request-state-${r.state}`)}
                    </span>
                  </div>
                  <div class="hint">
                    {t("page-request-who", { name: r.name ?? "", id: String(r.resellerId), saldo: rp(r.saldo) })}
                  </div>
                  <div class="hint">
                    <code>{r.id}</code> · {t("page-request-code", { amount: rp(r.amount), code: String(r.code) })}
                  </div>
                  {r.proof?.sentBeforeFor ? (
                    <Notice kind="warning">{t("page-request-sent-before", { id: r.proof.sentBeforeFor })}</Notice>
                  ) : null}
                  {r.proof === null ? null : <Proof id={r.id} />}
                  {r.state !== "review" ? null : decision?.id === r.id ? (
                    <div class="settle-form">
                      <Field label={t(decision.kind === "other" ? "page-request-other-amount" : "page-request-reason")}>
                        <input
                          type="text"
                          inputMode={decision.kind === "other" ? "numeric" : "text"}
                          value={decision.value}
                          maxLength={decision.kind === "other" ? 12 : 300}
                          onInput={(e) => setDecision({ ...decision, value: e.currentTarget.value })}
                          data-testid="request-value"
                        />
                      </Field>
                      <div class="actions">
                        <button
                          type="button"
                          class={decision.kind === "other" ? "primary" : "primary destructive"}
                          disabled={busy || (decision.kind === "other" && !/[0-9]/.test(decision.value))}
                          onClick={() => void decide(r, decision)}
                          data-testid="request-send"
                        >
                          {t(decision.kind === "other" ? "page-request-credit" : "page-request-reject")}
                        </button>
                        <button type="button" class="secondary" onClick={() => setDecision(undefined)}>
                          {t("page-back")}
                        </button>
                      </div>
                    </div>
                  ) : (
                    <div class="actions">
                      <button
                        type="button"
                        class="primary"
                        disabled={busy}
                        onClick={() => void decide(r, "approve")}
                        data-testid={`approve-${r.id}`}
                      >
                        {t("page-request-approve")}
                      </button>
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => setDecision({ id: r.id, kind: "other", value: "" })}
                        data-testid={`other-${r.id}`}
                      >
                        {t("page-request-other")}
                      </button>
                      <button
                        type="button"
                        class="secondary destructive"
                        onClick={() => setDecision({ id: r.id, kind: "reject", value: "" })}
                        data-testid={`reject-${r.id}`}
                      >
                        {t("page-request-reject")}
                      </button>
                    </div>
                  )}
                </div>
              ))
            )}
          </Section>
          <Section title={t("page-payinfo-title")}>
            <PayInfoEditor text={data.payInfo?.text ?? ""} onSaved={reload} />
          </Section>
        </>
      )}
    </Loaded>
  );
}
