import { createHash } from "node:crypto";
import type { LookupFunction } from "node:net";
import type { PartnerStore } from "../../access/partners.js";
import type { Logger } from "../../logger.js";
import type { OrderLedger } from "../../orders/ledger.js";
import { outcomeKnown } from "../../orders/order.js";
import { checkCallbackTarget, type LookupFn } from "../../partners/callback-target.js";
import type { OwedCallback, PartnerCallbacks } from "../../partners/callbacks-owed.js";
import type { Deliveries } from "../../partners/deliveries.js";
import type { PartnerOrders } from "../../partners/partner-orders.js";
import { orderBody, trxIdOf } from "./answers.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** A callback not acknowledged within a day is given up (the status query still answers). */
const GIVE_UP_MS = 24 * HOUR;
const CALL_TIMEOUT_MS = 10_000;
/** How many owed callbacks one look takes at most (the next look goes on). */
const PER_LOOK = 50;
/**
 * An owed callback taken into a partner's queue is not due again for this long, so that the next
 * looks find the others; a process that dies with it queued leaves it due again after that.
 */
const HOLD_MS = 10 * MINUTE;
/** At most this many callbacks wait in one partner's queue; the rest wait their turn in the store. */
const MAX_QUEUED = 50;
/** Test orders' ref ids (the test orders' own, never the ledger's). */
const TEST_REF = /^TEST/;

/** After the n-th failed try: 1 minute, 2, 4, … up to an hour. */
export const backoffMs = (attempts: number): number => Math.min(HOUR, MINUTE * 2 ** Math.max(0, attempts));

/**
 * A callback's `event_id`: the same for an order's outcome on every retry and every resend, and
 * another one for another order or outcome, so a partner can tell an event it already handled.
 */
export const eventIdOf = (shopRefId: string, state: string): string =>
  `ev_${createHash("sha256").update(`${shopRefId}:${state}`).digest("hex").slice(0, 24)}`;

