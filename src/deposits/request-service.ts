import { randomInt } from "node:crypto";
import { dayIn } from "../calendar.js";
import type { Buyer } from "../catalog/catalog.js";
import type { Logger } from "../logger.js";
import type { PayInfo, PayInfoStore } from "../shop/pay-info.js";
import type { Claims } from "../storage/claims.js";
import type { Origins } from "../storage/origins.js";
import {
  isOpen,
  type DepositRequest,
  type DepositRequestStore,
  type DepositProof,
  type HandCreditResult,
} from "./request-store.js";
import type { Deposits } from "./admin-deposits.js";
import type { Delivery } from "../orders/events.js";
import type { Lang } from "../orders/order.js";
import { newRefId } from "../orders/ref-id.js";
import type { Deposit, DepositConfirmResult, Wallets } from "../orders/wallet.js";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** A reseller has at most this many open requests. */
export const MAX_OPEN_REQUESTS = 3;
/** A reseller makes at most this many new requests in any hour (asking and cancelling in a loop jams nothing). */
export const MAX_REQUESTS_PER_HOUR = 10;
/** An exact amount is not given to another request for this long after its request closed. */
const AMOUNT_REUSE_MS = 7 * DAY;
/** A rejection waits this long for the admin's reason before the reseller is told without one. */
export const REASON_WAIT_MS = 10 * MINUTE;
/** The longest reason passed on to the reseller. */
export const MAX_REASON = 300;
/** Telegram's `getFile` serves files up to 20 MB: a larger proof could never be shown on the page. */
export const MAX_PROOF_BYTES = 20 * 1024 * 1024;

/** What the deposit requests report; the bot says it in Telegram. */
export interface DepositRequestEvents {
  /** The admins get the request with its proof, the reseller's saldo and tier, and the buttons. */
  announce(request: DepositRequest, facts: { saldo: number; tier: string | undefined }): Promise<void>;
  /** The reseller learns their request closed without a credit (rejected, with the reason if any; expired). */
  closed(request: DepositRequest): Promise<Delivery>;
  /** A request made in the Mini App, shown in the reseller's chat (a proof answers it there): its message. */
  asked(request: DepositRequest, payInfo: PayInfo): Promise<number | undefined>;
  /**
   * A request was decided (by any path, chat or Mini App): every admins' notice of it says who
   * decided what, with the saldo after, and loses its buttons. Each notice is brought up to date once.
   */
  decided(request: DepositRequest, facts: { saldo: number; tier: string | undefined }): Promise<void>;
}

export type AskResult =
  | { kind: "made"; request: DepositRequest; payInfo: PayInfo; shownAs?: number }
  | { kind: "no-pay-info" }
  | { kind: "not-reseller" }
  | { kind: "out-of-limits"; min: number; max: number }
  | { kind: "too-many"; open: number }
  /** Too many new requests in the last hour: they may ask again at `until` (ms). */
  | { kind: "too-soon"; until: number }
  | { kind: "no-code" };

export type ProofAnswer =
  | { kind: "attached"; request: DepositRequest }
  /** A document whose bytes are no image (JPEG, PNG, WebP) nor PDF, whatever its name or declared type. */
  | { kind: "bad-type" }
  /** A document whose bytes could not be read from Telegram: its type is unknown, so it is not taken. */
  | { kind: "unreadable" }
  /** No request of theirs waits for a proof. */
  | { kind: "none" }
  /** Several wait: the reseller must answer one of them. */
  | { kind: "which"; requests: DepositRequest[] }
  | { kind: "not-found" }
  | { kind: "closed"; request: DepositRequest };

export type ApproveResult =
  | { kind: "approved"; request: DepositRequest; saldo: number }
  | { kind: "not-found" }
  /** Decided (or closed) before: `request` says how. */
  | { kind: "taken"; request: DepositRequest };

/** What a hand credit of a request came to: credited (the deposit's own result), or why not. */
export type HandCreditAnswer =
  | { kind: "credited"; request: DepositRequest; confirmed: DepositConfirmResult }
  | Exclude<HandCreditResult, { kind: "decided" }>;

/** Confirm of an admin's deposit: the deposit's own result, or why its request refused the hand credit. */
export type DepositConfirmAnswer =
  | { kind: "confirmed"; confirmed: DepositConfirmResult }
  | { kind: "refused"; requestId: string; refusal: Exclude<HandCreditResult, { kind: "decided" }> };

