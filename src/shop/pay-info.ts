import type { Storage } from "../storage/storage.js";

/**
 * How resellers pay the shop for a deposit: a text (bank, account number, name; or "scan the
 * QRIS") and optionally an image (the shop's QRIS), kept as Telegram's file id. Shown with every
 * deposit request; without them resellers cannot ask for one.
 */
export interface PayInfo {
  text: string;
  /** A photo's file id (Telegram keeps the bytes). */
  photo?: string;
  by: number;
  at: number;
}

/** The longest text the instructions may have (a caption holds 1,024 characters). */
export const MAX_PAY_INFO = 800;

export interface PayInfoStore {
  get(): Promise<PayInfo | undefined>;
  set(info: PayInfo): Promise<void>;
  /** Removes them; whether there were any. */
  clear(): Promise<boolean>;
}

/** Kept in one key (`payinfo`, JSON) so that every process reads the same at once. */
export function createPayInfoStore(storage: Storage): PayInfoStore {
  if (storage.kind === "redis") {
    const { redis, prefix } = storage;
    const key = `${prefix}payinfo`;
    return {
      async get() {
        const raw = await redis.get(key);
        return raw === null ? undefined : (JSON.parse(raw) as PayInfo);
      },
      set: async (info) => void (await redis.set(key, JSON.stringify(info))),
      clear: async () => (await redis.del(key)) > 0,
    };
  }
  let kept: PayInfo | undefined;
  return {
    get: async () => kept,
    set: async (info) => void (kept = { ...info }),
    async clear() {
      const had = kept !== undefined;
      kept = undefined;
      return had;
    },
  };
}
