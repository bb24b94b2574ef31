import type { Lang } from "../orders/order.js";

/**
 * A reseller's request to top up their saldo by bank transfer or QRIS. `proof` while it waits for
 * the reseller's proof of transfer (it expires, or the reseller cancels it); `review` once a proof
 * came, until an admin decides; then `approved` or `rejected`. A request is open in `proof` and
 * `review`. `exact` (the amount asked plus a code of 1–999) is unique among open requests and is
 * not given to another request for `reuseMs` after this one closed: the transfer can be found by it.
 */
export type DepositRequestState = "proof" | "review" | "approved" | "rejected" | "expired" | "cancelled";

export interface DepositProof {
  /** Telegram's ids of the file: the bot keeps them, never the bytes. */
  fileId: string;
  fileUniqueId: string;
  kind: "photo" | "document";
  mime?: string;
  /** The SHA-256 of its bytes, when they could be read: the same picture sent again as a new file. */
  sha256?: string;
  at: number;
  /** Another request this very file was sent for first (the admins are warned). */
  sentBeforeFor?: string;
}

export interface DepositRequest {
  id: string;
  resellerId: number;
  /** The private chat where the reseller asked, and the language they asked in. */
  chatId: number;
  lang: Lang;
  /** What the reseller asked for, the code added, and what they transfer (amount + code). */
  amount: number;
  code: number;
  exact: number;
  createdAt: number;
  /** While waiting for a proof: closed as expired after this. */
  expiresAt: number;
  state: DepositRequestState;
  /** The message that showed the request (a proof that replies to it belongs to it). */
  messageId?: number;
  proof?: DepositProof;
  decidedBy?: number;
  decidedAt?: number;
  /** What an approval credits (the exact amount, or the one the admin typed). */
  credited?: number;
  reason?: string;
  closedAt?: number;
  /** The admins were shown the proof. */
  announcedAt?: number;
  /** The reseller was told it closed (rejected or expired). */
  toldAt?: number;
  /**
   * Credited by an admin's own deposit (`/deposit USER_ID AMOUNT DR…`), of this id, instead of by
   * Approve: the request is `approved` with it, whatever state it was in before.
   */
  byHand?: string;
}

export const isOpen = (r: DepositRequest): boolean => r.state === "proof" || r.state === "review";

/** A day's deposit requests: how many were asked, approved, rejected and expired, and their amounts. */
export interface RequestDayFigures {
  asked: { count: number; amount: number };
  approved: { count: number; amount: number };
  rejected: { count: number; amount: number };
  expired: { count: number; amount: number };
}

/** The window of the per-reseller limit on new requests (`maxPerHour`): an hour. */
export const REQUEST_LIMIT_WINDOW_MS = 60 * 60 * 1000;

export const FIGURES = ["asked", "approved", "rejected", "expired"] as const;
/** The field letter of each figure in a day's hash (`an`: count, `aa`: amount). */
export const LETTER = { asked: "r", approved: "a", rejected: "j", expired: "x" } as const;

export const noRequestFigures = (): RequestDayFigures => ({
  asked: { count: 0, amount: 0 },
  approved: { count: 0, amount: 0 },
  rejected: { count: 0, amount: 0 },
  expired: { count: 0, amount: 0 },
});

export type CreateResult =
  | { kind: "made"; request: DepositRequest }
  /** `open` requests already (the most a reseller may have). */
  | { kind: "too-many"; open: number }
  /** The reseller asked for `maxPerHour` requests in the last hour: they may ask again at `until` (ms). */
  | { kind: "too-soon"; until: number }
  /** Every code of this amount is taken by another open (or recently closed) request. */
  | { kind: "no-code" };

export type ProofResult =
  | { kind: "attached"; request: DepositRequest }
  | { kind: "not-found" }
  | { kind: "not-yours" }
  /** Not waiting for a proof (expired now or before, cancelled, already has one, decided). */
  | { kind: "closed"; request: DepositRequest };

export type DecideResult =
  | { kind: "decided"; request: DepositRequest }
  | { kind: "not-found" }
  /** Decided before, closed, or still waiting for its proof: nothing changed. */
  | { kind: "taken"; request: DepositRequest };

