import type {
  ApiError,
  CatalogApplied,
  CatalogCheck,
  CatalogFile,
  CatalogView,
  DepositDone,
  DepositView,
  OrderPage,
  OrderView,
  PriceList,
  Resellers,
  Session,
  Settled,
  Statement,
  Today,
  WalletView,
} from "../server/mini-app/api-types.js";

/** A call that did not give what was asked: the HTTP status and what the bot said (or a network failure). */
export class ApiFailure extends Error {
  override name = "ApiFailure";
  constructor(
    readonly status: number,
    readonly body: ApiError & Record<string, unknown>,
  ) {
    super(`${status} ${body.error}`);
  }
}

/**
 * The page's one way to the bot: `/app/api/…` relative to the page (it works behind a proxy that
 * serves the bot under a path), every call carrying Telegram's init data as it came.
 */
export function createApi(initData: string) {
  async function call<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`api/${path}`, {
        method: init.method ?? (init.body === undefined ? "GET" : "POST"),
        headers: {
          authorization: `tma ${initData}`,
          ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    } catch {
      throw new ApiFailure(0, { error: "internal" });
    }
    const body = (await res.json().catch(() => ({ error: "internal" }))) as unknown;
    if (!res.ok) throw new ApiFailure(res.status, body as ApiError & Record<string, unknown>);
    return body as T;
  }
  const query = (params: Record<string, string | number | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
    const s = q.toString();
    return s === "" ? "" : `?${s}`;
  };
  return {
    session: () => call<Session>("session"),
    today: () => call<Today>("admin/today"),
    catalog: () => call<CatalogView>("admin/catalog"),
    checkCatalog: (base: number, catalog: CatalogFile) =>
      call<CatalogCheck>("admin/catalog/check", { body: { base, catalog } }),
    applyCatalog: (base: number, catalog: CatalogFile, requestId: string) =>
      call<CatalogApplied>("admin/catalog/apply", { body: { base, catalog, requestId } }),
    pending: () => call<{ orders: OrderView[] }>("admin/pending"),
    settle: (refId: string, verdict: { outcome: "success"; sn: string } | { outcome: "failed"; reason: string }) =>
      call<Settled>(`admin/pending/${encodeURIComponent(refId)}/settle`, { body: verdict }),
    resellers: () => call<Resellers>("admin/resellers"),
    reseller: (userId: number, page = 0) => call<Statement>(`admin/resellers/${userId}${query({ page })}`),
    prepareDeposit: (userId: number, amount: number, note: string, requestId: string) =>
      call<DepositView>(`admin/resellers/${userId}/deposits`, { body: { amount, note, requestId } }),
    confirmDeposit: (id: string) =>
      call<DepositDone>(`admin/deposits/${encodeURIComponent(id)}/confirm`, { method: "POST" }),
    cancelDeposit: (id: string) =>
      call<{ deposit: DepositView }>(`admin/deposits/${encodeURIComponent(id)}/cancel`, { method: "POST" }),
    setTier: (userId: number, tier: string) =>
      call<{ old: string; tier: string }>(`admin/resellers/${userId}/tier`, { body: { tier } }),
    orders: (filter: { q?: string; day?: string; user?: string; state?: string; page?: number }) =>
      call<OrderPage>(`admin/orders${query(filter)}`),
    /** The day's CSV as a file the browser saves (fetched with the init data, then handed over). */
    async ordersCsv(day: string): Promise<Blob> {
      const res = await fetch(`api/admin/orders.csv${query({ day })}`, {
        headers: { authorization: `tma ${initData}` },
      });
      if (!res.ok) throw new ApiFailure(res.status, { error: "internal" });
      return res.blob();
    },
    wallet: () => call<WalletView>("reseller/wallet"),
    statement: (page = 0) => call<Statement>(`reseller/statement${query({ page })}`),
    myOrders: (page = 0) => call<OrderPage>(`reseller/orders${query({ page })}`),
    prices: () => call<PriceList>("reseller/prices"),
  };
}

export type Api = ReturnType<typeof createApi>;
