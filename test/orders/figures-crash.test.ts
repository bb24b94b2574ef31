import { createClaims } from "../../src/storage/claims.js";
import { dayIn, dayRange } from "../../src/calendar.js";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { createLedger } from "../../src/ledger/create-ledger.js";
import { createDeposits } from "../../src/deposits/admin-deposits.js";
import type { OrderEvents } from "../../src/orders/events.js";
import type { Ledger, OrderLedger } from "../../src/orders/ledger.js";
import { createMemoryLedger } from "../../src/ledger/memory.js";
import { createOrderService } from "../../src/orders/order-service.js";
import { hoursOf } from "../../src/orders/day-figures.js";
import { sumOrders } from "../helpers/day-sums.js";
import type { Wallets } from "../../src/orders/wallet.js";
import { walletBalances } from "../helpers/wallet-balances.js";
import { createShop } from "../../src/shop/shop.js";
import { createOrigins } from "../../src/storage/origins.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import type { TopupClient, TopupResult } from "../../src/topup/types.js";
import { supplyOf } from "../helpers/supply.js";
import { redisStorage } from "../helpers/redis.js";
import { TEST_CATALOG } from "./fixtures.js";
import { replay } from "../ledger/wallets.contract.js";

const TZ = "Asia/Jakarta";
const T0 = Date.parse("2026-03-10T03:00:00Z");
const logger = createLogger("silent");
const events: OrderEvents = {
  claimed: () => undefined,
  tellOutcome: async () => undefined,
  finished: async () => undefined,
  interrupted: async () => undefined,
};

class Crash extends Error {}

/** The provider's answer by player id: 1… success, 2… failed, 3… unknown. */
const topup: TopupClient = {
  async order(req): Promise<TopupResult> {
    const detail = { name: "86 Diamonds", code: "ML86", price: 19000, rate: 1, priceRp: 19000, status: "SUKSES" };
    if (req.destination.startsWith("1"))
      return {
        kind: "success",
        trxId: `T-${req.refId}`,
        refId: req.refId,
        destination: req.destination,
        destinationName: "Budi",
        message: "SUKSES",
        sn: "123",
        lastBalance: 900_000,
        productDetail: detail,
      };
    if (req.destination.startsWith("2"))
      return { kind: "failed", reason: "provider-error", errorCode: "E1", errorMsg: "nope" };
    return { kind: "unknown", reason: "status-not-sukses", detail: "PENDING" };
  },
};

/**
 * The ledger's steps as a process sees them, the process dying at the `at`-th step: before the step
 * (it never ran) or after it (it ran; the caller never heard). Everything after is never done.
 */
function dying(ledger: Ledger, plan: { at: number; after: boolean } | undefined) {
  let steps = 0;
  let dead = false;
  const step =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (dead) throw new Crash("dead");
      steps += 1;
      if (plan !== undefined && steps === plan.at) {
        dead = true;
        if (!plan.after) throw new Crash("before");
        await fn(...args);
        throw new Crash("after");
      }
      return fn(...args);
    };
  const o = ledger.orders;
  const orders: OrderLedger = {
    ...o,
    saveDraft: step(o.saveDraft.bind(o)),
    claim: step(o.claim.bind(o)),
    cancel: step(o.cancel.bind(o)),
    finish: step(o.finish.bind(o)),
    settle: step(o.settle.bind(o)),
    markNotified: step(o.markNotified.bind(o)),
  };
  const w = ledger.wallets;
  const wallets: Wallets = {
    ...w,
    saveDeposit: step(w.saveDeposit.bind(w)),
    confirmDeposit: step(w.confirmDeposit.bind(w)),
    markDepositTold: step(w.markDepositTold.bind(w)),
  };
  return { orders, wallets, steps: () => steps };
}

/**
 * A morning of a shop through the order service's own callers (drafts, Confirm, the outcome,
 * telling, recovery, settlement, deposits): the process dies at one step, a new one starts ten
 * minutes later and recovers; then the day's figures must equal a recount of its orders, and every
 * wallet its statement.
 */
