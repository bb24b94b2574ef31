import { useState } from "preact/hooks";
import { OrderCard } from "../order-card.js";
import { Pager } from "../resellers/resellers.js";
import { Empty, Loaded, useApp, useLoad } from "../ui.js";

/** A reseller's own orders, newest first. */
export function MyOrdersPage() {
  const { api, words } = useApp();
  const [page, setPage] = useState(0);
  const [orders, reload] = useLoad(() => api.myOrders(page), [page]);
  return (
    <>
      <h1>{words.t("page-my-orders-title")}</h1>
      <Loaded load={orders} retry={reload}>
        {(data) =>
          data.orders.length === 0 ? (
            <Empty text={words.t("page-my-orders-none")} />
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
