/**
 * The resellers' part of `npm run chaos`: admins take deposits (Confirm tapped twice, tapped again
 * after a kill, an old button pressed again), resellers order from their saldo under the same kills
 * and provider faults as staff, some Confirms are refused for too little saldo, and at the end an
 * admin settles some of the unknown orders. Then every reseller's money is reconciled: the books,
 * the statement, every hold against its order, every deposit against its Confirm, the money spent
 * against what the provider carried out.
 */
import type { Catalog } from "../src/catalog/catalog.js";
import type { Ledger } from "../src/orders/ledger.js";
import type { OrderRecord } from "../src/orders/order.js";
import type { Deposit, Movement, Wallet } from "../src/orders/wallet.js";
import type { SandboxCall } from "../src/topup/sandbox.js";
import type { FakeBotApi, FakeUser, SentMessage } from "../test/e2e/fake-bot-api.js";
import { walletBalances } from "../test/helpers/wallet-balances.js";
import { confirmOtherSummaries, type Ask } from "./summaries.js";

/** What resellers order, and how often (weights). */
const MIX: ReadonlyArray<{ code: string; weight: number }> = [
  { code: "FF70", weight: 35 },
  { code: "ML86", weight: 25 },
  { code: "FF140", weight: 15 },
  { code: "ML172", weight: 10 },
  { code: "ML257", weight: 15 },
];
/** Products the provider does not sell: it answers status 0 (product/not-found), the hold is released. */
export const NOT_AT_PROVIDER: ReadonlySet<string> = new Set(["ML257"]);
/** Deposit amounts an admin takes (rupiah), and the occasional correction downwards. */
const AMOUNTS = [10_000, 15_000, 20_000, 30_000, 40_000];
const FIRST_DEPOSIT = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const rupiah = (n: number) => `Rp ${n < 0 ? "−" : ""}${Math.abs(n).toLocaleString("en-US")}`;
const money = (text: string) => Number(text.replace(/[^0-9]/g, ""));

export interface DepositSeen {
  id: string;
  resellerId: number;
  amount: number;
  note: string;
  adminId: number;
  taps: number;
  doubled: boolean;
  /** How the Confirm was answered: credited now, already credited (an earlier tap won), refused. */
  result?: "credited" | "already" | "refused" | "other";
  /** The bot was SIGKILLed between the first tap and the answer. */
  interrupted: boolean;
  /** The driver killed the bot just after tapping Confirm. */
  aimedKill: boolean;
  /** The first tap was delivered again after the answer (an old button, a redelivery). */
  redelivered: boolean;
  redeliveryAnswered: boolean;
}

export interface ResellerOrderSeen {
  refId: string;
  resellerId: number;
  code: string;
  /** The catalogue's reseller price. */
  price: number;
  taps: number;
  doubled: boolean;
  /** "Not enough saldo" answers, and how many said a saldo that did cover the price. */
  refusals: number;
  unjustified: string[];
  /** The saldo each refusal named. */
  refusedSaldos: number[];
  /** Refused, then tapped again once the admin credited a deposit. */
  retappedAfterDeposit: boolean;
  /** Refused and left alone: nothing may have been held or sent (unless a redelivered tap claimed it). */
  gaveUp: boolean;
  /** The last answer was a refusal: the order need not be final. */
  lastRefused: boolean;
  /** Confirms answered "temporarily unavailable" (every route resting), each tapped again a moment later. */
  restingAnswers: number;
  /** The last answer was "temporarily unavailable": the order may stay a draft (never sent). */
  lastResting: boolean;
  /** The outcome the reseller was told. */
  outcome?: "success" | "failed" | "unknown";
  /** The driver killed the bot just after the first Confirm. */
  aimedKill: boolean;
  /** Summaries of this order shown again (handled again after a kill) whose Confirm was pressed too. */
  extraSummaries: number;
}

export interface ResellerRun {
  resellers: FakeUser[];
  admins: FakeUser[];
  deposits: Map<string, DepositSeen>;
  orders: Map<string, ResellerOrderSeen>;
  /** Corrections refused by /deposit itself (the saldo was smaller). */
  correctionsRefusedAtCommand: number;
  /** Summaries of one /deposit shown again (handled again after a kill): their Confirm pressed too. */
  extraSummariesConfirmed: number;
  /** Confirm taps answered "temporarily unavailable" (Redis was down): the admin taps again. */
  unavailableAnswers: number;
  settle: { success: number; failed: number; doubled: number; settled: number; notPending: number; left: number };
  /** Things the driver noticed that are not money: unanswered settlements, surprises. */
  problems: string[];
}

export interface ResellerDriverDeps {
  fake: FakeBotApi;
  catalog: Catalog;
  /**
   * A generator of its own for each actor (a reseller, an admin, the settling admin), derived from
   * the run's seed: an actor makes the same choices in a replay, whatever the timing of the others.
   */
  fork: (actor: string) => () => number;
  /** How many times the bot was SIGKILLed so far. */
  kills: () => number;
  /** SIGKILLs the bot now (the chaos loop restarts it); false when it was not running. */
  killNow: () => boolean;
  /** Where every /order and /deposit the driver sends is written down (chaos/summaries.ts). */
  asks: Ask[];
}

