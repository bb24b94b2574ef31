import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createDepositRequestStore,
  type DepositRequest,
  type DepositRequestStore,
} from "../../src/deposits/request-store.js";
import { createStorage } from "../../src/storage/storage.js";
import { redisStorage } from "../helpers/redis.js";

type StoreFactory = () => Promise<{ store: DepositRequestStore; cleanup: () => Promise<void> }>;

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const T0 = Date.parse("2026-11-26T03:00:00Z");
const D = "2026-11-26";
const RULES = { firstCode: 500, maxOpen: 3, reuseMs: 7 * DAY, day: D };
let seq = 0;

/**
 * What every deposit request store promises, on each engine (Redis and memory): exact amounts never
 * shared by two open requests (nor within 7 days of a close), three open per reseller, one proof,
 * one decision whoever presses how often, and expiry only of a request still waiting for its proof.
 */
function describeStoreContract(name: string, factory: StoreFactory): void {
  describe(`the deposit request store: ${name}`, () => {
    let store: DepositRequestStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ store, cleanup } = await factory()));
    afterEach(() => cleanup());

    const create = async (resellerId: number, amount: number, at = T0, rules = RULES) => {
      seq += 1;
      const r = await store.create(
        { id: `DRTEST${seq}`, resellerId, chatId: resellerId, lang: "en", amount, createdAt: at, expiresAt: at + DAY },
        rules,
      );
      return r;
    };
    const made = async (resellerId: number, amount: number, at = T0): Promise<DepositRequest> => {
      const r = await create(resellerId, amount, at);
      if (r.kind !== "made") throw new Error(`not made: ${r.kind}`);
      return r.request;
    };
    const proof = (id: string, resellerId: number, unique = `u-${id}`, at = T0 + HOUR) =>
      store.attachProof(id, resellerId, { fileId: `f-${unique}`, fileUniqueId: unique, kind: "photo", at }, D);

    it("gives each open request of an amount its own code, and says so when all 999 are taken", async () => {
      const exacts = new Set<number>();
      // Three open requests per reseller: 333 resellers fill the codes of one amount.
      for (let i = 0; i < 333; i++)
        for (let j = 0; j < 3; j++) {
          const r = await made(10_000 + i, 100_000);
          expect(r.code).toBeGreaterThanOrEqual(1);
          expect(r.code).toBeLessThanOrEqual(999);
          expect(r.exact).toBe(100_000 + r.code);
          exacts.add(r.exact);
        }
      expect(exacts.size).toBe(999);
      expect((await create(20_000, 100_000)).kind).toBe("no-code");
      // Another amount is free.
      expect((await create(20_000, 200_000)).kind).toBe("made");
    });

    it("keeps a closed request's exact amount for 7 days, then gives it again", async () => {
      const first = await made(1, 50_000);
      expect(first.code).toBe(500);
      // Expired unpaid: a transfer may still come late, and is found by its exact amount.
      expect((await store.expireDue(first.expiresAt, D)).map((r) => r.id)).toEqual([first.id]);
      const soon = await create(2, 50_000, T0 + 6 * DAY);
      expect(soon.kind === "made" && soon.request.code).toBe(501);
      const later = await create(3, 50_000, first.expiresAt + 7 * DAY);
      expect(later.kind === "made" && later.request.code).toBe(500);
    });

    it("when a reseller cancels a request before its proof, then another reseller gets its exact amount at once, and that reseller does not", async () => {
      const first = await made(1, 50_000);
      expect((await store.cancel(first.id, 1, T0 + 1000, D)).kind).toBe("cancelled");
      const again = await create(1, 50_000, T0 + 2000);
      expect(again.kind === "made" && again.request.exact).toBe(50_501);
      const other = await create(2, 50_000, T0 + 3000);
      expect(other.kind === "made" && other.request.exact).toBe(50_500);
    });

    it("when a reseller asked 10 requests in the last hour, then the 11th is refused until the hour of the first is over", async () => {
      const rules = { ...RULES, maxPerHour: 10 };
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const r = await create(4, 20_000 + i, T0 + i * 60_000, rules);
        if (r.kind !== "made") throw new Error(`not made: ${r.kind}`);
        ids.push(r.request.id);
        await store.cancel(r.request.id, 4, T0 + i * 60_000, D);
      }
      expect(await create(4, 30_000, T0 + 30 * 60_000, rules)).toEqual({ kind: "too-soon", until: T0 + HOUR });
      // The same request made again (a redelivered update) is the one made, not an 11th.
      const redo = await store.create(
        { id: ids[9]!, resellerId: 4, chatId: 4, lang: "en", amount: 20_009, createdAt: T0, expiresAt: T0 + DAY },
        rules,
      );
      expect(redo.kind === "made" && redo.request.id).toBe(ids[9]);
      // Another reseller is not limited by it; and the hour of the first over, one more.
      expect((await create(5, 30_000, T0 + 30 * 60_000, rules)).kind).toBe("made");
      expect(await create(4, 30_000, T0 + HOUR - 1, rules)).toEqual({ kind: "too-soon", until: T0 + HOUR });
      expect((await create(4, 30_000, T0 + HOUR, rules)).kind).toBe("made");
      expect(await create(4, 30_000, T0 + HOUR + 1, rules)).toEqual({ kind: "too-soon", until: T0 + HOUR + 60_000 });
    });

    it("lets a reseller have three open requests, and one more once one closed", async () => {
      const a = await made(7, 10_000);
      await made(7, 10_000);
      await made(7, 10_000);
      const refused = await create(7, 10_000);
      expect(refused).toEqual({ kind: "too-many", open: 3 });
      await store.cancel(a.id, 7, T0, D);
      expect((await create(7, 10_000)).kind).toBe("made");
      // Someone else may cancel nothing of theirs.
      const other = await made(8, 10_000);
      expect((await store.cancel(other.id, 7, T0, D)).kind).toBe("not-yours");
    });

    it("takes one proof, from its reseller only, and names the request an image was sent for first", async () => {
      const a = await made(1, 10_000);
      const b = await made(1, 20_000);
      expect((await proof(a.id, 2)).kind).toBe("not-yours");
      expect((await proof("DRNONE", 1)).kind).toBe("not-found");
      const first = await proof(a.id, 1, "same-image");
      expect(first.kind === "attached" && first.request.state).toBe("review");
      // The same update handled again: the same answer.
      expect((await proof(a.id, 1, "same-image")).kind).toBe("attached");
      const second = await proof(a.id, 1, "other-image");
      expect(second.kind).toBe("closed");
      const reused = await proof(b.id, 1, "same-image");
      expect(reused.kind === "attached" && reused.request.proof?.sentBeforeFor).toBe(a.id);
      // The same bytes sent again as another file (another unique id): named too.
      const c = await made(1, 30_000);
      const d = await made(2, 30_000);
      const sha = "ab".repeat(32);
      const withBytes = (id: string, owner: number, unique: string) =>
        store.attachProof(
          id,
          owner,
          { fileId: `f-${unique}`, fileUniqueId: unique, kind: "photo", sha256: sha, at: T0 },
          D,
        );
      const original = await withBytes(c.id, 1, "bytes-1");
      expect(original.kind === "attached" && original.request.proof?.sentBeforeFor).toBeUndefined();
      const again = await withBytes(d.id, 2, "bytes-2");
      expect(again.kind === "attached" && again.request.proof?.sentBeforeFor).toBe(c.id);
      // A request with a proof cannot be cancelled or expire: it waits for the admin.
      expect((await store.cancel(a.id, 1, T0, D)).kind).toBe("closed");
      expect(await store.expireDue(T0 + 2 * DAY, D)).toEqual([]);
      expect((await store.get(a.id))?.state).toBe("review");
    });

    it("decides once: twenty presses of Approve and Reject at once make one decision", async () => {
      const r = await made(1, 10_000);
      expect((await store.decide(r.id, { state: "rejected" }, 1001, T0, D)).kind).toBe("taken");
      await proof(r.id, 1);
      const presses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.decide(
            r.id,
            i % 2 === 0 ? { state: "approved", credited: r.exact } : { state: "rejected" },
            1001 + i,
            T0 + i,
            D,
          ),
        ),
      );
      const decided = presses.filter((p) => p.kind === "decided");
      expect(decided).toHaveLength(1);
      const state = (await store.get(r.id))!.state;
      expect(["approved", "rejected"]).toContain(state);
      expect(await store.crediting()).toEqual(state === "approved" ? [r.id] : []);
      await store.credited(r.id);
      expect(await store.crediting()).toEqual([]);
      expect((await store.open()).map((o) => o.id)).not.toContain(r.id);
    });

    it("counts the day's requests: asked, approved (what was credited), rejected and expired, each once", async () => {
      const a = await made(1, 10_000);
      const b = await made(2, 20_000);
      const c = await made(3, 30_000);
      await proof(a.id, 1);
      await proof(b.id, 2);
      await store.decide(a.id, { state: "approved", credited: 9_500 }, 1001, T0, "2026-11-27");
      await store.decide(a.id, { state: "approved", credited: 9_500 }, 1001, T0, "2026-11-27");
      await store.decide(b.id, { state: "rejected" }, 1001, T0, "2026-11-27");
      await store.expireDue(T0 + DAY, "2026-11-27");
      await store.expireDue(T0 + DAY, "2026-11-27");
      expect(await store.dayFigures(D)).toEqual({
        asked: { count: 3, amount: a.exact + b.exact + c.exact },
        approved: { count: 0, amount: 0 },
        rejected: { count: 0, amount: 0 },
        expired: { count: 0, amount: 0 },
      });
      expect(await store.dayFigures("2026-11-27")).toEqual({
        asked: { count: 0, amount: 0 },
        approved: { count: 1, amount: 9_500 },
        rejected: { count: 1, amount: b.exact },
        expired: { count: 1, amount: c.exact },
      });
    });

    it("credits by hand once: an open, expired or rejected request is decided by the first hand credit, and Approve or another hand credit then changes nothing", async () => {
      const hand = (id: string, depositId: string, resellerId = 1, by = 1001) =>
        store.creditByHand(id, { resellerId, depositId, amount: 10_777, by, at: T0 + HOUR, day: D });
      // Open (waiting for its proof): many hand credits at once, one decides.
      const open = await made(1, 10_000);
      const presses = await Promise.all(Array.from({ length: 10 }, (_, i) => hand(open.id, `DP${i}`, 1, 1001 + i)));
      const decided = presses.filter((p) => p.kind === "decided");
      expect(decided).toHaveLength(1);
      const after = (await store.get(open.id))!;
      expect([after.state, after.credited, after.byHand]).toEqual(["approved", 10_777, decided[0]!.request.byHand]);
      expect(presses.filter((p) => p.kind === "taken")).toHaveLength(9);
      // The same deposit again (a second tap of its Confirm) is its own decision, not a refusal.
      expect((await hand(open.id, after.byHand!)).kind).toBe("decided");
      expect((await proof(open.id, 1)).kind).toBe("closed");
      expect((await store.decide(open.id, { state: "approved", credited: 1 }, 1002, T0, D)).kind).toBe("taken");
      expect((await store.open()).map((o) => o.id)).not.toContain(open.id);
      expect(await store.crediting()).toEqual([open.id]);
      // Another reseller's request is not theirs; one unknown is not found.
      expect((await hand(open.id, "DPX", 2)).kind).toBe("not-yours");
      expect((await hand("DRNONE", "DPY")).kind).toBe("not-found");
      // Approved by its Approve: refused, with who approved it.
      const approved = await made(1, 20_000);
      await proof(approved.id, 1);
      await store.decide(approved.id, { state: "approved", credited: approved.exact }, 1005, T0 + 1, D);
      const refused = await hand(approved.id, "DPZ");
      expect(refused.kind === "taken" && [refused.request.decidedBy, refused.request.byHand]).toEqual([
        1005,
        undefined,
      ]);
      // Expired (not told yet) and rejected: decided by the hand credit; the expiry is not told any more.
      const expired = await made(1, 30_000);
      await store.expireDue(T0 + 2 * DAY, D);
      expect((await hand(expired.id, "DPE")).kind).toBe("decided");
      expect((await store.untold()).map((u) => u.id)).not.toContain(expired.id);
      const rejected = await made(1, 40_000);
      await proof(rejected.id, 1);
      await store.decide(rejected.id, { state: "rejected" }, 1001, T0, D);
      expect((await hand(rejected.id, "DPR")).kind).toBe("decided");
      expect((await store.get(rejected.id))!.state).toBe("approved");
      expect((await store.dayFigures(D)).approved).toEqual({ count: 4, amount: 3 * 10_777 + approved.exact });
    });

    it("expires a request waiting for its proof past its time, once, and the reseller is to be told", async () => {
      const r = await made(1, 10_000);
      expect(await store.expireDue(T0 + DAY - 1, D)).toEqual([]);
      const expired = await store.expireDue(T0 + DAY, D);
      expect(expired.map((e) => [e.id, e.state])).toEqual([[r.id, "expired"]]);
      expect(await store.expireDue(T0 + 2 * DAY, D)).toEqual([]);
      expect((await store.untold()).map((u) => u.id)).toEqual([r.id]);
      await store.markTold(r.id, T0 + DAY);
      expect(await store.untold()).toEqual([]);
      // A proof after the time is refused even before the look for expired requests ran.
      const late = await made(1, 10_000);
      const answer = await proof(late.id, 1, "late", T0 + 2 * DAY);
      expect(answer.kind === "closed" && answer.request.state).toBe("expired");
    });
  });
}

describeStoreContract("Redis (Lua scripts on the real Redis)", async () => {
  const { storage, cleanup } = await redisStorage("deposit-requests");
  return { store: createDepositRequestStore(storage), cleanup };
});
describeStoreContract("memory", async () => {
  const storage = await createStorage({ redisUrl: undefined, prefix: "t:" });
  return { store: createDepositRequestStore(storage), cleanup: () => storage.close() };
});
