import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLedger } from "../../src/ledger/create-ledger.js";
import type { Ledger } from "../../src/orders/ledger.js";
import type { OrderRecord, OrderResult } from "../../src/orders/order.js";
import { orderLine } from "../../src/orders/order-line.js";
import { newRefId } from "../../src/orders/ref-id.js";
import type { Storage } from "../../src/storage/storage.js";
import type { ProductDetail } from "../../src/topup/types.js";
import { keysOf, redisStorage } from "../helpers/redis.js";
import { linesBetween } from "./ledger-views.js";

/*
 * A day's CSV reads a recent order from the line its outcome's step kept, not from its hash. Whatever
 * an order holds, the line read that way must be the line of the whole order, and a day whose kept
 * lines are gone (deleted, or written before lines were kept) must read the same from the hashes.
 */

const DAY_MS = 86_400_000;
const START = Date.parse("2026-05-01T00:00:00Z");

/** Texts as users and providers write them: separators the line uses, line breaks, long ones, emoji. */
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "grapheme", maxLength: 90 }),
  fc.constantFrom("", "\u0001", "\u0002", "\u0003a", "a\u0001b\u0002c\u0003d", "line\nbreak", "tab\there", "Dewi 🌸"),
  fc.string({ minLength: 61, maxLength: 200 }),
);
const money = fc.oneof(fc.integer({ min: 0, max: 1e12 }), fc.constantFrom(-5, 1.5));

const result: fc.Arbitrary<OrderResult> = fc.record(
  {
    trxId: text,
    destinationName: text,
    sn: text,
    lastBalance: money,
    message: text,
    productDetail: fc.oneof(
      fc.record({ name: text, code: text, price: money, rate: money, priceRp: money, status: text }),
      fc.record({ name: text }, { requiredKeys: [] }).map((d) => d as ProductDetail),
    ),
    errorCode: text,
    errorMsg: text,
    reason: fc.constantFrom("provider-error" as const, "not-sent" as const, "timeout" as const),
    detail: text,
    providerPrice: money,
    providerPriceFrom: fc.constantFrom("admin" as const, "last-seen" as const),
  },
  { requiredKeys: [] },
);

const story = fc.record({
  userName: text,
  productCode: text,
  productName: text,
  playerId: text,
  price: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 1e8 })),
  role: fc.constantFrom(undefined, "staff" as const, "admin" as const, "reseller" as const),
  tier: fc.option(text, { nil: undefined }),
  /** The submit time as the claim got it: an ISO time, or another form of the same instant. */
  isoAt: fc.boolean(),
  outcome: fc.constantFrom("success" as const, "failed" as const, "unknown" as const),
  result,
  /** Several providers: the first attempt's, and the providers it went on to after refusals. */
  route: fc.option(
    fc.record({
      provider: fc.constantFrom("main", "backup"),
      code: fc.option(text, { nil: undefined }),
      then: fc.array(fc.record({ provider: fc.constantFrom("main", "backup", "p2"), errorMsg: text }), {
        maxLength: 2,
      }),
    }),
  ),
  /** For an unknown outcome: an admin's verdict afterwards, or a late answer of the provider. */
  then: fc.option(
    fc.record({ state: fc.constantFrom("success" as const, "failed" as const), late: fc.boolean(), result }),
  ),
});

