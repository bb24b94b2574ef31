import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPartnerStore, type PartnerStore } from "../../src/access/partners.js";
import { createLogger } from "../../src/logger.js";
import { API_CHAT_ID, type OrderRecord } from "../../src/orders/order.js";
import type { LookupFn } from "../../src/partners/callback-target.js";
import { createPartnerCallbacks, type PartnerCallbacks } from "../../src/partners/callbacks-owed.js";
import { createDeliveries, type Deliveries } from "../../src/partners/deliveries.js";
import { createCallbackSender, type TestCallbackSource } from "../../src/server/h2h/callbacks.js";
import type { Storage } from "../../src/storage/storage.js";
import { redisStorage } from "../helpers/redis.js";

const PREFIX = "TG";
const ALICE = 7001;
const BOB = 7002;
const T0 = Date.parse("2026-11-20T08:00:00.000Z");
const MINUTE = 60_000;

/** A partner's callback endpoint on 127.0.0.1: what it received; `answer` decides each reply. */
interface Receiver {
  url: string;
  port: number;
  received: Array<{ body: string; signature: string | undefined; host: string | undefined; path: string }>;
  /** Requests received and not answered yet. */
  open: number;
}

/** An H2H order of a partner, finished as `state`. */
function order(refId: string, userId: number, state: "success" | "failed"): OrderRecord {
  return {
    refId,
    chatId: API_CHAT_ID,
    userId,
    userName: "partner",
    lang: "id",
    gameName: "Mobile Legends",
    productCode: "ML86",
    productName: "86 Diamonds",
    price: 19_800,
    playerId: "12345678(1234)",
    createdAt: "2026-11-20T07:59:00.000Z",
    submittedAt: "2026-11-20T07:59:00.000Z",
    role: "reseller",
    state,
    ...(state === "success" ? { result: { sn: "SN-1", destinationName: "Budi" } } : {}),
  };
}

