import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLedger } from "../../src/ledger/create-ledger.js";
import type { Ledger } from "../../src/orders/ledger.js";
import { createDepositRequests, type DepositRequests } from "../../src/deposits/request-service.js";
import { createDepositRequestStore, type DepositRequestStore } from "../../src/deposits/request-store.js";
import { createDeposits } from "../../src/deposits/admin-deposits.js";
import type { Deposit } from "../../src/orders/wallet.js";
import { createLogger } from "../../src/logger.js";
import { createPayInfoStore } from "../../src/shop/pay-info.js";
import { createClaims } from "../../src/storage/claims.js";
import { createOrigins } from "../../src/storage/origins.js";
import type { Storage } from "../../src/storage/storage.js";
import { redisStorage } from "../helpers/redis.js";

const TZ = "Asia/Jakarta";
const RESELLER = 7001;

/**
 * The service on the real Redis, with a process that dies between an admin's decision and the
 * credit: the next look credits the request once, and the reseller is told once.
 */
describe("deposit requests: an approval survives a stop between the decision and the credit", () => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let ledger: Ledger;
  let store: DepositRequestStore;
  let credited: Deposit[];
  let clock: number;

  beforeEach(async () => {
    ({ storage, cleanup } = await redisStorage("deposit-request-service"));
    ledger = createLedger(storage, { timeZone: TZ });
    store = createDepositRequestStore(storage);
    credited = [];
    clock = Date.parse("2026-11-26T03:00:00Z");
  });
  afterEach(() => cleanup());

  /** A bot process: its own service objects over the same Redis. */
  function process(): DepositRequests {
    const logger = createLogger("silent");
    const now = () => new Date(clock);
    const buyerOf = async (userId: number) =>
      userId === RESELLER ? ({ role: "reseller", tier: "gold" } as const) : undefined;
    const deposits = createDeposits({
      wallets: ledger.wallets,
      buyerOf,
      logger,
      events: {
        credited: async (d) => {
          credited.push(d);
          return "told";
        },
        undelivered: async () => undefined,
      },
      origins: createOrigins(storage),
      // As the app builds it: who tells a reseller about a deposit, among all processes.
      claims: createClaims(storage, "deposit-notice"),
      now,
    });
    return createDepositRequests({
      store,
      payInfo: createPayInfoStore(storage),
      wallets: ledger.wallets,
      deposits,
      buyerOf,
      origins: createOrigins(storage),
      events: {
        announce: async () => undefined,
        closed: async () => "told",
        asked: async () => undefined,
        decided: async () => undefined,
      },
      logger,
      limits: { min: 10_000, max: 10_000_000, hours: 24 },
      timeZone: TZ,
      claims: createClaims(storage, "request-notice"),
      now,
    });
  }

  it("when the process dies after Approve's decision, then the next look credits the exact amount once", async () => {
    await createPayInfoStore(storage).set({ text: "BCA 123", by: 1, at: clock });
    const first = process();
    const asked = await first.ask({ resellerId: RESELLER, chatId: RESELLER, lang: "id" }, 100_000, "m:7001:1");
    if (asked.kind !== "made") throw new Error(asked.kind);
    const id = asked.request.id;
    await first.proof(RESELLER, id, { fileId: "f", fileUniqueId: "u", kind: "photo" });
    // The decision lands; the process dies before its credit.
    expect(
      (await store.decide(id, { state: "approved", credited: asked.request.exact }, 1001, clock, "2026-11-26")).kind,
    ).toBe("decided");
    expect((await ledger.wallets.get(RESELLER)).saldo).toBe(0);

    const second = process();
    await second.sweep();
    await second.sweep();
    // An admin's late press on the old button changes nothing.
    const late = await second.approve(id, 1002);
    expect(late.kind).toBe("taken");
    const wallet = await ledger.wallets.get(RESELLER);
    expect(wallet.saldo).toBe(asked.request.exact);
    expect(wallet.deposits).toBe(asked.request.exact);
    expect(credited.map((d) => [d.id, d.amount])).toEqual([[id, asked.request.exact]]);
    const statement = await ledger.wallets.statement(RESELLER);
    expect(statement.map((m) => [m.kind, m.ref, m.amount])).toEqual([["deposit", id, asked.request.exact]]);
    expect(await store.crediting()).toEqual([]);
  });

  it("when two processes approve the same request at once, twenty times, then it is credited once", async () => {
    await createPayInfoStore(storage).set({ text: "BCA 123", by: 1, at: clock });
    const a = process();
    const b = process();
    const asked = await a.ask({ resellerId: RESELLER, chatId: RESELLER, lang: "en" }, 250_000, "m:7001:2");
    if (asked.kind !== "made") throw new Error(asked.kind);
    await b.proof(RESELLER, undefined, { fileId: "f2", fileUniqueId: "u2", kind: "photo" });
    const presses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).approve(asked.request.id, 1001 + (i % 3))),
    );
    expect(presses.filter((p) => p.kind === "approved")).toHaveLength(1);
    expect((await ledger.wallets.get(RESELLER)).saldo).toBe(asked.request.exact);
    expect(credited).toHaveLength(1);
  });
});
