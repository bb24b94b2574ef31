/**
 * Partners of `npm run chaos`: resellers' own systems ordering over the H2H API (README "H2H API
 * for your resellers") while the bot processes are killed. Each partner has a key and a saldo
 * written straight into Redis, and sends its orders by HTTP to the processes' ports in turn (a
 * refused connection or a cut answer is normal during a kill): every order with a ref id of its
 * own, sent again with the same ref id after a refused connection, a cut answer or a 5xx, some
 * sent twice at the same moment, some sent again on purpose after their answer. Reconciled from
 * outside: one provider call per attempt of a partner ref id's order (through the ledger's `pr:USER:REF` keys), every
 * status-1 answer carried out once at the provider with the provider's sn, no partner ref id with
 * two orders, and each partner's saldo against its statement (chaos/resellers.ts).
 */
import { createPartnerStore, type IssuedKey } from "../src/access/partners.js";
import { createLedger } from "../src/ledger/create-ledger.js";
import { createStorage } from "../src/storage/storage.js";
import type { ProviderCall } from "./providers.js";
import type { FakeUser, SentMessage } from "../test/e2e/fake-bot-api.js";
import { reconcileResellers, type Books, type DepositSeen, type ResellerRun } from "./resellers.js";

const PREFIX = "topup:";
const DEPOSIT = 1_000_000;
const MIX: ReadonlyArray<{ code: string; destination: string; weight: number }> = [
  { code: "FF70", destination: "123456789", weight: 45 },
  { code: "ML86", destination: "12345678(1234)", weight: 40 },
  // The provider does not sell it: transaction/failed, the price back in the saldo.
  { code: "ML257", destination: "12345678(1234)", weight: 15 },
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One HTTP answer as the partner's system got it. */
type Got =
  | { kind: "refused" }
  | { kind: "cut" }
  | { kind: "http"; status: number; body: { status?: number; error_code?: string; data?: { sn?: string } } };

interface RefSeen {
  partner: number;
  ref: string;
  code: string;
  /** HTTP requests sent with this ref id (orders and status queries). */
  sends: number;
  refused: number;
  cut: number;
  /** Sent twice at the same moment / again on purpose after its answer. */
  twin: boolean;
  again: boolean;
  /** Every sn a status-1 answer (order or status query) carried. */
  sns: string[];
  /** The error codes answered. */
  codes: string[];
}

export interface PartnersDeps {
  redisUrl: string;
  ids: readonly number[];
  adminId: number;
  /** The HTTP ports of the bot processes running now. */
  ports: () => number[];
  fork: (actor: string) => () => number;
  orders: number;
  timeoutMs: number;
}

export async function createPartners(deps: PartnersDeps) {
  const storage = await createStorage({ redisUrl: deps.redisUrl, prefix: PREFIX });
  const keys = new Map<number, IssuedKey>();
  const deposits = new Map<string, DepositSeen>();
  try {
    const { wallets } = createLedger(storage);
    for (const id of deps.ids) {
      keys.set(id, await createPartnerStore(storage).issue(id, Date.now()));
      const at = new Date().toISOString();
      const depId = `PDEP${id}`;
      const d = { id: depId, resellerId: id, amount: DEPOSIT, note: "", adminId: deps.adminId, chatId: deps.adminId };
      await wallets.saveDeposit({ ...d, createdAt: at, state: "draft" }, 60_000);
      await wallets.confirmDeposit(depId, { adminId: deps.adminId, at });
      deposits.set(depId, {
        ...d,
        taps: 1,
        doubled: false,
        result: "credited",
        interrupted: false,
        aimedKill: false,
        redelivered: false,
        redeliveryAnswered: false,
      });
    }
  } finally {
    await storage.close();
  }

  const refs = new Map<string, RefSeen>();
  let next = 0;
  const stats = { http: 0, refused: 0, cut: 0, noProcess: 0 };

  async function get(partner: number, path: string, params: Record<string, string>): Promise<Got> {
    let ports = deps.ports();
    for (let i = 0; i < 100 && ports.length === 0; i++) {
      stats.noProcess++;
      await sleep(50);
      ports = deps.ports();
    }
    if (ports.length === 0) return { kind: "refused" };
    const port = ports[next++ % ports.length]!;
    const key = keys.get(partner)!;
    const q = new URLSearchParams({ ...params, mitra_id: key.mitraId, secret_key: key.secretKey });
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1${path}?${q.toString()}`, {
        signal: AbortSignal.timeout(deps.timeoutMs + 10_000),
      });
      const text = await res.text();
      stats.http++;
      try {
        return { kind: "http", status: res.status, body: JSON.parse(text) as Extract<Got, { kind: "http" }>["body"] };
      } catch {
        stats.cut++;
        return { kind: "cut" };
      }
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      if (code === "ECONNREFUSED") {
        stats.refused++;
        return { kind: "refused" };
      }
      stats.cut++;
      return { kind: "cut" };
    }
  }

  /** Whether an answer is final for the ref id: it names what became of it (or that it is used). */
  const final = (g: Got) =>
    g.kind === "http" && g.status === 200 && (g.body.status === 1 || g.body.error_code !== undefined);

  function note(seen: RefSeen, g: Got): void {
    seen.sends++;
    if (g.kind === "refused") seen.refused++;
    else if (g.kind === "cut") seen.cut++;
    else if (g.body.status === 1) seen.sns.push(g.body.data?.sn ?? "");
    else seen.codes.push(`${g.status} ${g.body.error_code ?? "?"}`);
  }

  /** One send of an order, again with the same ref id until an answer names its fate; then its status if it was cut. */
  async function order(seen: RefSeen, destination: string): Promise<void> {
    let wasCut = false;
    for (let attempt = 0; attempt < 60; attempt++) {
      const g = await get(seen.partner, "/transaction/partner", {
        ref_id: seen.ref,
        item_code: seen.code,
        destination,
      });
      note(seen, g);
      if (g.kind === "cut" || (g.kind === "http" && g.status >= 500)) wasCut = true;
      if (final(g)) {
        const used = g.kind === "http" && g.body.error_code === "transaction/ref-id-already-exists";
        if (!(used && wasCut)) return;
        break;
      }
      await sleep(100 + attempt * 20);
    }
    // The answer was cut and the ref id is used now: its status says what became of it.
    for (let attempt = 0; attempt < 60; attempt++) {
      const g = await get(seen.partner, "/transaction/status", { ref_id: seen.ref });
      note(seen, g);
      if (final(g)) return;
      await sleep(100 + attempt * 20);
    }
  }

  return {
    deposits,
    /** The partners' secret keys: no output may hold one. */
    secrets: () => [...keys.values()].map((k) => k.secretKey),
    /** A partner sending `n` orders, a few at a time, during the kills. */
    async loop(partner: number): Promise<void> {
      const random = deps.fork(`partner ${partner}`);
      for (let i = 0; i < deps.orders; i++) {
        await sleep(100 + random() * 600);
        let roll = random() * 100;
        const item = MIX.find((m) => (roll -= m.weight) < 0) ?? MIX[0]!;
        const ref = `P${partner}-${String(i).padStart(3, "0")}`;
        const seen: RefSeen = {
          partner,
          ref,
          code: item.code,
          sends: 0,
          refused: 0,
          cut: 0,
          twin: random() < 0.2,
          again: random() < 0.2,
          sns: [],
          codes: [],
        };
        refs.set(`${partner}:${ref}`, seen);
        await Promise.all(
          seen.twin ? [order(seen, item.destination), order(seen, item.destination)] : [order(seen, item.destination)],
        );
        if (seen.again) await order(seen, item.destination);
      }
    },

    /**
     * From outside, after the run: the ledger's `pr:USER:REF` keys, the provider's calls, the sns it
     * gave (`sns`, by the shop's ref id), and the partners' books (only theirs).
     */
    async reconcile(input: {
      books: Books;
      /** Both providers' calls, each by the order it was an attempt of. */
      calls: readonly ProviderCall[];
      sns: ReadonlyMap<string, string>;
      prices: Map<string, number>;
      messagesTo: (chatId: number) => SentMessage[];
    }): Promise<{ lines: string[]; violations: string[] }> {
      const v: string[] = [];
      const callsOf = new Map<string, ProviderCall[]>();
      for (const c of input.calls) callsOf.set(c.refId, [...(callsOf.get(c.refId) ?? []), c]);
      const st = await createStorage({ redisUrl: deps.redisUrl, prefix: PREFIX });
      if (st.kind !== "redis") throw new Error("redis expected");
      const shopRefOf = new Map<string, string>();
      const partnerRefOf = new Map<string, string>();
      try {
        for (const [k, seen] of refs) {
          const shop = await st.redis.get(`${PREFIX}pr:${seen.partner}:${seen.ref}`);
          if (shop !== null) shopRefOf.set(k, shop);
        }
        // Every order of a partner (a hold in its statement) back to the partner ref id that made it.
        for (const id of deps.ids)
          for (const m of input.books.statements.get(id) ?? [])
            if (m.kind === "hold") {
              const back = await st.redis.get(`${PREFIX}pr-of:${m.ref}`);
              if (back === null) v.push(`partner ${id}: order ${m.ref} has no partner ref id`);
              else partnerRefOf.set(m.ref, `${id}:${back}`);
            }
      } finally {
        await st.close();
      }
      let answered1 = 0;
      let snChecked = 0;
      const ordersPerRef = new Map<string, string[]>();
      for (const [shop, k] of partnerRefOf) ordersPerRef.set(k, [...(ordersPerRef.get(k) ?? []), shop]);
      for (const [k, shops] of ordersPerRef) {
        if (shops.length > 1) v.push(`partner ref id ${k} made ${shops.length} orders: ${shops.join(", ")}`);
        if (!refs.has(k)) v.push(`partner ref id ${k}: an order, but the partner never sent it`);
        else if (shopRefOf.get(k) !== shops[0])
          v.push(`partner ref id ${k}: pr key ${shopRefOf.get(k)}, order ${shops[0]}`);
      }
      for (const [k, seen] of refs) {
        const shop = shopRefOf.get(k);
        // One order may try several providers, each attempt once (its own ref id).
        const calls = shop === undefined ? [] : (callsOf.get(shop) ?? []);
        const perAttempt = new Map<string, number>();
        for (const c of calls) perAttempt.set(c.attemptRef, (perAttempt.get(c.attemptRef) ?? 0) + 1);
        const most = Math.max(0, ...perAttempt.values());
        if (most > 1) v.push(`partner ref id ${k} (${shop}): ${most} provider calls`);
        const carried = calls.filter((c) => c.outcome === "success");
        if (carried.length > 1)
          v.push(`partner ref id ${k} (${shop}): carried out by ${carried.length} provider calls`);
        if (seen.sns.length === 0) continue;
        answered1++;
        if (shop === undefined) v.push(`partner ref id ${k}: answered status 1, no pr key`);
        else if (carried.length !== 1)
          v.push(
            `partner ref id ${k} (${shop}): answered status 1, provider calls ${JSON.stringify(calls.map((c) => `${c.provider} ${c.outcome}`))}`,
          );
        const sn = shop === undefined ? undefined : input.sns.get(shop);
        if (sn !== undefined) {
          snChecked++;
          for (const got of new Set(seen.sns))
            if (got !== sn) v.push(`partner ref id ${k} (${shop}): answered sn ${got}, the provider's is ${sn}`);
        }
      }
      // The partners' money, reconciled as the resellers' is (chaos/resellers.ts).
      const run: ResellerRun = {
        resellers: deps.ids.map((id): FakeUser => ({ id, first_name: `Partner ${id}` })),
        admins: [],
        deposits,
        orders: new Map(),
        correctionsRefusedAtCommand: 0,
        extraSummariesConfirmed: 0,
        unavailableAnswers: 0,
        settle: { success: 0, failed: 0, doubled: 0, settled: 0, notPending: 0, left: 0 },
        problems: [],
      };
      const money = reconcileResellers({
        run,
        books: input.books,
        calls: input.calls,
        prices: input.prices,
        summaryDepositIds: new Set(),
        messagesTo: input.messagesTo,
      });
      const all = [...refs.values()];
      const states: Record<string, number> = {};
      for (const shop of partnerRefOf.keys()) {
        const s = input.books.orders.get(shop)?.state ?? "missing";
        states[s] = (states[s] ?? 0) + 1;
      }
      const sum = (f: (s: RefSeen) => number) => all.reduce((n, s) => n + f(s), 0);
      const lines = [
        `partners (H2H API): ${deps.ids.length} (${deps.ids.join(", ")}), ${all.length} ref ids, ${stats.http} answers, ${stats.refused} connections refused, ${stats.cut} answers cut`,
        `  ref ids sent twice at once: ${all.filter((s) => s.twin).length}; sent again on purpose after the answer: ${all.filter((s) => s.again).length}; sent again after a refused connection or a cut answer: ${all.filter((s) => s.refused + s.cut > 0).length}`,
        `  orders made: ${partnerRefOf.size} (in the ledger: ${JSON.stringify(states)}); ref ids answered status 1: ${answered1} (sn checked against the provider's: ${snChecked}); answers "ref-id-already-exists": ${sum((s) => s.codes.filter((c) => c.includes("ref-id-already-exists")).length)}`,
        `  partner ref ids with two orders: ${[...ordersPerRef.values()].filter((s) => s.length > 1).length}; with two provider calls: ${v.filter((x) => / provider calls$/.test(x)).length}`,
        ...money.lines
          .filter((l) => /^ {2}(holds:|money:|spent =|held =|books balance|\d+ double|\d+ rupiah)/.test(l))
          .map((l) => `  partners' ${l.trimStart()}`),
      ];
      return { lines, violations: [...v, ...money.violations] };
    },
  };
}

/** The books without the partners' wallets and deposits (the resellers' reconciliation knows only its own), and only them. */
export function splitBooks(books: Books, partnerIds: readonly number[]): { resellers: Books; partners: Books } {
  const part = (keep: (userId: number) => boolean): Books => ({
    wallets: new Map([...books.wallets].filter(([id]) => keep(id))),
    statements: new Map([...books.statements].filter(([id]) => keep(id))),
    all: books.all.filter((w) => keep(w.userId)),
    orders: books.orders,
    deposits: new Map([...books.deposits].filter(([, d]) => keep(d.resellerId))),
  });
  return { resellers: part((id) => !partnerIds.includes(id)), partners: part((id) => partnerIds.includes(id)) };
}
