import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAccess } from "../../src/access/access.js";
import { createUserList, type UserList } from "../../src/access/user-list.js";
import { createStorage } from "../../src/storage/storage.js";
import { redisStorage } from "../helpers/redis.js";

/** The tiers the catalogue names. */
const TIERS: ReadonlySet<string> = new Set(["reseller", "gold"]);

const implementations: Array<[string, () => Promise<{ users: () => UserList; cleanup: () => Promise<void> }>]> = [
  [
    "Redis",
    async () => {
      const { storage, cleanup } = await redisStorage("access");
      // Each call is a separate "process" on the same Redis.
      return { users: () => createUserList(storage), cleanup };
    },
  ],
  [
    "memory",
    async () => {
      const storage = await createStorage({ redisUrl: undefined, prefix: "m:" });
      const one = createUserList(storage);
      return { users: () => one, cleanup: async () => {} };
    },
  ],
];

for (const [name, make] of implementations) {
  describe(`who may order: ${name}`, () => {
    let users: () => UserList;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ users, cleanup } = await make()));
    afterEach(() => cleanup());

    it("when an admin allows a user in one process, then another process lets them order at once, and /deny takes it back", async () => {
      const one = createAccess({ users: users(), adminIds: [1], allowedUserIds: [2] });
      const other = createAccess({ users: users(), adminIds: [1], allowedUserIds: [2] });
      expect(await other.buyerOf(3)).toBeUndefined();
      expect(await one.allow(3, 1)).toBe("allowed");
      expect(await other.buyerOf(3)).toEqual({ role: "staff" });
      expect(await one.allow(3, 1)).toBe("already");
      expect(await other.deny(3)).toBe("denied");
      expect(await one.buyerOf(3)).toBeUndefined();
    });

    it("when two admins allow the same user at once, then they are listed once", async () => {
      const access = createAccess({ users: users(), adminIds: [1, 9], allowedUserIds: [] });
      const outcomes = await Promise.all([access.allow(5, 1), access.allow(5, 9), access.allow(5, 1)]);
      expect(outcomes.filter((o) => o === "allowed")).toHaveLength(1);
      expect((await access.list()).filter((e) => e.userId === 5)).toHaveLength(1);
    });

    it("when a user is allowed as a reseller, then they buy in tier reseller until an admin sets another; a role can change", async () => {
      const access = createAccess({ users: users(), adminIds: [1], allowedUserIds: [2], resellerIds: [3] });
      expect(await access.buyerOf(3)).toEqual({ role: "reseller", tier: "reseller" });
      expect(await access.allow(4, 1, "reseller")).toBe("allowed");
      expect(await access.buyerOf(4)).toEqual({ role: "reseller", tier: "reseller" });
      expect(await access.setTier(4, "gold", TIERS)).toEqual({ kind: "set", old: "reseller" });
      expect(await access.setTier(3, "gold", TIERS)).toEqual({ kind: "set", old: "reseller" });
      expect(await access.buyerOf(3)).toEqual({ role: "reseller", tier: "gold" });
      expect(await access.setTier(2, "gold", TIERS)).toEqual({ kind: "not-reseller" });
      expect(await access.setTier(3, "platinum", TIERS)).toEqual({ kind: "unknown-tier" });
      expect(await access.buyerOf(3)).toEqual({ role: "reseller", tier: "gold" });
      expect(await access.allow(4, 1, "staff")).toBe("changed");
      expect(await access.buyerOf(4)).toEqual({ role: "staff" });
      expect(await access.allow(3, 1, "staff")).toBe("from-env");
      expect(await access.allow(2, 1, "reseller")).toBe("from-env");
      expect(
        (await access.list()).filter((e) => e.role === "reseller").map((e) => [e.userId, e.tier, e.source]),
      ).toEqual([[3, "gold", "env"]]);
    });

    it("when /deny names an env entry, then the env lists stay the floor and /users says where each right comes from", async () => {
      const access = createAccess({ users: users(), adminIds: [1], allowedUserIds: [2] });
      expect(await access.deny(1)).toBe("is-admin");
      expect(await access.deny(2)).toBe("from-env");
      expect(await access.deny(9)).toBe("not-listed");
      expect(await access.buyerOf(1)).toEqual({ role: "admin" });
      expect(await access.buyerOf(2)).toEqual({ role: "staff" });
      await access.allow(5, 1);
      expect((await access.list()).map((e) => [e.userId, e.role, e.source, e.addedBy])).toEqual([
        [1, "admin", "admin", undefined],
        [2, "staff", "env", undefined],
        [5, "staff", "chat", 1],
      ]);
    });
  });
}
