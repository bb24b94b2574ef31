import { hc } from "hono/client";
import type { MiniAppApi } from "../server/mini-app/api.js";
import type { ApiError } from "../server/mini-app/errors.js";
import type { CatalogFile } from "../server/mini-app/views.js";

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

/** What a route answers when it does what was asked (its 2xx answers), as the route's type says. */
type Answer<R> = R extends { ok: true; json(): Promise<infer T> } ? T : never;

/** A call's answer when it succeeded; anything else (a refusal, no network) as an ApiFailure. */
async function answer<R extends { ok: boolean; status: number; json(): Promise<unknown> }>(
  call: Promise<R>,
): Promise<Answer<R>> {
  let res: R;
  try {
    res = await call;
  } catch {
    throw new ApiFailure(0, { error: "internal" });
  }
  const body = await res.json().catch(() => ({ error: "internal" }));
  if (!res.ok) throw new ApiFailure(res.status, body as ApiError & Record<string, unknown>);
  return body as Answer<R>;
}

/** `?page=` as the routes read it (none for the first page). */
const pageOf = (page: number) => (page === 0 ? {} : { page: String(page) });

/**
 * The page's one way to the bot: Hono's typed client of the routes (`MiniAppApi`), so a call the
 * routes do not answer, or an answer read wrongly, does not compile. Paths are `api/…` relative to
 * the page (it works behind a proxy that serves the bot under a path), every call carrying
 * Telegram's init data as it came.
 */
