import { useState } from "preact/hooks";
import type { AnswerOf, Period } from "../client.js";
import type { Words } from "../i18n.js";
import { Empty, Loaded, Row, Section, useApp, useLoad } from "../ui.js";
import "./questions.css";

/** A period the owner's questions answer for, with the days before and after it (none after the current one). */
type Paged = { period: { kind: Period; from: string; to: string }; before: string; after?: string };

/** The period in words: `24 Nov`, `17 Nov – 23 Nov`, `November 2026`. */
function periodName(words: Words, p: Paged["period"]): string {
  if (p.kind === "day") return words.day(p.from);
  if (p.kind === "week") return words.t("page-period-week-span", { from: words.day(p.from), to: words.day(p.to) });
  return words.month(p.from);
}

/** Rupiah that never break between `Rp` and the number, for amounts inside a sentence. */
const unbroken = (money: string) => money.replace(" ", "\u00a0");

/** Which period a card shows: its kind, and a day in it (none: the current one). */
function usePeriod() {
  const [asked, setAsked] = useState<{ kind: Period; day?: string }>({ kind: "day" });
  return [asked, setAsked] as const;
}

/** Day / Week / Month, and ◀ the period name ▶ to page to the one before or after. */
function PeriodPicker(props: {
  name: string;
  kind: Period;
  shown: Paged | undefined;
  set: (asked: { kind: Period; day?: string }) => void;
  testid: string;
}) {
  const { t } = useApp().words;
  const { shown } = props;
  return (
    <div class="period" data-testid={`${props.testid}-period`}>
      <div class="period-kinds" role="group">
        {(["day", "week", "month"] as const).map((kind) => (
          <button
            key={kind}
            type="button"
            class={kind === props.kind ? "active" : ""}
            aria-pressed={kind === props.kind}
            onClick={() => props.set({ kind })}
          >
            {t(`page-period-${kind}`)}
          </button>
        ))}
      </div>
      <div class="period-paging">
        <button
          type="button"
          class="secondary"
          aria-label={t("page-period-before")}
          disabled={shown === undefined}
          onClick={() => shown !== undefined && props.set({ kind: props.kind, day: shown.before })}
          data-testid={`${props.testid}-before`}
        >
          ◀
        </button>
        <span data-testid={`${props.testid}-name`}>{props.name}</span>
        <button
          type="button"
          class="secondary"
          aria-label={t("page-period-after")}
          disabled={shown?.after === undefined}
          onClick={() => shown?.after !== undefined && props.set({ kind: props.kind, day: shown.after })}
          data-testid={`${props.testid}-after`}
        >
          ▶
        </button>
      </div>
    </div>
  );
}

/** The top products and resellers of a day, a week or a month, paged back and forth. */
export function TopCard() {
  const { api, words } = useApp();
  const [asked, setAsked] = usePeriod();
  const [top, reload] = useLoad(() => api.top(asked.kind, asked.day), [asked.kind, asked.day]);
  const shown = top.state === "ready" ? top.data : undefined;
  return (
    <Section title={words.t("page-top-title")} class="question">
      <PeriodPicker
        name={shown === undefined ? "…" : periodName(words, shown.period)}
        kind={asked.kind}
        shown={shown}
        set={setAsked}
        testid="top"
      />
      <Loaded load={top} retry={reload}>
        {(d) => <TopLists top={d} />}
      </Loaded>
    </Section>
  );
}

/** A top report's totals and its two lists. */
function TopLists(props: { top: AnswerOf<"top"> }) {
  const { t, rp } = useApp().words;
  const { totals, products, resellers, providers } = props.top;
  if (totals.orders.success === 0) return <Empty text={t("page-top-none")} />;
  return (
    <div data-testid="top-lists">
      <p class="question-totals" data-testid="top-totals">
        {t("page-top-totals", {
          count: totals.orders.success,
          selling: unbroken(rp(totals.selling)),
          margin: unbroken(rp(totals.margin)),
        })}
      </p>
      <h3>{t("page-top-products")}</h3>
      {products.map((line) => (
        <Row
          key={line.key}
          label={line.name}
          hint={t("page-top-product-hint", { count: line.count, margin: rp(line.margin) })}
          value={rp(line.selling)}
        />
      ))}
      <h3>{t("page-top-resellers")}</h3>
      {resellers.length === 0 ? (
        <Empty text={t("page-top-no-resellers")} />
      ) : (
        resellers.map((line) => (
          <Row
            key={line.userId}
            label={line.name}
            hint={t("page-top-reseller-hint", { count: line.count, profit: rp(line.profit) })}
            value={rp(line.sales)}
          />
        ))
      )}
      {/* Only a shop with several providers has this list (a one-provider shop's is empty). */}
      {providers.length === 0 ? null : (
        <>
          <h3>{t("page-top-providers")}</h3>
          {providers.map((line) => (
            <Row
              key={line.key}
              label={line.name}
              hint={t("page-top-provider-hint", {
                count: line.count,
                cost: rp(line.provider),
                margin: rp(line.margin),
              })}
              value={rp(line.selling)}
              testid={`top-provider-${line.key}`}
            />
          ))}
        </>
      )}
    </div>
  );
}