async function morning(storage: Storage, ledger: Ledger, plan: { at: number; after: boolean } | undefined) {
  const shop = createShop({ storage, fileCatalog: TEST_CATALOG });
  let clock = T0;
  const now = () => new Date((clock += 1000));
  const crashing = dying(ledger, plan);
  const service = (l: { orders: OrderLedger; wallets: Wallets }) =>
    createOrderService({
      ledger: l.orders,
      wallets: l.wallets,
      origins: createOrigins(storage),
      shop,
      supply: supplyOf(topup, storage),
      refIdPrefix: "TG",
      timeoutMs: 60_000,
      logger,
      events,
      interruptedTold: createClaims(storage, "order-interrupted-told"),
      now,
      recordRetryMs: 0, // a dead process does not wait to try again
    });
  const first = service(crashing);
  const deposits = createDeposits({
    wallets: crashing.wallets,
    buyerOf: async (userId) => (userId === 7001 ? { role: "reseller", tier: "reseller" } : undefined),
    logger,
    events: { credited: async () => "told" as const, undelivered: async () => {} },
    origins: createOrigins(storage),
    now,
  });
  const staff = { chatId: 501, userId: 501, userName: "Sari", lang: "id" as const, buyer: { role: "staff" as const } };
  const reseller = {
    chatId: 7001,
    userId: 7001,
    userName: "Dewi",
    lang: "id" as const,
    buyer: { role: "reseller" as const, tier: "reseller" },
  };
  const order = async (who: typeof staff | typeof reseller, playerId: string) => {
    const made = await first.createDraft({ ...who, productCode: "ML86", playerId });
    if (made.kind !== "draft") throw new Error(made.kind);
    const r = await first.confirm({ refId: made.draft.refId, userId: who.userId });
    return r.kind === "submitted" ? r.order : undefined;
  };
  try {
    const d = await deposits.prepare({ resellerId: 7001, amount: 100_000, note: "", adminId: 1, chatId: 1 });
    if (d.kind === "prepared") await deposits.confirm(d.deposit.id, 1);
    await order(staff, "11111111(1111)");
    await order(staff, "22222222(2222)");
    const unknown = await order(staff, "33333333(3333)");
    await order(reseller, "11111111(1111)");
    const resellerUnknown = await order(reseller, "33333333(3333)");
    await order(reseller, "22222222(2222)");
    if (unknown !== undefined)
      await first.settle({ refId: unknown.refId, adminId: 1, outcome: { state: "success", sn: "S1" } });
    if (resellerUnknown !== undefined)
      await first.settle({ refId: resellerUnknown.refId, adminId: 1, outcome: { state: "failed", reason: "no" } });
    const c = await deposits.prepare({ resellerId: 7001, amount: -5_000, note: "fix", adminId: 1, chatId: 1 });
    if (c.kind === "prepared") await deposits.confirm(c.deposit.id, 1);
  } catch (err) {
    if (!(err instanceof Crash)) throw err;
  }
  // The next start, ten minutes on: orders left in flight become unknown, once.
  clock += 10 * 60_000;
  await service(ledger).recoverInterrupted();
  await shop.close();
  return crashing.steps();
}

async function expectBooksAgree(ledger: Ledger) {
  const day = dayIn(TZ, new Date(T0));
  const range = dayRange(day, TZ)!;
  const orders = await ledger.orders.submittedBetween(range.fromMs, range.toMs);
  const deposits = await ledger.wallets.depositsBetween(range.fromMs, range.toMs);
  const { balance: _balance, ...kept } = await ledger.orders.dayFigures(day);
  expect(kept).toEqual({
    ...sumOrders(orders, deposits),
    byHour: hoursOf(orders, TZ),
    deposits: deposits.reduce((s, d) => s + d.amount, 0),
  });
  expect(orders.filter((o) => o.state === "submitting")).toEqual([]);
  for (const w of await ledger.wallets.all()) {
    expect(walletBalances(w)).toBe(true);
    expect(replay(w.userId, await ledger.wallets.statement(w.userId, 1_000))).toEqual(w);
  }
  const wallets = await ledger.wallets.all();
  expect(await ledger.wallets.totals()).toEqual({
    saldo: wallets.reduce((s, w) => s + w.saldo, 0),
    held: wallets.reduce((s, w) => s + w.held, 0),
  });
}

describe("the day figures when the process dies at any step of the ledger's callers", () => {
  for (const [name, open] of [
    [
      "Redis",
      async () => {
        const { storage, cleanup } = await redisStorage("crash");
        return { storage, ledger: createLedger(storage, { timeZone: TZ }), cleanup };
      },
    ],
    [
      "memory",
      async () => {
        const storage = await createStorage({ redisUrl: undefined, prefix: "m:" });
        return {
          storage,
          ledger: createMemoryLedger({ timeZone: TZ }),
          cleanup: () => storage.close(),
        };
      },
    ],
  ] as const) {
    it(`when a process dies before or after each step and the next one recovers, then every figure equals a recount and every wallet its statement (${name})`, async () => {
      const whole = await open();
      const steps = await morning(whole.storage, whole.ledger, undefined);
      await expectBooksAgree(whole.ledger);
      await whole.cleanup();
      expect(steps).toBeGreaterThan(20);
      for (let at = 1; at <= steps; at++) {
        for (const after of [false, true]) {
          const run = await open();
          try {
            await morning(run.storage, run.ledger, { at, after });
            await expectBooksAgree(run.ledger);
          } finally {
            await run.cleanup();
          }
        }
      }
    }, 60_000);
  }
});
