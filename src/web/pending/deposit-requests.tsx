import { useEffect, useState } from "preact/hooks";
import type { AnswerOf } from "../client.js";
import { ApiFailure } from "../client.js";
import {
  AmountField,
  Empty,
  Field,
  Loaded,
  Notice,
  Section,
  failureText,
  readTyped,
  useApp,
  useBusy,
  useLoad,
} from "../ui.js";

type RequestRow = AnswerOf<"depositRequests">["requests"][number];
/**
 * An admin deciding one request by hand: Other amount (what they typed; `sure` once they asked
 * for the summary of the amount it reads as, which alone has the Confirm that credits it; `refuse`
 * when they asked with a text that reads as none) or Reject (a reason).
 */
type Decision =
  | { id: string; kind: "other"; value: string; sure?: number; refuse?: boolean }
  | { id: string; kind: "reject"; value: string };

/** The largest other amount an admin may credit in one go (as the chat's Other amount). */
const OTHER_MAX = 100_000_000;

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

  /** A request decided before this press (here, in the chat, by hand): who decided what, as the chat's notices say. */
  const takenText = (body: Record<string, unknown>, id: string): string => {
    const request = body["request"] as { state?: string; byHand?: boolean; credited?: number | null } | undefined;
    const by = body["decidedBy"] as { id: number; name: string | null } | null | undefined;
    if (request === undefined || by === undefined || by === null) return t("page-request-taken", { id });
    const who = { id, name: by.name ?? String(by.id), amount: rp(request.credited ?? 0) };
    if (request.state === "approved")
      return t(request.byHand === true ? "page-request-taken-hand" : "page-request-taken-approved", who);
    if (request.state === "rejected") return t("page-request-taken-rejected", who);
    return t("page-request-taken", { id });
  };

  /** Other amount, first press: the summary of the amount the box reads as, or why it reads as none. */
  const review = (d: Extract<Decision, { kind: "other" }>) => {
    const read = readTyped(d.value, { max: OTHER_MAX });
    setDecision(read?.ok === true ? { ...d, sure: read.amount } : { ...d, refuse: true });
  };

  const decide = guard(async (r: RequestRow, how: "approve" | Decision) => {
    try {
      if (how === "approve" || how.kind === "other") {
        // Another amount is credited only from its summary's Confirm, and exactly as shown there.
        const amount = how === "approve" ? undefined : how.sure;
        if (how !== "approve" && amount === undefined) return;
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
        text: failure.status === 409 ? takenText(failure.body, r.id) : failureText(words, failure),
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
                  {r.state !== "review" ? null : decision?.id === r.id && decision.kind === "other" ? (
                    decision.sure === undefined ? (
                      <div class="settle-form">
                        <AmountField
                          label={t("page-request-other-amount")}
                          typed={decision.value}
                          onTyped={(value) => setDecision({ id: r.id, kind: "other", value })}
                          rules={{ max: OTHER_MAX }}
                          refuse={decision.refuse === true}
                          placeholder={rp(r.exact)}
                          testid="request-value"
                        />
                        <div class="actions">
                          <button
                            type="button"
                            class="primary"
                            disabled={busy || decision.value.trim() === ""}
                            onClick={() => review(decision)}
                            data-testid="request-send"
                          >
                            {t("page-request-other-review")}
                          </button>
                          <button
                            type="button"
                            class="secondary"
                            onClick={() => setDecision(undefined)}
                            data-testid="request-back"
                          >
                            {t("page-back")}
                          </button>
                        </div>
                      </div>
                    ) : (
                      <div class="settle-form other-summary" data-testid={`other-summary-${r.id}`}>
                        <p>
                          <strong>
                            {t("page-request-other-summary", {
                              amount: rp(decision.sure),
                              id: r.id,
                              exact: rp(r.exact),
                            })}
                          </strong>
                        </p>
                        <p class="hint">{t("page-request-other-hint")}</p>
                        <div class="actions">
                          <button
                            type="button"
                            class="primary"
                            disabled={busy}
                            onClick={() => void decide(r, decision)}
                            data-testid="request-confirm"
                          >
                            {t("page-request-other-confirm", { amount: rp(decision.sure) })}
                          </button>
                          <button
                            type="button"
                            class="secondary"
                            disabled={busy}
                            onClick={() => setDecision({ id: r.id, kind: "other", value: decision.value })}
                            data-testid="request-change"
                          >
                            {t("page-request-other-change")}
                          </button>
                        </div>
                      </div>
                    )
                  ) : decision?.id === r.id ? (
                    <div class="settle-form">
                      <Field label={t("page-request-reason")}>
                        <input
                          type="text"
                          value={decision.value}
                          maxLength={300}
                          onInput={(e) => setDecision({ ...decision, value: e.currentTarget.value })}
                          data-testid="request-value"
                        />
                      </Field>
                      <div class="actions">
                        <button
                          type="button"
                          class="primary destructive"
                          disabled={busy}
                          onClick={() => void decide(r, decision)}
                          data-testid="request-send"
                        >
                          {t("page-request-reject")}
                        </button>
                        <button
                          type="button"
                          class="secondary"
                          onClick={() => setDecision(undefined)}
                          data-testid="request-back"
                        >
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