/** A URL as logged: no query string (it may hold a partner's token), no credentials. */
export function urlForLog(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/** The test orders' side of callbacks: a finished test order's status body and whose it is. */
export interface TestCallbackSource {
  callbackOf(testRefId: string): Promise<{ userId: number; body: object } | undefined>;
}

/** A callback ready to go: the partner's, its URL and the status body it carries. */
interface Letter {
  userId: number;
  url: string;
  partnerRef: string;
  trxId: string;
  state: string;
  body: object;
  test: boolean;
}

/** What one POST came to. */
type Reached = { status: number } | { status: 0; error: string };

/**
 * Sends the callbacks owed to partners: a POST of the status answer's body (JSON) with, at its top
 * level, the partner's `ref_id`, `trx_id`, `event_id` and `timestamp` (this attempt's), to the
 * partner's callback URL (a test order's: to their test key's), signed `X-Signature: sha256=<hex
 * HMAC-SHA256 of the raw body with their signing secret>`; done on a 2xx, else tried again later,
 * backing off from a minute to an hour, for a day. Each partner has a queue of its own, worked
 * beside the others': a partner whose system hangs (10 s an attempt) delays nobody else, and a
 * look does not wait for the sends it started. Runs in the background look of the one process
 * holding the shared work's lease.
 */
export function createCallbackSender(deps: {
  callbacks: PartnerCallbacks;
  partners: Pick<PartnerStore, "get" | "sign">;
  ledger: Pick<OrderLedger, "get">;
  partnerOrders: Pick<PartnerOrders, "partnerRefOf" | "balance">;
  deliveries: Pick<Deliveries, "record">;
  /** The test orders: their callbacks (ref ids `TEST…`); without them such a callback is dropped. */
  testOrders?: TestCallbackSource | undefined;
  /** H2H_CALLBACK_ALLOW_PRIVATE: callbacks may go to loopback and private addresses. */
  allowPrivate: boolean;
  /** How callback hosts are resolved (default: the system's resolver). */
  lookup?: LookupFn | undefined;
  refIdPrefix: string;
  now: () => Date;
  logger: Logger;
  /** How long one attempt may take (10 s). */
  timeoutMs?: number;
}) {
  const { callbacks, logger } = deps;
  const queues = new Map<number, OwedCallback[]>();
  const running = new Map<number, Promise<void>>();
  const queued = new Set<string>();
  const nowMs = () => deps.now().getTime();

  /** Owed callbacks still unsent after a day are given up; a callback not yet known waits a minute. */
  async function notYet(owed: OwedCallback): Promise<void> {
    if (nowMs() - owed.since >= GIVE_UP_MS) return callbacks.done(owed.refId);
    await callbacks.owe(owed.refId, nowMs() + MINUTE);
  }

  /** Whose callback this is; undefined when there is nothing to send now (dropped, or not known yet). */
  async function ownerOf(owed: OwedCallback): Promise<number | undefined> {
    if (TEST_REF.test(owed.refId)) {
      if (deps.testOrders === undefined) return void (await callbacks.done(owed.refId));
      const got = await deps.testOrders.callbackOf(owed.refId);
      return got === undefined ? void (await notYet(owed)) : got.userId;
    }
    const order = await deps.ledger.get(owed.refId);
    const partnerRef = await deps.partnerOrders.partnerRefOf(owed.refId);
    if (order === undefined || partnerRef === undefined) return void (await callbacks.done(owed.refId));
    // Not known yet: looked at again in a minute (not a failed try: the backoff starts with the first one).
    if (!outcomeKnown(order.state)) return void (await callbacks.owe(owed.refId, nowMs() + MINUTE));
    return order.userId;
  }

  /** The callback as it goes now; undefined when nothing is owed any more (no URL, no key, no order). */
  async function letterOf(refId: string): Promise<Letter | undefined> {
    if (TEST_REF.test(refId)) {
      const got = await deps.testOrders?.callbackOf(refId);
      if (got === undefined) return undefined;
      const url = (await deps.partners.get(got.userId))?.test?.callbackUrl;
      const body = got.body as { status?: unknown; ref_id?: unknown; trx_id?: unknown; data?: Record<string, unknown> };
      const text = (v: unknown) => (typeof v === "string" ? v : "");
      return url === undefined
        ? undefined
        : {
            userId: got.userId,
            url,
            partnerRef: text(body.ref_id ?? body.data?.ref_id),
            trxId: text(body.trx_id ?? body.data?.trx_id),
            state: body.status === 1 ? "success" : "failed",
            body: got.body,
            test: true,
          };
    }
    const order = await deps.ledger.get(refId);
    const partnerRef = await deps.partnerOrders.partnerRefOf(refId);
    if (order === undefined || partnerRef === undefined || !outcomeKnown(order.state)) return undefined;
    const url = (await deps.partners.get(order.userId))?.callbackUrl;
    if (url === undefined) return undefined;
    const { balance } = await deps.partnerOrders.balance(order.userId);
    return {
      userId: order.userId,
      url,
      partnerRef,
      trxId: trxIdOf(order, deps.refIdPrefix),
      state: order.state,
      body: orderBody(order, partnerRef, balance, deps.refIdPrefix),
      test: false,
    };
  }

  /**
   * Out of its partner's queue, then written back to the store: a look that finds it due from then
   * on takes it again, instead of holding it as still queued.
   */
  function release(refId: string, next: () => Promise<void>): Promise<void> {
    queued.delete(refId);
    return next();
  }

  /** One attempt at an owed callback: acknowledged (done), or tried again later, or given up. */
  async function attempt(owed: OwedCallback): Promise<void> {
    const { refId } = owed;
    const letter = await letterOf(refId);
    if (letter === undefined) return release(refId, () => callbacks.done(refId));
    const at = nowMs();
    const eventId = eventIdOf(refId, letter.state);
    const raw = JSON.stringify({
      ...letter.body,
      ref_id: letter.partnerRef,
      trx_id: letter.trxId,
      event_id: eventId,
      timestamp: new Date(at).toISOString(),
      ...(letter.test ? { test: true } : {}),
    });
    const signature = await deps.partners.sign(letter.userId, raw, letter.test);
    if (signature === undefined) return release(refId, () => callbacks.done(refId));
    // Checked again at each send (the name may point elsewhere now); the POST goes to the address checked.
    const target = await checkCallbackTarget(letter.url, { allowPrivate: deps.allowPrivate, lookup: deps.lookup });
    const reached: Reached = target.ok
      ? await postTo(letter.url, target, raw, signature, deps.timeoutMs ?? CALL_TIMEOUT_MS)
      : { status: 0, error: target.why };
    const ok = reached.status >= 200 && reached.status < 300;
    const n = owed.attempts + 1;
    const error = "error" in reached ? reached.error : undefined;
    await deps.deliveries
      .record(letter.userId, {
        eventId,
        refId: letter.partnerRef,
        shopRefId: refId,
        at,
        attempt: n,
        status: reached.status,
        ok,
        ...(error === undefined ? {} : { error }),
        ...(letter.test ? { test: true } : {}),
      })
      .catch((err: unknown) => logger.error({ err, refId }, "partner callback delivery not recorded"));
    if (ok) {
      logger.info({ refId, partnerRef: letter.partnerRef, attempt: n }, "partner callback acknowledged");
      return release(refId, () => callbacks.done(refId));
    }
    // `to`, not `url`: the logger redacts every `url`.
    const failed = {
      to: urlForLog(letter.url),
      partnerRef: letter.partnerRef,
      refId,
      attempt: n,
      status: reached.status,
    };
    logger.warn(error === undefined ? failed : { ...failed, error }, "partner callback attempt failed");
    // Timed from the attempt's start, not its end: a receiver that hangs does not push its next try later.
    if (at - owed.since >= GIVE_UP_MS) {
      logger.warn({ refId, partnerRef: letter.partnerRef, attempts: n }, "partner callback given up after a day");
      return release(refId, () => callbacks.done(refId));
    }
    await release(refId, () => callbacks.later(refId, at + backoffMs(owed.attempts)));
  }

  /** Works a partner's queue, one callback after the other, until it is empty. */
  function work(userId: number): void {
    if (running.has(userId)) return;
    const run = (async () => {
      for (let owed = queues.get(userId)?.shift(); owed !== undefined; owed = queues.get(userId)?.shift()) {
        await attempt(owed).catch((err: unknown) =>
          logger.error({ err, refId: owed?.refId }, "partner callback failed"),
        );
        queued.delete(owed.refId);
      }
      queues.delete(userId);
      running.delete(userId);
    })();
    running.set(userId, run);
  }

  /** Puts an owed callback in its partner's queue (held in the store meanwhile), or leaves it for later. */
  async function take(owed: OwedCallback): Promise<void> {
    if (queued.has(owed.refId)) return callbacks.owe(owed.refId, nowMs() + HOLD_MS);
    const userId = await ownerOf(owed);
    if (userId === undefined) return;
    await callbacks.owe(owed.refId, nowMs() + HOLD_MS);
    // From here to the worker's start nothing waits: a worker ending meanwhile cannot lose it.
    const queue = queues.get(userId) ?? [];
    if (queue.length >= MAX_QUEUED) return;
    queue.push(owed);
    queues.set(userId, queue);
    queued.add(owed.refId);
    work(userId);
  }

  return {
    /**
     * Hands what is due now to the partners' queues and returns: the sends go on beside the next
     * looks. A failure of one is logged and the others go on.
     */
    async sweep(): Promise<void> {
      for (const owed of await callbacks.due(nowMs(), PER_LOOK))
        await take(owed).catch((err: unknown) =>
          logger.error({ err, refId: owed.refId }, "partner callback not taken"),
        );
    },
    /** Waits until every partner's queue is empty (tests; a stop does not wait: a held callback comes back). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
}

export type CallbackSender = ReturnType<typeof createCallbackSender>;

/** A resolver that answers the address already checked, whatever it is asked: no second lookup. */
const pinned =
  (target: { address: string; family: 4 | 6 }): LookupFunction =>
  (_host, options, callback) => {
    if (options.all === true) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };

/**
 * One POST of a callback, to the address checked (the URL's host name still goes in the Host header
 * and TLS's server name), following no redirect: a 3xx is an answer that is not an acknowledgement.
 */
async function postTo(
  url: string,
  target: { address: string; family: 4 | 6 },
  body: string,
  signature: string,
  timeoutMs: number,
): Promise<Reached> {
  // undici is loaded with the first callback: a shop without one does not carry it.
  const { Agent, request } = await import("undici");
  const agent = new Agent({ connect: { lookup: pinned(target) }, connections: 1 });
  try {
    const res = await request(url, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-signature": `sha256=${signature}` },
      dispatcher: agent,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body.dump().catch(() => undefined);
    return { status: res.statusCode };
  } catch (err) {
    const e = err as { code?: unknown; name?: unknown };
    const error =
      e.name === "TimeoutError"
        ? "timeout"
        : typeof e.code === "string"
          ? e.code
          : typeof e.name === "string"
            ? e.name
            : "error";
    return { status: 0, error };
  } finally {
    void agent.destroy().catch(() => undefined);
  }
}
