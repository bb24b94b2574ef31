import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Ledger } from "../../src/orders/ledger.js";
import type { OrderRecord } from "../../src/orders/order.js";
import type { Deposit, Movement, Wallet } from "../../src/orders/wallet.js";
import { walletBalances } from "../helpers/wallet-balances.js";
import { draft } from "../orders/fixtures.js";

export type FullLedgerFactory = () => Promise<{ ledger: Ledger; cleanup: () => Promise<void> }>;

const HOUR = 60 * 60 * 1000;
const at = () => new Date().toISOString();
let seq = 0;
const RESELLER = 7001;

/** Replays a statement: what the wallet must be if every movement was recorded once. */
export function replay(userId: number, lines: Movement[]): Wallet {
  const w: Wallet = { userId, saldo: 0, held: 0, deposits: 0, corrections: 0, spent: 0 };
  for (const m of lines) {
    if (m.kind === "deposit") w.deposits += m.amount;
    if (m.kind === "correction") w.corrections += m.amount;
    if (m.kind === "spend") w.spent += m.amount;
    // What each kind does to the saldo and to the held money.
    if (m.kind === "deposit" || m.kind === "correction" || m.kind === "release") w.saldo += m.amount;
    if (m.kind === "hold") {
      w.saldo += m.amount;
      w.held -= m.amount;
    }
    if (m.kind === "spend" || m.kind === "release") w.held -= m.amount;
    // Each line says what the wallet was after it: the statement is the truth at every step.
    expect([m.saldo, m.held]).toEqual([w.saldo, w.held]);
  }
  return w;
}

/**
 * A reseller's money in the ledger, against each implementation: every rupiah held, spent,
 * released or deposited once, whatever races it, and the statement agreeing with the wallet.
 */