/** A request id in a deposit's note, as the bot writes it (any case typed). */
const REQUEST_ID = /\bDR[0-9A-Z]{19}\b/i;

/**
 * The request an admin's deposit credits by hand: the one its note names, for a deposit (a
 * correction, below 0, credits no request).
 */
export const requestNamedIn = (d: Pick<Deposit, "amount" | "note">): string | undefined =>
  d.amount > 0 ? REQUEST_ID.exec(d.note)?.[0].toUpperCase() : undefined;

/** What the deposit requests service works with. */
export interface DepositRequestDeps {
  store: DepositRequestStore;
  payInfo: PayInfoStore;
  wallets: Pick<Wallets, "get" | "saveDeposit">;
  deposits: Pick<Deposits, "confirm" | "get" | "cancel">;
  buyerOf: (userId: number) => Promise<Buyer | undefined>;
  origins: Origins;
  events: DepositRequestEvents;
  logger: Logger;
  limits: { min: number; max: number; hours: number };
  /** The shop's time zone: a request counts in the figures of the shop's day of each step. */
  timeZone: string;
  /** Who is telling a reseller that a request closed, among all processes. */
  claims?: Claims;
  /**
   * A file Telegram keeps, read: the SHA-256 of its bytes (a picture sent again) and the type its
   * first bytes say (a proof's only types, else undefined). Called only for a request that waits
   * for a proof; it throws when the file cannot be read.
   */
  fingerprint?: (fileId: string) => Promise<{ sha256: string; type: string | undefined }>;
  now?: () => Date;
}

/**
 * What follows a request's steps, each once among all processes: the admins shown the proof, an
 * approval credited, a closed request told; and the periodic look that finishes what a stop left.
 */
function requestFollowUps(deps: DepositRequestDeps, now: () => number, dayOf: (ms: number) => string) {
  const { store, logger } = deps;

  /** The admins get the proof once (a stop between the message and its record: once more, the same). */
  async function announce(request: DepositRequest): Promise<void> {
    if (request.announcedAt !== undefined) return;
    const claim = `announce:${request.id}`;
    if (deps.claims !== undefined && !(await deps.claims.take(claim, MINUTE))) return;
    try {
      const fresh = await store.get(request.id);
      if (fresh === undefined || fresh.announcedAt !== undefined) return;
      const [wallet, buyer] = await Promise.all([deps.wallets.get(fresh.resellerId), deps.buyerOf(fresh.resellerId)]);
      await deps.events.announce(fresh, {
        saldo: wallet.saldo,
        tier: buyer?.role === "reseller" ? buyer.tier : undefined,
      });
      await store.markAnnounced(fresh.id, now());
      // Decided while the notices were on their way (the Mini App, another admin): they follow it.
      const after = await store.get(fresh.id);
      if (after !== undefined && !isOpen(after)) await showDecision(after);
    } finally {
      await deps.claims?.giveBack(claim);
    }
  }

  /**
   * Every notice of a decided request says the decision: called after each decision, whichever
   * path made it. A failure here never undoes or repeats the decision: it is logged.
   */
  async function showDecision(request: DepositRequest): Promise<void> {
    try {
      const [wallet, buyer] = await Promise.all([
        deps.wallets.get(request.resellerId),
        deps.buyerOf(request.resellerId),
      ]);
      await deps.events.decided(request, {
        saldo: wallet.saldo,
        tier: buyer?.role === "reseller" ? buyer.tier : undefined,
      });
    } catch (err) {
      deps.logger.warn({ err, request: request.id }, "notices of a decided request not brought up to date");
    }
  }

  /** The approval's deposit, credited once (again after a stop: the wallet credits a deposit id once). */
  async function credit(request: DepositRequest): Promise<number> {
    const by = request.decidedBy ?? 0;
    if (request.byHand !== undefined) return creditHand(request, by);
    await deps.wallets.saveDeposit(
      {
        id: request.id,
        resellerId: request.resellerId,
        amount: request.credited ?? request.exact,
        note: request.id,
        adminId: by,
        chatId: by,
        createdAt: new Date(request.decidedAt ?? now()).toISOString(),
        state: "draft",
      },
      DAY,
    );
    const r = await deps.deposits.confirm(request.id, by);
    await store.credited(request.id);
    if (r.kind === "done") return r.wallet.saldo;
    if (r.kind === "taken") return r.deposit.saldoAfter ?? (await deps.wallets.get(request.resellerId)).saldo;
    throw new Error(`deposit request ${request.id}: its deposit could not be credited (${r.kind})`);
  }

  /**
   * A request credited by hand is credited by the admin's own deposit (prepared before the request
   * was decided), once, never by a deposit of the request's id: the decision is the claim.
   */
  async function creditHand(request: DepositRequest, by: number): Promise<number> {
    const r = await deps.deposits.confirm(request.byHand!, by);
    await store.credited(request.id);
    if (r.kind === "done") return r.wallet.saldo;
    if (r.kind === "taken" && r.deposit.state === "done")
      return r.deposit.saldoAfter ?? (await deps.wallets.get(request.resellerId)).saldo;
    // Its summary was cancelled or expired in between: nothing was credited; the admin sees it in the logs.
    logger.error(
      { request: request.id, deposit: request.byHand, outcome: r.kind },
      "deposit request credited by hand: its deposit could not be credited",
    );
    return (await deps.wallets.get(request.resellerId)).saldo;
  }

  /** Tells the reseller once that a request closed without a credit. */
  async function tellClosed(request: DepositRequest): Promise<void> {
    if (request.toldAt !== undefined) return;
    if (deps.claims !== undefined && !(await deps.claims.take(request.id, MINUTE))) return;
    try {
      const fresh = await store.get(request.id);
      if (fresh === undefined || fresh.toldAt !== undefined) return;
      const delivery = await deps.events.closed(fresh);
      // Someone who cannot be reached now is not tried again and again: they see it in /status.
      if (delivery !== "failed") await store.markTold(request.id, now());
    } finally {
      await deps.claims?.giveBack(request.id);
    }
  }

  return {
    announce,
    credit,
    tellClosed,
    showDecision,
    /**
     * The periodic look (and at start): requests past their time expire and their reseller is
     * told; approvals whose credit a stop interrupted are credited; rejections whose reason did
     * not come in time are told without one; proofs a stop kept from the admins are shown.
     */
    sweep: async (): Promise<void> => {
      const at = now();
      for (const expired of await store.expireDue(at, dayOf(at))) await tellClosed(expired);
      for (const id of await store.crediting()) {
        const r = await store.get(id);
        if (r?.state === "approved") {
          await credit(r);
          await showDecision(r);
        } else await store.credited(id);
      }
      for (const r of await store.untold())
        if (r.state === "expired" || (r.decidedAt ?? 0) + REASON_WAIT_MS <= at) await tellClosed(r);
      for (const r of await store.open()) if (r.state === "review" && r.announcedAt === undefined) await announce(r);
    },
  };
}

