import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OrderLedger } from "../../src/orders/ledger.js";
import { currentAttempt, type Attempt, type OrderRecord } from "../../src/orders/order.js";
import { attemptRefId } from "../../src/orders/ref-id.js";
import { draft } from "../orders/fixtures.js";

/** A ledger to test and how to drop it afterwards. */
export type LedgerFactory = () => Promise<{ ledger: OrderLedger; cleanup: () => Promise<void> }>;

const HOUR = 60 * 60 * 1000;
const at = (ms = Date.now()) => new Date(ms).toISOString();
const success = (balance?: number) => ({
  state: "success" as const,
  at: at(),
  result: {
    sn: "1234567890",
    trxId: "TRX-261123-1",
    destinationName: "Budi#0001",
    ...(balance === undefined ? {} : { lastBalance: balance }),
  },
});

async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("condition not met within 5 s");
}

/**
 * What every OrderLedger promises, run against each implementation (Redis and memory): each state
 * change happens once, atomically, whoever races it.
 */
export function describeLedgerContract(name: string, factory: LedgerFactory): void {
  describe(`the order ledger contract: ${name}`, () => {
    let ledger: OrderLedger;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ ledger, cleanup } = await factory()));
    afterEach(() => cleanup());

    const submitted = async (over: Partial<OrderRecord> = {}) => {
      const order = draft(over);
      await ledger.saveDraft(order, HOUR);
      const claim = await ledger.claim(order.refId, { userId: order.userId, at: at() });
      expect(claim.kind).toBe("claimed");
      return order;
    };
    const unknownOrder = async () => {
      const order = await submitted();
      await ledger.finish(order, {
        state: "unknown",
        at: at(),
        result: { reason: "timeout", detail: "no answer" },
      });
      return order;
    };

    it("when a draft is saved, then it reads back whole and is the open draft of its chat and user", async () => {
      const order = draft();
      await ledger.saveDraft(order, HOUR);
      expect(await ledger.get(order.refId)).toEqual(order);
      expect(await ledger.openDraftOf(501, 501)).toBe(order.refId);
      expect(await ledger.openDraftOf(501, 999)).toBeUndefined();
      expect(await ledger.getMany([order.refId, "TGMISSING"])).toEqual([order]);
      expect(await ledger.get("TGMISSING")).toBeUndefined();
    });

    it("when members of a group have drafts open, then the chat lists each member's own and no other chat's", async () => {
      const mine = draft({ chatId: -100501, userId: 501 });
      const theirs = draft({ chatId: -100501, userId: 502 });
      const elsewhere = draft({ chatId: -100777, userId: 503 });
      for (const o of [mine, theirs, elsewhere]) await ledger.saveDraft(o, HOUR);
      const open = await ledger.openDraftsIn(-100501);
      expect(open.sort((a, b) => a.userId - b.userId)).toEqual([
        { userId: 501, refId: mine.refId },
        { userId: 502, refId: theirs.refId },
      ]);
      await ledger.cancel(theirs.refId, { userId: 502, chatId: -100501, at: at() });
      expect(await ledger.openDraftsIn(-100501)).toEqual([{ userId: 501, refId: mine.refId }]);
      expect(await ledger.openDraftsIn(-100999)).toEqual([]);
    });

    it("when the product of a draft is not for sale any more, then the claim takes nothing and the draft stays a draft", async () => {
      const order = draft({ productCode: "ml86" });
      await ledger.saveDraft(order, HOUR);
      const refused = await ledger.claim(order.refId, { userId: 501, at: at(), offered: new Set(["FF70", "ML8"]) });
      expect(refused).toEqual({ kind: "not-offered", order });
      expect(await ledger.get(order.refId)).toEqual(order);
      expect(await ledger.inFlight()).toEqual([]);
      const none = await ledger.claim(order.refId, { userId: 501, at: at(), offered: new Set() });
      expect(none.kind).toBe("not-offered");
      // Codes match in any case, as everywhere in the catalogue.
      const claimed = await ledger.claim(order.refId, { userId: 501, at: at(), offered: new Set(["FF70", "ML86"]) });
      expect(claimed.kind).toBe("claimed");
    });

    it("when twenty claims of one draft race, then exactly one claims it and the rest find it taken", async () => {
      const order = draft();
      await ledger.saveDraft(order, HOUR);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => ledger.claim(order.refId, { userId: 501, at: at(), summaryMessageId: 7 })),
      );
      expect(results.filter((r) => r.kind === "claimed")).toHaveLength(1);
      expect(results.filter((r) => r.kind === "taken")).toHaveLength(19);
      const stored = await ledger.get(order.refId);
      // The claim answers with the order as the ledger now holds it.
      const claimed = results.find((r) => r.kind === "claimed");
      expect(claimed?.kind === "claimed" && claimed.order).toEqual(stored);
      expect(stored).toMatchObject({ state: "submitting", summaryMessageId: 7 });
      expect(stored?.submittedAt).toBeTypeOf("string");
      expect((await ledger.inFlight()).map((o) => o.refId)).toEqual([order.refId]);
      expect((await ledger.history(501, 0, 10)).orders.map((o) => o.refId)).toEqual([order.refId]);
    });

    it("when someone else claims or cancels a draft, then nothing changes", async () => {
      const order = draft();
      await ledger.saveDraft(order, HOUR);
      expect(await ledger.claim(order.refId, { userId: 999, at: at() })).toEqual({ kind: "not-yours" });
      expect(await ledger.cancel(order.refId, { userId: 999, chatId: 501, at: at() })).toEqual({ kind: "not-yours" });
      expect(await ledger.claim("TGMISSING", { userId: 501, at: at() })).toEqual({ kind: "not-found" });
      expect((await ledger.get(order.refId))?.state).toBe("draft");
    });

    it("when a Cancel and a Confirm race, then exactly one of them wins", async () => {
      for (let i = 0; i < 10; i++) {
        const order = draft();
        await ledger.saveDraft(order, HOUR);
        const [cancel, claim] = await Promise.all([
          ledger.cancel(order.refId, { userId: 501, chatId: 501, at: at() }),
          ledger.claim(order.refId, { userId: 501, at: at() }),
        ]);
        expect([cancel.kind === "cancelled", claim.kind === "claimed"].filter(Boolean)).toHaveLength(1);
      }
    });

    it("when a draft is cancelled, then it is no longer the open draft and cannot be claimed", async () => {
      const order = draft();
      await ledger.saveDraft(order, HOUR);
      expect((await ledger.cancel(order.refId, { userId: 501, chatId: 501, at: at() })).kind).toBe("cancelled");
      expect(await ledger.openDraftOf(501, 501)).toBeUndefined();
      const claim = await ledger.claim(order.refId, { userId: 501, at: at() });
      expect(claim.kind === "taken" && claim.order.state).toBe("cancelled");
      expect((await ledger.history("all", 0, 10)).total).toBe(0);
    });

    it("when a draft is not confirmed in time, then it is gone; a claimed order is kept for good", async () => {
      // A draft claimed within its time (a machine too busy to claim it within 200 ms simply makes
      // another one: what is checked does not depend on how fast the claim was).
      let kept = draft();
      for (let attempt = 0; attempt < 50; attempt++) {
        kept = draft();
        await ledger.saveDraft(kept, 200);
        if ((await ledger.claim(kept.refId, { userId: 501, at: at() })).kind === "claimed") break;
      }
      const claimedAt = Date.now();
      const forgotten = draft();
      await ledger.saveDraft(forgotten, 40);
      await eventually(async () => (await ledger.get(forgotten.refId)) === undefined);
      // Past the time the kept draft had: still there, for good.
      await eventually(async () => Date.now() - claimedAt > 400);
      expect((await ledger.get(kept.refId))?.state).toBe("submitting");
    });

    it("when an outcome is recorded twice, then the first stands", async () => {
      const order = await submitted();
      const first = await ledger.finish(order, success(900));
      expect(first.kind).toBe("finished");
      // What the step answers is what the ledger holds.
      expect(first.kind === "finished" && first.order).toEqual(await ledger.get(order.refId));
      const second = await ledger.finish(order, {
        state: "failed",
        at: at(),
        result: { reason: "provider-error" },
      });
      expect(second.kind).toBe("stale");
      expect((await ledger.get(order.refId))?.state).toBe("success");
      expect(await ledger.inFlight()).toEqual([]);
      const notSubmitted = draft();
      await ledger.saveDraft(notSubmitted, HOUR);
      expect((await ledger.finish(notSubmitted, success())).kind).toBe("stale");
    });

    it("when recovery marked an order unknown and the provider's answer arrives late, then the answer replaces it unless an admin settled it", async () => {
      const late = await unknownOrder();
      await ledger.markNotified(late.refId, at()); // the user was told "unknown"
      expect((await ledger.finish(late, success())).kind).toBe("stale"); // without acceptLate
      const replaced = await ledger.finish(late, success(), { acceptLate: true });
      expect(replaced.kind).toBe("finished");
      expect(replaced.kind === "finished" && replaced.order).toEqual(await ledger.get(late.refId));
      expect((await ledger.get(late.refId))?.notifiedAt).toBeUndefined(); // to be told again
      expect(await ledger.pending()).toEqual([]);
      const settled = await unknownOrder();
      await ledger.settle(settled, {
        state: "failed",
        at: at(),
        adminId: 1,
        result: { reason: "settled", errorMsg: "refunded" },
      });
      expect((await ledger.finish(settled, success(), { acceptLate: true })).kind).toBe("stale");
      expect((await ledger.get(settled.refId))?.state).toBe("failed");
    });

    it("when many sales are recorded at once, then the last balance is the one recorded last", async () => {
      const orders = await Promise.all(Array.from({ length: 30 }, () => submitted()));
      await Promise.all(
        orders.map((o, i) =>
          ledger.finish(o, success(1_000_000 - i), {
            balance: { balance: 1_000_000 - i, at: at(), refId: o.refId },
          }),
        ),
      );
      expect(await ledger.lastBalance()).toMatchObject({ balance: 1_000_000 - 29, refId: orders[29]!.refId });
    });

    it("when balances cross the threshold, then a low balance is flagged once per crossing, even when sales meet", async () => {
      const flags: boolean[] = [];
      for (const balance of [80_000, 40_000, 30_000, 60_000, 45_000]) {
        const o = await submitted();
        const r = await ledger.finish(o, success(balance), {
          balance: { balance, at: at(), refId: o.refId },
          lowBalanceThreshold: 50_000,
        });
        flags.push(r.kind === "finished" && r.lowBalance);
      }
      expect(flags).toEqual([false, true, false, false, true]);
      const above = await submitted();
      await ledger.finish(above, success(90_000), {
        balance: { balance: 90_000, at: at(), refId: above.refId },
        lowBalanceThreshold: 50_000,
      });
      const racing = await Promise.all([submitted(), submitted(), submitted()]);
      const results = await Promise.all(
        racing.map((o, i) =>
          ledger.finish(o, success(40_000 - i), {
            balance: { balance: 40_000 - i, at: at(), refId: o.refId },
            lowBalanceThreshold: 50_000,
          }),
        ),
      );
      expect(results.filter((r) => r.kind === "finished" && r.lowBalance)).toHaveLength(1);
    });

    it("when two admins settle one unknown order at once, then it is settled once and leaves the pending list", async () => {
      const order = await unknownOrder();
      expect((await ledger.pending()).map((o) => o.refId)).toEqual([order.refId]);
      const [a, b] = await Promise.all([
        ledger.settle(order, { state: "success", at: at(), adminId: 1, result: { sn: "111" } }),
        ledger.settle(order, {
          state: "failed",
          at: at(),
          adminId: 2,
          result: { reason: "settled", errorMsg: "no" },
        }),
      ]);
      expect([a.kind, b.kind].sort()).toEqual(["not-pending", "settled"]);
      const stored = await ledger.get(order.refId);
      expect(stored?.settledBy).toBe(a.kind === "settled" ? 1 : 2);
      expect(await ledger.pending()).toEqual([]);
      expect(
        (
          await ledger.settle(
            { refId: "TGMISSING", userId: 501 },
            { state: "success", at: at(), adminId: 1, result: {} },
          )
        ).kind,
      ).toBe("not-found");
    });

    it("when the user was told, then the order says so; a settlement makes it untold again", async () => {
      const order = await unknownOrder();
      await ledger.markNotified(order.refId, at());
      expect((await ledger.get(order.refId))?.notifiedAt).toBeTypeOf("string");
      await ledger.settle(order, { state: "success", at: at(), adminId: 1, result: { sn: "1" } });
      expect((await ledger.get(order.refId))?.notifiedAt).toBeUndefined();
      await ledger.markNotified("TGMISSING", at());
      expect(await ledger.get("TGMISSING")).toBeUndefined();
    });

    it("when orders are listed, then history pages newest first per user, and a day's range holds exactly its orders", async () => {
      const base = Date.parse("2026-11-20T00:00:00Z");
      const made: OrderRecord[] = [];
      for (let i = 0; i < 12; i++) {
        const order = draft({ userId: i % 2 === 0 ? 7 : 8, chatId: 7 });
        await ledger.saveDraft(order, HOUR);
        await ledger.claim(order.refId, { userId: order.userId, at: at(base + i * HOUR) });
        made.push(order);
      }
      const page = await ledger.history(7, 1, 4);
      expect(page.total).toBe(6);
      expect(page.orders.map((o) => o.refId)).toEqual([made[2]!.refId, made[0]!.refId]);
      expect((await ledger.history("all", 0, 3)).orders.map((o) => o.refId)).toEqual([
        made[11]!.refId,
        made[10]!.refId,
        made[9]!.refId,
      ]);
      const range = await ledger.submittedBetween(base + 2 * HOUR, base + 4 * HOUR);
      expect(range.map((o) => o.refId)).toEqual([made[2]!.refId, made[3]!.refId, made[4]!.refId]);
    });

    it("when orders are searched by time, user, player id and state, then each page is the newest matching ones", async () => {
      const base = Date.parse("2026-03-01T00:00:00Z");
      const made: OrderRecord[] = [];
      for (let i = 0; i < 12; i++) {
        const order = draft({
          userId: i % 2 === 0 ? 7 : 8,
          chatId: 7,
          playerId: i % 3 === 0 ? "111111(1111)" : "222222",
        });
        await ledger.saveDraft(order, HOUR);
        await ledger.claim(order.refId, { userId: order.userId, at: at(base + i * HOUR) });
        if (i % 4 === 0)
          await ledger.finish(order, { state: "unknown", at: at(base + i * HOUR), result: { reason: "timeout" } });
        made.push(order);
      }
      const refs = (r: { orders: OrderRecord[] }) => r.orders.map((o) => o.refId);
      const of = (...i: number[]) => i.map((n) => made[n]!.refId);
      expect(refs(await ledger.findOrders({ page: 0, pageSize: 3 }))).toEqual(of(11, 10, 9));
      const player = await ledger.findOrders({ playerId: "111111(1111)", page: 0, pageSize: 3 });
      expect([refs(player), player.hasMore]).toEqual([of(9, 6, 3), true]);
      const last = await ledger.findOrders({ playerId: "111111(1111)", page: 1, pageSize: 3 });
      expect([refs(last), last.hasMore]).toEqual([of(0), false]);
      expect(refs(await ledger.findOrders({ userId: 8, page: 0, pageSize: 2 }))).toEqual(of(11, 9));
      expect(refs(await ledger.findOrders({ userId: 8, playerId: "111111(1111)", page: 0, pageSize: 5 }))).toEqual(
        of(9, 3),
      );
      expect(refs(await ledger.findOrders({ state: "unknown", page: 0, pageSize: 5 }))).toEqual(of(8, 4, 0));
      const window = { fromMs: base + 2 * HOUR, toMs: base + 5 * HOUR };
      expect(refs(await ledger.findOrders({ ...window, page: 0, pageSize: 10 }))).toEqual(of(5, 4, 3, 2));
      expect(refs(await ledger.findOrders({ ...window, state: "unknown", page: 0, pageSize: 10 }))).toEqual(of(4));
      expect(await ledger.findOrders({ playerId: "nobody", page: 0, pageSize: 10 })).toEqual({
        orders: [],
        hasMore: false,
      });
      // By the start of a player id, over a time range: the zone need not be typed.
      const all = { fromMs: base, toMs: base + 12 * HOUR };
      const start = await ledger.findOrders({ ...all, playerPrefix: "111111", page: 0, pageSize: 3 });
      expect([refs(start), start.hasMore]).toEqual([of(9, 6, 3), true]);
      expect(refs(await ledger.findOrders({ ...all, playerPrefix: "111111", page: 1, pageSize: 3 }))).toEqual(of(0));
      expect(refs(await ledger.findOrders({ ...all, playerPrefix: "2222", userId: 8, page: 0, pageSize: 2 }))).toEqual(
        of(11, 7),
      );
      expect(refs(await ledger.findOrders({ ...window, playerPrefix: "1", page: 0, pageSize: 10 }))).toEqual(of(3));
      expect(refs(await ledger.findOrders({ ...all, playerPrefix: "3", page: 0, pageSize: 10 }))).toEqual([]);
    });

    describe("several providers", () => {
      /** A claimed order whose first attempt is at `provider` under `code`. */
      const claimedAt = async (provider: string, code: string, over: Partial<OrderRecord> = {}) => {
        const order = draft(over);
        await ledger.saveDraft(order, HOUR);
        const claim = await ledger.claim(order.refId, { userId: order.userId, at: at(), attempt: { provider, code } });
        if (claim.kind !== "claimed") throw new Error(`not claimed: ${claim.kind}`);
        return claim.order;
      };
      const attemptAt = (order: OrderRecord, provider: string, code: string, n: number): Attempt => ({
        provider,
        code,
        refId: attemptRefId(order.refId, n),
        at: at(Date.now() + n * 1000),
      });
      const refusal = { reason: "provider-error" as const, errorCode: "product/unavailable", errorMsg: "habis" };

      it("when an order is claimed at a provider other than main or under another code, then it keeps that first attempt", async () => {
        const backup = await claimedAt("backup", "MLBB86");
        expect(backup.attempt).toEqual({
          provider: "backup",
          code: "MLBB86",
          refId: backup.refId,
          at: backup.submittedAt,
        });
        expect(await ledger.get(backup.refId)).toEqual(backup);
        const recoded = await claimedAt("main", "ML86-B");
        expect(currentAttempt(recoded)).toEqual({
          provider: "main",
          code: "ML86-B",
          refId: recoded.refId,
          at: recoded.submittedAt,
        });
        expect((await ledger.inFlight()).map((o) => o.attempt?.provider).sort()).toEqual(["backup", "main"]);
      });

      it("when an order is claimed at main under its own code (in any case), or without an attempt, then it stores none and reads as at main", async () => {
        const same = await claimedAt("main", "ml86");
        const plain = await submitted();
        for (const o of [same, (await ledger.get(plain.refId))!]) {
          expect(o.attempt).toBeUndefined();
          expect(o.refused).toBeUndefined();
          expect(currentAttempt(o)).toEqual({ provider: "main", code: "ML86", refId: o.refId, at: o.submittedAt });
        }
      });

      it("when an attempt is refused, then the next one takes its place in one step and the refused one is kept with its reason", async () => {
        const order = await claimedAt("main", "ML86");
        const second = attemptAt(order, "backup", "MLBB86", 2);
        const long = `${"Stok kosong\tuntuk produk ini, coba lagi nanti.\n".repeat(3)}🌸`;
        const step = await ledger.nextAttempt(order, {
          from: order.refId,
          refusal: { reason: "provider-error", errorCode: "product/unavailable", errorMsg: long },
          next: second,
        });
        expect(step.kind).toBe("next");
        const first = { provider: "main", code: "ML86", refId: order.refId, at: order.submittedAt! };
        const expected = {
          ...order,
          attempt: second,
          refused: [{ ...first, reason: "provider-error", errorCode: "product/unavailable", errorMsg: long }],
        };
        expect(step.kind === "next" && step.order).toEqual(expected);
        expect(await ledger.get(order.refId)).toEqual(expected);
        // Still being sent: recovery and the in-flight list see it, at its new attempt.
        expect(await ledger.inFlight()).toEqual([expected]);
        // And on again, from the second attempt's ref id, to a third provider.
        const third = attemptAt(order, "spare", "ML86", 3);
        const again = await ledger.nextAttempt(order, {
          from: second.refId,
          refusal: { reason: "not-sent" },
          next: third,
        });
        expect(again.kind === "next" && again.order).toEqual({
          ...expected,
          attempt: third,
          refused: [...expected.refused, { ...second, reason: "not-sent" }],
        });
      });

      it("when the step names another attempt than the current one, or the order is not being sent, then nothing changes", async () => {
        const order = await claimedAt("backup", "MLBB86");
        const next = attemptAt(order, "main", "ML86", 2);
        const wrong = await ledger.nextAttempt(order, { from: `${order.refId}R9`, refusal, next });
        expect(wrong).toEqual({ kind: "stale", order });
        const moved = await ledger.nextAttempt(order, { from: order.refId, refusal, next });
        expect(moved.kind).toBe("next");
        // The first attempt is not the current one any more.
        const late = await ledger.nextAttempt(order, {
          from: order.refId,
          refusal,
          next: attemptAt(order, "x", "X", 3),
        });
        expect(late).toEqual({ kind: "stale", order: moved.kind === "next" ? moved.order : undefined });

        const notSent = draft();
        await ledger.saveDraft(notSent, HOUR);
        const onDraft = await ledger.nextAttempt(notSent, { from: notSent.refId, refusal, next });
        expect(onDraft).toEqual({ kind: "stale", order: notSent });

        const finished = await submitted();
        await ledger.finish(finished, { state: "failed", at: at(), result: { errorCode: "E1" } });
        const done = (await ledger.get(finished.refId))!;
        expect(await ledger.nextAttempt(finished, { from: finished.refId, refusal, next })).toEqual({
          kind: "stale",
          order: done,
        });
        expect(
          await ledger.nextAttempt({ refId: "TGMISSING", userId: 501 }, { from: "TGMISSING", refusal, next }),
        ).toEqual({
          kind: "not-found",
        });
      });

      it("when two processes send the same refused attempt on at once, then exactly one goes on", async () => {
        const order = await claimedAt("main", "ML86");
        const steps = await Promise.all(
          ["backup", "spare", "third"].map((provider) =>
            ledger.nextAttempt(order, { from: order.refId, refusal, next: attemptAt(order, provider, "ML86", 2) }),
          ),
        );
        const winners = steps.filter((s) => s.kind === "next");
        expect(winners).toHaveLength(1);
        expect(steps.filter((s) => s.kind === "stale")).toHaveLength(2);
        const stored = (await ledger.get(order.refId))!;
        expect(stored.refused).toHaveLength(1);
        expect(winners[0]!.kind === "next" && winners[0]!.order).toEqual(stored);
      });

      it("when an order finishes after going on to another provider, then it keeps its attempts and counts under the provider that fulfilled it", async () => {
        const sentAt = "2026-04-10T05:00:00.000Z";
        const day = "2026-04-10";
        const order = draft({ price: 20000 });
        await ledger.saveDraft(order, HOUR);
        await ledger.claim(order.refId, { userId: 501, at: sentAt });
        const next = {
          provider: "backup",
          code: "MLBB86",
          refId: attemptRefId(order.refId, 2),
          at: "2026-04-10T05:00:01.000Z",
        };
        expect((await ledger.nextAttempt(order, { from: order.refId, refusal, next })).kind).toBe("next");
        const detail = { name: "86", code: "MLBB86", price: 19000, rate: 1, priceRp: 19000, status: "SUKSES" };
        const r = await ledger.finish(
          order,
          {
            state: "success",
            at: "2026-04-10T05:00:02.000Z",
            result: { sn: "1", productDetail: detail, lastBalance: 90_000 },
          },
          {
            provider: "backup",
            balance: { balance: 90_000, at: "2026-04-10T05:00:02.000Z", refId: order.refId, provider: "backup" },
          },
        );
        expect(r.kind).toBe("finished");
        const done = (await ledger.get(order.refId))!;
        expect(done.attempt).toEqual(next);
        expect(done.refused).toEqual([{ provider: "main", code: "ML86", refId: order.refId, at: sentAt, ...refusal }]);
        // The line a list prints of it names both.
        const lines: Array<{ provider?: string | undefined; refusedBy?: string | undefined }> = [];
        const sent = Date.parse(sentAt);
        await ledger.eachSubmittedLine(sent, sent, (line) => lines.push(line));
        expect(lines).toMatchObject([{ provider: "backup", refusedBy: "main" }]);
        // A failure that stayed at main, in the same day.
        const other = draft({ price: 10000 });
        await ledger.saveDraft(other, HOUR);
        await ledger.claim(other.refId, { userId: 501, at: "2026-04-10T05:10:00.000Z" });
        await ledger.finish(other, { state: "failed", at: "2026-04-10T05:10:01.000Z", result: { errorCode: "E1" } });
        await ledger.eachSubmittedLine(
          Date.parse("2026-04-10T05:10:00.000Z"),
          Date.parse("2026-04-10T05:10:00.000Z"),
          (line) => lines.push(line),
        );
        expect(lines[1]).toMatchObject({ provider: undefined, refusedBy: undefined });
        const figures = await ledger.dayFigures(day);
        expect(figures.byProvider).toEqual([
          { key: "backup", name: "backup", count: 1, selling: 20000, provider: 19000, unpriced: 0 },
          { key: "main", name: "main", count: 1, selling: 0, provider: 0, unpriced: 0 },
        ]);
        // The day's balance is main's: a backup's sale does not make it.
        expect(figures.balance).toBeUndefined();
        expect(await ledger.lastBalance()).toBeUndefined();
        expect(await ledger.balances()).toEqual(
          new Map([
            ["backup", { balance: 90_000, at: "2026-04-10T05:00:02.000Z", refId: order.refId, provider: "backup" }],
          ]),
        );
      });

      it("when two providers report balances, then each keeps its own last balance, low-balance and deposit-empty alerts", async () => {
        const sale = async (provider: string | undefined, balance: number) => {
          const order = await submitted();
          const seen = { balance, at: at(), refId: order.refId, ...(provider === undefined ? {} : { provider }) };
          const r = await ledger.finish(order, success(balance), {
            balance: seen,
            lowBalanceThreshold: 50_000,
            ...(provider === undefined ? {} : { provider }),
          });
          return r.kind === "finished" && r.lowBalance;
        };
        const empty = async (provider: string | undefined, providerEmpty?: boolean) => {
          const order = await submitted();
          const r = await ledger.finish(
            order,
            { state: "failed", at: at(), result: { reason: "provider-error", errorCode: "balance/insufficient" } },
            {
              ...(provider === undefined ? {} : { provider }),
              ...(providerEmpty === undefined ? {} : { providerEmpty }),
            },
          );
          return r.kind === "finished" && r.providerEmpty === true;
        };
        expect(await sale(undefined, 40_000)).toBe(true);
        expect(await sale("backup", 30_000)).toBe(true);
        expect(await sale(undefined, 30_000)).toBe(false);
        expect(await sale("backup", 20_000)).toBe(false);
        // Main back above: its alert is armed again; backup's is still given.
        expect(await sale(undefined, 90_000)).toBe(false);
        expect(await sale(undefined, 45_000)).toBe(true);
        expect(await sale("backup", 10_000)).toBe(false);
        const balances = await ledger.balances();
        expect([...balances.keys()]).toEqual(["main", "backup"]);
        expect(balances.get("main")?.balance).toBe(45_000);
        expect(balances.get("backup")).toMatchObject({ balance: 10_000, provider: "backup" });
        expect((await ledger.lastBalance())?.balance).toBe(45_000);

        expect(await empty("backup")).toBe(true);
        expect(await empty("backup")).toBe(false);
        expect(await empty(undefined)).toBe(true);
        // The provider's own empty codes decide when given: not empty, whatever the code says.
        expect(await empty("spare", false)).toBe(false);
        expect(await empty("spare", true)).toBe(true);
        // A sale at backup clears backup's alone.
        await sale("backup", 100_000);
        expect(await empty("backup")).toBe(true);
        expect(await empty(undefined)).toBe(false);
      });
    });
  });
}