/** Polls until `fn` returns something, or gives up after `ms` (undefined). */
export async function poll<T>(fake: FakeBotApi, fn: () => T | undefined, ms: number): Promise<T | undefined> {
  const box: { value?: T } = {};
  await fake
    .waitFor(() => {
      const v = fn();
      if (v === undefined) return false;
      box.value = v;
      return true;
    }, ms)
    .catch(() => undefined);
  return box.value;
}

export function resellerPrices(catalog: Catalog): Map<string, number> {
  const prices = new Map<string, number>();
  for (const g of catalog.games)
    for (const p of g.products) {
      const price = p.prices.reseller ?? p.price;
      if (typeof price === "number") prices.set(p.code, price);
    }
  return prices;
}

const OUTCOME = /Top-up successful|Order failed|Order not sent|Result unknown/;
/** The answer to a Confirm while every route of the product rests: nothing was sent, the draft stays a draft. */
const RESTING = /is temporarily unavailable: its providers are not answering/;
/** How many "temporarily unavailable" answers a chat has had so far. */
export const restingTold = (fake: FakeBotApi, chatId: number): number =>
  fake.messagesTo(chatId).filter((m) => RESTING.test(m.text)).length;
/** Confirms answered "temporarily unavailable" that an order may have on top of its usual taps. */
export const MAX_RESTING_TAPS = 40;
const stateOfOutcome = (text: string): "success" | "failed" | "unknown" =>
  /Top-up successful/.test(text) ? "success" : /Result unknown/.test(text) ? "unknown" : "failed";
const depositIdOf = (m: SentMessage) => /"dc:([A-Z0-9]+)"/.exec(JSON.stringify(m.reply_markup ?? {}))?.[1];