/** A reseller asks to deposit `amount`: once per `origin` (the update or page request). */
function asking(deps: DepositRequestDeps, now: () => number, dayOf: (ms: number) => string) {
  const { store, logger, limits } = deps;
  return async (
    asker: { resellerId: number; chatId: number; lang: Lang },
    amount: number,
    origin: string,
  ): Promise<AskResult> => {
    const { resellerId, chatId, lang } = asker;
    const buyer = await deps.buyerOf(resellerId);
    if (buyer?.role !== "reseller") return { kind: "not-reseller" };
    const payInfo = await deps.payInfo.get();
    if (payInfo === undefined) return { kind: "no-pay-info" };
    const at = now();
    const fixed = await deps.origins.fix(origin, newRefId("DR", new Date(at)));
    const shown = fixed.shownAs === undefined ? {} : { shownAs: fixed.shownAs };
    if (!fixed.first) {
      const made = await store.get(fixed.value);
      if (made !== undefined) return { kind: "made", request: made, payInfo, ...shown };
    }
    if (!Number.isSafeInteger(amount) || amount < limits.min || amount > limits.max)
      return { kind: "out-of-limits", min: limits.min, max: limits.max };
    const r = await store.create(
      {
        id: fixed.value,
        resellerId,
        chatId,
        lang,
        amount,
        createdAt: at,
        expiresAt: at + limits.hours * 60 * MINUTE,
      },
      {
        firstCode: randomInt(1, 1000),
        maxOpen: MAX_OPEN_REQUESTS,
        maxPerHour: MAX_REQUESTS_PER_HOUR,
        reuseMs: AMOUNT_REUSE_MS,
        day: dayOf(at),
      },
    );
    if (r.kind !== "made") return r;
    logger.info(
      { request: r.request.id, resellerId, amount, exact: r.request.exact, state: r.request.state },
      "deposit request state changed",
    );
    return { kind: "made", request: r.request, payInfo, ...shown };
  };
}

