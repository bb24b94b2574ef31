import type { Store } from "../storage/store.js";

export type AccessSource = "admin" | "env" | "chat";

export interface AccessEntry {
  userId: number;
  source: AccessSource;
  addedBy?: number;
  addedAt?: string;
}

export type DenyOutcome = "denied" | "not-listed" | "is-admin" | "from-env";

/**
 * Who may order: ADMIN_IDS and ALLOWED_USER_IDS from the environment (the floor, never removed
 * from the chat), plus users admins allow in the chat, kept in a Redis set so a change is
 * effective at once in every process.
 */
export function createAccess(deps: { store: Store; adminIds: readonly number[]; allowedUserIds: readonly number[]; now?: () => Date }) {
  const { store } = deps;
  const admins = new Set(deps.adminIds);
  const envAllowed = new Set(deps.allowedUserIds);
  const setKey = store.key("allowed-users");
  const metaKey = (userId: number) => store.key("allowed-user", String(userId));
  const now = deps.now ?? (() => new Date());

  return {
    isAdmin: (userId: number) => admins.has(userId),
    async mayOrder(userId: number): Promise<boolean> {
      if (admins.has(userId) || envAllowed.has(userId)) return true;
      return store.atomic.setHas(setKey, String(userId));
    },
    async allow(userId: number, adminId: number): Promise<"allowed" | "already"> {
      if (admins.has(userId) || envAllowed.has(userId) || (await store.atomic.setHas(setKey, String(userId)))) return "already";
      await store.keyv.set(metaKey(userId), { addedBy: adminId, addedAt: now().toISOString() });
      await store.atomic.setAdd(setKey, String(userId));
      return "allowed";
    },
    async deny(userId: number): Promise<DenyOutcome> {
      if (admins.has(userId)) return "is-admin";
      if (envAllowed.has(userId)) return "from-env";
      if (!(await store.atomic.setHas(setKey, String(userId)))) return "not-listed";
      await store.atomic.setRemove(setKey, String(userId));
      await store.keyv.delete(metaKey(userId));
      return "denied";
    },
    async list(): Promise<AccessEntry[]> {
      const entries: AccessEntry[] = [...admins].map((userId) => ({ userId, source: "admin" as const }));
      for (const userId of envAllowed) if (!admins.has(userId)) entries.push({ userId, source: "env" });
      for (const member of await store.atomic.setMembers(setKey)) {
        const userId = Number(member);
        if (admins.has(userId) || envAllowed.has(userId)) continue;
        const meta = await store.keyv.get<{ addedBy: number; addedAt: string }>(metaKey(userId));
        entries.push({ userId, source: "chat", ...(meta ?? {}) });
      }
      return entries;
    },
  };
}

export type Access = ReturnType<typeof createAccess>;