export function createResellerDriver(deps: ResellerDriverDeps, resellers: FakeUser[], admins: FakeUser[]) {
  const { fake } = deps;
  const prices = resellerPrices(deps.catalog);
  const run: ResellerRun = {
    resellers,
    admins,
    deposits: new Map(),
    orders: new Map(),
    correctionsRefusedAtCommand: 0,
    unavailableAnswers: 0,
    extraSummariesConfirmed: 0,
    settle: { success: 0, failed: 0, doubled: 0, settled: 0, notPending: 0, left: 0 },
    problems: [],
  };
  /** Deposits the driver saw credited, per reseller: a refused reseller waits for the next one. */
  const creditedCount = new Map<number, number>();
  let noteSeq = 0;

  const answersTo = (ids: readonly string[]) => fake.callbackAnswers.filter((a) => ids.includes(a.callback_query_id));

  /** One deposit (or correction) by an admin: /deposit until a summary shows, then Confirm until answered. */
  async function deposit(admin: FakeUser, resellerId: number, amount: number, random: () => number): Promise<void> {
    const note = `chaos-${++noteSeq}`;
    const isSummary = (m: SentMessage) => m.text.includes(`Note: ${note}`) && depositIdOf(m) !== undefined;
    let summary: SentMessage | undefined;
    // One /deposit, sent again only after a long silence (then it is a second request).
    const ask: Ask = { chat: admin.id, key: note, sends: 0 };
    deps.asks.push(ask);
    for (let attempt = 0; attempt < 3 && summary === undefined; attempt++) {
      const before = fake.messagesTo(admin.id).length;
      fake.sendText(admin, `/deposit ${resellerId} ${amount} ${note}`);
      ask.sends++;
      const got = await poll(
        fake,
        () => {
          const list = fake.messagesTo(admin.id);
          const found = list.find(isSummary);
          if (found !== undefined) return found;
          return list.slice(before).some((m) => /never goes below/.test(m.text)) ? "refused" : undefined;
        },
        30_000,
      );
      if (got === "refused") {
        run.correctionsRefusedAtCommand++;
        return;
      }
      summary = got;
    }
    if (summary === undefined) throw new Error(`admin ${admin.id} never got a summary for ${note}`);
    const shown = summary;
    const id = depositIdOf(shown)!;
    const seen: DepositSeen = {
      id,
      resellerId,
      amount,
      note,
      adminId: admin.id,
      taps: 0,
      doubled: false,
      interrupted: false,
      aimedKill: false,
      redelivered: false,
      redeliveryAnswered: false,
    };
    run.deposits.set(id, seen);
    const tapIds: string[] = [];
    const tap = () => {
      const u = fake.tapButton(admin, shown, `dc:${id}`);
      tapIds.push(String(u.callback_query!.id));
      seen.taps++;
      return u;
    };
    /** "Temporarily unavailable" (Redis was down; the tap is handled once it is back) is no answer yet: tap again. */
    const unavailable = (a: { text?: string }) => /temporarily unavailable/.test(a.text ?? "");
    const answered = (): DepositSeen["result"] => {
      for (const a of answersTo(tapIds)) {
        const text = a.text ?? "";
        if (unavailable(a)) continue;
        if (/^Credited\./.test(text)) return "credited";
        if (/already credited/.test(text)) return "already";
        if (/never goes below/.test(text)) return "refused";
        return "other";
      }
      return undefined;
    };
    const killsBefore = deps.kills();
    const first = tap();
    if (random() < 0.3) {
      tap();
      seen.doubled = true;
    }
    if (random() < 0.35) {
      // Killed while the Confirm is in flight: before the bot gets it, between the credit and the answer, or after.
      await sleep(random() * 60);
      seen.aimedKill = deps.killNow();
    }
    for (let round = 0; round < 8 && seen.result === undefined; round++) {
      if (round > 0) tap();
      seen.result = await poll(fake, answered, 5000);
    }
    seen.interrupted = deps.kills() !== killsBefore;
    run.unavailableAnswers += answersTo(tapIds).filter(unavailable).length;
    if (seen.result === undefined) run.problems.push(`deposit ${id}: Confirm never answered after ${seen.taps} taps`);
    if (seen.result === "other")
      run.problems.push(
        `deposit ${id}: unexpected answer ${JSON.stringify(answersTo(tapIds).find((a) => !unavailable(a))?.text)}`,
      );
    if (seen.result === "credited" || seen.result === "already") {
      creditedCount.set(resellerId, (creditedCount.get(resellerId) ?? 0) + 1);
      if (random() < 0.25) {
        // The old button pressed again (or Telegram delivering the tap again): nothing more is credited.
        const cbId = String(first.callback_query!.id);
        const before = answersTo([cbId]).length;
        fake.redeliver(first);
        seen.redelivered = true;
        seen.redeliveryAnswered =
          (await poll(
            fake,
            () =>
              answersTo([cbId])
                .slice(before)
                .some((a) => /already credited/.test(a.text ?? ""))
                ? true
                : undefined,
            3000,
          )) === true;
      }
    }
    // A /deposit handled again (its process died right after sending the summary) shows it again:
    // the admin presses that Confirm too. It is the same deposit: credited once.
    if (seen.result === "credited" || seen.result === "already") {
      const pressed = await confirmOtherSummaries(fake, admin, shown, isSummary, "dc");
      run.extraSummariesConfirmed += pressed.length;
      // A /deposit sent again after a long silence is a second request: its summary, pressed too,
      // is a deposit of its own, which the books must show as well.
      for (const other of new Set(pressed.filter((p) => p !== id))) {
        const { result: _answered, ...rest } = seen;
        run.deposits.set(other, { ...rest, id: other, taps: 1, doubled: false, aimedKill: false, redelivered: false });
        creditedCount.set(resellerId, (creditedCount.get(resellerId) ?? 0) + 1);
      }
    }
  }

  return {
    run,

    /** An admin taking deposits until `done()`: first one for each reseller, then at random. */
    async depositLoop(admin: FakeUser, index: number, done: () => boolean): Promise<void> {
      const random = deps.fork(`admin ${admin.id}`);
      for (const [i, r] of resellers.entries())
        if (i % admins.length === index) await deposit(admin, r.id, FIRST_DEPOSIT, random);
      while (!done()) {
        await sleep(1200 + random() * 2300);
        if (done()) break;
        const reseller = resellers[Math.floor(random() * resellers.length)]!;
        const correction = random() < 0.1;
        const amount = correction
          ? -1000 * (1 + Math.floor(random() * 3))
          : AMOUNTS[Math.floor(random() * AMOUNTS.length)]!;
        await deposit(admin, reseller.id, amount, random);
      }
    },

    /** A reseller's orders, one after the other, each tapped until an outcome (or a refusal) comes. */
    async orderLoop(user: FakeUser, count: number): Promise<void> {
      const random = deps.fork(`reseller ${user.id}`);
      const total = MIX.reduce((s, m) => s + m.weight, 0);
      for (let i = 0; i < count; i++) {
        let roll = random() * total;
        const code = MIX.find((m) => (roll -= m.weight) < 0)?.code ?? "FF70";
        const n = String(i).padStart(3, "0");
        const player = code.startsWith("ML") ? `${user.id}${n}(2024)` : `88${user.id}${n}`;
        let summary: SentMessage | undefined;
        const isSummary = (m: SentMessage) =>
          /Please check your order/.test(m.text) && m.text.includes(`Player id: <code>${player}</code>`);
        // One /order, sent again only after a long silence (then it is a second request).
        const ask: Ask = { chat: user.id, key: player, sends: 0 };
        deps.asks.push(ask);
        for (let attempt = 0; attempt < 3 && summary === undefined; attempt++) {
          fake.sendText(user, `/order ${code} ${player}`);
          ask.sends++;
          summary = await fake.waitForMessage(user.id, isSummary, 30_000).catch(() => undefined);
        }
        if (summary === undefined) throw new Error(`reseller ${user.id} never got a summary for ${code} ${player}`);
        const shown = summary;
        const refId = /Order ref: <code>([A-Z0-9]+)<\/code>/.exec(shown.text)![1]!;
        const seen: ResellerOrderSeen = {
          refId,
          resellerId: user.id,
          code,
          price: prices.get(code)!,
          taps: 0,
          doubled: false,
          refusals: 0,
          unjustified: [],
          refusedSaldos: [],
          retappedAfterDeposit: false,
          gaveUp: false,
          lastRefused: false,
          restingAnswers: 0,
          lastResting: false,
          aimedKill: false,
          extraSummaries: 0,
        };
        run.orders.set(refId, seen);
        const tapIds: string[] = [];
        const tap = () => {
          tapIds.push(String(fake.tapButton(user, shown, `c:${refId}`).callback_query!.id));
          seen.taps++;
        };
        const refusals = () => answersTo(tapIds).filter((a) => /Not enough saldo/.test(a.text ?? ""));
        const told = () =>
          fake
            .messagesTo(user.id)
            .find((m) => m.text.includes(`Ref id: <code>${refId}</code>`) && OUTCOME.test(m.text));
        let refusedSoFar = 0;
        for (let round = 0; round < 8 && seen.outcome === undefined && !seen.gaveUp; round++) {
          const restingBefore = restingTold(fake, user.id);
          tap();
          if (round === 0 && random() < 0.2) {
            tap();
            seen.doubled = true;
          }
          if (round === 0 && random() < 0.15) {
            await sleep(random() * 80);
            seen.aimedKill = deps.killNow();
          }
          const got = await poll(
            fake,
            () => {
              const m = told();
              if (m !== undefined) return stateOfOutcome(m.text);
              if (restingTold(fake, user.id) > restingBefore) return "resting";
              return refusals().length > refusedSoFar ? "refused" : undefined;
            },
            6000,
          );
          seen.lastResting = got === "resting";
          if (got === "resting") {
            // Every route of the product rests: tapped again a moment later, not counted as a round.
            seen.restingAnswers++;
            if (seen.restingAnswers <= MAX_RESTING_TAPS) round--;
            await sleep(2000);
            continue;
          }
          seen.lastRefused = got === "refused";
          if (got !== "refused") {
            if (got !== undefined) seen.outcome = got;
            continue;
          }
          await sleep(200); // the second answer of a double tap
          refusedSoFar = refusals().length;
          // Some refused resellers give up; the others ask for a deposit and tap Confirm again.
          if (random() < 0.3) {
            seen.gaveUp = true;
            break;
          }
          const had = creditedCount.get(user.id) ?? 0;
          await poll(fake, () => ((creditedCount.get(user.id) ?? 0) > had ? true : undefined), 12_000);
          seen.retappedAfterDeposit = true;
        }
        // Shown this order's summary again (handled again after a kill): its Confirm pressed too,
        // unless the reseller gave the order up. The same ref id: nothing more is held or sent.
        if (!seen.gaveUp && seen.outcome !== undefined) {
          const pressed = await confirmOtherSummaries(fake, user, shown, isSummary, "c");
          seen.taps += pressed.length;
          seen.extraSummaries = pressed.length;
        }
        // Every refusal must name a saldo below this order's price.
        for (const a of refusals()) {
          seen.refusals++;
          const m = /you have Rp ([0-9,]+), this order costs Rp ([0-9,]+)/.exec(a.text ?? "");
          if (m === null || money(m[1]!) >= money(m[2]!) || money(m[2]!) !== seen.price)
            seen.unjustified.push(a.text ?? "");
          if (m !== null) seen.refusedSaldos.push(money(m[1]!));
        }
      }
    },

    /**
     * After recovery: an admin checks the provider's dashboard (the sandbox's record) and settles
     * about two thirds of the resellers' unknown orders, success if the provider carried it out and
     * failed if not; some are sent by both admins at once. The rest stay unknown, held.
     */
    async settleSome(ledger: Ledger, calls: readonly SandboxCall[]): Promise<void> {
      const random = deps.fork("settle");
      const carried = new Set(calls.filter((c) => c.outcome === "success").map((c) => c.refId));
      const unknown = (await ledger.orders.pending()).filter((o) => o.role === "reseller");
      const waits: Array<Promise<void>> = [];
      for (const [i, order] of unknown.entries()) {
        if (random() < 0.35) {
          run.settle.left++;
          continue;
        }
        const success = carried.has(order.refId);
        if (success) run.settle.success++;
        else run.settle.failed++;
        const text = success
          ? `/settle ${order.refId} success CHAOS${String(i).padStart(4, "0")}`
          : `/settle ${order.refId} failed not in the provider's dashboard`;
        const by = random() < 0.3 ? admins : admins.slice(0, 1);
        if (by.length > 1) run.settle.doubled++;
        for (const admin of by) fake.sendText(admin, text);
        waits.push(
          (async () => {
            const replies = await Promise.all(
              by.map((admin) =>
                fake
                  .waitForMessage(
                    admin.id,
                    (m) => new RegExp(`Order <code>${order.refId}</code> is (settled as|not pending)`).test(m.text),
                    30_000,
                  )
                  .catch(() => undefined),
              ),
            );
            for (const m of replies) {
              if (m === undefined) run.problems.push(`/settle ${order.refId}: no answer`);
              else if (/is settled as/.test(m.text)) run.settle.settled++;
              else run.settle.notPending++;
            }
          })(),
        );
      }
      await Promise.all(waits);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Reading the books and reconciling them

export interface Books {
  wallets: Map<number, Wallet>;
  statements: Map<number, Movement[]>;
  /** Every wallet the ledger lists. */
  all: Wallet[];
  orders: Map<string, OrderRecord>;
  deposits: Map<string, Deposit>;
}

/** The ledger as an auditor reads it: every reseller's wallet and whole statement, the orders and deposits. */
export async function readBooks(
  ledger: Ledger,
  resellerIds: readonly number[],
  orderRefs: Iterable<string>,
  depositIds: Iterable<string>,
): Promise<Books> {
  const books: Books = {
    wallets: new Map(),
    statements: new Map(),
    all: await ledger.wallets.all(),
    orders: new Map(),
    deposits: new Map(),
  };
  const refs = new Set(orderRefs);
  const ids = new Set(depositIds);
  for (const r of new Set([...resellerIds, ...books.all.map((w) => w.userId)])) {
    books.wallets.set(r, await ledger.wallets.get(r));
    const lines = await ledger.wallets.statement(r, 10_000_000);
    books.statements.set(r, lines);
    for (const m of lines) (m.kind === "deposit" || m.kind === "correction" ? ids : refs).add(m.ref);
  }
  for (const ref of refs) {
    const o = await ledger.orders.get(ref);
    if (o !== undefined) books.orders.set(ref, o);
  }
  for (const id of ids) {
    const d = await ledger.wallets.getDeposit(id);
    if (d !== undefined) books.deposits.set(id, d);
  }
  return books;
}

/** Rebuilds a wallet from its statement, checking that every line's saldo and held are what came before plus it. */
export function replay(userId: number, lines: readonly Movement[]): { wallet: Wallet; errors: string[] } {
  const w: Wallet = { userId, saldo: 0, held: 0, deposits: 0, corrections: 0, spent: 0 };
  const errors: string[] = [];
  for (const [i, m] of lines.entries()) {
    switch (m.kind) {
      case "deposit":
        w.deposits += m.amount;
        w.saldo += m.amount;
        break;
      case "correction":
        w.corrections += m.amount;
        w.saldo += m.amount;
        break;
      case "hold": // amount is negative: it leaves the saldo and becomes held
        w.saldo += m.amount;
        w.held -= m.amount;
        break;
      case "spend": // amount is positive: it leaves the held money for good
        w.spent += m.amount;
        w.held -= m.amount;
        break;
      case "release": // amount is positive: back from held to the saldo
        w.held -= m.amount;
        w.saldo += m.amount;
        break;
      default:
        errors.push(`statement ${userId} line ${i}: unknown kind in ${JSON.stringify(lines[i])}`);
    }
    if (m.saldo !== w.saldo || m.held !== w.held)
      errors.push(
        `statement ${userId} line ${i} (${m.kind} ${m.ref} ${m.amount}): says saldo ${m.saldo} held ${m.held}, replay has ${w.saldo}/${w.held}`,
      );
  }
  return { wallet: w, errors };
}

export interface ResellerFigures {
  lines: string[];
  violations: string[];
}

const FINAL = new Set(["success", "failed", "unknown"]);
const NEVER_CLAIMED = new Set(["draft", "cancelled", "missing"]);

/**
 * Every reseller's money against the books, the statement, the orders, the deposits the admins
 * confirmed and the orders the provider carried out. Violations make the run fail.
 */
export function reconcileResellers(input: {
  run: ResellerRun;
  books: Books;
  calls: readonly SandboxCall[];
  prices: Map<string, number>;
  /** Every deposit id whose summary the bot sent (from the Bot API calls). */
  summaryDepositIds: ReadonlySet<string>;
  /** What the resellers' chats show, for "told" counts and for what resellers must never see. */
  messagesTo: (chatId: number) => SentMessage[];
}): ResellerFigures {
  const { run, books, calls } = input;
  const v: string[] = [];
  const ids = run.resellers.map((r) => r.id);
  const callsByRef = new Map<string, SandboxCall[]>();
  for (const c of calls) callsByRef.set(c.refId, [...(callsByRef.get(c.refId) ?? []), c]);
  const carried = (ref: string) => (callsByRef.get(ref) ?? []).some((c) => c.outcome === "success");

  // --- the books and the statements ---
  for (const w of books.all)
    if (!ids.includes(w.userId)) v.push(`wallet of ${w.userId}, who is not one of the run's resellers`);
  let booksOk = 0;
  /** Every rupiah found out of place, whichever check found it. */
  let unaccounted = 0;
  for (const r of ids) {
    const w = books.wallets.get(r)!;
    const before = v.length;
    if (!walletBalances(w)) {
      v.push(`books of ${r} do not balance: ${JSON.stringify(w)}`);
      unaccounted += Math.abs(w.saldo - (w.deposits + w.corrections - w.spent - w.held));
    }
    const { wallet, errors } = replay(r, books.statements.get(r) ?? []);
    v.push(...errors);
    for (const k of ["saldo", "held", "deposits", "corrections", "spent"] as const)
      if (wallet[k] !== w[k]) {
        v.push(`statement of ${r} replays to ${k} ${wallet[k]}, the wallet says ${w[k]}`);
        unaccounted += Math.abs(wallet[k] - w[k]);
      }
    if (v.length === before) booksOk++;
  }

  // --- movements by ref ---
  interface Moves {
    owner: number;
    hold: Movement[];
    spend: Movement[];
    release: Movement[];
    credit: Movement[];
  }
  const byRef = new Map<string, Moves>();
  for (const r of ids)
    for (const m of books.statements.get(r) ?? []) {
      const e = byRef.get(m.ref) ?? { owner: r, hold: [], spend: [], release: [], credit: [] };
      if (e.owner !== r) v.push(`${m.ref} moves money of two resellers (${e.owner}, ${r})`);
      (m.kind === "deposit" || m.kind === "correction" ? e.credit : e[m.kind]).push(m);
      byRef.set(m.ref, e);
    }
  const empty = (owner: number): Moves => ({ owner, hold: [], spend: [], release: [], credit: [] });

  const doubleSpends: string[] = [];
  const doubleRefunds: string[] = [];
  for (const [ref, e] of byRef) {
    if (e.hold.length > 1 || e.spend.length > 1 || (e.spend.length > 0 && e.release.length > 0)) doubleSpends.push(ref);
    if (e.release.length > 1) doubleRefunds.push(ref);
  }

  // --- every order of a reseller: its holds against its state, the provider and the money ---
  const orderRefs = new Set([...run.orders.keys()]);
  for (const [ref, e] of byRef) if (e.hold.length + e.spend.length + e.release.length > 0) orderRefs.add(ref);
  const states: Record<string, number> = {};
  const unmatched: string[] = [];
  const notFinal: string[] = [];
  const expectedSpent = new Map<number, number>(ids.map((r) => [r, 0]));
  const expectedHeld = new Map<number, number>(ids.map((r) => [r, 0]));
  let holdsMatched = 0;
  let holds = 0;
  const spends = { outcome: 0, settled: 0 };
  const releases = { outcome: 0, settled: 0 };
  const failedHow = { refusedByProvider: 0, notAtProvider: 0, settled: 0 };
  for (const ref of orderRefs) {
    const o = books.orders.get(ref);
    const seen = run.orders.get(ref);
    const owner = o?.userId ?? seen?.resellerId ?? byRef.get(ref)?.owner ?? 0;
    const e = byRef.get(ref) ?? empty(owner);
    const state = o?.state ?? "missing";
    states[state] = (states[state] ?? 0) + 1;
    const counts = [e.hold.length, e.spend.length, e.release.length].join("/");
    const expected =
      state === "success" ? "1/1/0" : state === "failed" ? "1/0/1" : state === "unknown" ? "1/0/0" : "0/0/0";
    holds += e.hold.length;
    if (state === "submitting") notFinal.push(`${ref} (submitting)`);
    else if (counts !== expected) unmatched.push(`${ref}: ${state} with holds/spends/releases ${counts}`);
    else if (e.hold.length === 1) holdsMatched++;
    // An order whose last Confirm was answered "temporarily unavailable" may stay a draft (never sent).
    const leftResting = seen?.lastResting === true && state === "draft";
    if (seen !== undefined && !seen.lastRefused && !leftResting && !FINAL.has(state))
      notFinal.push(`${ref} (${state})`);
    if (seen?.outcome !== undefined && seen.outcome !== "unknown" && seen.outcome !== state)
      v.push(`${ref}: the reseller was told ${seen.outcome}, the ledger says ${state}`);
    spends[o?.settledBy === undefined ? "outcome" : "settled"] += e.spend.length;
    releases[o?.settledBy === undefined ? "outcome" : "settled"] += e.release.length;
    if (o === undefined) continue;
    if (o.role !== "reseller") v.push(`${ref} moves a reseller's money but its buyer is ${o.role ?? "staff"}`);
    const price = o.price ?? 0;
    if (o.tier === "reseller" && price !== input.prices.get(o.productCode))
      v.push(`${ref}: price ${price}, the catalogue's reseller price is ${input.prices.get(o.productCode)}`);
    if (seen !== undefined && seen.price !== price) v.push(`${ref}: summary price ${seen.price}, ledger ${price}`);
    for (const m of e.hold) if (m.amount !== -price) v.push(`${ref}: hold of ${m.amount} for a price of ${price}`);
    for (const m of [...e.spend, ...e.release])
      if (m.amount !== price) v.push(`${ref}: ${m.kind} of ${m.amount} for a price of ${price}`);
    // Against the provider: a success it carried out, a failure it did not, nothing sent unclaimed.
    const sent = callsByRef.get(ref) ?? [];
    if (state === "success" && !carried(ref))
      v.push(`${ref}: success in the ledger, the provider never carried it out`);
    if (state === "failed" && carried(ref)) v.push(`${ref}: released, but the provider carried it out`);
    if (NEVER_CLAIMED.has(state) && sent.length > 0) v.push(`${ref}: never claimed, yet sent to the provider`);
    if (state === "failed")
      failedHow[
        o.result?.reason === "settled"
          ? "settled"
          : sent.some((c) => c.errorCode === "product/not-found")
            ? "notAtProvider"
            : "refusedByProvider"
      ]++;
    if (state === "success" && carried(ref)) expectedSpent.set(o.userId, (expectedSpent.get(o.userId) ?? 0) + price);
    if (state === "unknown") expectedHeld.set(o.userId, (expectedHeld.get(o.userId) ?? 0) + price);
  }
  if (unmatched.length > 0) v.push(`holds not matched to their order: ${unmatched.join("; ")}`);
  if (notFinal.length > 0) v.push(`reseller orders confirmed but not final: ${notFinal.join(", ")}`);

  // --- deposits: credited at most once, every one the admin saw credited is credited ---
  const depositIds = new Set([...input.summaryDepositIds, ...run.deposits.keys(), ...books.deposits.keys()]);
  for (const [ref, e] of byRef) if (e.credit.length > 0) depositIds.add(ref);
  const doubleCredits: string[] = [];
  const creditedDone = new Map<number, number>(ids.map((r) => [r, 0]));
  let creditedOnce = 0;
  for (const id of depositIds) {
    const e = byRef.get(id);
    const credits = e?.credit ?? [];
    const d = books.deposits.get(id);
    const seen = run.deposits.get(id);
    if (credits.length > 1) doubleCredits.push(id);
    if (credits.length === 1) creditedOnce++;
    const acked = seen?.result === "credited" || seen?.result === "already";
    if (acked && credits.length === 0) {
      v.push(`deposit ${id}: the admin saw it credited, the statement has no credit`);
      unaccounted += Math.abs(seen.amount);
    }
    if (credits.length > 0 && seen === undefined) v.push(`deposit ${id}: credited, but nobody tapped its Confirm`);
    if ((d?.state === "done") !== credits.length > 0)
      v.push(`deposit ${id}: state ${d?.state ?? "missing"} with ${credits.length} credits`);
    for (const m of credits) {
      if (m.amount !== d?.amount) v.push(`deposit ${id}: credited ${m.amount}, the deposit is of ${d?.amount}`);
      if (d !== undefined && e!.owner !== d.resellerId)
        v.push(`deposit ${id} for ${d.resellerId} credited to ${e!.owner}`);
      if (m.kind !== (m.amount < 0 ? "correction" : "deposit")) v.push(`deposit ${id}: a ${m.kind} of ${m.amount}`);
    }
    if (d?.state === "done" && seen !== undefined)
      creditedDone.set(d.resellerId, (creditedDone.get(d.resellerId) ?? 0) + d.amount);
    if (seen !== undefined && seen.amount !== d?.amount)
      v.push(`deposit ${id}: asked for ${seen.amount}, ledger has ${d?.amount}`);
  }
  if (doubleCredits.length > 0) v.push(`deposits credited more than once: ${doubleCredits.join(", ")}`);

  // --- the money: spent, held, credited, and the sum of it all ---
  const sum = { deposits: 0, corrections: 0, saldo: 0, held: 0, spent: 0 };
  for (const r of ids) {
    const w = books.wallets.get(r)!;
    for (const k of Object.keys(sum) as Array<keyof typeof sum>) sum[k] += w[k];
    const checks: Array<[string, number, number]> = [
      ["spent", w.spent, expectedSpent.get(r)!],
      ["held", w.held, expectedHeld.get(r)!],
      ["deposits + corrections", w.deposits + w.corrections, creditedDone.get(r)!],
    ];
    for (const [what, has, expected] of checks)
      if (has !== expected) {
        unaccounted += Math.abs(has - expected);
        v.push(`${r}: ${what} ${rupiah(has)}, expected ${rupiah(expected)}`);
      }
  }
  const books0 = sum.deposits + sum.corrections - (sum.saldo + sum.held + sum.spent);
  unaccounted += Math.abs(books0);
  if (books0 !== 0) v.push(`deposits + corrections − (saldo + held + spent) = ${rupiah(books0)}`);
  if (doubleSpends.length > 0) v.push(`double spends: ${doubleSpends.join(", ")}`);
  if (doubleRefunds.length > 0) v.push(`double refunds: ${doubleRefunds.join(", ")}`);

  // --- what resellers saw ---
  for (const r of ids)
    if (input.messagesTo(r).some((m) => /Balance left|Partner balance/.test(m.text)))
      v.push(`reseller ${r} was shown the shop's provider balance`);
  const orders = [...run.orders.values()];
  for (const o of orders) {
    for (const text of o.unjustified) v.push(`${o.refId}: refused for saldo, but: ${JSON.stringify(text)}`);
    // The saldo a refusal names is one the wallet had: 0, or the saldo after some movement.
    const had = new Set([0, ...(books.statements.get(o.resellerId) ?? []).map((m) => m.saldo)]);
    for (const saldo of o.refusedSaldos)
      if (!had.has(saldo)) v.push(`${o.refId}: refused with a saldo of ${rupiah(saldo)} the statement never shows`);
  }
  v.push(...run.problems);

  // --- figures ---
  const deps = [...run.deposits.values()];
  const acked = deps.filter((d) => d.result === "credited" || d.result === "already");
  const told = (d: DepositSeen) =>
    input
      .messagesTo(d.resellerId)
      .filter((m) => m.text.includes(`Ref: <code>${d.id}</code>`) && /Deposit credited|Saldo corrected/.test(m.text))
      .length;
  const notTold = acked.filter((d) => told(d) === 0).map((d) => d.id);
  const toldTwice = acked.filter((d) => told(d) > 1).map((d) => d.id);
  const refused = orders.filter((o) => o.refusals > 0);
  const stateOf = (o: ResellerOrderSeen) => books.orders.get(o.refId)?.state ?? "missing";
  const mov = (k: "hold" | "spend" | "release") => [...byRef.values()].reduce((n, e) => n + e[k].length, 0);
  const lines = [
    `resellers: ${ids.length} (${ids.join(", ")}), deposits by ${run.admins.length} admins`,
    `  deposits confirmed: ${acked.length} of ${deps.length} (${acked.filter((d) => d.amount > 0).length} deposits, ${acked.filter((d) => d.amount < 0).length} corrections); answered "credited" ${deps.filter((d) => d.result === "credited").length}, "already credited" ${deps.filter((d) => d.result === "already").length}`,
    `  deposit Confirms double-tapped: ${deps.filter((d) => d.doubled).length}; bot SIGKILLed while a Confirm was in flight: ${deps.filter((d) => d.interrupted).length} (${deps.filter((d) => d.aimedKill).length} killed just after the tap; then answered "credited" ${deps.filter((d) => d.interrupted && d.result === "credited").length}, "already credited" ${deps.filter((d) => d.interrupted && d.result === "already").length}); tapped again after no answer: ${deps.filter((d) => d.taps > (d.doubled ? 2 : 1)).length}; old button pressed again: ${deps.filter((d) => d.redelivered).length} (answered "already credited": ${deps.filter((d) => d.redeliveryAnswered).length})`,
    `  deposit summaries shown again (a /deposit handled again after a kill) and confirmed too: ${run.extraSummariesConfirmed}; reseller order summaries shown again and confirmed too: ${orders.reduce((n, o) => n + o.extraSummaries, 0)}; corrections refused (saldo too small): ${run.correctionsRefusedAtCommand + deps.filter((d) => d.result === "refused").length}; Confirms answered "temporarily unavailable" (Redis down; tapped again): ${run.unavailableAnswers}`,
    `  deposit ids credited once: ${creditedOnce} of ${depositIds.size} prepared; credited twice: ${doubleCredits.length}; resellers told of a credit: ${acked.length - notTold.length} of ${acked.length}`,
    `  reseller orders: ${orders.length}; in the ledger: ${JSON.stringify(states)}; failed: ${failedHow.refusedByProvider} refused by the provider, ${failedHow.notAtProvider} product it does not sell, ${failedHow.settled} settled as failed`,
    `  Confirms answered "temporarily unavailable" (every route of the product resting; tapped again): ${orders.reduce((n, o) => n + o.restingAnswers, 0)} on ${orders.filter((o) => o.restingAnswers > 0).length} orders, ${orders.filter((o) => o.lastResting && stateOf(o) === "draft").length} of them left drafts (never sent)`,
    `  Confirms refused for too little saldo: ${orders.reduce((n, o) => n + o.refusals, 0)} taps on ${refused.length} orders (${refused.filter((o) => o.retappedAfterDeposit && FINAL.has(stateOf(o))).length} ordered after a deposit, ${refused.filter((o) => !FINAL.has(stateOf(o))).length} never sent); double-tapped Confirms: ${orders.filter((o) => o.doubled).length}; bot SIGKILLed just after a Confirm: ${orders.filter((o) => o.aimedKill).length}`,
    `  settled by an admin at the end: ${run.settle.success} success, ${run.settle.failed} failed (${run.settle.doubled} by two admins at once: ${run.settle.settled} settled, ${run.settle.notPending} "not pending"); left unknown: ${run.settle.left}`,
    `  holds: ${mov("hold")}; spends: ${mov("spend")} (${spends.outcome} at the outcome, ${spends.settled} at settlement); releases: ${mov("release")} (${releases.outcome} at the outcome, ${releases.settled} at settlement); holds matched to their order: ${holdsMatched} of ${holds}`,
    `  money: deposits ${rupiah(sum.deposits)}, corrections ${rupiah(sum.corrections)}; saldo ${rupiah(sum.saldo)}, held ${rupiah(sum.held)}, spent ${rupiah(sum.spent)}`,
    `  spent = reseller prices of orders the provider carried out and the ledger records as success: ${rupiah(sum.spent)} = ${rupiah([...expectedSpent.values()].reduce((a, b) => a + b, 0))}`,
    `  held = reseller prices of orders still unknown: ${rupiah(sum.held)} = ${rupiah([...expectedHeld.values()].reduce((a, b) => a + b, 0))}`,
    `  books balance and statements replay to the wallet: ${booksOk} of ${ids.length} resellers`,
    `  ${doubleSpends.length} double spends`,
    `  ${doubleRefunds.length} double refunds`,
    `  ${unaccounted} rupiah unaccounted`,
  ];
  if (notTold.length > 0 || toldTwice.length > 0)
    lines.push(
      `  note: deposits credited but the reseller never told: ${notTold.length} ${JSON.stringify(notTold)}; told twice: ${toldTwice.length}`,
    );
  return { lines, violations: v };
}
