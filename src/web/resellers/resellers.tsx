import { useRef, useState } from "preact/hooks";
import { parseAmount } from "../../amounts.js";
import type { DepositView } from "../../server/mini-app/views.js";
import { ApiFailure, type AnswerOf } from "../client.js";
import type { Words } from "../i18n.js";
import {
  AmountField,
  Empty,
  Field,
  Loaded,
  Notice,
  Row,
  Section,
  failureText,
  requestId,
  useApp,
  useBack,
  useBusy,
  useFirstInvalid,
  useLoad,
  useMainAction,
} from "../ui.js";
import { ApiAccessSection } from "./api-access.js";

/** A line of a reseller's statement, as the statement call answers it. */
type Movement = AnswerOf<"reseller">["movements"][number];
/** A reseller of the list, as the resellers call answers it. */
type ResellerRow = AnswerOf<"resellers">["resellers"][number];

/** One line of a statement: when, what, how much, the saldo after it. */
export function MovementRow(props: { m: Movement; words: Words }) {
  const { m, words } = props;
  const { t, rp, signed, time } = words;
  return (
    <Row
      label={t(`page-statement-${m.kind}`)}
      hint={
        <>
          {time(m.at)}
          <code class="row-ref">{m.ref}</code>
        </>
      }
      value={
        <span class="movement">
          <span class={m.amount < 0 ? "minus" : "plus"}>{signed(m.amount)}</span>
          <span class="after">{t("page-movement-after", { saldo: rp(m.saldo) })}</span>
        </span>
      }
    />
  );
}

/** A reseller as the chat knows them: `Budi (@budi) · 3001`, or the id alone when never seen. */
export const personName = (r: Pick<ResellerRow, "userId" | "name" | "username">): string => {
  const name = [r.name, r.username === undefined ? undefined : `(@${r.username})`]
    .filter((p) => p !== undefined && p !== "")
    .join(" ");
  return name === "" ? String(r.userId) : `${name} · ${r.userId}`;
};

/** Resellers: their tier, saldo and held money; one opens to its statement, deposits and tier. */
export function ResellersPage() {
  const { api, words } = useApp();
  const { t, rp } = words;
  const [list, reload] = useLoad(() => api.resellers(), []);
  const [open, setOpen] = useState<number | undefined>();
  useBack(
    open === undefined
      ? undefined
      : () => {
          setOpen(undefined);
          reload();
        },
  );
  if (open !== undefined) return <ResellerDetail userId={open} />;
  return (
    <>
      <h1>{t("page-resellers-title")}</h1>
      <Loaded load={list} retry={reload}>
        {(data) => (
          <>
            <Section>
              <Row
                label={t("page-resellers-owed")}
                value={rp(data.totals.saldo + data.totals.held)}
                hint={t("page-today-owed-hint", { saldo: rp(data.totals.saldo), held: rp(data.totals.held) })}
              />
            </Section>
            {data.resellers.length === 0 ? (
              <Empty text={t("page-resellers-none")} />
            ) : (
              <Section>
                {data.resellers.map((r) => (
                  <Row
                    key={r.userId}
                    label={personName(r)}
                    hint={[
                      r.source === "none" ? t("page-resellers-no-longer") : t("page-resellers-tier", { tier: r.tier }),
                      ...(r.api?.on === true ? [t("page-resellers-api-on")] : []),
                    ].join(" · ")}
                    value={
                      <span class="money-pair">
                        {rp(r.saldo)}
                        {r.held > 0 ? <small>{t("page-held", { held: rp(r.held) })}</small> : null}
                      </span>
                    }
                    onClick={() => setOpen(r.userId)}
                    testid={`reseller-${r.userId}`}
                  />
                ))}
              </Section>
            )}
          </>
        )}
      </Loaded>
    </>
  );
}

/** A number of rupiah as typed, read as the chat's /deposit reads it (`50rb`, `Rp50.000`, `-5rb`); undefined while it is not one. */
function amountOf(typed: string): number | undefined {
  const read = parseAmount(typed, { signed: true });
  return read.ok ? read.amount : undefined;
}

type DepositStep =
  | { kind: "closed" }
  | { kind: "form"; amount: string; note: string }
  | { kind: "review"; deposit: DepositView; amount: string; note: string };

