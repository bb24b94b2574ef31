import type { CatalogChange } from "../catalog/diff.js";
import type { Storage } from "../storage/storage.js";
import type { CatalogSource } from "./shop.js";

/** A change of the catalogue shown with Confirm: what became of it. */
export type PendingState = "draft" | "applied" | "cancelled" | "stale";

/** An edited catalogue an admin sent, checked and shown as a diff, waiting for Confirm. */
export interface CatalogUpload {
  id: string;
  adminId: number;
  /** The catalogue version the diff was made against: Confirm applies only over that one. */
  base: CatalogSource;
  /** The checked catalogue, in the file's JSON form. */
  catalog: unknown;
  /** The document's name and the diff as it was shown (a second handling shows the same). */
  name?: string;
  changes?: CatalogChange[];
  state: PendingState;
  createdAt: string;
}

/**
 * A new price that needed a second look (below the provider's last price, or far from the price it
 * replaces), shown with its warning and Confirm, applied once when confirmed.
 */
export interface PriceChange {
  id: string;
  adminId: number;
  code: string;
  /** The tier whose price changes (absent: the selling price); `newTier`: the admin asked to create it. */
  tier?: string;
  newTier?: boolean;
  amount: number;
  /** The price it replaces, and the provider price last seen, when the summary was made. */
  from?: number;
  providerPrice?: number;
  /** Tiers that would pay more than a walk-in customer once it applies: a selling price below their own. */
  tierTraps?: Array<{ tier: string; tierPrice: number; retail: number }>;
  state: PendingState;
  createdAt: string;
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * Changes of the catalogue waiting for Confirm, for a day. Applying one is made once by the shop's
 * catalogue write (tagged with the change's id); the state here only tells a later tap what
 * happened.
 */
function createPendingChanges<T extends { id: string; state: PendingState }>(
  storage: Storage,
  name: string,
  ttlMs = DAY,
) {
  const key = (id: string) => `${storage.prefix}${name}:${id}`;
  return {
    /**
     * Keeps a change, unless one of that id is kept already (a second handling of the update that
     * asked for it): that one is returned as it is.
     */
    async save(change: T): Promise<T> {
      const kept = await storage.keyv.get<T>(key(change.id));
      if (kept !== undefined && kept !== null) return kept;
      await storage.keyv.set(key(change.id), change, ttlMs);
      return change;
    },
    async get(id: string): Promise<T | undefined> {
      return (await storage.keyv.get<T>(key(id))) ?? undefined;
    },
    async finish(id: string, state: Exclude<PendingState, "draft">): Promise<void> {
      const change = await storage.keyv.get<T>(key(id));
      if (change !== undefined && change !== null) await storage.keyv.set(key(id), { ...change, state }, ttlMs);
    },
  };
}

export const createCatalogUploads = (storage: Storage, ttlMs = DAY) =>
  createPendingChanges<CatalogUpload>(storage, "catalog-upload", ttlMs);
export const createPriceChanges = (storage: Storage, ttlMs = DAY) =>
  createPendingChanges<PriceChange>(storage, "price-change", ttlMs);

export type CatalogUploads = ReturnType<typeof createCatalogUploads>;
export type PriceChanges = ReturnType<typeof createPriceChanges>;
