import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import type { OrderRecord } from "../../src/orders/order.js";
import type { SettleOutcome, SettleRequest } from "../../src/orders/settle.js";
import {
  askIntervalMs,
  createUpstreamCheck,
  FAILED_BY_STATUS,
  SETTLED_BY_PROVIDER,
} from "../../src/partners/upstream-check.js";
import type { TopupStatusResult, TopupSuccess } from "../../src/topup/types.js";
import { draft } from "../orders/fixtures.js";

const T0 = Date.parse("2025-03-01T08:00:00.000Z");
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const success = (refId: string, sn = "1234567890", priceRp = 19500.4): TopupSuccess => ({
  kind: "success",
  trxId: "TRX-250301-7",
  refId,
  destination: "12345678(1234)",
  destinationName: "Budi",
  message: `Top up to Budi succeeded, SN ${sn}`,
  sn,
  lastBalance: 500000,
  productDetail: { name: "86 Diamonds", code: "ML86", price: 19500, rate: 1, priceRp, status: "SUKSES" },
});

const unknownOrder = (refId: string, over: Partial<OrderRecord> = {}): OrderRecord =>
  draft({
    refId,
    state: "unknown",
    createdAt: new Date(T0 - 5 * SECOND).toISOString(),
    submittedAt: new Date(T0).toISOString(),
    result: { reason: "timeout", detail: "no complete answer within 60000 ms" },
    ...over,
  });

/**
 * A world with a clock the test moves, a provider whose status answers the test decides, and a
 * settlement that records each verdict and takes the order out of the unknown ones.
 */
