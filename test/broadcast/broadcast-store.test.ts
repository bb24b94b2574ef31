import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBroadcastStore, type BroadcastStore } from "../../src/broadcast/broadcast-store.js";
import { createStorage } from "../../src/storage/storage.js";
import { redisStorage } from "../helpers/redis.js";

type StoreFactory = () => Promise<{ store: BroadcastStore; cleanup: () => Promise<void> }>;

const HOUR = 60 * 60 * 1000;
const at = () => new Date().toISOString();
let seq = 0;

/**
 * What every BroadcastStore promises, run against each implementation (Redis and memory): Confirm
 * happens once, each recipient is claimed once, and a claim whose send was interrupted is counted,
 * never handed out again.
 */
function describeBroadcastStoreContract(name: string, factory: StoreFactory): void {
  describe(`the broadcast store contract: ${name}`, () => {
    let store: BroadcastStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ store, cleanup } = await factory()));
    afterEach(() => cleanup());

    const draft = async (text = "Promo hari ini") => {
      seq += 1;
      return store.saveDraft({ id: `BCTEST${seq}`, adminId: 1001, chatId: 1001, text, createdAt: at() }, HOUR);
    };
    const users = (n: number) => Array.from({ length: n }, (_, i) => 2000 + i);

    /** Claims, "sends" and records until the store says it is over; the users claimed. */
    async function drain(
      id: string,
      outcome: (userId: number) => "delivered" | "blocked" | "failed" = () => "delivered",
    ) {
      const claimed: number[] = [];
      let finished = 0;
      for (;;) {
        const c = await store.claimNext(id, at());
        if (c.kind === "finished") finished += 1;
        if (c.kind !== "claimed") return { claimed, finished };
        claimed.push(c.userId);
        await store.record(id, c.userId, outcome(c.userId));
      }
    }

    it("when a draft is saved, then it reads back whole as a draft with no recipients yet", async () => {
      const b = await draft("Line 1\nLine <2> & more");
      expect(await store.get(b.id)).toEqual({
        id: b.id,
        adminId: 1001,
        chatId: 1001,
        text: "Line 1\nLine <2> & more",
        createdAt: b.createdAt,
        state: "draft",
        total: 0,
        counts: { delivered: 0, blocked: 0, failed: 0, interrupted: 0 },
      });
      expect(await store.get("BCNOPE")).toBeUndefined();
      expect(await store.active()).toEqual([]);
    });

    it("when Confirm races itself, then exactly one wins and fixes the recipients; the others see it sending", async () => {
      const b = await draft();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.confirm(b.id, { recipients: i === 0 ? [1, 2, 3] : [9, 8], at: at(), messageId: 77 }),
        ),
      );
      const won = results.filter((r) => r.kind === "confirmed");
      expect(won).toHaveLength(1);
      expect(results.filter((r) => r.kind === "taken")).toHaveLength(7);
      for (const r of results) if (r.kind !== "not-found") expect(r.broadcast.state).toBe("sending");
      const after = await store.get(b.id);
      expect(after?.state).toBe("sending");
      expect(after?.previewMessageId).toBe(77);
      // Whichever won, its own recipients are the ones fixed.
      const { claimed } = await drain(b.id);
      expect(claimed).toHaveLength(after!.total);
      expect(await store.confirm("BCNOPE", { recipients: [1], at: at() })).toEqual({ kind: "not-found" });
    });

    it("when Cancel comes first, then Confirm changes nothing; after Confirm, Cancel changes nothing", async () => {
      const a = await draft();
      expect((await store.cancel(a.id, at())).kind).toBe("cancelled");
      expect((await store.cancel(a.id, at())).kind).toBe("cancelled");
      const late = await store.confirm(a.id, { recipients: [1], at: at() });
      expect(late.kind).toBe("taken");
      expect(late.kind === "taken" && late.broadcast.state).toBe("cancelled");
      expect(await store.claimNext(a.id, at())).toEqual({ kind: "over" });

      const b = await draft();
      await store.confirm(b.id, { recipients: [1], at: at() });
      const cancel = await store.cancel(b.id, at());
      expect(cancel.kind === "taken" && cancel.broadcast.state).toBe("sending");
    });

    it("when several senders claim at once, then each recipient is claimed once and one of them finishes it", async () => {
      const b = await draft();
      const recipients = users(60);
      await store.confirm(b.id, { recipients, at: at() });
      const runs = await Promise.all(
        Array.from({ length: 5 }, () => drain(b.id, (u) => (u % 10 === 0 ? "blocked" : "delivered"))),
      );
      const all = runs.flatMap((r) => r.claimed);
      expect([...all].sort((x, y) => x - y)).toEqual(recipients);
      expect(runs.reduce((n, r) => n + r.finished, 0)).toBe(1);
      const done = await store.get(b.id);
      expect(done?.state).toBe("done");
      expect(done?.counts).toEqual({ delivered: 54, blocked: 6, failed: 0, interrupted: 0 });
      // Recording a recipient again changes nothing.
      await store.record(b.id, 2000, "failed");
      expect((await store.get(b.id))?.counts.failed).toBe(0);
    });

    it("when a run stops between a claim and its outcome, then after the restart that recipient counts as interrupted and is never claimed again", async () => {
      const b = await draft();
      await store.confirm(b.id, { recipients: [11, 12, 13, 14], at: at() });
      const first = await store.claimNext(b.id, at());
      expect(first).toEqual({ kind: "claimed", userId: 11 });
      await store.record(b.id, 11, "delivered");
      const second = await store.claimNext(b.id, at());
      expect(second).toEqual({ kind: "claimed", userId: 12 });
      // The process dies here: 12 may or may not have got it.
      expect((await store.active()).map((x) => x.id)).toEqual([b.id]);
      expect(await store.interruptClaimed(b.id)).toBe(1);
      expect(await store.interruptClaimed(b.id)).toBe(0);
      const rest = await drain(b.id);
      expect(rest.claimed).toEqual([13, 14]);
      expect(rest.finished).toBe(1);
      const done = await store.get(b.id);
      expect(done?.counts).toEqual({ delivered: 3, blocked: 0, failed: 0, interrupted: 1 });
      // Done but the admin not told yet: still active, until reported.
      expect((await store.active()).map((x) => x.id)).toEqual([b.id]);
      await store.markReported(b.id, at());
      expect(await store.active()).toEqual([]);
      expect((await store.get(b.id))?.reportedAt).toBeDefined();
    });

    it("when a send that was counted as interrupted does end elsewhere, then its outcome replaces the interruption", async () => {
      const b = await draft();
      await store.confirm(b.id, { recipients: [21, 22], at: at() });
      await store.claimNext(b.id, at());
      await store.interruptClaimed(b.id);
      const after = await store.record(b.id, 21, "delivered");
      expect(after?.counts).toEqual({ delivered: 1, blocked: 0, failed: 0, interrupted: 0 });
    });

    it("when a claimed message certainly did not go out, then release puts the recipient back first in line", async () => {
      const b = await draft();
      await store.confirm(b.id, { recipients: [31, 32], at: at() });
      expect(await store.claimNext(b.id, at())).toEqual({ kind: "claimed", userId: 31 });
      await store.release(b.id, 31);
      await store.release(b.id, 31); // a second release changes nothing
      const { claimed, finished } = await drain(b.id);
      expect(claimed).toEqual([31, 32]);
      expect(finished).toBe(1);
    });

    it("when a claim is still in flight, then the others wait and the one who records last finishes", async () => {
      const b = await draft();
      await store.confirm(b.id, { recipients: [41], at: at() });
      expect(await store.claimNext(b.id, at())).toEqual({ kind: "claimed", userId: 41 });
      expect(await store.claimNext(b.id, at())).toEqual({ kind: "wait" });
      await store.record(b.id, 41, "failed");
      const last = await store.claimNext(b.id, at());
      expect(last.kind).toBe("finished");
      expect(await store.claimNext(b.id, at())).toEqual({ kind: "over" });
    });

    it("when nobody is left to send to at Confirm, then the first claim finishes it with zero counts", async () => {
      const b = await draft();
      await store.confirm(b.id, { recipients: [], at: at() });
      const c = await store.claimNext(b.id, at());
      expect(c.kind === "finished" && c.broadcast.total).toBe(0);
    });

    it("when users start the bot, then only they are among the started, in the order asked", async () => {
      await store.markStarted(7);
      await store.markStarted(3);
      await store.markStarted(3);
      expect(await store.startedAmong([1, 3, 5, 7])).toEqual([3, 7]);
      expect(await store.startedAmong([])).toEqual([]);
    });
  });
}

describeBroadcastStoreContract("Redis (Lua scripts on the real Redis)", async () => {
  const { storage, cleanup } = await redisStorage("broadcast");
  return { store: createBroadcastStore(storage), cleanup };
});
describeBroadcastStoreContract("memory", async () => {
  const storage = await createStorage({ redisUrl: undefined, prefix: "t:" });
  return { store: createBroadcastStore(storage), cleanup: () => storage.close() };
});