/**
 * Resellers' requests to top up their saldo: asked with a unique exact amount, answered with a
 * proof, decided once by an admin. An approval is an ordinary deposit of the same id (the
 * request's), credited once by the wallets and told to the reseller by the deposits service; a
 * stop between the decision and the credit is finished by the next look (`sweep`).
 */
export function createDepositRequests(deps: DepositRequestDeps) {
  const { store, logger, limits } = deps;
  const now = () => (deps.now ?? (() => new Date()))().getTime();
  const dayOf = (ms: number) => dayIn(deps.timeZone, new Date(ms));
  const { announce, credit, tellClosed, showDecision, sweep } = requestFollowUps(deps, now, dayOf);

  /**
   * A proof's bytes are read (from Telegram) only for a request of the reseller's that waits for
   * one: anything else is answered by the store without a download. A document is what its bytes
   * are, never what its name or declared type say.
   */
  async function readProof(
    id: string,
    resellerId: number,
    file: Omit<DepositProof, "at" | "sentBeforeFor">,
  ): Promise<{ kind: "ok"; file: Omit<DepositProof, "at" | "sentBeforeFor"> } | { kind: "bad-type" | "unreadable" }> {
    if (file.sha256 !== undefined || deps.fingerprint === undefined) return { kind: "ok", file };
    const request = await store.get(id);
    if (request?.resellerId !== resellerId || request.state !== "proof" || request.expiresAt <= now())
      return { kind: "ok", file };
    const read = await deps.fingerprint(file.fileId).catch((err: unknown) => {
      logger.warn({ err, request: id }, "proof not read from Telegram");
      return undefined;
    });
    if (file.kind === "photo")
      return { kind: "ok", file: read === undefined ? file : { ...file, sha256: read.sha256 } };
    if (read === undefined) return { kind: "unreadable" };
    if (read.type === undefined) return { kind: "bad-type" };
    return { kind: "ok", file: { ...file, mime: read.type, sha256: read.sha256 } };
  }

  /** The reseller's requests waiting for a proof (and still in time). */
  const waitingOf = async (resellerId: number): Promise<DepositRequest[]> =>
    (await store.ofReseller(resellerId, 20)).filter((r) => r.state === "proof" && r.expiresAt > now());

  const requests = {
    get: (id: string) => store.get(id),
    waiting: waitingOf,
    limits,
    ask: asking(deps, now, dayOf),
    /** The message that shows the request (a proof replying to it belongs to it). */
    shown: (id: string, messageId: number) => store.setMessage(id, messageId),
    /** A request made in the Mini App: shown in the reseller's chat too, unless it is already. */
    async showInChat(request: DepositRequest, payInfo: PayInfo): Promise<void> {
      if (request.messageId !== undefined) return;
      const messageId = await deps.events.asked(request, payInfo);
      if (messageId !== undefined) await store.setMessage(request.id, messageId);
    },
    /**
     * A proof from a reseller: for `requestId` (the request whose message it answers), or, without
     * one, for the one request of theirs waiting for a proof. The admins are told once.
     */
    async proof(
      resellerId: number,
      requestId: string | undefined,
      file: Omit<DepositProof, "at" | "sentBeforeFor">,
    ): Promise<ProofAnswer> {
      let id = requestId;
      if (id === undefined) {
        const waiting = await waitingOf(resellerId);
        if (waiting.length === 0) return { kind: "none" };
        if (waiting.length > 1) {
          await store.holdProof(resellerId, file, DAY);
          return { kind: "which", requests: waiting };
        }
        id = waiting[0]!.id;
      }
      const read = await readProof(id, resellerId, file);
      if (read.kind !== "ok") return read;
      const at = now();
      const r = await store.attachProof(id, resellerId, { ...read.file, at }, dayOf(at));
      // Someone else's request is not named to them: it does not exist for them.
      if (r.kind === "not-found" || r.kind === "not-yours") return { kind: "not-found" };
      if (r.kind === "closed") return r;
      logger.info(
        { request: id, resellerId, state: r.request.state, sentBefore: r.request.proof?.sentBeforeFor },
        "deposit request state changed",
      );
      await announce(r.request);
      return { kind: "attached", request: r.request };
    },
    /** The reseller's choice of request for the proof they sent while several waited. */
    async proofFor(resellerId: number, requestId: string): Promise<ProofAnswer> {
      const file = await store.heldProof(resellerId);
      if (file === undefined) return { kind: "none" };
      return requests.proof(resellerId, requestId, file);
    },
    /** Approves once, crediting the exact amount (or `amount`, what the bank shows); the reseller is told. */
    async approve(id: string, adminId: number, amount?: number): Promise<ApproveResult> {
      const got = await store.get(id);
      if (got === undefined) return { kind: "not-found" };
      const at = now();
      const r = await store.decide(id, { state: "approved", credited: amount ?? got.exact }, adminId, at, dayOf(at));
      if (r.kind === "not-found") return r;
      if (r.kind === "taken") {
        // An approval whose credit a stopped process left undone is finished by any later press.
        if (r.request.state === "approved") {
          await credit(r.request);
          // Its notices too (each is edited once: one already brought up to date is not again).
          await showDecision(r.request);
        }
        return r;
      }
      logger.info(
        { request: id, resellerId: r.request.resellerId, credited: r.request.credited, by: adminId, state: "approved" },
        "deposit request state changed",
      );
      const saldo = await credit(r.request);
      await showDecision(r.request);
      return { kind: "approved", request: r.request, saldo };
    },
    /**
     * An admin's own deposit `deposit` (a summary they confirmed) credits request `id` by hand:
     * the request is decided as credited by hand first, in one atomic step that refuses one credited
     * before (by Approve, Other amount or by hand) or another reseller's; then the deposit is
     * credited, once. A stop in between is finished by the next look (`sweep`) or the next tap.
     */
    async creditByHand(id: string, deposit: Deposit, adminId: number): Promise<HandCreditAnswer> {
      const at = now();
      const r = await store.creditByHand(id, {
        resellerId: deposit.resellerId,
        depositId: deposit.id,
        amount: deposit.amount,
        by: adminId,
        at,
        day: dayOf(at),
      });
      if (r.kind !== "decided") return r;
      logger.info(
        { request: id, resellerId: deposit.resellerId, credited: deposit.amount, deposit: deposit.id, by: adminId },
        "deposit request credited by hand",
      );
      const confirmed = await deps.deposits.confirm(deposit.id, adminId);
      await store.credited(id);
      await showDecision(r.request);
      return { kind: "credited", request: r.request, confirmed };
    },
    /**
     * Confirm of an admin's deposit, from the chat or the Mini App: one that names a request in its
     * note (`/deposit USER_ID AMOUNT DR…`) credits that request by hand (above), or is refused and
     * cancelled (so that no later tap credits it); any other is credited once as it is.
     */
    async confirmDeposit(depositId: string, adminId: number): Promise<DepositConfirmAnswer> {
      const draft = await deps.deposits.get(depositId);
      const requestId = draft === undefined ? undefined : requestNamedIn(draft);
      if (draft === undefined || requestId === undefined || draft.state === "cancelled")
        return { kind: "confirmed", confirmed: await deps.deposits.confirm(depositId, adminId) };
      const hand = await requests.creditByHand(requestId, draft, adminId);
      if (hand.kind === "credited") return { kind: "confirmed", confirmed: hand.confirmed };
      await deps.deposits.cancel(depositId);
      return { kind: "refused", requestId, refusal: hand };
    },
    /** Rejects once, at the press; the reason (if the admin gives one soon) follows. */
    async reject(id: string, adminId: number) {
      const at = now();
      const r = await store.decide(id, { state: "rejected" }, adminId, at, dayOf(at));
      if (r.kind === "decided") {
        logger.info(
          { request: id, resellerId: r.request.resellerId, by: adminId, state: "rejected" },
          "deposit request state changed",
        );
        await showDecision(r.request);
      }
      return r;
    },
    /** The admin's reason for a rejection: passed on to the reseller, once. */
    async reason(id: string, text: string): Promise<"told" | "already" | "not-rejected"> {
      const r = await store.get(id);
      if (r === undefined || r.state !== "rejected") return "not-rejected";
      if (r.toldAt !== undefined) return "already";
      await store.setReason(id, text.slice(0, MAX_REASON));
      const fresh = (await store.get(id))!;
      await tellClosed(fresh);
      return "told";
    },
    cancel: (id: string, resellerId: number) => {
      const at = now();
      return store.cancel(id, resellerId, at, dayOf(at));
    },
    /** A day's requests: asked, approved, rejected, expired, with their amounts. */
    dayFigures: (day: string) => store.dayFigures(day),
    open: () => store.open(),
    ofReseller: (resellerId: number, last: number) => store.ofReseller(resellerId, last),
    sweep,
  };
  return requests;
}

export type DepositRequests = ReturnType<typeof createDepositRequests>;
