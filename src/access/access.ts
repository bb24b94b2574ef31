import type { ListedUser, UserList } from "./user-list.js";

/** What a user may do: admins run the shop, staff order on its account. */
export type Role = "admin" | "staff";

export type AccessSource = "admin" | "env" | "chat";

export interface AccessEntry {
  userId: number;
  role: Role;
  source: AccessSource;
  addedBy?: number;
  addedAt?: string;
}

export type DenyOutcome = "denied" | "not-listed" | "is-admin" | "from-env";

/**
 * Who may order: ADMIN_IDS and ALLOWED_USER_IDS from the environment (the floor, never removed
 * from the chat), plus the users admins allow in the chat.
 */
export function createAccess(deps: {
  users: UserList;
  adminIds: readonly number[];
  allowedUserIds: readonly number[];
  now?: () => Date;
}) {
  const { users } = deps;
  const admins = new Set(deps.adminIds);
  const envAllowed = new Set(deps.allowedUserIds);
  const now = deps.now ?? (() => new Date());

  return {
    isAdmin: (userId: number) => admins.has(userId),
    /** The user's role, or undefined for someone who may not order. */
    async roleOf(userId: number): Promise<Role | undefined> {
      if (admins.has(userId)) return "admin";
      if (envAllowed.has(userId)) return "staff";
      return (await users.get(userId)) === undefined ? undefined : "staff";
    },
    async allow(userId: number, adminId: number): Promise<"allowed" | "already"> {
      if (admins.has(userId) || envAllowed.has(userId)) return "already";
      const entry: ListedUser = { userId, addedBy: adminId, addedAt: now().toISOString() };
      return (await users.add(entry)) ? "allowed" : "already";
    },
    async deny(userId: number): Promise<DenyOutcome> {
      if (admins.has(userId)) return "is-admin";
      if (envAllowed.has(userId)) return "from-env";
      return (await users.remove(userId)) ? "denied" : "not-listed";
    },
    async list(): Promise<AccessEntry[]> {
      const entries: AccessEntry[] = [...admins].map((userId) => ({
        userId,
        role: "admin" as const,
        source: "admin" as const,
      }));
      for (const userId of envAllowed) if (!admins.has(userId)) entries.push({ userId, role: "staff", source: "env" });
      for (const u of await users.all()) {
        if (admins.has(u.userId) || envAllowed.has(u.userId)) continue;
        entries.push({ userId: u.userId, role: "staff", source: "chat", addedBy: u.addedBy, addedAt: u.addedAt });
      }
      return entries;
    },
  };
}

export type Access = ReturnType<typeof createAccess>;