function world(
  orders: OrderRecord[],
  answer: (refId: string, provider: string) => TopupStatusResult | Promise<TopupStatusResult>,
  providers: readonly string[] = ["main"],
) {
  let now = T0;
  const asked: Array<{ refId: string; at: number }> = [];
  /** Which provider was asked about which ref id, in order. */
  const askedAt: Array<{ provider: string; refId: string }> = [];
  const settled: SettleRequest[] = [];
  const logLines: Array<Record<string, unknown>> = [];
  const pending = new Map(orders.map((o) => [o.refId, o]));
  const logger = createLogger(
    "debug",
    new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  const check = createUpstreamCheck({
    orders: { pending: async () => [...pending.values()] },
    settle: async (req): Promise<SettleOutcome> => {
      settled.push(req);
      const order = pending.get(req.refId);
      if (order === undefined) return { kind: "not-found" };
      pending.delete(req.refId);
      return { kind: "settled", order: { ...order, state: req.outcome.state, settledBy: req.adminId } };
    },
    clientOf: (provider) =>
      providers.includes(provider)
        ? {
            status: async (refId) => {
              asked.push({ refId, at: now - T0 });
              askedAt.push({ provider, refId });
              return answer(refId, provider);
            },
          }
        : undefined,
    logger,
    now: () => new Date(now),
  });
  return {
    asked,
    askedAt,
    settled,
    logLines,
    sweep: () => check.sweep(),
    /** Moves the clock to `ms` after the order was sent and sweeps there. */
    sweepAt: async (ms: number) => {
      now = T0 + ms;
      await check.sweep();
    },
  };
}

describe("asking the provider's status about unknown orders", () => {
  it("when an order is unknown, then it is asked at once, not again 30 s later, and again after a minute", async () => {
    const w = world([unknownOrder("TGU1")], () => ({ kind: "unknown" }));
    await w.sweepAt(0);
    await w.sweepAt(30 * SECOND);
    await w.sweepAt(61 * SECOND);
    expect(w.asked).toEqual([
      { refId: "TGU1", at: 0 },
      { refId: "TGU1", at: 61 * SECOND },
    ]);
    expect(w.settled).toEqual([]);
  });

  it("when sweeps run every minute for 26 hours, then it is asked each minute for an hour, then hourly, then never after 25 h", async () => {
    const w = world([unknownOrder("TGU2")], () => ({ kind: "unknown" }));
    for (let minute = 0; minute <= 26 * 60; minute++) await w.sweepAt(minute * MINUTE);
    const times = w.asked.map((a) => a.at);
    const firstHour = times.filter((t) => t < HOUR);
    const later = times.filter((t) => t >= HOUR);
    expect(firstHour).toEqual(Array.from({ length: 60 }, (_, i) => i * MINUTE));
    expect(later.length).toBeGreaterThan(0);
    const gaps = later.map((t, i) => t - (i === 0 ? firstHour[firstHour.length - 1]! : later[i - 1]!));
    expect(new Set(gaps)).toEqual(new Set([HOUR]));
    expect(Math.max(...times)).toBeLessThan(25 * HOUR);
    // The last hourly ask falls in the 25th hour: the whole day is covered.
    expect(Math.max(...times)).toBeGreaterThanOrEqual(24 * HOUR);
  });

  it("when the provider has no status operation, then it is asked again only after a quiet while, never each minute", async () => {
    const w = world([unknownOrder("TGQ1"), unknownOrder("TGQ2")], () => ({ kind: "no-answer", detail: "HTTP 404" }));
    for (let minute = 0; minute <= 25; minute++) await w.sweepAt(minute * MINUTE);
    // One question at 0 (no answer: the round stops there), then one every NO_STATUS_QUIET_MS, not one a minute.
    expect(w.asked.map((a) => a.at)).toEqual([0, 10 * MINUTE, 20 * MINUTE]);
  });

  it("when the provider does not answer about one order, then the others wait for the next round (a round stays short)", async () => {
    let down = true;
    const w = world([unknownOrder("TGR1"), unknownOrder("TGR2")], () =>
      down ? { kind: "no-answer", detail: "timeout" } : { kind: "unknown" },
    );
    await w.sweepAt(0);
    expect(w.asked.map((a) => a.refId)).toEqual(["TGR1"]);
    down = false;
    await w.sweepAt(10 * MINUTE);
    expect(w.asked.map((a) => a.refId)).toEqual(["TGR1", "TGR1", "TGR2"]);
  });

  it("when the provider answered the status once, then a later failure to answer does not quiet it", async () => {
    let answer: "unknown" | "no-answer" = "unknown";
    const w = world([unknownOrder("TGQ3")], () =>
      answer === "unknown" ? { kind: "unknown" } : { kind: "no-answer", detail: "timeout" },
    );
    await w.sweepAt(0);
    answer = "no-answer";
    await w.sweepAt(MINUTE);
    await w.sweepAt(2 * MINUTE);
    expect(w.asked.map((a) => a.at)).toEqual([0, MINUTE, 2 * MINUTE]);
  });

  it("when an order is older than 25 hours, then it is never asked about", async () => {
    const w = world([unknownOrder("TGU3")], () => ({ kind: "unknown" }));
    await w.sweepAt(25 * HOUR);
    await w.sweepAt(30 * HOUR);
    expect(w.asked).toEqual([]);
  });

  it("when the provider reports a success, then the order is settled once, with its SN and its cost in whole rupiah", async () => {
    const w = world([unknownOrder("TGU4")], (refId) => success(refId));
    await w.sweepAt(0);
    await w.sweepAt(2 * MINUTE);
    await w.sweepAt(2 * HOUR);
    expect(w.settled).toEqual([
      { refId: "TGU4", adminId: SETTLED_BY_PROVIDER, outcome: { state: "success", sn: "1234567890", cost: 19500 } },
    ]);
    expect(w.asked).toHaveLength(1);
  });

  it("when the provider reports a failure, then the order is settled as failed with a reason saying so", async () => {
    const w = world([unknownOrder("TGU5")], () => ({ kind: "failed", errorCode: "transaction/failed", errorMsg: "x" }));
    await w.sweepAt(0);
    expect(w.settled).toEqual([
      { refId: "TGU5", adminId: SETTLED_BY_PROVIDER, outcome: { state: "failed", reason: FAILED_BY_STATUS } },
    ]);
    expect(FAILED_BY_STATUS.length).toBeLessThanOrEqual(200);
  });

  it("when the provider does not find the order, then it is left for an admin, never settled as failed", async () => {
    const w = world([unknownOrder("TGU6")], () => ({ kind: "not-found" }));
    await w.sweepAt(0);
    await w.sweepAt(MINUTE);
    expect(w.settled).toEqual([]);
    expect(w.asked).toHaveLength(2);
  });

  it("when a success carries an SN with spaces inside, then it is logged and left for an admin", async () => {
    const w = world([unknownOrder("TGU7")], (refId) => success(refId, "12 34"));
    await w.sweepAt(0);
    expect(w.settled).toEqual([]);
    expect(w.logLines.some((l) => l.refId === "TGU7" && l.level === 40)).toBe(true);
  });

  it("when an order was settled already, then it is not asked about or settled again", async () => {
    const done = unknownOrder("TGU8", { result: { reason: "settled", errorMsg: "no stock" } });
    const w = world([done], (refId) => success(refId));
    await w.sweepAt(0);
    expect(w.asked).toEqual([]);
    expect(w.settled).toEqual([]);
  });

  it("when one order's status query throws, then the other orders are still checked", async () => {
    const w = world([unknownOrder("TGU9"), unknownOrder("TGU10")], (refId) => {
      if (refId === "TGU9") throw new Error("boom");
      return success(refId);
    });
    await expect(w.sweepAt(0)).resolves.toBeUndefined();
    expect(w.settled.map((s) => s.refId)).toEqual(["TGU10"]);
  });

  it("when the client cannot ask the status, then a sweep asks and settles nothing", async () => {
    const settled: SettleRequest[] = [];
    const check = createUpstreamCheck({
      orders: { pending: async () => [unknownOrder("TGU11")] },
      settle: async (req) => {
        settled.push(req);
        return { kind: "not-found" };
      },
      clientOf: () => ({}),
      logger: createLogger("silent"),
      now: () => new Date(T0),
    });
    await check.sweep();
    expect(settled).toEqual([]);
  });

  it("when a sweep is asked for while one runs, then it joins it and nothing is asked twice", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const w = world([unknownOrder("TGU12")], async () => {
      await gate;
      return { kind: "unknown" };
    });
    const first = w.sweep();
    const second = w.sweep();
    release();
    await Promise.all([first, second]);
    expect(w.asked).toHaveLength(1);
  });

  it("when the age is given, then the interval is a minute, an hour, or never", () => {
    expect(askIntervalMs(0)).toBe(MINUTE);
    expect(askIntervalMs(HOUR - 1)).toBe(MINUTE);
    expect(askIntervalMs(HOUR)).toBe(HOUR);
    expect(askIntervalMs(25 * HOUR - 1)).toBe(HOUR);
    expect(askIntervalMs(25 * HOUR)).toBeUndefined();
    expect(askIntervalMs(Number.NaN)).toBeUndefined();
  });
});

