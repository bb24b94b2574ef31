import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLedger } from "../../src/ledger/create-ledger.js";
import type { Ledger } from "../../src/orders/ledger.js";
import type { OrderRecord } from "../../src/orders/order.js";
import { createPartnerCallbacks } from "../../src/partners/callbacks-owed.js";
import { createRecentOrders } from "../../src/storage/recent-orders.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { writePastDeposit } from "../helpers/ledger-history.js";
import { redisStorage, uniquePrefix } from "../helpers/redis.js";
import { draft } from "../orders/fixtures.js";

const PARTNER = 7201;
const PRICE = 19_000;

/** A partner's order as the H2H API makes it: never saved as a draft, claimed with it. */
const apiOrder = (over: Partial<OrderRecord> = {}): OrderRecord =>
  draft({
    chatId: 0,
    userId: PARTNER,
    userName: "Toko Budi",
    role: "reseller",
    tier: "reseller",
    price: PRICE,
    ...over,
  });

const stores = {
  redis: async () => redisStorage("claim-whole"),
  memory: async () => {
    const storage = await createStorage({ redisUrl: undefined, prefix: uniquePrefix("claim-whole") });
    return { storage, cleanup: () => storage.close() };
  },
};

describe.each(Object.entries(stores))("an order claimed in one step with its draft (%s)", (_name, open) => {
  let storage: Storage;
  let books: Ledger;
  let cleanup: () => Promise<void>;
  const at = () => new Date().toISOString();

  beforeEach(async () => {
    ({ storage, cleanup } = await open());
    books = createLedger(storage, { timeZone: "Asia/Jakarta" });
  });
  afterEach(() => cleanup());

  const fund = (amount: number) =>
    writePastDeposit(
      books.wallets,
      {
        id: `DEPW${Date.now()}${Math.random()}`,
        resellerId: PARTNER,
        amount,
        note: "",
        adminId: 1,
        chatId: 1,
        createdAt: at(),
      },
      { at: at() },
    );
  const owed = async () =>
    (await createPartnerCallbacks(storage).due(Number.MAX_SAFE_INTEGER, 100)).map((c) => c.refId);

  it("when it is claimed, then it is being sent with its price held, its partner's ref id used, its callback owed and its player noted, all at once", async () => {
    await fund(50_000);
    const order = apiOrder();
    const claim = await books.orders.claim(order.refId, {
      userId: PARTNER,
      at: at(),
      draft: order,
      partnerRef: "REF-1",
      oweAtMs: 1_000,
      recentMs: 60_000,
    });
    expect(claim).toMatchObject({
      kind: "claimed",
      order: { refId: order.refId, state: "submitting", saldoAfter: 31_000 },
    });
    expect(await books.orders.get(order.refId)).toMatchObject({
      state: "submitting",
      price: PRICE,
      userName: "Toko Budi",
    });
    expect(await books.orders.partnerOrder(PARTNER, "REF-1")).toBe(order.refId);
    expect(await books.wallets.get(PARTNER)).toMatchObject({ saldo: 31_000, held: PRICE });
    expect(await createPartnerCallbacks(storage).due(1_000, 10)).toEqual([
      { refId: order.refId, dueAt: 1_000, since: 1_000, attempts: 0 },
    ]);
    expect(await createRecentOrders(storage).latest("ML86", order.playerId)).toMatchObject({
      refId: order.refId,
      userId: PARTNER,
      userName: "Toko Budi",
    });
    expect(await createRecentOrders(storage).latest("ML86", order.playerId, PARTNER)).toMatchObject({
      refId: order.refId,
    });
  });

  it("when it is refused (saldo short, or its ref id used before), then nothing of it is left: no order, no hold, no callback, the ref id as it was", async () => {
    await fund(10_000);
    const short = apiOrder();
    const refused = await books.orders.claim(short.refId, {
      userId: PARTNER,
      at: at(),
      draft: short,
      partnerRef: "REF-2",
      oweAtMs: 1_000,
      recentMs: 60_000,
    });
    expect(refused).toEqual({ kind: "short", saldo: 10_000 });
    expect(await books.orders.get(short.refId)).toBeUndefined();
    expect(await books.orders.partnerOrder(PARTNER, "REF-2")).toBeUndefined();
    expect(await books.wallets.get(PARTNER)).toMatchObject({ saldo: 10_000, held: 0 });
    expect(await owed()).toEqual([]);
    expect(await createRecentOrders(storage).latest("ML86", short.playerId)).toBeUndefined();

    // The same ref id, once there is saldo: it orders; a second order under it is refused as used.
    await fund(30_000);
    const first = apiOrder();
    expect(
      await books.orders.claim(first.refId, { userId: PARTNER, at: at(), draft: first, partnerRef: "REF-2" }),
    ).toMatchObject({ kind: "claimed" });
    const second = apiOrder();
    expect(
      await books.orders.claim(second.refId, {
        userId: PARTNER,
        at: at(),
        draft: second,
        partnerRef: "REF-2",
        oweAtMs: 5,
      }),
    ).toEqual({ kind: "used", refId: first.refId });
    expect(await books.orders.get(second.refId)).toBeUndefined();
    expect(await books.wallets.get(PARTNER)).toMatchObject({ saldo: 40_000 - PRICE, held: PRICE });
    expect(await owed()).toEqual([]);
  });

  it("when its outcome is recorded while the partner waits for the answer, then it is told and owes no callback; an unknown one still does", async () => {
    await fund(50_000);
    const sold = apiOrder();
    const lost = apiOrder({ playerId: "87654321(4321)" });
    for (const [o, ref] of [
      [sold, "REF-3"],
      [lost, "REF-4"],
    ] as const)
      await books.orders.claim(o.refId, { userId: PARTNER, at: at(), draft: o, partnerRef: ref, oweAtMs: 1_000 });
    expect((await owed()).sort()).toEqual([sold.refId, lost.refId].sort());

    const done = await books.orders.finish(
      sold,
      { state: "success", at: at(), result: { sn: "SN-1", trxId: "TRX-1", destinationName: "Ayu" } },
      { answered: true },
    );
    expect(done).toMatchObject({ kind: "finished", order: { state: "success", notifiedAt: expect.any(String) } });
    const unknown = await books.orders.finish(
      lost,
      { state: "unknown", at: at(), result: { reason: "timeout", detail: "no answer" } },
      { answered: true },
    );
    expect(unknown.kind === "finished" && unknown.order.notifiedAt).toBeUndefined();
    expect(await owed()).toEqual([lost.refId]);
    expect(await books.wallets.get(PARTNER)).toMatchObject({ saldo: 50_000 - 2 * PRICE, held: PRICE, spent: PRICE });
  });
});

