import { tiersOf, toCatalogJson } from "../../catalog/catalog.js";
import type { OrderRecord } from "../../orders/order.js";
import type { ShopState } from "../../shop/shop.js";
import type { CatalogFile, CatalogView, OrderView } from "./api-types.js";

/** An order for the page: the provider's side (trx id, its price) and who ordered only for an admin. */
export function orderView(o: OrderRecord, forAdmin: boolean): OrderView {
  const r = o.result ?? {};
  const view: OrderView = {
    refId: o.refId,
    state: o.state,
    createdAt: o.createdAt,
    gameName: o.gameName,
    productCode: o.productCode,
    productName: o.productName,
    playerId: o.playerId,
    price: o.price,
  };
  if (o.submittedAt !== undefined) view.submittedAt = o.submittedAt;
  if (o.finishedAt !== undefined || o.settledAt !== undefined) view.finishedAt = o.settledAt ?? o.finishedAt!;
  if (r.destinationName !== undefined) view.playerName = r.destinationName;
  if (o.state === "success" && r.sn !== undefined) view.sn = r.sn;
  if (o.state === "failed" || o.state === "unknown") {
    view.reason = r.reason ?? "interrupted";
    if (r.errorCode !== undefined) view.errorCode = r.errorCode;
    if (r.errorMsg !== undefined) view.errorMessage = r.errorMsg;
  }
  if (forAdmin) {
    view.userId = o.userId;
    view.userName = o.userName;
    view.role = o.role ?? "staff";
    if (r.trxId !== undefined) view.trxId = r.trxId;
    if (r.productDetail?.priceRp !== undefined) view.providerPrice = Math.round(r.productDetail.priceRp);
    if (o.settledBy !== undefined) view.settledBy = o.settledBy;
  }
  return view;
}

/** The catalogue in use as the page edits it: the file's shape and the version it was read at. */
export function catalogView(state: ShopState): CatalogView {
  const source = state.source;
  return {
    version: source.kind === "file" ? 0 : source.version,
    ...(source.kind === "chat" ? { editedBy: source.by, editedAt: source.at } : {}),
    catalog: toCatalogJson(state.catalog) as CatalogFile,
    tiers: [...tiersOf(state.catalog)].sort(),
  };
}
