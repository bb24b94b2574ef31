import { BalanceChart, DaysChart } from "./chart.js";
import { CompareCard, HoursCard, TopCard } from "./questions.js";
import { Empty, Loaded, Row, Section, useApp, useLoad } from "../ui.js";
import type { AnswerOf } from "../client.js";

/**
 * Today for an admin: the day's sales and margin, the balance, what the shop owes, 30 days, and the
 * owner's questions (top sellers, this month against last, the hours orders come).
 */
export function TodayPage() {
  const { api, words } = useApp();
  const { t, rp, number, time, day } = words;
  const [today, reload] = useLoad(() => api.today(), []);
  return (
    <Loaded load={today} retry={reload}>
      {(d) => (
        <>
          <h1>{t("page-today-title", { day: day(d.day) })}</h1>
          <div class="tiles" data-testid="today-tiles">
            <div class="tile">
              <span class="tile-label">{t("page-today-sales")}</span>
              <span class="tile-value" data-testid="today-sales">
                {number(d.orders.success)}
              </span>
              <span class="tile-hint">{t("page-today-orders", { count: d.orders.total })}</span>
            </div>
            <div class="tile">
              <span class="tile-label">{t("page-today-revenue")}</span>
              <span class="tile-value" data-testid="today-revenue">
                {rp(d.selling)}
              </span>
              <span class="tile-hint">{t("page-today-cost", { cost: rp(d.provider) })}</span>
            </div>
            <div class="tile">
              <span class="tile-label">{t("page-today-margin")}</span>
              <span class="tile-value" data-testid="today-margin">
                {rp(d.margin)}
              </span>
              {d.unpriced.count === 0 ? null : (
                <span class="tile-hint" data-testid="today-unpriced">
                  {t("page-today-unpriced", { count: d.unpriced.count })}
                </span>
              )}
            </div>
            <div class="tile">
              <span class="tile-label">{t("page-today-balance")}</span>
              <span class="tile-value" data-testid="today-balance">
                {d.balance === null ? "–" : rp(d.balance.balance)}
              </span>
              <span class="tile-hint">{d.balance === null ? t("page-today-balance-none") : time(d.balance.at)}</span>
            </div>
          </div>
          <Section title={t("page-today-money")}>
            <Row
              label={t("page-today-owed")}
              value={rp(d.owed.total)}
              hint={t("page-today-owed-hint", { saldo: rp(d.owed.saldo), held: rp(d.owed.held) })}
            />
            <Row label={t("page-today-deposits")} value={rp(d.deposits)} />
            <Row
              label={t("page-today-outcomes")}
              value={`${number(d.orders.failed)} / ${number(d.orders.unknown)}`}
              hint={t("page-today-outcomes-hint")}
            />
            <Row label={t("page-today-pending")} value={number(d.pending)} testid="today-pending" />
            <Row
              label={t("page-today-requests")}
              value={`${number(d.requests.approved.count)} / ${number(d.requests.asked.count)}`}
              hint={t("page-today-requests-hint", {
                approved: rp(d.requests.approved.amount),
                rejected: number(d.requests.rejected.count),
                expired: number(d.requests.expired.count),
              })}
              testid="today-requests"
            />
          </Section>
          <ProvidersSection today={d} />
          <Section title={t("page-today-days")}>
            <DaysChart days={d.days} words={words} />
          </Section>
          <Section title={t("page-chart-balance")}>
            <BalanceChart days={d.days} words={words} />
          </Section>
          <Section title={t("page-today-by-product")}>
            {d.byProduct.length === 0 ? (
              <Empty text={t("page-today-no-sales")} />
            ) : (
              d.byProduct.map((line) => (
                <Row
                  key={line.name}
                  label={line.name}
                  hint={t(line.unpriced === 0 ? "page-today-product-hint" : "page-today-product-hint-unpriced", {
                    count: line.count,
                    margin: rp(line.margin),
                  })}
                  value={rp(line.selling)}
                />
              ))
            )}
          </Section>
          <TopCard />
          <CompareCard />
          <HoursCard />
        </>
      )}
    </Loaded>
  );
}

/**
 * Each provider's balance and today's orders, cost and margin at it: only for a shop with several
 * providers (a one-provider shop's page is as it was).
 */
function ProvidersSection(props: { today: AnswerOf<"today"> }) {
  const { t, rp, time } = useApp().words;
  const { balances, byProvider } = props.today;
  if (balances.length < 2 && byProvider.length === 0) return null;
  const names = [...new Set([...balances.map((b) => b.provider), ...byProvider.map((l) => l.key)])];
  return (
    <Section title={t("page-today-providers")}>
      {names.map((name) => {
        const seen = balances.find((b) => b.provider === name)?.balance ?? null;
        const line = byProvider.find((l) => l.key === name);
        return (
          <Row
            key={name}
            label={name}
            value={seen === null ? "–" : rp(seen.balance)}
            hint={t(seen === null ? "page-today-provider-hint-none" : "page-today-provider-hint", {
              count: line?.count ?? 0,
              cost: rp(line?.provider ?? 0),
              margin: rp(line?.margin ?? 0),
              seen: seen === null ? "" : time(seen.at),
            })}
            testid={`today-provider-${name}`}
          />
        );
      })}
    </Section>
  );
}
