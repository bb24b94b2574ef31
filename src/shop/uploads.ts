import type { CatalogChange } from "../catalog/diff.js";
import type { Storage } from "../storage/storage.js";
import type { CatalogSource } from "./shop.js";

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
  state: "draft" | "applied" | "cancelled" | "stale";
  createdAt: string;
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * Uploads waiting for Confirm, for a day. Applying one is made once by the shop's catalogue write
 * (tagged with the upload's id); the state here only tells a later tap what happened.
 */
export function createCatalogUploads(storage: Storage, ttlMs = DAY) {
  const key = (id: string) => `${storage.prefix}catalog-upload:${id}`;
  return {
    /**
     * Keeps an upload, unless one of that id is kept already (a second handling of the update that
     * sent the document): that one is returned as it is. Applying it stays once either way (the
     * catalogue write is tagged with the id).
     */
    async save(upload: CatalogUpload): Promise<CatalogUpload> {
      const kept = await storage.keyv.get<CatalogUpload>(key(upload.id));
      if (kept !== undefined && kept !== null) return kept;
      await storage.keyv.set(key(upload.id), upload, ttlMs);
      return upload;
    },
    async get(id: string): Promise<CatalogUpload | undefined> {
      return (await storage.keyv.get<CatalogUpload>(key(id))) ?? undefined;
    },
    async finish(id: string, state: Exclude<CatalogUpload["state"], "draft">): Promise<void> {
      const upload = await storage.keyv.get<CatalogUpload>(key(id));
      if (upload !== undefined && upload !== null) await storage.keyv.set(key(id), { ...upload, state }, ttlMs);
    },
  };
}

export type CatalogUploads = ReturnType<typeof createCatalogUploads>;
