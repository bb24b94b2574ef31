import { createClaims } from "../../src/storage/claims.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLedger } from "../../src/ledger/create-ledger.js";
import type { FinishedHow, OrderEvents } from "../../src/orders/events.js";
import type { OrderRecord } from "../../src/orders/order.js";
import {
  createOrderService,
  type DraftRequest,
  type OrderService,
  type OrderServiceDeps,
} from "../../src/orders/order-service.js";
import { newRefId } from "../../src/orders/ref-id.js";
import { createShop, type Shop } from "../../src/shop/shop.js";
import { createOrigins } from "../../src/storage/origins.js";
import type { Storage } from "../../src/storage/storage.js";
import { createTopupClient } from "../../src/topup/client.js";
import { supplyOf } from "../helpers/supply.js";
import { createSandboxProvider, type SandboxProvider } from "../../src/topup/sandbox.js";
import { redisStorage } from "../helpers/redis.js";
import { draftRequest, TEST_CATALOG } from "./fixtures.js";

const logger = createLogger("silent");

/** A provider that takes the order and never answers: the process "dies" during the call. */
async function silentProvider(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe("the order service on the real Redis: drafts, the submit-once Confirm, settlement, recovery", () => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let sandbox: SandboxProvider;
  let shop: Shop;
  const finished: Array<{ order: OrderRecord; how: FinishedHow }> = [];
  /** Every outcome told to a user, with its heading. */
  const told: Array<{ refId: string; state: string; heading?: string | undefined }> = [];
  const events: OrderEvents = {
    claimed: () => undefined,
    tellOutcome: async (order, heading) => void told.push({ refId: order.refId, state: order.state, heading }),
    finished: async (order, how) => void finished.push({ order, how }),
    interrupted: async (order) => void interrupted.push(order.refId),
  };
  /** Every user told, at a restart, that their order was in flight when the bot stopped. */
  const interrupted: string[] = [];

  beforeEach(async () => {
    finished.length = 0;
    told.length = 0;
    interrupted.length = 0;
    ({ storage, cleanup } = await redisStorage("orders"));
    shop = createShop({ storage, fileCatalog: TEST_CATALOG });
    sandbox = createSandboxProvider({
      mitraId: "M1",
      secretKey: "s3cret",
      products: [{ code: "ML86", name: "86 Diamonds", priceRp: 19000 }],
      latencyMs: 100,
    });
    await sandbox.listen(0, "127.0.0.1");
  });
  afterEach(async () => {
    await sandbox.close();
    await shop.close();
    await cleanup();
  });

  /** The ledger the services write to, read directly. */
  const books = () => createLedger(storage).orders;
  const service = (overrides: Partial<OrderServiceDeps> = {}) =>
    createOrderService({
      ledger: createLedger(storage).orders,
      wallets: createLedger(storage).wallets,
      origins: createOrigins(storage),
      shop,
      supply: supplyOf(
        createTopupClient({ baseUrl: sandbox.url, mitraId: "M1", secretKey: "s3cret", timeoutMs: 5000 }),
        storage,
      ),
      refIdPrefix: "TG",
      timeoutMs: 5000,
      logger,
      events,
      interruptedTold: createClaims(storage, "order-interrupted-told"),
      ...overrides,
    });
  /** A draft the service made (the tests below are about what happens to it). */
  const newDraft = async (orders: OrderService, req: DraftRequest = draftRequest()) => {
    const made = await orders.createDraft(req);
    if (made.kind !== "draft") throw new Error(`no draft: ${made.kind}`);
    return made.draft;
  };
  const confirm = (orders: ReturnType<typeof service>, refId: string, userId = 501) =>
    orders.confirm({ refId, userId });

  it("when two confirms of one ref_id run at once, then the provider gets one call and both see one order", async () => {
    const orders = service();
    const draft = await newDraft(orders);
    const [a, b] = await Promise.all([confirm(orders, draft.refId, 501), confirm(orders, draft.refId, 501)]);
    expect(sandbox.calls.filter((c) => c.refId === draft.refId)).toHaveLength(1);
    expect([a.kind, b.kind].sort()).toEqual(["in-progress", "submitted"]);
    const stored = await books().get(draft.refId);
    expect(stored?.state).toBe("success");
    expect(stored?.result?.sn).toMatch(/^\d+$/);
  });

  it("when two processes (two services on one Redis) confirm the same order, then only one call is made", async () => {
    const first = service();
    const second = service();
    const draft = await newDraft(first);
    const outcomes = await Promise.all([
      confirm(first, draft.refId, 501),
      confirm(second, draft.refId, 501),
      confirm(second, draft.refId, 501),
    ]);
    expect(sandbox.calls).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === "submitted")).toHaveLength(1);
  });

  it("when an order is confirmed, then the ledger holds the write-ahead fields and the provider's answer", async () => {
    const orders = service();
    const draft = await newDraft(orders);
    expect(draft).toMatchObject({
      state: "draft",
      productCode: "ML86",
      playerId: "12345678(1234)",
      price: 20000,
      chatId: 501,
      userId: 501,
    });
    expect(draft.refId).toMatch(/^TG[0-9A-Z]{19}$/);
    const outcome = await confirm(orders, draft.refId, 501);
    expect(outcome.kind).toBe("submitted");
    const stored = (await books().get(draft.refId)) as OrderRecord;
    expect(stored).toMatchObject({
      refId: draft.refId,
      state: "success",
      productName: "86 Diamonds",
      createdAt: draft.createdAt,
    });
    expect(stored.submittedAt).toBeTypeOf("string");
    expect(stored.finishedAt).toBeTypeOf("string");
    expect(stored.result).toMatchObject({
      lastBalance: sandbox.balance(),
      productDetail: { code: "ML86", status: "SUKSES" },
    });
    expect(stored.result?.trxId).toMatch(/^[A-Za-z]+-\d{6}-\d+$/);
  });

  it("when an order is already in the ledger, then a later confirm never calls the provider again", async () => {
    const orders = service();
    const draft = await newDraft(orders);
    await confirm(orders, draft.refId, 501);
    const again = await confirm(orders, draft.refId, 501);
    const fromAnotherProcess = await confirm(service(), draft.refId);
    expect(again.kind).toBe("already");
    expect(fromAnotherProcess.kind).toBe("already");
    expect(sandbox.calls).toHaveLength(1);
  });

  it("when someone else taps Confirm, then nothing is sent", async () => {
    const orders = service();
    const draft = await newDraft(orders);
    expect((await confirm(orders, draft.refId, 999)).kind).toBe("not-yours");
    expect((await confirm(orders, "TGDOESNOTEXIST", 501)).kind).toBe("not-found");
    expect(sandbox.calls).toHaveLength(0);
  });

  it("when an order is cancelled, then Confirm is refused and cancel after confirm is too late", async () => {
    const orders = service();
    const cancelled = await newDraft(orders);
    expect((await orders.cancel({ refId: cancelled.refId, userId: 501, chatId: 501 })).kind).toBe("cancelled");
    expect((await confirm(orders, cancelled.refId, 501)).kind).toBe("cancelled");
    const confirmed = await newDraft(orders);
    await confirm(orders, confirmed.refId, 501);
    expect((await orders.cancel({ refId: confirmed.refId, userId: 501, chatId: 501 })).kind).toBe("too-late");
    expect(sandbox.calls).toHaveLength(1);
  });

  /**
   * An order a first process claimed and sent to a provider that never answers: the process "dies"
   * there. `end` closes that provider, which ends the dead call (it must end inside the test).
   */
  async function abandonedInFlight(clock: () => Date) {
    const silent = await silentProvider();
    let claimed!: () => void;
    const wasClaimed = new Promise<void>((resolve) => (claimed = resolve));
    const dying = service({
      now: clock,
      timeoutMs: 1000,
      supply: supplyOf(
        createTopupClient({ baseUrl: silent.url, mitraId: "M1", secretKey: "s3cret", timeoutMs: 60_000 }),
        storage,
      ),
      events: { ...events, claimed: () => claimed() },
    });
    const draft = await newDraft(dying);
    const call = dying.confirm({ refId: draft.refId, userId: 501 });
    await wasClaimed;
    return {
      draft,
      end: async () => {
        await silent.close();
        await call;
      },
    };
  }

  it("when the bot died while submitting, then after the timeout the order becomes unknown and is never resent", async () => {
    let clock = new Date("2026-11-23T10:00:00Z");
    const { draft, end } = await abandonedInFlight(() => clock);
    try {
      const restarted = service({ now: () => clock, timeoutMs: 1000 });
      expect((await restarted.inFlight()).map((o) => o.refId)).toEqual([draft.refId]);
      expect(await restarted.recoverInterrupted()).toEqual([]); // still within the timeout: it may be in flight
      expect((await confirm(restarted, draft.refId, 501)).kind).toBe("in-progress");

      clock = new Date(clock.getTime() + 10_000);
      const changed = await restarted.recoverInterrupted();
      expect(changed.map((o) => [o.refId, o.state, o.result?.reason])).toEqual([
        [draft.refId, "unknown", "interrupted"],
      ]);
      expect(finished.map((f) => [f.order.refId, f.how])).toEqual([[draft.refId, "recovered"]]);
      expect(told).toEqual([{ refId: draft.refId, state: "unknown", heading: undefined }]);
      expect((await confirm(restarted, draft.refId, 501)).kind).toBe("already");
      expect(await restarted.recoverInterrupted()).toEqual([]);
      expect(sandbox.calls).toHaveLength(0);
    } finally {
      await end();
    }
  });

  it("when two processes see the restart of an order in flight, then its user hears once that the result is unknown, and recovery only brings the summary up to date", async () => {
    let clock = new Date("2026-11-23T10:00:00Z");
    const { draft, end } = await abandonedInFlight(() => clock);
    try {
      const one = service({ now: () => clock, timeoutMs: 1000 });
      const two = service({ now: () => clock, timeoutMs: 1000 });
      const inFlight = await one.inFlight();
      await Promise.all([one.tellInterrupted(inFlight), two.tellInterrupted(inFlight), one.tellInterrupted(inFlight)]);
      expect(interrupted).toEqual([draft.refId]);

      clock = new Date(clock.getTime() + 10_000);
      expect((await two.recoverInterrupted()).map((o) => o.refId)).toEqual([draft.refId]);
      // Told as an outcome the user has already read: no second "result unknown".
      expect(told).toEqual([{ refId: draft.refId, state: "unknown", heading: "told" }]);
      expect(finished.map((f) => [f.order.refId, f.how])).toEqual([[draft.refId, "recovered"]]);
      expect(sandbox.calls).toHaveLength(0);
    } finally {
      await end();
    }
  });

  it("when a Confirm finds an order stuck in submitting long after its timeout, then it is settled as unknown there and then", async () => {
    let clock = new Date("2026-11-23T10:00:00Z");
    const { draft, end } = await abandonedInFlight(() => clock);
    try {
      clock = new Date(clock.getTime() + 10_000);
      const tap = await confirm(service({ now: () => clock, timeoutMs: 1000 }), draft.refId);
      expect(tap.kind === "already" && [tap.order.state, tap.order.result?.reason]).toEqual(["unknown", "interrupted"]);
      // Its user hears of it once (the recovery's telling), not once more for the tap.
      expect(told).toEqual([{ refId: draft.refId, state: "unknown", heading: undefined }]);
    } finally {
      await end();
    }
  });

  it("when an order is confirmed, then its user is told the outcome once, however often Confirm is tapped again", async () => {
    const orders = service();
    const draft = await newDraft(orders);
    await confirm(orders, draft.refId);
    await confirm(orders, draft.refId);
    await confirm(service(), draft.refId);
    expect(told).toEqual([{ refId: draft.refId, state: "success", heading: undefined }]);
    expect((await books().get(draft.refId))?.notifiedAt).toBeTypeOf("string");
    expect(finished.map((f) => f.how)).toEqual(["confirmed"]);
  });

  it("when orders are paused, then no draft is made, and a summary shown before is not sent at Confirm", async () => {
    const orders = service();
    const shown = await newDraft(orders);
    await shop.pause({ reason: "stock count", by: 1, at: new Date().toISOString() });
    expect(await orders.createDraft(draftRequest())).toEqual({
      kind: "paused",
      pause: expect.objectContaining({ reason: "stock count" }),
    });
    expect((await orders.openCatalog()).kind).toBe("paused");
    const tap = await confirm(orders, shown.refId);
    expect(tap.kind === "paused" && tap.pause.reason).toBe("stock count");
    expect((await books().get(shown.refId))?.state).toBe("draft");
    await shop.resume();
    expect((await confirm(orders, shown.refId)).kind).toBe("submitted");
    expect(sandbox.calls).toHaveLength(1);
  });

  it("when a product is not for sale to the buyer, then no draft is made; a reseller's draft is at their tier's price", async () => {
    const orders = service();
    expect(await orders.createDraft(draftRequest({ productCode: "FF70" }))).toEqual({
      kind: "not-offered",
      code: "FF70",
    });
    expect(await orders.createDraft(draftRequest({ playerId: "not an id" }))).toEqual({
      kind: "bad-player-id",
      playerId: "not an id",
    });
    const reseller = await orders.createDraft(
      draftRequest({ userId: 777, buyer: { role: "reseller", tier: "reseller" } }),
    );
    expect(reseller.kind === "draft" && [reseller.draft.price, reseller.draft.role, reseller.saldo]).toEqual([
      19000,
      "reseller",
      0,
    ]);
    await shop.edit(1, (catalog) => ({
      catalog: {
        games: catalog.games.map((g) => ({ ...g, products: g.products.map((p) => ({ ...p, disabled: true })) })),
      },
      result: undefined,
    }));
    expect(await orders.createDraft(draftRequest())).toEqual({
      kind: "not-offered",
      code: "ML86",
      product: "86 Diamonds",
    });
  });

  it("when ref_ids are generated, then they are unique and carry the prefix", () => {
    const now = new Date();
    const ids = new Set(Array.from({ length: 10_000 }, () => newRefId("SHOP", now)));
    expect(ids.size).toBe(10_000);
    for (const id of ids) expect(id).toMatch(/^SHOP[0-9A-Z]{19}$/);
  });

  it("when two admins settle one unknown order at the same moment, then it is settled once and the user is told once", async () => {
    // A provider answering HTML with 502: the result of the order is unknown.
    const broken = createServer((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html>502 Bad Gateway</html>");
    });
    await new Promise<void>((resolve) => broken.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
      const orders = service({
        supply: supplyOf(
          createTopupClient({ baseUrl: url, mitraId: "M1", secretKey: "s3cret", timeoutMs: 5000 }),
          storage,
        ),
      });
      const draft = await newDraft(orders);
      const outcome = await confirm(orders, draft.refId);
      expect(outcome.kind === "submitted" && outcome.order.state).toBe("unknown");
      expect((await books().pending()).map((o) => o.refId)).toEqual([draft.refId]);
      finished.length = 0;
      const [a, b] = await Promise.all([
        orders.settle({ refId: draft.refId, adminId: 1, outcome: { state: "success", sn: "111" } }),
        service().settle({ refId: draft.refId, adminId: 2, outcome: { state: "failed", reason: "no" } }),
      ]);
      expect([a.kind, b.kind].sort()).toEqual(["not-pending", "settled"]);
      const stored = await books().get(draft.refId);
      expect(stored?.state === "success" ? stored.result?.sn : stored?.result?.errorMsg).toBe(
        a.kind === "settled" ? "111" : "no",
      );
      expect(finished.map((f) => f.how)).toEqual(["settled"]);
      expect(await books().pending()).toEqual([]);
      expect(
        (await orders.settle({ refId: draft.refId, adminId: 1, outcome: { state: "success", sn: "2" } })).kind,
      ).toBe("not-pending");
    } finally {
      broken.closeAllConnections();
      await new Promise((resolve) => broken.close(resolve));
    }
  });

  it("when many orders finish at once, then the indexes and the last balance lose none of them", async () => {
    const orders = service();
    sandbox.deposit(1_000_000);
    const drafts = await Promise.all(
      Array.from({ length: 15 }, (_, i) => newDraft(orders, draftRequest({ userId: 600 + (i % 3) }))),
    );
    await Promise.all(drafts.map((d) => confirm(orders, d.refId, d.userId)));
    const all = await books().history("all", 0, 100);
    expect(all.total).toBe(15);
    expect((await books().history(600, 0, 10)).total).toBe(5);
    const day = await books().submittedBetween(0, Date.now() + 1000);
    expect(day.filter((o) => o.state === "success")).toHaveLength(15);
    expect((await books().lastBalance())?.balance).toBe(sandbox.balance());
  });
});