function ResellerDetail(props: { userId: number }) {
  const { api, words } = useApp();
  const { t, rp } = words;
  const [page, setPage] = useState(0);
  const [detail, reload] = useLoad(() => api.reseller(props.userId, page), [page]);
  const [deposit, setDeposit] = useState<DepositStep>({ kind: "closed" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ kind: "done" | "error" | "info"; text: string } | undefined>();
  const [busy, guard] = useBusy();
  // A refused deposit: the field to fix is scrolled to and focused.
  const { root: depositForm, show: showFirstInvalid } = useFirstInvalid<HTMLDivElement>();

  const failure = (err: unknown) => (err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" }));

  /** The request id of the last review asked for: sent again when the same amount and note are. */
  const asked = useRef<{ amount: number; note: string; requestId: string } | undefined>(undefined);
  const review = guard(async (amount: string, note: string) => {
    const value = amountOf(amount);
    if (value === undefined) {
      setErrors({ amount: t("page-deposit-amount-format") });
      showFirstInvalid();
      return;
    }
    // A retry of the same deposit (its answer was lost) prepares nothing more; another one is new.
    const last = asked.current;
    const id = last !== undefined && last.amount === value && last.note === note ? last.requestId : requestId();
    asked.current = { amount: value, note, requestId: id };
    try {
      const prepared = await api.prepareDeposit(props.userId, value, note, id);
      asked.current = undefined; // answered: the next review is a deposit of its own
      setErrors({});
      setNotice(undefined);
      setDeposit({ kind: "review", deposit: prepared, amount, note });
    } catch (err) {
      const f = failure(err);
      if (f.status === 422) {
        setErrors(Object.fromEntries((f.body.issues ?? []).map((i) => [i.path, i.message])));
        showFirstInvalid();
      } else if (f.status === 409 && f.body.error === "short") {
        setErrors({ amount: t("page-deposit-below-zero", { saldo: rp(Number(f.body.saldo ?? 0)) }) });
        showFirstInvalid();
      } else setNotice({ kind: "error", text: `${failureText(words, f)} ${t("page-kept")}` });
    }
  });

  const confirm = guard(async (d: DepositView) => {
    try {
      const done = await api.confirmDeposit(d.id);
      setNotice({
        kind: "done",
        text: t("page-deposit-done", { amount: words.signed(d.amount), saldo: rp(done.saldo) }),
      });
      setDeposit({ kind: "closed" });
      reload();
    } catch (err) {
      const f = failure(err);
      if (f.status === 409 && f.body.error === "taken") {
        // Confirmed already (another tap, another admin): credited once, and said so.
        const taken = f.body.deposit as DepositView | undefined;
        setNotice({
          kind: "info",
          text:
            taken?.state === "done"
              ? t("page-deposit-already", { amount: words.signed(taken.amount), saldo: rp(taken.saldoAfter) })
              : t("page-deposit-was-cancelled"),
        });
        setDeposit({ kind: "closed" });
        reload();
      } else if (f.status === 409 && f.body.error === "short") {
        setNotice({ kind: "error", text: t("page-deposit-below-zero", { saldo: rp(Number(f.body.saldo ?? 0)) }) });
      } else setNotice({ kind: "error", text: `${failureText(words, f)} ${t("page-kept")}` });
    }
  });

  useMainAction(
    deposit.kind === "form"
      ? {
          text: t("page-deposit-review"),
          onClick: () => void review(deposit.amount, deposit.note),
          busy,
          disabled: deposit.amount.trim() === "",
        }
      : deposit.kind === "review"
        ? { text: t("page-deposit-confirm"), onClick: () => void confirm(deposit.deposit), busy }
        : undefined,
  );

  return (
    <>
      <h1>
        {t("page-reseller-title", {
          id: detail.state === "ready" ? personName(detail.data.reseller) : String(props.userId),
        })}
      </h1>
      {notice === undefined ? null : <Notice kind={notice.kind}>{notice.text}</Notice>}
      <Loaded load={detail} retry={reload}>
        {(d) => (
          <>
            <div class="tiles">
              <div class="tile">
                <span class="tile-label">{t("page-saldo")}</span>
                <span class="tile-value" data-testid="reseller-saldo">
                  {rp(d.reseller.saldo)}
                </span>
              </div>
              <div class="tile">
                <span class="tile-label">{t("page-held-label")}</span>
                <span class="tile-value">{rp(d.reseller.held)}</span>
              </div>
            </div>
            <TierPicker userId={props.userId} tier={d.reseller.tier} onChanged={reload} />
            <ApiAccessSection userId={props.userId} api={d.api} enabled={d.apiEnabled} onChanged={reload} />
            {deposit.kind === "closed" ? (
              <button
                type="button"
                class="secondary wide"
                onClick={() => setDeposit({ kind: "form", amount: "", note: "" })}
                data-testid="deposit-open"
              >
                + {t("page-deposit-open")}
              </button>
            ) : deposit.kind === "form" ? (
              <div ref={depositForm}>
                <DepositForm
                  step={deposit}
                  errors={errors}
                  set={(step) => {
                    // A new amount typed: the word on the old one no longer stands beside it.
                    if (step.kind === "form" && step.amount !== deposit.amount)
                      setErrors(({ amount: _old, ...rest }) => rest);
                    setDeposit(step);
                  }}
                />
              </div>
            ) : (
              <DepositReview
                deposit={deposit.deposit}
                change={() => {
                  // A prepared deposit that is not confirmed is never credited and is dropped after a day, so a
                  // cancel that fails leaves nothing to undo.
                  void api.cancelDeposit(deposit.deposit.id).catch(() => undefined);
                  setDeposit({ kind: "form", amount: deposit.amount, note: deposit.note });
                }}
              />
            )}
            <Section title={t("page-statement-title")}>
              {d.movements.length === 0 ? (
                <Empty text={t("page-statement-empty")} />
              ) : (
                d.movements.map((m, i) => <MovementRow key={`${m.ref}-${m.kind}-${i}`} m={m} words={words} />)
              )}
            </Section>
            <Pager page={page} hasMore={(page + 1) * d.pageSize < d.total} setPage={setPage} words={words} />
          </>
        )}
      </Loaded>
    </>
  );
}

/** A deposit (or, negative, a correction) being typed: the amount as people write it, and a note. */
function DepositForm(props: {
  step: Extract<DepositStep, { kind: "form" }>;
  errors: Record<string, string>;
  set: (step: DepositStep) => void;
}) {
  const { t } = useApp().words;
  const { step, errors, set } = props;
  return (
    <Section title={t("page-deposit-title")} class="deposit-form">
      <AmountField
        label={t("page-deposit-amount")}
        typed={step.amount}
        onTyped={(amount) => set({ ...step, amount })}
        rules={{ signed: true }}
        format="page-deposit-amount-format"
        error={errors.amount}
        placeholder="50.000"
        testid="deposit-amount"
      />
      <Field label={t("page-deposit-note")} error={errors.note}>
        <input
          type="text"
          value={step.note}
          maxLength={200}
          onInput={(e) => set({ ...step, note: e.currentTarget.value })}
          data-testid="deposit-note"
        />
      </Field>
      <p class="hint">{t("page-deposit-hint")}</p>
      <button type="button" class="link-button" onClick={() => set({ kind: "closed" })}>
        {t("page-cancel")}
      </button>
    </Section>
  );
}

/** A prepared deposit before Confirm: the amount, the saldo before and after it, the note; or back to change it. */
function DepositReview(props: { deposit: DepositView; change: () => void }) {
  const { words } = useApp();
  const { t, rp } = words;
  const d = props.deposit;
  return (
    <Section
      title={t(d.amount >= 0 ? "page-deposit-review-title" : "page-correction-review-title")}
      class="deposit-review"
    >
      <Row label={t("page-deposit-amount-short")} value={words.signed(d.amount)} />
      <Row label={t("page-deposit-before")} value={rp(d.saldoBefore)} />
      <Row label={t("page-deposit-after")} value={<b data-testid="deposit-after">{rp(d.saldoAfter)}</b>} />
      {d.note === "" ? null : <Row label={t("page-deposit-note")} value={d.note} />}
      <button type="button" class="link-button" onClick={props.change}>
        {t("page-deposit-change")}
      </button>
    </Section>
  );
}

function TierPicker(props: { userId: number; tier: string; onChanged: () => void }) {
  const { api, words } = useApp();
  const { t } = words;
  const [tiers] = useLoad(() => api.resellers().then((r) => r.tiers), []);
  const [error, setError] = useState<string | undefined>();
  if (tiers.state !== "ready" || props.tier === "") return null;
  return (
    <Section>
      <Field label={t("page-tier")} error={error}>
        <select
          value={props.tier}
          onChange={(e) => {
            const tier = e.currentTarget.value;
            api.setTier(props.userId, tier).then(
              () => {
                setError(undefined);
                props.onChanged();
              },
              (err: unknown) =>
                setError(
                  failureText(words, err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" })),
                ),
            );
          }}
          data-testid="tier"
        >
          {tiers.data.map((tier) => (
            <option key={tier} value={tier}>
              {tier}
            </option>
          ))}
        </select>
      </Field>
    </Section>
  );
}

/** Newer and older pages of a list. */
export function Pager(props: { page: number; hasMore: boolean; setPage: (page: number) => void; words: Words }) {
  if (props.page === 0 && !props.hasMore) return null;
  return (
    <div class="pager">
      <button type="button" class="secondary" disabled={props.page === 0} onClick={() => props.setPage(props.page - 1)}>
        ‹ {props.words.t("page-newer")}
      </button>
      <span>{props.page + 1}</span>
      <button
        type="button"
        class="secondary"
        disabled={!props.hasMore}
        onClick={() => props.setPage(props.page + 1)}
        data-testid="older"
      >
        {props.words.t("page-older")} ›
      </button>
    </div>
  );
}