describe("a day's lines, read from the lines kept when orders finish (Redis)", () => {
  let storage: Storage;
  let ledger: Ledger;
  let prefix: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, prefix, cleanup } = await redisStorage("kept-lines"));
    ledger = createLedger(storage, { timeZone: "Asia/Jakarta" });
    await ledger.upgrade();
  });
  afterAll(async () => cleanup());

  const made = (at: number, over: Partial<OrderRecord> = {}): OrderRecord => ({
    refId: newRefId("TG", new Date(at)),
    chatId: 700,
    userId: 700,
    userName: "Sari",
    lang: "id",
    gameName: "Mobile Legends",
    productCode: "ML86",
    productName: "86 Diamonds",
    price: 20_000,
    playerId: "12345678(1234)",
    createdAt: new Date(at).toISOString(),
    state: "draft",
    ...over,
  });

  async function submit(order: OrderRecord, at: string, attempt?: { provider: string; code: string }) {
    if (order.role === "reseller") {
      // A reseller's order holds its price from the saldo: the saldo first.
      const id = newRefId("DP", new Date(START));
      const iso = new Date(START).toISOString();
      await ledger.wallets.saveDeposit(
        { id, resellerId: order.userId, amount: 1e9, note: "", adminId: 1, chatId: 1, createdAt: iso, state: "draft" },
        DAY_MS,
      );
      expect((await ledger.wallets.confirmDeposit(id, { adminId: 1, at: iso })).kind).toBe("done");
    }
    await ledger.orders.saveDraft(order, DAY_MS);
    const claim = await ledger.orders.claim(order.refId, { userId: order.userId, at, ...(attempt ? { attempt } : {}) });
    expect(claim.kind).toBe("claimed");
  }

  it("when orders of every shape finish (a result, an unknown, then a verdict or a late answer), then each reads as the line of the whole order", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(story, async (s) => {
        n += 1;
        // Each order on a second of its own, so that reading that second reads only it.
        const ms = START + n * 1000;
        const order = made(ms - 500, {
          userId: 800 + n,
          chatId: 800 + n,
          userName: s.userName,
          productCode: s.productCode,
          productName: s.productName,
          playerId: s.playerId,
          price: s.price,
          ...(s.role === undefined ? {} : { role: s.role }),
          ...(s.tier === undefined ? {} : { tier: s.tier }),
        });
        const iso = new Date(ms).toISOString();
        const route = s.route;
        await submit(
          order,
          s.isoAt ? iso : `${iso.slice(0, 19)}+00:00`,
          route === null ? undefined : { provider: route.provider, code: route.code ?? order.productCode },
        );
        let from = order.refId;
        for (const [i, next] of (route?.then ?? []).entries()) {
          const refId = `${order.refId}R${i + 2}`;
          const step = await ledger.orders.nextAttempt(order, {
            from,
            refusal: { reason: "provider-error", errorCode: "product/unavailable", errorMsg: next.errorMsg },
            next: { provider: next.provider, code: order.productCode, refId, at: new Date(ms + 10 + i).toISOString() },
          });
          expect(step.kind).toBe("next");
          from = refId;
        }
        const finishAt = new Date(ms + 100).toISOString();
        expect((await ledger.orders.finish(order, { state: s.outcome, at: finishAt, result: s.result })).kind).toBe(
          "finished",
        );
        if (s.outcome === "unknown" && s.then !== null) {
          const at = new Date(ms + 200).toISOString();
          if (s.then.late)
            await ledger.orders.finish(order, { state: s.then.state, at, result: s.then.result }, { acceptLate: true });
          else await ledger.orders.settle(order, { state: s.then.state, at, result: s.then.result, adminId: 1 });
        }
        const whole = await ledger.orders.get(order.refId);
        expect(await linesBetween(ledger.orders, ms, ms)).toEqual([orderLine(whole!)]);
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it("when a range holds more orders than one read takes (a compacted day, one with kept lines, one without), then each is read once, oldest first", async () => {
    const first = Date.parse("2026-07-01T00:00:00Z");
    // Three UTC days, 1,667 orders each: more than the 5,000 one script reads.
    const orders = Array.from({ length: 5_001 }, (_, i) =>
      made(first + Math.floor(i / 1_667) * DAY_MS + (i % 1_667) * 50_000, { userId: 5_000 + (i % 7) }),
    );
    const submittedAt = (i: number) => new Date(first + Math.floor(i / 1_667) * DAY_MS + (i % 1_667) * 50_000 + 1_000);
    for (let i = 0; i < orders.length; i += 200)
      await Promise.all(
        orders.slice(i, i + 200).map(async (o, j) => {
          const at = submittedAt(i + j);
          await submit(o, at.toISOString());
          const state = (i + j) % 10 === 3 ? "failed" : "success";
          await ledger.orders.finish(o, {
            state,
            at: new Date(at.getTime() + 500).toISOString(),
            result: state === "failed" ? { errorMsg: `no. ${i + j}` } : { sn: `SN${i + j}` },
          });
        }),
      );
    // The first day compacted, the third day's kept lines gone (read from the hashes).
    await ledger.compact({ before: new Date(first + DAY_MS), now: new Date(first + 400 * DAY_MS) });
    if (storage.kind !== "redis") throw new Error("redis expected");
    await storage.redis.del(`${prefix}tl:${Math.floor(first / DAY_MS) + 2}`);
    const lines = await linesBetween(ledger.orders, first, first + 3 * DAY_MS - 1);
    expect(lines.map((l) => l.refId)).toEqual(orders.map((o) => o.refId));
    const whole = await ledger.orders.getMany(orders.map((o) => o.refId));
    expect(lines).toEqual(whole.map(orderLine));
  }, 60_000);

  it("when a day's kept lines are deleted, then its lines read the same from the orders, and compaction leaves no kept line behind", async () => {
    const day = Date.parse("2026-06-02T00:00:00Z");
    const orders = [0, 1, 2, 3].map((i) => made(day + i * 60_000, { userId: 900 + i, chatId: 900 + i }));
    for (const [i, o] of orders.entries()) await submit(o, new Date(day + i * 60_000 + 1_000).toISOString());
    const at = (i: number) => new Date(day + i * 60_000 + 2_000).toISOString();
    await ledger.orders.finish(orders[0]!, { state: "success", at: at(0), result: { trxId: "T1", sn: "SN1" } });
    await ledger.orders.finish(orders[1]!, { state: "failed", at: at(1), result: { errorMsg: "Saldo\ntidak cukup" } });
    await ledger.orders.finish(orders[2]!, { state: "unknown", at: at(2), result: { reason: "timeout" } });
    await ledger.orders.settle(orders[2]!, { state: "success", at: at(3), result: { sn: "SN3" }, adminId: 1 });
    // orders[3] is still being sent: it has no line yet.
    const range = { from: day, to: day + DAY_MS - 1 };
    const expected = await Promise.all(orders.map(async (o) => orderLine((await ledger.orders.get(o.refId))!)));
    expect(await linesBetween(ledger.orders, range.from, range.to)).toEqual(expected);

    if (storage.kind !== "redis") throw new Error("redis expected");
    // The time index's day: whole UTC days since 1970.
    const kept = `tl:${Math.floor(day / DAY_MS)}`;
    expect(await keysOf(prefix, kept)).toEqual([kept]);
    // One line per outcome step: the unknown and its verdict are two, the last one counts.
    expect(await storage.redis.lLen(`${prefix}${kept}`)).toBe(4);
    await storage.redis.del(`${prefix}${kept}`);
    expect(await linesBetween(ledger.orders, range.from, range.to)).toEqual(expected);

    await ledger.orders.finish(orders[3]!, { state: "success", at: at(4), result: { sn: "SN4" } });
    const all = await Promise.all(orders.map(async (o) => orderLine((await ledger.orders.get(o.refId))!)));
    expect(await linesBetween(ledger.orders, range.from, range.to)).toEqual(all);
    const later = new Date(day + 400 * DAY_MS);
    await ledger.compact({ before: later, now: later });
    expect(await keysOf(prefix, kept)).toEqual([]);
    expect(await linesBetween(ledger.orders, range.from, range.to)).toEqual(all);
  });
});
