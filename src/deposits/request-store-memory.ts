import {
  isOpen,
  noRequestFigures,
  REQUEST_LIMIT_WINDOW_MS,
  type DepositProof,
  type DepositRequest,
  type DepositRequestState,
  type DepositRequestStore,
  type RequestDayFigures,
} from "./request.js";

/** The next code after `code` (1–999, wrapping). */
const nextCode = (code: number) => (code % 999) + 1;

const closeable = (r: DepositRequest, now: number) => r.state === "proof" && r.expiresAt <= now;

/**
 * Whether the exact amount of `holder` may go to a new request of `asker` at `now`: not while it is
 * open; kept from everyone `reuseMs` after it closed (a late transfer stays findable), except that a
 * request its reseller cancelled before any proof keeps it from that reseller only.
 */
const amountFree = (holder: DepositRequest, asker: number, now: number, reuseMs: number) =>
  !isOpen(holder) &&
  ((holder.closedAt ?? 0) + reuseMs <= now || (holder.state === "cancelled" && holder.resellerId !== asker));
/** Deposit requests in this process only (one process, and tests): the same steps as the Redis store. */
export function memoryRequestStore(): DepositRequestStore {
  const requests = new Map<string, DepositRequest>();
  /** exact amount → the request that has it. */
  const amounts = new Map<number, string>();
  const crediting = new Set<string>();
  const days = new Map<string, RequestDayFigures>();
  const held = new Map<number, { proof: Omit<DepositProof, "at" | "sentBeforeFor">; until: number }>();
  const count = (day: string, figure: keyof RequestDayFigures, amount: number) => {
    const f = days.get(day) ?? noRequestFigures();
    f[figure].count += 1;
    f[figure].amount += amount;
    days.set(day, f);
  };
  const copy = (r: DepositRequest | undefined) => (r === undefined ? undefined : structuredClone(r));
  const close = (r: DepositRequest, state: DepositRequestState, at: number) => {
    r.state = state;
    r.closedAt = at;
  };
  const expireIfDue = (r: DepositRequest, now: number, day: string) => {
    if (!closeable(r, now)) return false;
    close(r, "expired", r.expiresAt);
    count(day, "expired", r.exact);
    return true;
  };
  return {
    async create(input, opts) {
      const made = requests.get(input.id);
      if (made !== undefined) return { kind: "made", request: copy(made)! };
      const mine = [...requests.values()].filter((r) => r.resellerId === input.resellerId);
      const lastHour = mine
        .map((r) => r.createdAt)
        .filter((t) => t > input.createdAt - REQUEST_LIMIT_WINDOW_MS)
        .sort((a, b) => a - b);
      const perHour = opts.maxPerHour ?? Infinity;
      if (lastHour.length >= perHour)
        return { kind: "too-soon", until: lastHour[lastHour.length - perHour]! + REQUEST_LIMIT_WINDOW_MS };
      const open = mine.filter(isOpen).length;
      if (open >= opts.maxOpen) return { kind: "too-many", open };
      let code = opts.firstCode;
      for (let i = 0; i < 999; i++, code = nextCode(code)) {
        const holder = requests.get(amounts.get(input.amount + code) ?? "");
        if (holder !== undefined && !amountFree(holder, input.resellerId, input.createdAt, opts.reuseMs)) continue;
        const request: DepositRequest = { ...input, code, exact: input.amount + code, state: "proof" };
        requests.set(input.id, request);
        amounts.set(request.exact, input.id);
        count(opts.day, "asked", request.exact);
        return { kind: "made", request: copy(request)! };
      }
      return { kind: "no-code" };
    },
    get: async (id) => copy(requests.get(id)),
    async setMessage(id, messageId) {
      const r = requests.get(id);
      if (r !== undefined) r.messageId ??= messageId;
    },
    async attachProof(id, resellerId, proof, day) {
      const r = requests.get(id);
      if (r === undefined) return { kind: "not-found" };
      if (r.resellerId !== resellerId) return { kind: "not-yours" };
      expireIfDue(r, proof.at, day);
      if (r.state === "review" && r.proof?.fileUniqueId === proof.fileUniqueId)
        return { kind: "attached", request: copy(r)! };
      if (r.state !== "proof") return { kind: "closed", request: copy(r)! };
      const same = (o: DepositRequest) =>
        o.proof?.fileUniqueId === proof.fileUniqueId ||
        (proof.sha256 !== undefined && o.proof?.sha256 === proof.sha256);
      const before = [...requests.values()]
        .filter((o) => o.id !== id && o.proof !== undefined && same(o))
        .sort((a, b) => a.proof!.at - b.proof!.at)[0];
      r.proof = { ...proof, ...(before === undefined ? {} : { sentBeforeFor: before.id }) };
      r.state = "review";
      return { kind: "attached", request: copy(r)! };
    },
    async decide(id, verdict, by, at, day) {
      const r = requests.get(id);
      if (r === undefined) return { kind: "not-found" };
      expireIfDue(r, at, day);
      if (r.state !== "review") return { kind: "taken", request: copy(r)! };
      close(r, verdict.state, at);
      r.decidedBy = by;
      r.decidedAt = at;
      if (verdict.state === "approved") {
        r.credited = verdict.credited;
        crediting.add(id);
        count(day, "approved", verdict.credited);
      } else count(day, "rejected", r.exact);
      return { kind: "decided", request: copy(r)! };
    },
    async cancel(id, resellerId, at, day) {
      const r = requests.get(id);
      if (r === undefined) return { kind: "not-found" };
      if (r.resellerId !== resellerId) return { kind: "not-yours" };
      expireIfDue(r, at, day);
      if (r.state !== "proof") return { kind: "closed", request: copy(r)! };
      close(r, "cancelled", at);
      r.toldAt = at;
      return { kind: "cancelled", request: copy(r)! };
    },
    async creditByHand(id, hand) {
      const r = requests.get(id);
      if (r === undefined) return { kind: "not-found" };
      if (r.resellerId !== hand.resellerId) return { kind: "not-yours", request: copy(r)! };
      if (r.state === "approved") return { kind: r.byHand === hand.depositId ? "decided" : "taken", request: copy(r)! };
      close(r, "approved", hand.at);
      r.decidedBy = hand.by;
      r.decidedAt = hand.at;
      r.credited = hand.amount;
      r.byHand = hand.depositId;
      // A rejection or an expiry not told yet is not told: the reseller hears of the credit instead.
      r.toldAt ??= hand.at;
      crediting.add(id);
      count(hand.day, "approved", hand.amount);
      return { kind: "decided", request: copy(r)! };
    },
    async setReason(id, reason) {
      const r = requests.get(id);
      if (r !== undefined && r.state === "rejected") r.reason ??= reason;
    },
    async expireDue(now, day) {
      const closed: DepositRequest[] = [];
      for (const r of requests.values()) if (expireIfDue(r, now, day)) closed.push(copy(r)!);
      return closed;
    },
    dayFigures: async (day) => structuredClone(days.get(day) ?? noRequestFigures()),
    holdProof: async (resellerId, proof, ttlMs) =>
      void held.set(resellerId, { proof, until: performance.now() + ttlMs }),
    async heldProof(resellerId) {
      const h = held.get(resellerId);
      return h !== undefined && h.until > performance.now() ? { ...h.proof } : undefined;
    },
    crediting: async () => [...crediting],
    credited: async (id) => void crediting.delete(id),
    async markAnnounced(id, at) {
      const r = requests.get(id);
      if (r !== undefined) r.announcedAt ??= at;
    },
    async markTold(id, at) {
      const r = requests.get(id);
      if (r !== undefined) r.toldAt ??= at;
    },
    untold: async () =>
      [...requests.values()]
        .filter((r) => (r.state === "rejected" || r.state === "expired") && r.toldAt === undefined)
        .map((r) => copy(r)!),
    open: async () =>
      [...requests.values()]
        .filter(isOpen)
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((r) => copy(r)!),
    ofReseller: async (resellerId, last) =>
      [...requests.values()]
        .filter((r) => r.resellerId === resellerId)
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, last)
        .map((r) => copy(r)!),
  };
}
