import { DEFAULT_TIER, type Buyer } from "../catalog/catalog.js";
import type { ListedUser, UserList } from "./user-list.js";

/** What a user may do: admins run the shop, staff order on its account, resellers pay from their saldo. */
export type Role = "admin" | "staff" | "reseller";

export type AccessSource = "admin" | "env" | "chat";

export interface AccessEntry {
  userId: number;
  role: Role;
  source: AccessSource;
  /** A reseller's price tier. */
  tier?: string;
  addedBy?: number;
  addedAt?: string;
}

export type AllowOutcome = "allowed" | "changed" | "already" | "from-env";
export type DenyOutcome = "denied" | "not-listed" | "is-admin" | "from-env";

/**
 * Who may order, and as what: ADMIN_IDS, ALLOWED_USER_IDS and RESELLER_IDS from the environment
 * (the floor, never changed from the chat), plus the users admins allow in the chat, as staff or
 * as resellers; and each reseller's price tier.
 */
export function createAccess(deps: {
  users: UserList;
  adminIds: readonly number[];
  allowedUserIds: readonly number[];
  resellerIds?: readonly number[];
  now?: () => Date;
}) {
  const { users } = deps;
  const admins = new Set(deps.adminIds);
  const envStaff = new Set(deps.allowedUserIds);
  const envResellers = new Set(deps.resellerIds ?? []);
  const now = deps.now ?? (() => new Date());
  const envRole = (userId: number): Role | undefined =>
    admins.has(userId) ? "admin" : envResellers.has(userId) ? "reseller" : envStaff.has(userId) ? "staff" : undefined;

  /** The user as a buyer (a reseller with their tier), or undefined for someone who may not order. */
  async function buyerOf(userId: number): Promise<Buyer | undefined> {
    const fromEnv = envRole(userId);
    if (fromEnv === "admin" || fromEnv === "staff") return { role: fromEnv };
    const { user, tier } = await users.lookup(userId);
    const role = fromEnv ?? user?.role;
    if (role === undefined) return undefined;
    return role === "reseller" ? { role, tier: tier ?? DEFAULT_TIER } : { role };
  }

  return {
    isAdmin: (userId: number) => admins.has(userId),
    buyerOf,
    async allow(userId: number, adminId: number, role: "staff" | "reseller" = "staff"): Promise<AllowOutcome> {
      const fromEnv = envRole(userId);
      if (fromEnv !== undefined) return fromEnv === role ? "already" : "from-env";
      const entry: ListedUser = { userId, role, addedBy: adminId, addedAt: now().toISOString() };
      const outcome = await users.put(entry);
      return outcome === "added" ? "allowed" : outcome;
    },
    async deny(userId: number): Promise<DenyOutcome> {
      if (admins.has(userId)) return "is-admin";
      if (envStaff.has(userId) || envResellers.has(userId)) return "from-env";
      return (await users.remove(userId)) ? "denied" : "not-listed";
    },
    /**
     * Sets a reseller's price tier, one of `tiers` (the catalogue's); the old one comes back, or why
     * it was not set.
     */
    async setTier(
      userId: number,
      tier: string,
      tiers: ReadonlySet<string>,
    ): Promise<{ kind: "set"; old: string } | { kind: "not-reseller" } | { kind: "unknown-tier" }> {
      if (!tiers.has(tier)) return { kind: "unknown-tier" };
      const buyer = await buyerOf(userId);
      if (buyer?.role !== "reseller") return { kind: "not-reseller" };
      return { kind: "set", old: (await users.setTier(userId, tier)) ?? DEFAULT_TIER };
    },
    async list(): Promise<AccessEntry[]> {
      const tiers = await users.tiers();
      const tierOf = (userId: number) => tiers.get(userId) ?? DEFAULT_TIER;
      const entries: AccessEntry[] = [...admins].map((userId) => ({
        userId,
        role: "admin" as const,
        source: "admin" as const,
      }));
      for (const userId of envStaff) entries.push({ userId, role: "staff", source: "env" });
      for (const userId of envResellers)
        entries.push({ userId, role: "reseller", source: "env", tier: tierOf(userId) });
      for (const u of await users.all()) {
        if (envRole(u.userId) !== undefined) continue;
        entries.push({
          userId: u.userId,
          role: u.role,
          source: "chat",
          addedBy: u.addedBy,
          addedAt: u.addedAt,
          ...(u.role === "reseller" ? { tier: tierOf(u.userId) } : {}),
        });
      }
      return entries;
    },
  };
}

export type Access = ReturnType<typeof createAccess>;