/** This month so far against the same days of last month: sales, revenue, margin, and the change. */
export function CompareCard() {
  const { api, words } = useApp();
  const { t, rp, number } = words;
  const [compare, reload] = useLoad(() => api.compare(), []);
  const change = (percent: number | null) =>
    percent === null
      ? t("page-compare-none")
      : t(percent > 0 ? "page-compare-up" : percent < 0 ? "page-compare-down" : "page-compare-same", {
          percent: Math.abs(percent),
        });
  return (
    <Section title={t("page-compare-title")} class="question">
      <Loaded load={compare} retry={reload}>
        {(d) => (
          <div data-testid="compare">
            <p class="question-totals">
              {t("page-compare-days", {
                month: words.month(d.now.from),
                before: words.month(d.before.from),
                days: d.now.days,
              })}
            </p>
            <Row
              label={t("page-compare-sales")}
              hint={`${t("page-compare-last", { value: number(d.before.orders.success) })} · ${change(d.change.sales)}`}
              value={number(d.now.orders.success)}
              testid="compare-sales"
            />
            <Row
              label={t("page-compare-revenue")}
              hint={`${t("page-compare-last", { value: rp(d.before.selling) })} · ${change(d.change.selling)}`}
              value={rp(d.now.selling)}
              testid="compare-revenue"
            />
            <Row
              label={t("page-compare-margin")}
              hint={`${t("page-compare-last", { value: rp(d.before.margin) })} · ${change(d.change.margin)}`}
              value={rp(d.now.margin)}
              testid="compare-margin"
            />
          </div>
        )}
      </Loaded>
    </Section>
  );
}

/** When orders come: 24 bars, one per hour of the shop's day, and the busiest hours named. */
export function HoursCard() {
  const { api, words } = useApp();
  const [asked, setAsked] = usePeriod();
  const [hours, reload] = useLoad(() => api.hours(asked.kind, asked.day), [asked.kind, asked.day]);
  const shown = hours.state === "ready" ? hours.data : undefined;
  return (
    <Section title={words.t("page-hours-title")} class="question">
      <PeriodPicker
        name={shown === undefined ? "…" : periodName(words, shown.period)}
        kind={asked.kind}
        shown={shown}
        set={setAsked}
        testid="hours"
      />
      <Loaded load={hours} retry={reload}>
        {(d) => <HourBars report={d} />}
      </Loaded>
    </Section>
  );
}

/** The hours as CSS bars (tallest: the busiest hour), each named for a screen reader. */
function HourBars(props: { report: AnswerOf<"hours"> }) {
  const { t, rp } = useApp().words;
  const { hours, busiest } = props.report;
  if (busiest.length === 0) return <Empty text={t("page-hours-none")} />;
  const most = Math.max(...hours.map((h) => h.count));
  const busy = new Set(busiest.map((h) => h.hour));
  const hourName = (hour: number) => String(hour).padStart(2, "0");
  return (
    <div data-testid="hours">
      <p class="question-totals" data-testid="hours-busiest">
        {t("page-hours-busiest", {
          hours: busiest.map((h) => t("page-hours-busy-hour", { hour: hourName(h.hour), count: h.count })).join(", "),
        })}
      </p>
      <ol class="hour-bars">
        {hours.map((h) => (
          <li
            key={h.hour}
            class={busy.has(h.hour) ? "busy" : ""}
            aria-label={t("page-hours-bar", { hour: hourName(h.hour), count: h.count, selling: rp(h.selling) })}
            data-count={h.count}
          >
            <span class="hour-bar" style={{ height: `${most === 0 ? 0 : Math.round((h.count / most) * 100)}%` }} />
            <span class="hour-label">{h.hour % 6 === 0 ? hourName(h.hour) : ""}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
