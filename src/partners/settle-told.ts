import type { PartnerStore } from "../access/partners.js";
import { viaApi, type OrderRecord } from "../orders/order.js";

/**
 * Who learns of an order an admin settled: the user in their chat, or, for an H2H order, the
 * partner's system by a callback when it has a callback URL, else nobody until it asks the
 * order's status. What the admin is told, truthfully.
 */
export type SettleTold = "user" | "callback" | "nothing";

export async function settleTold(partners: Pick<PartnerStore, "get">, order: OrderRecord): Promise<SettleTold> {
  if (!viaApi(order)) return "user";
  const partner = await partners.get(order.userId);
  return partner?.callbackUrl === undefined ? "nothing" : "callback";
}