export type HandCreditResult =
  /** Decided now as credited by hand (or before, by this very deposit: a second try of the same). */
  | { kind: "decided"; request: DepositRequest }
  | { kind: "not-found" }
  /** Not the reseller's the admin named. */
  | { kind: "not-yours"; request: DepositRequest }
  /** Credited before (by Approve, Other amount or another hand credit): `request` says when and by whom. */
  | { kind: "taken"; request: DepositRequest };

export type CancelRequestResult =
  | { kind: "cancelled"; request: DepositRequest }
  | { kind: "not-found" }
  | { kind: "not-yours" }
  | { kind: "closed"; request: DepositRequest };

/**
 * Every step is atomic among all processes: a request is made once per id, gets an amount no open
 * request has, takes one proof, and is decided once (approve or reject, whoever presses first);
 * an approval waits in `crediting` until its deposit is credited (the credit itself is the wallet's
 * deposit of the same id, credited once).
 */
export interface DepositRequestStore {
  /**
   * A new request of `input.id` (an id made once per update): with a code from `firstCode` up
   * (1–999, wrapping) whose exact amount is free. The same id made before is answered as made
   * (and counts once). At most `maxPerHour` requests of one reseller are made in any hour, checked
   * in the same step. An exact amount is free once its request closed `reuseMs` ago, or at once for
   * another reseller when its own reseller cancelled it (no proof came: no transfer to find by it).
   */
  create(
    input: Pick<DepositRequest, "id" | "resellerId" | "chatId" | "lang" | "amount" | "createdAt" | "expiresAt">,
    opts: { firstCode: number; maxOpen: number; maxPerHour?: number; reuseMs: number; day: string },
  ): Promise<CreateResult>;
  get(id: string): Promise<DepositRequest | undefined>;
  /** The message that shows the request (once sent). */
  setMessage(id: string, messageId: number): Promise<void>;
  /** A proof from `resellerId` for request `id`, at `now`; a request past its time expires here. */
  attachProof(
    id: string,
    resellerId: number,
    proof: Omit<DepositProof, "sentBeforeFor">,
    day: string,
  ): Promise<ProofResult>;
  /** Approve (crediting `credited`) or reject, once; only a request with a proof. */
  decide(
    id: string,
    verdict: { state: "approved"; credited: number } | { state: "rejected" },
    by: number,
    at: number,
    day: string,
  ): Promise<DecideResult>;
  /** The reseller's Cancel: only while it waits for its proof. */
  cancel(id: string, resellerId: number, at: number, day: string): Promise<CancelRequestResult>;
  /**
   * An admin credits the request by hand with deposit `hand.depositId`: decided as approved
   * (`byHand`) in one step, from any state but approved (open, expired, rejected, cancelled), so
   * that no Approve credits it afterwards; only the reseller's own request.
   */
  creditByHand(
    id: string,
    hand: { resellerId: number; depositId: string; amount: number; by: number; at: number; day: string },
  ): Promise<HandCreditResult>;
  /** The reason an admin gave a rejection (the first one kept). */
  setReason(id: string, reason: string): Promise<void>;
  /** Requests waiting for a proof past `expiresAt` ≤ now: closed as expired; those closed now. */
  expireDue(now: number, day: string): Promise<DepositRequest[]>;
  /**
   * A day's figures (`day` is the shop's day of each step: asked when made, approved or rejected
   * when decided, expired when closed as such).
   */
  dayFigures(day: string): Promise<RequestDayFigures>;
  /** Approved requests whose deposit may not be credited yet (a stop in between). */
  crediting(): Promise<string[]>;
  /** The approval's deposit is credited. */
  credited(id: string): Promise<void>;
  markAnnounced(id: string, at: number): Promise<void>;
  markTold(id: string, at: number): Promise<void>;
  /** Closed (rejected or expired) requests whose reseller has not been told. */
  untold(): Promise<DepositRequest[]>;
  /** A proof sent while several requests wait for one: kept for the reseller's choice (one at a time). */
  holdProof(resellerId: number, proof: Omit<DepositProof, "at" | "sentBeforeFor">, ttlMs: number): Promise<void>;
  heldProof(resellerId: number): Promise<Omit<DepositProof, "at" | "sentBeforeFor"> | undefined>;
  /** Open requests of the shop, oldest first. */
  open(): Promise<DepositRequest[]>;
  /** A reseller's requests, newest first (at most `last`). */
  ofReseller(resellerId: number, last: number): Promise<DepositRequest[]>;
}
