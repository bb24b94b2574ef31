import type { Catalog } from "../../src/catalog/catalog.js";
import type { DraftRequest } from "../../src/orders/order-service.js";
import type { OrderRecord } from "../../src/orders/order.js";

/** Sari (staff, Indonesian) orders 86 Diamonds of Mobile Legends for player 12345678(1234), at Rp 20,000. */
const SARI = {
  chatId: 501,
  userId: 501,
  userName: "Sari",
  lang: "id",
  playerId: "12345678(1234)",
} as const;

const ML86 = { gameName: "Mobile Legends", productCode: "ML86", productName: "86 Diamonds", price: 20000 };

/** The catalogue the service is given in these tests: ML86 at 20,000, reseller tier 19,000. */
export const TEST_CATALOG: Catalog = {
  games: [
    {
      name: "Mobile Legends",
      destination: { pattern: "^[0-9]{6,12}\\([0-9]{4,5}\\)$", example: "12345678(1234)" },
      products: [{ code: "ML86", name: "86 Diamonds", price: 20000, prices: { reseller: 19000 }, disabled: false }],
    },
  ],
};

let seq = 0;

/** A draft as the ledger stores it (a unique ref id each time), for the ledger's own tests. */
export function draft(over: Partial<OrderRecord> = {}): OrderRecord {
  seq += 1;
  return {
    refId: `TGTEST${Date.now().toString(36).toUpperCase()}${String(seq).padStart(5, "0")}`,
    ...SARI,
    ...ML86,
    createdAt: new Date().toISOString(),
    state: "draft",
    ...over,
  };
}

/** The same order as a chat asks the order service for it. */
export function draftRequest(over: Partial<DraftRequest> = {}): DraftRequest {
  return { ...SARI, buyer: { role: "staff" }, productCode: "ML86", ...over };
}