export function createApi(initData: string) {
  const headers = { authorization: `tma ${initData}` };
  const api = hc<MiniAppApi>("api", { headers });
  const { admin, reseller } = api;
  const id = (value: string | number) => ({ param: { id: encodeURIComponent(String(value)) } });
  return {
    session: () => answer(api.session.$get()),
    today: () => answer(admin.today.$get()),
    top: (period: Period, day?: string) => answer(admin.top.$get({ query: { period, ...(day ? { day } : {}) } })),
    compare: () => answer(admin.compare.$get()),
    hours: (period: Period, day?: string) => answer(admin.hours.$get({ query: { period, ...(day ? { day } : {}) } })),
    catalog: () => answer(admin.catalog.$get()),
    checkCatalog: (base: number, catalog: CatalogFile) =>
      answer(admin.catalog.check.$post({ json: { base, catalog } })),
    applyCatalog: (base: number, catalog: CatalogFile, requestId: string) =>
      answer(admin.catalog.apply.$post({ json: { base, catalog, requestId } })),
    pending: () => answer(admin.pending.$get()),
    settle: (refId: string, verdict: { outcome: "success"; sn: string } | { outcome: "failed"; reason: string }) =>
      answer(admin.pending[":refId"].settle.$post({ param: { refId: encodeURIComponent(refId) }, json: verdict })),
    depositRequests: () => answer(admin["deposit-requests"].$get()),
    /** A request's proof as the bot serves it (an image, or a PDF), fetched with the init data. */
    async proof(requestId: string): Promise<Blob> {
      const res = await admin["deposit-requests"][":id"].proof.$get(id(requestId));
      if (!res.ok) throw new ApiFailure(res.status, { error: "internal" });
      return res.blob();
    },
    approveRequest: (requestId: string, amount?: number) =>
      answer(
        admin["deposit-requests"][":id"].approve.$post({
          ...id(requestId),
          json: amount === undefined ? {} : { amount },
        }),
      ),
    rejectRequest: (requestId: string, reason?: string) =>
      answer(
        admin["deposit-requests"][":id"].reject.$post({
          ...id(requestId),
          json: reason === undefined ? {} : { reason },
        }),
      ),
    setPayInfo: (text: string) => answer(admin["deposit-requests"].payinfo.$put({ json: { text } })),
    resellers: () => answer(admin.resellers.$get()),
    reseller: (userId: number, page = 0) => answer(admin.resellers[":id"].$get({ ...id(userId), query: pageOf(page) })),
    prepareDeposit: (userId: number, amount: number, note: string, requestId: string) =>
      answer(admin.resellers[":id"].deposits.$post({ ...id(userId), json: { amount, note, requestId } })),
    confirmDeposit: (depositId: string) => answer(admin.deposits[":id"].confirm.$post(id(depositId))),
    cancelDeposit: (depositId: string) => answer(admin.deposits[":id"].cancel.$post(id(depositId))),
    setTier: (userId: number, tier: string) =>
      answer(admin.resellers[":id"].tier.$post({ ...id(userId), json: { tier } })),
    /** A new API key for a reseller (access on): the bot sends it to the admin's chat; the answer never holds it. */
    apiOn: (userId: number, requestId: string) =>
      answer(admin.resellers[":id"].api.on.$post({ ...id(userId), json: { requestId } })),
    apiOff: (userId: number) => answer(admin.resellers[":id"].api.off.$post(id(userId))),
    /** A reseller's callback URL, or null to remove it. */
    setApiCallback: (userId: number, url: string | null) =>
      answer(admin.resellers[":id"].api.callback.$put({ ...id(userId), json: { url } })),
    /** A partner's last callback attempts, newest first. */
    apiDeliveries: (userId: number) => answer(admin.resellers[":id"].api.deliveries.$get(id(userId))),
    /** Owes an order's callback to its partner again now (`shopRefId`: the shop's ref id of the order). */
    sendCallbackAgain: (userId: number, shopRefId: string) =>
      answer(
        admin.resellers[":id"].api.deliveries[":ref"].again.$post({
          param: { id: encodeURIComponent(String(userId)), ref: encodeURIComponent(shopRefId) },
        }),
      ),
    orders: (filter: { q?: string; day?: string; user?: string; state?: string; page?: number }) => {
      const query: Record<string, string> = {};
      for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== "") query[k] = String(v);
      return answer(admin.orders.$get({ query }));
    },
    /** The day's CSV as a file the browser saves (fetched with the init data, then handed over). */
    async ordersCsv(day: string): Promise<Blob> {
      const res = await admin["orders.csv"].$get({ query: { day } });
      if (!res.ok) throw new ApiFailure(res.status, { error: "internal" });
      return res.blob();
    },
    /** Ordering from the page (an admin's or a reseller's own orders: the same calls under their role). */
    order: (role: "admin" | "reseller") => {
      const order = role === "admin" ? admin.order : reseller.order;
      const ref = (refId: string) => ({ param: { refId: encodeURIComponent(refId) } });
      return {
        catalog: () => answer(order.catalog.$get()),
        draft: (sent: { requestId: string; code: string; playerId: string }) =>
          answer(order.draft.$post({ json: sent })),
        confirm: (refId: string) => answer(order[":refId"].confirm.$post(ref(refId))),
        cancel: (refId: string) => answer(order[":refId"].cancel.$post(ref(refId))),
        get: (refId: string) => answer(order[":refId"].$get(ref(refId))),
      };
    },
    /** A successful order's receipt picture (admins: any order; resellers: their own), fetched with the init data. */
    async receipt(role: "admin" | "reseller", refId: string): Promise<Blob> {
      const route = role === "admin" ? admin.receipt : reseller.receipt;
      const res = await route[":refId"].$get({ param: { refId: encodeURIComponent(refId) } });
      if (!res.ok) throw new ApiFailure(res.status, { error: "internal" });
      return res.blob();
    },
    /** The day's orders as an Excel workbook, handed to the browser like the CSV. */
    async ordersXlsx(day: string): Promise<Blob> {
      const res = await admin["orders.xlsx"].$get({ query: { day } });
      if (!res.ok) throw new ApiFailure(res.status, { error: "internal" });
      return res.blob();
    },
    wallet: () => answer(reseller.wallet.$get()),
    statement: (page = 0) => answer(reseller.statement.$get({ query: pageOf(page) })),
    myOrders: (page = 0) => answer(reseller.orders.$get({ query: pageOf(page) })),
    prices: () => answer(reseller.prices.$get()),
    myRequests: () => answer(reseller["deposit-requests"].$get()),
    askDeposit: (amount: number, requestId: string) =>
      answer(reseller["deposit-requests"].$post({ json: { amount, requestId } })),
    cancelRequest: (requestId: string) => answer(reseller["deposit-requests"][":id"].cancel.$post(id(requestId))),
    /**
     * The proof of a transfer, uploaded from the page (the bot keeps it in the reseller's chat): the
     * file itself is the body, so the bot knows its size before it reads a byte.
     */
    sendProof: (requestId: string, file: File) =>
      answer(reseller["deposit-requests"][":id"].proof.$post(id(requestId), { init: { body: file } })),
  };
}

/** The periods the owner's questions are asked for. */
export type Period = "day" | "week" | "month";

/** The page's calls. */
export type Api = ReturnType<typeof createApi>;

/** What a call of the page's API answers when it succeeds. */
export type AnswerOf<K extends keyof Api> = Awaited<ReturnType<Api[K]>>;
