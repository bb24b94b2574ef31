import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import type { OrderRecord } from "../../src/orders/order.js";
import { createOrderService, newRefId, type DraftInput } from "../../src/orders/order-service.js";
import type { Store } from "../../src/storage/store.js";
import { createTopupClient } from "../../src/topup/client.js";
import { createSandboxProvider, type SandboxProvider } from "../../src/topup/sandbox.js";
import { redisStore } from "../helpers/redis.js";

const logger = createLogger("silent");
const draftInput: DraftInput = {
  chatId: 501,
  userId: 501,
  userName: "Sari",
  lang: "id",
  gameName: "Mobile Legends",
  productCode: "ML86",
  productName: "86 Diamonds",
  price: 20000,
  playerId: "12345678(1234)",
};

describe("order ledger and submit-once guard on the real Redis", () => {
  let store: Store;
  let cleanup: () => Promise<void>;
  let sandbox: SandboxProvider;

  beforeEach(async () => {
    ({ store, cleanup } = await redisStore("orders"));
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
    await cleanup();
  });

  const service = (overrides: Partial<Parameters<typeof createOrderService>[0]> = {}) =>
    createOrderService({
      store,
      topup: createTopupClient({ baseUrl: sandbox.url, mitraId: "M1", secretKey: "s3cret", timeoutMs: 5000 }),
      refIdPrefix: "TG",
      timeoutMs: 5000,
      logger,
      ...overrides,
    });

  it("when two confirms of one ref_id run at once, then the provider gets one call and both see one order", async () => {
    const orders = service();
    const draft = await orders.createDraft(draftInput);
    const [a, b] = await Promise.all([orders.confirm(draft.refId, 501), orders.confirm(draft.refId, 501)]);
    expect(sandbox.calls.filter((c) => c.refId === draft.refId)).toHaveLength(1);
    expect([a.kind, b.kind].sort()).toEqual(["in-progress", "submitted"]);
    const stored = await orders.get(draft.refId);
    expect(stored?.state).toBe("success");
    expect(stored?.result?.sn).toMatch(/^\d+$/);
  });

  it("when two processes (two services on one Redis) confirm the same order, then only one call is made", async () => {
    const first = service();
    const second = service();
    const draft = await first.createDraft(draftInput);
    const outcomes = await Promise.all([first.confirm(draft.refId, 501), second.confirm(draft.refId, 501), second.confirm(draft.refId, 501)]);
    expect(sandbox.calls).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === "submitted")).toHaveLength(1);
  });

  it("when an order is confirmed, then the ledger holds the write-ahead fields and the provider's answer", async () => {
    const orders = service();
    const draft = await orders.createDraft(draftInput);
    expect(draft).toMatchObject({ state: "draft", productCode: "ML86", playerId: "12345678(1234)", price: 20000, chatId: 501, userId: 501 });
    expect(draft.refId).toMatch(/^TG[0-9A-Z]{19}$/);
    const outcome = await orders.confirm(draft.refId, 501);
    expect(outcome.kind).toBe("submitted");
    const stored = (await orders.get(draft.refId)) as OrderRecord;
    expect(stored).toMatchObject({ refId: draft.refId, state: "success", productName: "86 Diamonds", createdAt: draft.createdAt });
    expect(stored.submittedAt).toBeTypeOf("string");
    expect(stored.finishedAt).toBeTypeOf("string");
    expect(stored.result).toMatchObject({ lastBalance: sandbox.balance(), productDetail: { code: "ML86", status: "SUKSES" } });
    expect(stored.result?.trxId).toMatch(/^[A-Za-z]+-\d{6}-\d+$/);
  });

  it("when an order is already in the ledger, then a later confirm never calls the provider again", async () => {
    const orders = service();
    const draft = await orders.createDraft(draftInput);
    await orders.confirm(draft.refId, 501);
    const again = await orders.confirm(draft.refId, 501);
    const fromAnotherProcess = await service().confirm(draft.refId, 501);
    expect(again.kind).toBe("already");
    expect(fromAnotherProcess.kind).toBe("already");
    expect(sandbox.calls).toHaveLength(1);
  });

  it("when someone else taps Confirm, then nothing is sent", async () => {
    const orders = service();
    const draft = await orders.createDraft(draftInput);
    expect((await orders.confirm(draft.refId, 999)).kind).toBe("not-yours");
    expect((await orders.confirm("TGDOESNOTEXIST", 501)).kind).toBe("not-found");
    expect(sandbox.calls).toHaveLength(0);
  });

  it("when an order is cancelled, then Confirm is refused and cancel after confirm is too late", async () => {
    const orders = service();
    const cancelled = await orders.createDraft(draftInput);
    expect((await orders.cancel(cancelled.refId, 501)).kind).toBe("cancelled");
    expect((await orders.confirm(cancelled.refId, 501)).kind).toBe("cancelled");
    const confirmed = await orders.createDraft(draftInput);
    await orders.confirm(confirmed.refId, 501);
    expect((await orders.cancel(confirmed.refId, 501)).kind).toBe("too-late");
    expect(sandbox.calls).toHaveLength(1);
  });

  it("when the bot died while submitting, then after the timeout the order becomes unknown and is never resent", async () => {
    let clock = new Date("2026-11-23T10:00:00Z");
    const orders = service({ now: () => clock, timeoutMs: 1000 });
    const draft = await orders.createDraft(draftInput);
    // Simulate the crash: the write-ahead record exists, the provider was never answered.
    await store.atomic.setAdd(store.key("orders-inflight"), draft.refId);
    await store.atomic.claim(store.key("submit-guard", draft.refId), "submitted");
    await store.keyv.set(store.key("order", draft.refId), { ...draft, state: "submitting", submittedAt: clock.toISOString() });

    const recovered: OrderRecord[] = [];
    const restarted = service({ now: () => clock, timeoutMs: 1000, onFinished: (o) => void recovered.push(o) });
    expect(await restarted.recoverInterrupted()).toEqual([]); // still within the timeout: it may be in flight
    expect((await restarted.confirm(draft.refId, 501)).kind).toBe("in-progress");

    clock = new Date(clock.getTime() + 10_000);
    const changed = await restarted.recoverInterrupted();
    expect(changed.map((o) => [o.refId, o.state, o.result?.reason])).toEqual([[draft.refId, "unknown", "interrupted"]]);
    expect(recovered).toHaveLength(1);
    expect((await restarted.confirm(draft.refId, 501)).kind).toBe("already");
    expect(sandbox.calls).toHaveLength(0);
  });

  it("when ref_ids are generated, then they are unique and carry the prefix", () => {
    const now = new Date();
    const ids = new Set(Array.from({ length: 10_000 }, () => newRefId("SHOP", now)));
    expect(ids.size).toBe(10_000);
    for (const id of ids) expect(id).toMatch(/^SHOP[0-9A-Z]{19}$/);
  });

  it("when two admins settle one unknown order at the same moment, then it is settled once", async () => {
    const orders = service();
    const draft = await orders.createDraft(draftInput);
    await store.keyv.set(store.key("order", draft.refId), { ...draft, state: "unknown", submittedAt: draft.createdAt, result: { reason: "timeout" } });
    await store.atomic.setAdd(store.key("orders-unknown"), draft.refId);
    expect((await orders.pending()).map((o) => o.refId)).toEqual([draft.refId]);
    const [a, b] = await Promise.all([
      orders.settle(draft.refId, 1, { state: "success", sn: "111" }),
      service().settle(draft.refId, 2, { state: "failed", reason: "no" }),
    ]);
    expect([a.kind, b.kind].sort()).toEqual(["not-pending", "settled"]);
    const stored = await orders.get(draft.refId);
    expect(stored?.state === "success" ? stored.result?.sn : stored?.result?.errorMsg).toBe(a.kind === "settled" ? "111" : "no");
    expect(await orders.pending()).toEqual([]);
    expect((await orders.settle(draft.refId, 1, { state: "success", sn: "2" })).kind).toBe("not-pending");
  });

  it("when many orders finish at once, then the indexes and the last balance lose none of them", async () => {
    const orders = service();
    sandbox.deposit(1_000_000);
    const drafts = await Promise.all(Array.from({ length: 15 }, (_, i) => orders.createDraft({ ...draftInput, userId: 600 + (i % 3) })));
    await Promise.all(drafts.map((d) => orders.confirm(d.refId, d.userId)));
    const all = await orders.history("all", 0, 100);
    expect(all.total).toBe(15);
    expect((await orders.history(600, 0, 10)).total).toBe(5);
    const day = await orders.submittedBetween(0, Date.now() + 1000);
    expect(day.filter((o) => o.state === "success")).toHaveLength(15);
    expect((await orders.lastBalance())?.balance).toBe(sandbox.balance());
  });
});
