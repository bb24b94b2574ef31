import { costOf, currentAttempt, paidFromSaldo, viaApi, type OrderRecord } from "../../src/orders/order.js";
import type { ApiFigures, DaySums, ReportLine, ResellerLine } from "../../src/orders/day-figures.js";
import type { Deposit } from "../../src/orders/wallet.js";

/**
 * Sums a day's orders as the ledgers' day figures should (the recount they are held to), from the
 * orders themselves. Money counts only for successful sales: the selling price from the
 * catalogue, the provider price from the provider's `priceRp`, the margin between them.
 */
export function sumOrders(orders: readonly OrderRecord[], deposits: readonly Deposit[] = []): DaySums {
  const byState = { success: 0, failed: 0, unknown: 0, submitting: 0 };
  const products = new Map<string, ReportLine & { seenAt: string }>();
  const users = new Map<string, ReportLine & { seenAt: string }>();
  const providers = new Map<string, ReportLine>();
  const resellers = new Map<number, ResellerLine & { seenAt: string }>();
  const reseller = (userId: number) => {
    let line = resellers.get(userId);
    if (line === undefined) {
      line = {
        userId,
        name: String(userId),
        tier: "",
        count: 0,
        sales: 0,
        provider: 0,
        unpriced: 0,
        deposits: 0,
        seenAt: "",
      };
      resellers.set(userId, line);
    }
    return line;
  };
  for (const d of deposits) if (d.state === "done") reseller(d.resellerId).deposits += d.amount;
  let selling = 0;
  let provider = 0;
  let unpriced = 0;
  let unpricedCount = 0;
  const api: ApiFigures = { orders: 0, sold: 0, revenue: 0, failed: 0 };
  const add = (line: ReportLine, sell: number, cost: number | undefined) => {
    line.count += 1;
    line.selling += sell;
    if (cost === undefined) line.unpriced += sell;
    else line.provider += cost;
  };
  const emptyLine = (key: string) => ({ key, name: "", count: 0, selling: 0, provider: 0, unpriced: 0, seenAt: "" });
  for (const order of orders) {
    if (order.state === "draft" || order.state === "cancelled") continue;
    byState[order.state] += 1;
    if (viaApi(order)) {
      api.orders += 1;
      if (order.state === "failed") api.failed += 1;
      if (order.state === "success") {
        api.sold += 1;
        api.revenue += order.price ?? 0;
      }
    }
    // A provider's line: every order with an outcome, under the provider of its current attempt.
    if (order.state !== "submitting") {
      const name = currentAttempt(order).provider;
      const line = providers.get(name) ?? { key: name, name, count: 0, selling: 0, provider: 0, unpriced: 0 };
      providers.set(name, line);
      line.count += 1;
      if (order.state === "success") {
        line.selling += order.price ?? 0;
        const cost = costOf(order.result);
        if (cost === undefined) line.unpriced += order.price ?? 0;
        else line.provider += cost;
      }
    }
    if (order.state !== "success") continue;
    const sell = order.price ?? 0;
    const cost = costOf(order.result);
    selling += sell;
    if (cost === undefined) {
      unpriced += sell;
      unpricedCount += 1;
    } else provider += cost;
    const when = order.submittedAt ?? order.createdAt;
    const product = products.get(order.productCode) ?? emptyLine(order.productCode);
    products.set(order.productCode, product);
    // A product is named as its newest order names it (a rename in the day shows the new name).
    if (when >= product.seenAt) {
      product.seenAt = when;
      product.name = `${order.productCode} · ${order.productName}`;
    }
    add(product, sell, cost);
    const key = String(order.userId);
    const user = users.get(key) ?? emptyLine(key);
    users.set(key, user);
    // A user is named as their newest order names them: the name they go by now.
    if (when >= user.seenAt) {
      user.seenAt = when;
      user.name = `${order.userName} (${order.userId})`;
    }
    add(user, sell, cost);
    if (paidFromSaldo(order)) {
      const line = reseller(order.userId);
      if (when >= line.seenAt) {
        line.seenAt = when;
        line.name = order.userName;
        line.tier = order.tier ?? "";
      }
      line.count += 1;
      line.sales += sell;
      if (cost === undefined) line.unpriced += sell;
      else line.provider += cost;
    }
  }
  const bySelling = (a: ReportLine, b: ReportLine) => b.selling - a.selling || a.name.localeCompare(b.name);
  return {
    total: byState.success + byState.failed + byState.unknown + byState.submitting,
    byState,
    selling,
    provider,
    unpriced,
    unpricedCount,
    byProduct: [...products.values()].map(({ seenAt: _seenAt, ...line }) => line).sort(bySelling),
    byUser: [...users.values()].map(({ seenAt: _seenAt, ...line }) => line).sort(bySelling),
    byReseller: [...resellers.values()]
      .map(({ seenAt: _seenAt, ...line }) => line)
      .sort((a, b) => b.sales - a.sales || b.deposits - a.deposits || a.userId - b.userId),
    byProvider: [...providers.values()].sort(bySelling),
    api,
  };
}