describe("several providers: each unknown order asked at the provider it was waiting for", () => {
  const atBackup = (refId: string): OrderRecord =>
    unknownOrder(refId, {
      attempt: { provider: "backup", code: "MLBB86", refId: `${refId}R2`, at: new Date(T0).toISOString() },
      refused: [
        {
          provider: "main",
          code: "ML86",
          refId,
          at: new Date(T0 - SECOND).toISOString(),
          reason: "provider-error",
          errorCode: "product/unavailable",
        },
      ],
    });

  it("when an order's current attempt is at backup, then backup is asked under that attempt's ref id and the order settled by its own", async () => {
    const w = world([unknownOrder("TGA1"), atBackup("TGB1")], (refId) => success(refId), ["main", "backup"]);
    await w.sweepAt(0);
    expect(w.askedAt).toEqual([
      { provider: "main", refId: "TGA1" },
      { provider: "backup", refId: "TGB1R2" },
    ]);
    expect(w.settled.map((s) => s.refId)).toEqual(["TGA1", "TGB1"]);
  });

  it("when one provider does not answer, then the other is still asked about its orders in that round", async () => {
    const w = world(
      [unknownOrder("TGA2"), unknownOrder("TGA3"), atBackup("TGB2")],
      (refId, provider) => (provider === "main" ? { kind: "no-answer", detail: "timeout" } : success(refId)),
      ["main", "backup"],
    );
    await w.sweepAt(0);
    expect(w.askedAt).toEqual([
      { provider: "main", refId: "TGA2" },
      { provider: "backup", refId: "TGB2R2" },
    ]);
    expect(w.settled.map((s) => s.refId)).toEqual(["TGB2"]);
  });

  it("when the order's provider is no longer configured, then it is left for an admin", async () => {
    const w = world([atBackup("TGB3")], (refId) => success(refId), ["main"]);
    await w.sweepAt(0);
    expect(w.askedAt).toEqual([]);
    expect(w.settled).toEqual([]);
  });
});