describe("callbacks to partners: signed, per partner, to checked addresses only, each attempt kept", () => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let partners: PartnerStore;
  let callbacks: PartnerCallbacks;
  let deliveries: Deliveries;
  let clock: number;
  let logs: string;
  const servers: Server[] = [];
  /** The shop's orders (its ledger's `get`) and their partners' ref ids. */
  const orders = new Map<string, { record: OrderRecord; partnerRef: string }>();

  beforeEach(async () => {
    const made = await redisStorage("h2h-callbacks");
    storage = made.storage;
    cleanup = made.cleanup;
    partners = createPartnerStore(storage);
    callbacks = createPartnerCallbacks(storage);
    deliveries = createDeliveries(storage);
    clock = T0;
    logs = "";
    orders.clear();
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    await cleanup();
  });

  function sender(
    opts: {
      allowPrivate?: boolean;
      lookup?: LookupFn;
      timeoutMs?: number;
      testOrders?: TestCallbackSource;
      partners?: Pick<PartnerStore, "get" | "sign">;
    } = {},
  ) {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs += chunk.toString("utf8");
        done();
      },
    });
    return createCallbackSender({
      callbacks,
      partners: opts.partners ?? partners,
      ledger: { get: async (refId) => orders.get(refId)?.record },
      partnerOrders: {
        partnerRefOf: async (refId) => orders.get(refId)?.partnerRef,
        balance: async () => ({ balance: 80_200, held: 0 }),
      },
      deliveries,
      testOrders: opts.testOrders,
      allowPrivate: opts.allowPrivate ?? true,
      lookup: opts.lookup,
      refIdPrefix: PREFIX,
      now: () => new Date(clock),
      logger: createLogger("info", sink),
      ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
    });
  }

  async function receiver(
    answer: (req: IncomingMessage, res: ServerResponse, r: Receiver) => void = (_q, res) =>
      void res.writeHead(200).end(),
  ): Promise<Receiver> {
    const r: Receiver = { url: "", port: 0, received: [], open: 0 };
    const server = createServer((req, res) => {
      let body = "";
      r.open++;
      res.on("close", () => r.open--);
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        r.received.push({
          body,
          signature: req.headers["x-signature"] as string | undefined,
          host: req.headers.host,
          path: req.url ?? "",
        });
        answer(req, res, r);
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    servers.push(server);
    r.port = (server.address() as AddressInfo).port;
    r.url = `http://127.0.0.1:${r.port}/cb`;
    return r;
  }

  /** A partner with a key and a callback URL, and an order of theirs whose callback is owed now. */
  async function owed(userId: number, url: string, refId: string, partnerRef: string, state: "success" | "failed") {
    if ((await partners.get(userId)) === undefined) await partners.issue(userId, T0);
    await partners.setCallback(userId, url);
    orders.set(refId, { record: order(refId, userId, state), partnerRef });
    await callbacks.owe(refId, clock);
  }

  const jsonLogs = () =>
    logs
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it("when an order's outcome is known, then its partner gets the status body with ref_id, trx_id, event_id and this attempt's timestamp, signed over the raw body", async () => {
    const r = await receiver();
    await owed(ALICE, `${r.url}?token=abc`, "TGAAAA1", "alice-1", "success");
    const s = sender();
    await s.sweep();
    await s.idle();

    expect(r.received).toHaveLength(1);
    const got = r.received[0]!;
    expect(got.path).toBe("/cb?token=abc");
    expect(got.signature).toBe(`sha256=${await partners.sign(ALICE, got.body)}`);
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({
      status: 1,
      data: {
        ref_id: "alice-1",
        sn: "SN-1",
        destination_name: "Budi",
        last_balance: 80_200,
        product_detail: { code: "ML86", price: 19_800, status: "SUKSES" },
      },
      ref_id: "alice-1",
      trx_id: body.data.trx_id,
      event_id: expect.stringMatching(/^ev_[0-9a-f]{24}$/),
      timestamp: "2026-11-20T08:00:00.000Z",
    });
    expect(body.trx_id).toMatch(/^TG-261120-\d+$/);
    expect(body.test).toBeUndefined();
    // Acknowledged: nothing owed any more, and the page's list has the attempt.
    expect(await callbacks.due(clock + 365 * 24 * 60 * MINUTE, 10)).toEqual([]);
    expect(await deliveries.last(ALICE)).toEqual([
      {
        eventId: body.event_id,
        refId: "alice-1",
        shopRefId: "TGAAAA1",
        at: T0,
        attempt: 1,
        status: 200,
        ok: true,
      },
    ]);
  });

  it("when the receiver answers 500, then the attempt is logged without the query string and tried again a minute later with the same event_id, a new timestamp and a new signature", async () => {
    let answers = 0;
    const r = await receiver((_q, res) => void res.writeHead(++answers === 1 ? 500 : 204).end());
    await owed(ALICE, `${r.url}?token=secret-token`, "TGAAAA2", "alice-2", "failed");
    const s = sender();
    await s.sweep();
    await s.idle();
    expect(r.received).toHaveLength(1);
    const failed = jsonLogs().find((l) => l.msg === "partner callback attempt failed");
    expect(failed).toMatchObject({
      to: `http://127.0.0.1:${r.port}/cb`,
      partnerRef: "alice-2",
      refId: "TGAAAA2",
      attempt: 1,
      status: 500,
    });
    expect(logs).not.toContain("secret-token");

    // Not due before its minute is up.
    clock += MINUTE - 1;
    await s.sweep();
    await s.idle();
    expect(r.received).toHaveLength(1);
    clock += 1;
    await s.sweep();
    await s.idle();
    expect(r.received).toHaveLength(2);

    const [first, second] = r.received.map((g) => JSON.parse(g.body));
    // A failed order: the failed answer, with the partner's ref_id and the shop's trx_id.
    expect(first).toMatchObject({ status: 0, error_code: "transaction/failed", ref_id: "alice-2" });
    expect(first.trx_id).toMatch(/^TG-261120-\d+$/);
    expect(second.event_id).toBe(first.event_id);
    expect(first.timestamp).toBe("2026-11-20T08:00:00.000Z");
    expect(second.timestamp).toBe("2026-11-20T08:01:00.000Z");
    expect(r.received[1]!.signature).toBe(`sha256=${await partners.sign(ALICE, r.received[1]!.body)}`);
    expect(r.received[1]!.signature).not.toBe(r.received[0]!.signature);
    // Newest first: the acknowledged second attempt, then the refused first.
    expect((await deliveries.last(ALICE)).map((d) => [d.attempt, d.status, d.ok])).toEqual([
      [2, 204, true],
      [1, 500, false],
    ]);
  });

  it("when one partner's receiver hangs, then another partner's callback arrives while the hanging request is still open", async () => {
    const hanging = await receiver(() => undefined);
    const bobSawAliceOpen: number[] = [];
    const bob = await receiver((_q, res) => {
      bobSawAliceOpen.push(hanging.open);
      res.writeHead(200).end();
    });
    // Alice's two callbacks are due first, Bob's last.
    await owed(ALICE, hanging.url, "TGAAAA3", "alice-3", "success");
    await owed(ALICE, hanging.url, "TGAAAA4", "alice-4", "success");
    await owed(BOB, bob.url, "TGBBBB1", "bob-1", "success");
    const s = sender();
    await s.sweep();
    await expect.poll(() => bob.received.length).toBe(1);
    expect(bobSawAliceOpen).toEqual([1]);
    expect(hanging.received).toHaveLength(1);
    expect(hanging.open).toBe(1);
    expect((await deliveries.last(BOB)).map((d) => d.ok)).toEqual([true]);
    // A look while Alice's queue still works sends nothing twice.
    await s.sweep();
    expect(hanging.received).toHaveLength(1);

    // Alice's receiver drops the connection: a failed attempt, and her next callback is tried.
    for (const server of servers) server.closeAllConnections();
    await expect.poll(() => hanging.received.length).toBe(2);
    for (const server of servers) server.closeAllConnections();
    await s.idle();
    const alice = await deliveries.last(ALICE);
    expect(alice.map((d) => [d.refId, d.status, d.ok])).toEqual([
      ["alice-4", 0, false],
      ["alice-3", 0, false],
    ]);
    expect(alice[0]!.error).toEqual(expect.any(String));
  });

  it("when a receiver never answers, then the attempt ends at the time limit as not reached", async () => {
    const hanging = await receiver(() => undefined);
    await owed(ALICE, hanging.url, "TGAAAA5", "alice-5", "success");
    const s = sender({ timeoutMs: 200 });
    await s.sweep();
    await s.idle();
    expect(await deliveries.last(ALICE)).toMatchObject([{ status: 0, ok: false, error: "timeout", attempt: 1 }]);
    expect(jsonLogs().find((l) => l.msg === "partner callback attempt failed")).toMatchObject({
      error: "timeout",
      status: 0,
      partnerRef: "alice-5",
    });
  });

  it("when a receiver answers with a redirect, then it is not followed: a failed attempt", async () => {
    const elsewhere = await receiver();
    const redirecting = await receiver((_q, res) => void res.writeHead(302, { location: elsewhere.url }).end());
    await owed(ALICE, redirecting.url, "TGAAAA6", "alice-6", "success");
    const s = sender();
    await s.sweep();
    await s.idle();
    expect(redirecting.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
    expect(await deliveries.last(ALICE)).toMatchObject([{ status: 302, ok: false }]);
    expect(await callbacks.due(clock + MINUTE, 10)).toMatchObject([{ refId: "TGAAAA6", attempts: 1 }]);
  });

  it("when a callback's name resolves to 127.0.0.1 and private addresses are not allowed, then nothing is sent: a failed attempt, logged", async () => {
    const r = await receiver();
    const toLocal: LookupFn = async () => [{ address: "127.0.0.1", family: 4 }];
    await owed(ALICE, `http://partner.example:${r.port}/cb`, "TGAAAA7", "alice-7", "success");
    const s = sender({ allowPrivate: false, lookup: toLocal });
    await s.sweep();
    await s.idle();
    expect(r.received).toHaveLength(0);
    expect(await deliveries.last(ALICE)).toMatchObject([{ status: 0, ok: false, error: "private" }]);
    expect(jsonLogs().find((l) => l.msg === "partner callback attempt failed")).toMatchObject({
      to: `http://partner.example:${r.port}/cb`,
      error: "private",
      attempt: 1,
    });
    // The same for an IPv4-mapped IPv6 address, and for a name of which one address of several is private.
    for (const addresses of [["::ffff:127.0.0.1"], ["203.0.113.9", "10.1.2.3"]]) {
      clock += 10 * 60 * MINUTE;
      const lookup: LookupFn = async () =>
        addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
      const again = sender({ allowPrivate: false, lookup });
      await again.sweep();
      await again.idle();
      expect((await deliveries.last(ALICE))[0]).toMatchObject({ error: "private" });
    }
    expect(r.received).toHaveLength(0);
  });

  it("when private addresses are allowed, then the POST goes to the address the name was checked at (no second lookup), with the name in its Host header", async () => {
    const r = await receiver();
    let asked = 0;
    const toLocal: LookupFn = async () => {
      asked++;
      return [{ address: "127.0.0.1", family: 4 }];
    };
    // `partner.example` has no address in the real DNS: only the checked one can be reached.
    await owed(ALICE, `http://partner.example:${r.port}/cb`, "TGAAAA8", "alice-8", "success");
    const s = sender({ allowPrivate: true, lookup: toLocal });
    await s.sweep();
    await s.idle();
    expect(r.received).toHaveLength(1);
    expect(r.received[0]!.host).toBe(`partner.example:${r.port}`);
    expect(asked).toBe(1);
    expect(await deliveries.last(ALICE)).toMatchObject([{ status: 200, ok: true }]);
  });

  it("when a test order's callback is owed, then it goes to the test callback URL only, marked test: true and signed as a test key's", async () => {
    const live = await receiver();
    const testUrl = await receiver();
    await partners.issue(ALICE, T0);
    await partners.setCallback(ALICE, live.url);
    const signedAsTest: boolean[] = [];
    // The partner's test key and its callback URL, as the partner store gives them.
    const withTestKey: Pick<PartnerStore, "get" | "sign"> = {
      get: async (userId) => {
        const p = await partners.get(userId);
        return p === undefined ? undefined : { ...p, test: { mitraId: "T0000000001", callbackUrl: testUrl.url } };
      },
      sign: async (userId, body, test) => {
        signedAsTest.push(test === true);
        return partners.sign(userId, body);
      },
    };
    const statusBody = {
      status: 1,
      data: {
        trx_id: "TEST-261120-1",
        ref_id: "alice-test-1",
        destination: "PEND123",
        destination_name: "",
        message: "SUKSES",
        sn: "TEST-SN-1",
        last_balance: 1_000_000,
        product_detail: {
          name: "86 Diamonds",
          code: "ML86",
          price: 19_800,
          rate: 1,
          priceRp: 19_800,
          status: "SUKSES",
        },
      },
      test: true,
    };
    const asked: string[] = [];
    const testOrders: TestCallbackSource = {
      callbackOf: async (refId) => {
        asked.push(refId);
        return refId === "TESTQ1" ? { userId: ALICE, body: statusBody } : undefined;
      },
    };
    await callbacks.owe("TESTQ1", clock);
    const s = sender({ testOrders, partners: withTestKey });
    await s.sweep();
    await s.idle();
    expect(live.received).toHaveLength(0);
    expect(testUrl.received).toHaveLength(1);
    const got = testUrl.received[0]!;
    expect(JSON.parse(got.body)).toMatchObject({
      ...statusBody,
      ref_id: "alice-test-1",
      trx_id: "TEST-261120-1",
      event_id: expect.stringMatching(/^ev_[0-9a-f]{24}$/),
      timestamp: "2026-11-20T08:00:00.000Z",
      test: true,
    });
    expect(got.signature).toBe(`sha256=${await partners.sign(ALICE, got.body)}`);
    expect(signedAsTest).toEqual([true]);
    expect(asked).toContain("TESTQ1");
    expect(await deliveries.last(ALICE)).toMatchObject([{ shopRefId: "TESTQ1", refId: "alice-test-1", test: true }]);

    // A test order not finished yet is looked at again a minute later, not sent.
    await callbacks.owe("TESTQ2", clock);
    await s.sweep();
    await s.idle();
    expect(testUrl.received).toHaveLength(1);
    expect(await callbacks.due(clock + MINUTE, 10)).toMatchObject([{ refId: "TESTQ2", attempts: 0 }]);
  });

  it("when an order's callback is owed again after it was acknowledged, then it goes again with the same event_id", async () => {
    const r = await receiver();
    await owed(ALICE, r.url, "TGAAAA9", "alice-9", "success");
    const s = sender();
    await s.sweep();
    await s.idle();
    clock += 3 * 60 * MINUTE;
    await callbacks.owe("TGAAAA9", clock);
    await s.sweep();
    await s.idle();
    expect(r.received).toHaveLength(2);
    const [first, again] = r.received.map((g) => JSON.parse(g.body));
    expect(again.event_id).toBe(first.event_id);
    expect(again.timestamp).toBe("2026-11-20T11:00:00.000Z");
    expect((await deliveries.last(ALICE)).map((d) => d.attempt)).toEqual([1, 1]);
  });
});