export function describeWalletContract(name: string, factory: FullLedgerFactory): void {
  describe(`resellers' saldo in the ledger: ${name}`, () => {
    let ledger: Ledger;
    let cleanup: () => Promise<void>;
    beforeEach(async () => ({ ledger, cleanup } = await factory()));
    afterEach(async () => {
      // After every test, the books balance and the statement tells the same story.
      for (const w of await ledger.wallets.all()) {
        expect(walletBalances(w)).toBe(true);
        expect(replay(w.userId, await ledger.wallets.statement(w.userId, 100_000))).toEqual(w);
      }
      await cleanup();
    });

    const deposit = async (amount: number, userId = RESELLER): Promise<Deposit> => {
      const d: Deposit = {
        id: `DPTEST${Date.now().toString(36).toUpperCase()}${String(++seq).padStart(5, "0")}`,
        resellerId: userId,
        amount,
        note: "test",
        adminId: 1,
        chatId: 1,
        createdAt: at(),
        state: "draft",
      };
      await ledger.wallets.saveDeposit(d, HOUR);
      return d;
    };
    const credit = async (amount: number, userId = RESELLER) => {
      const d = await deposit(amount, userId);
      const r = await ledger.wallets.confirmDeposit(d.id, { adminId: 1, at: at() });
      expect(r.kind).toBe("done");
      return d;
    };
    const resellerDraft = async (price: number, userId = RESELLER): Promise<OrderRecord> => {
      const o = draft({ userId, chatId: userId, price, role: "reseller", tier: "reseller" });
      await ledger.orders.saveDraft(o, HOUR);
      return o;
    };
    const claim = (o: OrderRecord) => ledger.orders.claim(o.refId, { userId: o.userId, at: at() });
    const wallet = () => ledger.wallets.get(RESELLER);

    it("when twenty admins confirm one deposit at once, then it is credited once and told once", async () => {
      const d = await deposit(50_000);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => ledger.wallets.confirmDeposit(d.id, { adminId: i + 1, at: at() })),
      );
      expect(results.filter((r) => r.kind === "done")).toHaveLength(1);
      expect(results.filter((r) => r.kind === "taken")).toHaveLength(19);
      expect(await wallet()).toMatchObject({ saldo: 50_000, deposits: 50_000 });
      expect((await ledger.wallets.getDeposit(d.id))?.state).toBe("done");
    });

    it("when a correction would take the saldo below 0, then nothing changes; a smaller one applies", async () => {
      await credit(10_000);
      const tooBig = await deposit(-15_000);
      expect(await ledger.wallets.confirmDeposit(tooBig.id, { adminId: 1, at: at() })).toMatchObject({
        kind: "short",
        saldo: 10_000,
      });
      expect((await ledger.wallets.getDeposit(tooBig.id))?.state).toBe("draft");
      await credit(-4_000);
      expect(await wallet()).toMatchObject({ saldo: 6_000, deposits: 10_000, corrections: -4_000 });
    });

    it("when a deposit is cancelled and confirmed at once, then exactly one of them wins", async () => {
      for (let i = 0; i < 10; i++) {
        const d = await deposit(1_000);
        const [cancel, confirm] = await Promise.all([
          ledger.wallets.cancelDeposit(d.id, at()),
          ledger.wallets.confirmDeposit(d.id, { adminId: 1, at: at() }),
        ]);
        expect([cancel.kind === "cancelled", confirm.kind === "done"].filter(Boolean)).toHaveLength(1);
      }
    });

    it("when a reseller confirms with too little saldo, then nothing is held or claimed and the draft stays", async () => {
      await credit(10_000);
      const o = await resellerDraft(19_000);
      expect(await claim(o)).toEqual({ kind: "short", saldo: 10_000 });
      expect((await ledger.orders.get(o.refId))?.state).toBe("draft");
      expect(await ledger.orders.inFlight()).toEqual([]);
      expect(await wallet()).toMatchObject({ saldo: 10_000, held: 0 });
      await credit(9_000);
      const again = await claim(o);
      expect(again.kind === "claimed" && again.order.saldoAfter).toBe(0);
    });

    it("when a reseller confirms a product no longer for sale, then nothing is held and the statement is unchanged", async () => {
      await credit(50_000);
      const o = await resellerDraft(19_000);
      const r = await ledger.orders.claim(o.refId, { userId: RESELLER, at: at(), offered: new Set(["FF70"]) });
      expect(r.kind).toBe("not-offered");
      expect(await wallet()).toMatchObject({ saldo: 50_000, held: 0 });
      expect((await ledger.wallets.statement(RESELLER, 10)).map((m) => m.kind)).toEqual(["deposit"]);
    });

    it("when ten orders of one reseller are confirmed in the same instant, then only what the saldo covers is held", async () => {
      await credit(50_000);
      const orders = await Promise.all(Array.from({ length: 10 }, () => resellerDraft(20_000)));
      const results = await Promise.all(orders.map(claim));
      expect(results.filter((r) => r.kind === "claimed")).toHaveLength(2);
      expect(results.filter((r) => r.kind === "short")).toHaveLength(8);
      expect(await wallet()).toMatchObject({ saldo: 10_000, held: 40_000 });
    });

    it("when orders end, then a success spends its hold, a failure releases it, an unknown keeps it", async () => {
      await credit(100_000);
      const [ok, failed, unknown] = await Promise.all([
        resellerDraft(20_000),
        resellerDraft(30_000),
        resellerDraft(5_000),
      ]);
      for (const o of [ok, failed, unknown]) expect((await claim(o)).kind).toBe("claimed");
      expect(await wallet()).toMatchObject({ saldo: 45_000, held: 55_000 });
      const done = await ledger.orders.finish(ok, { state: "success", at: at(), result: { sn: "1" } });
      expect(done.kind === "finished" && done.order.saldoAfter).toBe(45_000);
      const back = await ledger.orders.finish(failed, {
        state: "failed",
        at: at(),
        result: { reason: "provider-error" },
      });
      expect(back.kind === "finished" && back.order.saldoAfter).toBe(75_000);
      await ledger.orders.finish(unknown, { state: "unknown", at: at(), result: { reason: "timeout", detail: "" } });
      expect(await wallet()).toMatchObject({ saldo: 75_000, held: 5_000, spent: 20_000 });
      // A second outcome of the same order moves no money.
      await ledger.orders.finish(failed, { state: "failed", at: at(), result: { reason: "provider-error" } });
      await ledger.orders.finish(ok, { state: "failed", at: at(), result: { reason: "provider-error" } });
      expect(await wallet()).toMatchObject({ saldo: 75_000, held: 5_000, spent: 20_000 });
    });

    it("when two admins settle an unknown order differently at once, then its hold is spent or released once", async () => {
      await credit(30_000);
      for (let i = 0; i < 6; i++) {
        const o = await resellerDraft(5_000);
        await claim(o);
        await ledger.orders.finish(o, { state: "unknown", at: at(), result: { reason: "timeout", detail: "" } });
        const before = await wallet();
        const [a, b] = await Promise.all([
          ledger.orders.settle(o, { state: "success", at: at(), adminId: 1, result: { sn: "9" } }),
          ledger.orders.settle(o, { state: "failed", at: at(), adminId: 2, result: { reason: "settled" } }),
        ]);
        expect([a.kind, b.kind].sort()).toEqual(["not-pending", "settled"]);
        const after = await wallet();
        const winner = [a, b].find((r) => r.kind === "settled");
        const spent = winner?.kind === "settled" && winner.order.state === "success";
        expect(after).toMatchObject(
          spent
            ? { saldo: before.saldo, held: before.held - 5_000, spent: before.spent + 5_000 }
            : { saldo: before.saldo + 5_000, held: before.held - 5_000, spent: before.spent },
        );
      }
    });

    it("when the provider's late answer and an admin's settlement race, then the hold moves once", async () => {
      await credit(20_000);
      for (let i = 0; i < 4; i++) {
        const o = await resellerDraft(5_000);
        await claim(o);
        await ledger.orders.finish(o, { state: "unknown", at: at(), result: { reason: "interrupted" } });
        await Promise.all([
          ledger.orders.finish(o, { state: "success", at: at(), result: { sn: "1" } }, { acceptLate: true }),
          ledger.orders.settle(o, { state: "failed", at: at(), adminId: 1, result: { reason: "settled" } }),
        ]);
        expect((await wallet()).held).toBe(0);
      }
    });

    it("when deposits and orders of many resellers meet, then every wallet balances and no saldo goes below 0", async () => {
      const resellers = [8001, 8002, 8003];
      await Promise.all(resellers.map((r) => credit(30_000, r)));
      const drafts = await Promise.all(
        resellers.flatMap((r) => Array.from({ length: 5 }, () => resellerDraft(7_000, r))),
      );
      const work = drafts.map(async (o, i) => {
        const c = await claim(o);
        if (c.kind !== "claimed") return;
        const state = (["success", "failed", "unknown"] as const)[i % 3]!;
        await ledger.orders.finish(o, { state, at: at(), result: { reason: "timeout", detail: "" } });
      });
      const moreMoney = resellers.map((r) => credit(7_000, r));
      await Promise.all([...work, ...moreMoney]);
      for (const r of resellers) {
        const w = await ledger.wallets.get(r);
        expect(w.saldo).toBeGreaterThanOrEqual(0);
        expect(w.deposits).toBe(37_000);
      }
      expect((await ledger.wallets.all()).map((w) => w.userId)).toEqual(expect.arrayContaining(resellers));
    });

    it("when a deposit is credited, then it waits to be told until marked; a second confirm does not ask again", async () => {
      const d = await credit(3_000);
      expect((await ledger.wallets.untoldDeposits()).map((x) => x.id)).toEqual([d.id]);
      await ledger.wallets.confirmDeposit(d.id, { adminId: 2, at: at() });
      expect((await ledger.wallets.untoldDeposits()).map((x) => x.id)).toEqual([d.id]);
      await ledger.wallets.markDepositTold(d.id, at());
      expect(await ledger.wallets.untoldDeposits()).toEqual([]);
      expect((await ledger.wallets.getDeposit(d.id))?.toldAt).toBeTypeOf("string");
    });

    it("when deposits are credited, then a day's range holds exactly those of that day", async () => {
      const first = await credit(1_000);
      const second = await credit(2_000);
      const all = await ledger.wallets.depositsBetween(0, Date.now() + HOUR);
      expect(all.map((d) => d.id)).toEqual([first.id, second.id]);
      expect(all.map((d) => d.saldoAfter)).toEqual([1_000, 3_000]);
      expect(await ledger.wallets.depositsBetween(0, 1)).toEqual([]);
    });

    it("when a statement is read a page at a time, then the pages are newest first and hold every movement once", async () => {
      for (const amount of [10_000, 20_000, 30_000, 40_000, 50_000]) await credit(amount);
      const page0 = await ledger.wallets.statementPage(RESELLER, 0, 2);
      const page1 = await ledger.wallets.statementPage(RESELLER, 1, 2);
      const page2 = await ledger.wallets.statementPage(RESELLER, 2, 2);
      const page3 = await ledger.wallets.statementPage(RESELLER, 3, 2);
      expect(page0.total).toBe(5);
      expect([page0, page1, page2].map((p) => p.movements.map((m) => m.amount))).toEqual([
        [50_000, 40_000],
        [30_000, 20_000],
        [10_000],
      ]);
      expect(page3.movements).toEqual([]);
      expect((await ledger.wallets.statementPage(99, 0, 10)).total).toBe(0);
    });
  });
}
