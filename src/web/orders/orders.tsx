import { useState } from "preact/hooks";
import { Icon } from "../icons.js";
import { OrderCard } from "../order-card.js";
import { Pager } from "../resellers/resellers.js";
import { Empty, Field, Loaded, Notice, failureText, useApp, useLoad } from "../ui.js";
import { ApiFailure } from "../client.js";

interface Filter {
  q: string;
  day: string;
  user: string;
  state: string;
}

/**
 * Orders: search by ref id or player id, filter by day, user and outcome, newest first a page at
 * a time; the day's orders as a CSV file or an Excel workbook.
 */
export function OrdersPage() {
  const { api, words, session } = useApp();
  const { t } = words;
  const [typed, setTyped] = useState<Filter>({ q: "", day: session.today, user: "", state: "" });
  const [filter, setFilter] = useState<Filter>(typed);
  const [page, setPage] = useState(0);
  const [orders, reload] = useLoad(
    () => api.orders({ ...filter, page }),
    [filter.q, filter.day, filter.user, filter.state, page],
  );
  const [csvError, setCsvError] = useState<string | undefined>();
  const search = (e: Event) => {
    e.preventDefault();
    setPage(0);
    setFilter(typed);
  };
  const download = async (kind: "csv" | "xlsx") => {
    setCsvError(undefined);
    try {
      const blob = await (kind === "csv" ? api.ordersCsv(filter.day) : api.ordersXlsx(filter.day));
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = `orders-${filter.day}.${kind}`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (err) {
      setCsvError(failureText(words, err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" })));
    }
  };
  const invalid =
    orders.state === "failed" && orders.failure.status === 422
      ? Object.fromEntries((orders.failure.body.issues ?? []).map((i) => [i.path, i.message]))
      : {};
  return (
    <>
      <h1>{t("page-orders-title")}</h1>
      <form class="filters" onSubmit={search}>
        <Field label={t("page-orders-search")} error={invalid.q}>
          <input
            type="search"
            value={typed.q}
            placeholder={t("page-orders-search-hint")}
            onInput={(e) => setTyped({ ...typed, q: e.currentTarget.value })}
            data-testid="orders-q"
          />
        </Field>
        <div class="filter-row">
          <Field label={t("page-orders-day")} error={invalid.day}>
            <input
              type="date"
              value={typed.day}
              onInput={(e) => setTyped({ ...typed, day: e.currentTarget.value })}
              data-testid="orders-day"
            />
          </Field>
          <Field label={t("page-orders-outcome")}>
            <select
              value={typed.state}
              onChange={(e) => setTyped({ ...typed, state: e.currentTarget.value })}
              data-testid="orders-state"
            >
              <option value="">{t("page-orders-any")}</option>
              {(["success", "failed", "unknown", "submitting"] as const).map((s) => (
                <option key={s} value={s}>
                  {t(`page-state-${s}`)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field label={t("page-orders-user")} error={invalid.user}>
          <input
            type="text"
            inputMode="numeric"
            value={typed.user}
            placeholder={t("page-orders-user-hint")}
            onInput={(e) => setTyped({ ...typed, user: e.currentTarget.value })}
            data-testid="orders-user"
          />
        </Field>
        <div class="actions">
          <button type="submit" class="primary" data-testid="orders-search">
            {t("page-orders-find")}
          </button>
          {filter.day === "" ? null : (
            <>
              <button type="button" class="secondary" onClick={() => void download("csv")} data-testid="orders-csv">
                <Icon name="download" size={18} /> {t("page-orders-csv", { day: words.day(filter.day) })}
              </button>
              <button type="button" class="secondary" onClick={() => void download("xlsx")} data-testid="orders-xlsx">
                <Icon name="download" size={18} /> {t("page-orders-xlsx")}
              </button>
            </>
          )}
        </div>
        {csvError === undefined ? null : <Notice kind="error">{csvError}</Notice>}
      </form>
      <Loaded
        load={
          orders.state === "failed" && orders.failure.status === 422
            ? { state: "ready", data: { orders: [], page: 0, hasMore: false } }
            : orders
        }
        retry={reload}
      >
        {(data) =>
          data.orders.length === 0 ? (
            <Empty text={t("page-orders-none")} />
          ) : (
            <>
              {data.orders.map((o) => (
                <OrderCard key={o.refId} order={o} words={words} />
              ))}
              <Pager page={page} hasMore={data.hasMore} setPage={setPage} words={words} />
            </>
          )
        }
      </Loaded>
    </>
  );
}