describe.each(Object.entries(stores))("orders claimed out of their time order (%s)", (_name, open) => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ storage, cleanup } = await open()));
  afterEach(() => cleanup());

  it("when claims arrive far from, near to and before the last one of their day, then the day lists every order in time order", async () => {
    const books = createLedger(storage, { timeZone: "Asia/Jakarta" });
    const start = Date.parse("2026-11-20T03:00:00Z");
    // Every second order first, then the others (the first of them land far from the end of the
    // day, the last ones near it), then one before them all.
    const seconds = [
      ...Array.from({ length: 150 }, (_, i) => 2 * i),
      ...Array.from({ length: 150 }, (_, i) => 2 * i + 1),
      -1,
    ];
    const made = new Map<number, string>();
    for (const s of seconds) {
      const order = draft({ playerId: `${10_000_000 + s}(1234)` });
      await books.orders.saveDraft(order, 60_000);
      const at = new Date(start + s * 1000).toISOString();
      expect(await books.orders.claim(order.refId, { userId: order.userId, at })).toMatchObject({ kind: "claimed" });
      made.set(s, order.refId);
    }
    const listed = await books.orders.submittedBetween(start - 10_000, start + 400_000);
    expect(listed.map((o) => o.refId)).toEqual([...made.keys()].sort((a, b) => a - b).map((s) => made.get(s)));
  });
});
