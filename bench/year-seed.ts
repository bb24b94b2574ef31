/**
 * A year of a busy shop, written fast through the ledger's own steps (test/helpers/ledger-history.ts:
 * draft, claim, outcome, the notice to the user, an admin's settlement; a deposit's draft,
 * confirmation and notice), many orders in flight at once, with past times spread over each day
 * in the shop's time zone: what the Mini App and the chat then read. Not bot dialogues: the
 * records are the ones the bot writes, without the chat around them. The mix is drawn from a
 * seeded random, so every run writes the same year (but the ref ids, whose randomness is the
 * ledger's own).
 */
import { createAccess } from "../src/access/access.js";
import { createUserList } from "../src/access/user-list.js";
import {
  checkPlayerId,
  codesForSale,
  priceFor,
  tiersOf,
  type Buyer,
  type Catalog,
  type Game,
  type Product,
} from "../src/catalog/catalog.js";
import { createLedger } from "../src/ledger/create-ledger.js";
import { MAX_DEPOSIT } from "../src/deposits/admin-deposits.js";
import type { OrderRecord } from "../src/orders/order.js";
import { fromTopupResult } from "../src/orders/outcome.js";
import { newRefId } from "../src/orders/ref-id.js";
import { dayIn, dayRange } from "../src/calendar.js";
import { settledResult } from "../src/orders/settle.js";
import type { Storage } from "../src/storage/storage.js";
import { sandboxPlayerName } from "../src/topup/sandbox.js";
import type { TopupResult } from "../src/topup/types.js";
import { writePastDeposit, writePastOrder, type PastDeposit, type PastOrder } from "../test/helpers/ledger-history.js";

export const TIME_ZONE = "Asia/Jakarta";
/** Drafts wait this long for their claim while seeding (the claim keeps the order for good). */
export const SEED_DRAFT_TTL_MS = 15_000;

export interface Member {
  id: number;
  name: string;
}

/** Who sells: two admins, ten staff, five resellers (the first one big, on the gold tier). */
export const CAST = {
  admins: [
    { id: 1001, name: "Rina" },
    { id: 1002, name: "Agus" },
  ],
  staff: ["Sari", "Bayu", "Intan", "Fajar", "Nadia", "Eko", "Putri", "Rizky", "Ayu", "Dimas"].map((name, i) => ({
    id: 2001 + i,
    name,
  })),
  resellers: ["Budi Cell", "Dewi Pulsa", "Wati Game", "Joko Store", "Lina Top Up"].map((name, i) => ({
    id: 3001 + i,
    name,
  })),
} satisfies Record<string, Member[]>;
export const BIG_RESELLER = CAST.resellers[0]!;
const BIG_RESELLER_TIER = "gold";

/** The shares of the year's orders. */
export const MIX = {
  /** Orders by resellers (the rest: staff and admins on the shop's own account). */
  reseller: 0.15,
  /** Of the resellers' orders, the big reseller's. */
  bigReseller: 1 / 3,
  /** Of the shop's own orders, the admins'. */
  admin: 0.08,
  /** The provider refused it (a tenth of these never left: not sent). */
  failed: 0.03,
  notSent: 0.1,
  /** No answer in time, or none that could be read: an admin settles it later. */
  unknown: 0.015,
  /** Of the settled unknowns, those the provider had carried out (an SN); the rest failed. */
  settledSuccess: 0.7,
  /** Unknowns of the last days stay pending this often (an admin has not checked them yet). */
  pendingDays: 2,
  pendingShare: 0.3,
  /** Orders from a pool of regular players; the others from a large pool of one-off players. */
  regular: 0.35,
  regularsPerGame: 3_000,
  oneOffPerGame: 150_000,
  /** A deposit followed by a correction (a typo put right). */
  correction: 0.05,
};

/** Sales per hour of the day (local): the shop's staff work from 07:00 to midnight, busiest in the evening. */
export const HOURS = [0, 0, 0, 0, 0, 0, 0, 2, 4, 5, 6, 6, 7, 7, 6, 6, 7, 8, 9, 10, 10, 9, 7, 5];
/** The products sold most (others: weight 1). */
const POPULAR: Record<string, number> = { ML86: 30, ML172: 15, ML257: 8, FF70: 20, FF140: 10, GI60: 5, GI330: 3 };

export interface SeedResult {
  days: number;
  perDay: number;
  firstDay: string;
  lastDay: string;
  orders: number;
  seconds: number;
  /** Final states. */
  byState: { success: number; failed: number; unknown: number };
  byRole: { staff: number; admin: number; reseller: number };
  /** Unknowns an admin settled, by verdict; the rest are still pending. */
  settled: { success: number; failed: number };
  notSent: number;
  deposits: number;
  corrections: number;
  /** Distinct player ids. */
  players: number;
  bigResellerMovements: number;
  /** What the questions ask about. */
  sample: {
    /** A full day in the middle of the year. */
    day: string;
    /** A successful order of the year's first month and the staff member who placed it. */
    oldRef: string;
    oldRefUser: number;
    /** The regular player with the most orders. */
    player: string;
    /** The staff member with the most orders. */
    staff: number;
  };
}

/** A random number generator from a seed (mulberry32): the same year every run. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Picks one of `items` with probability proportional to its weight. */
function weighted<T>(random: () => number, items: ReadonlyArray<readonly [T, number]>): () => T {
  const total = items.reduce((sum, [, w]) => sum + w, 0);
  return () => {
    let r = random() * total;
    for (const [item, w] of items) if ((r -= w) < 0) return item;
    return items.at(-1)![0];
  };
}

/** `len` digits, the first not 0, different for every n below 9 × 10^(len−1). */
function digits(n: number, len: number): string {
  const span = 9 * 10 ** (len - 1);
  return String(10 ** (len - 1) + ((n * 2_654_435_761) % span));
}

const checkedGames = new WeakSet<Game>();

/** Player number n of a game, in the form of the game's example (`12345678(1234)`), else 10 digits. */
function playerIdOf(game: Game, n: number): string {
  const example = game.destination?.example ?? "1234567890";
  let part = 0;
  const id = example.replace(/\d+/g, (run) => digits(n * 31 + part++, run.length));
  // The game's own rule, once per game: every id of it has the same form.
  if (!checkedGames.has(game)) {
    if (!checkPlayerId(game, id).ok) throw new Error(`bench: ${id} is not a player id of ${game.name}`);
    checkedGames.add(game);
  }
  return id;
}

/** Runs `work` over `items`, at most `limit` at once; the first failure is thrown once all have stopped. */
async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

/**
 * Writes `days` days (the last one yesterday, in the shop's time zone) of `perDay` finished orders
 * each into `storage`, with at most `inFlight` orders being written at once. A day's deposits are
 * credited before its first sale (its resellers then have the saldo for the whole day), so the
 * days are written one after the other.
 */
export async function seedYear(
  storage: Storage,
  catalog: Catalog,
  opts: { days: number; perDay: number; inFlight: number; now: Date; progress?: (line: string) => void },
): Promise<SeedResult> {
  const began = performance.now();
  const ledger = createLedger(storage, { timeZone: TIME_ZONE });
  const { orders, wallets } = ledger;
  // A fresh shop's first start: the ledger's layout version is written before any order.
  await ledger.upgrade();
  const access = createAccess({
    users: createUserList(storage),
    adminIds: CAST.admins.map((m) => m.id),
    allowedUserIds: CAST.staff.map((m) => m.id),
    resellerIds: CAST.resellers.map((m) => m.id),
  });
  const tiers = tiersOf(catalog);
  const bigTier = tiers.has(BIG_RESELLER_TIER) ? BIG_RESELLER_TIER : "reseller";
  if (bigTier !== "reseller") await access.setTier(BIG_RESELLER.id, bigTier, tiers);
  const offered = codesForSale(catalog);

  const random = seededRandom(20_251_124);
  const chance = (p: number) => random() < p;
  const between = (from: number, to: number) => from + random() * (to - from);
  const products = catalog.games.flatMap((game) =>
    game.products.filter((p) => !p.disabled).map((product) => [{ game, product }, POPULAR[product.code] ?? 1] as const),
  );
  const pickProduct = weighted(random, products);
  const pickStaff = weighted(
    random,
    CAST.staff.map((m, i) => [m, 1 / Math.sqrt(i + 1)] as const),
  );
  const pickAdmin = weighted(
    random,
    CAST.admins.map((m) => [m, 1] as const),
  );
  const pickReseller = weighted(
    random,
    CAST.resellers.map(
      (m, i) => [m, i === 0 ? MIX.bigReseller : (1 - MIX.bigReseller) / (CAST.resellers.length - 1)] as const,
    ),
  );
  const pickHour = weighted(
    random,
    HOURS.map((w, hour) => [hour, w] as const),
  );
  /** Who orders: a reseller (with their tier), else an admin or, mostly, staff. */
  const pickBuyer = (): { member: Member; buyer: Buyer } => {
    if (chance(MIX.reseller)) {
      const member = pickReseller();
      return { member, buyer: { role: "reseller", tier: member === BIG_RESELLER ? bigTier : "reseller" } };
    }
    return chance(MIX.admin)
      ? { member: pickAdmin(), buyer: { role: "admin" } }
      : { member: pickStaff(), buyer: { role: "staff" } };
  };
  const playerOf = (game: Game) => {
    const n = chance(MIX.regular)
      ? Math.floor(MIX.regularsPerGame * random() ** 2)
      : MIX.regularsPerGame + Math.floor(MIX.oneOffPerGame * random());
    return playerIdOf(game, n);
  };
  const busiestGame = products.reduce((a, b) => (b[1] > a[1] ? b : a))[0].game;

  const res: SeedResult = {
    days: opts.days,
    perDay: opts.perDay,
    firstDay: "",
    lastDay: "",
    orders: 0,
    seconds: 0,
    byState: { success: 0, failed: 0, unknown: 0 },
    byRole: { staff: 0, admin: 0, reseller: 0 },
    settled: { success: 0, failed: 0 },
    notSent: 0,
    deposits: 0,
    corrections: 0,
    players: 0,
    bigResellerMovements: 0,
    sample: {
      day: "",
      oldRef: "",
      oldRefUser: 0,
      player: playerIdOf(busiestGame, 0),
      staff: CAST.staff[0]!.id,
    },
  };
  const players = new Set<string>();
  const messageIds = new Map<number, number>();
  const nextMessageId = (userId: number) => {
    const id = (messageIds.get(userId) ?? 0) + 1;
    messageIds.set(userId, id);
    return id;
  };
  let providerBalance = 25_000_000;
  let seq = 0;
  const today = dayRange(dayIn(TIME_ZONE, opts.now), TIME_ZONE)!.fromMs;

  for (let d = 0; d < opts.days; d++) {
    const day = dayIn(TIME_ZONE, new Date(today - (opts.days - d) * 24 * HOUR + 12 * HOUR));
    const dayStart = dayRange(day, TIME_ZONE)!.fromMs;
    if (d === 0) res.firstDay = day;
    res.lastDay = day;
    if (d === Math.floor(opts.days / 2)) res.sample.day = day;
    const lastDays = d >= opts.days - MIX.pendingDays;

    // The day's sales, in time order.
    const times = Array.from({ length: opts.perDay }, () => Math.floor(dayStart + (pickHour() + random()) * HOUR)).sort(
      (a, b) => a - b,
    );
    const sales: PastOrder[] = times.map((submittedMs) => {
      const { game, product } = pickProduct();
      const who = pickBuyer();
      res.byRole[who.buyer.role] += 1;
      const playerId = playerOf(game);
      players.add(playerId);
      const createdMs = submittedMs - Math.floor(between(15_000, 90_000));
      const draft: OrderRecord = {
        refId: newRefId("TG", new Date(createdMs)),
        chatId: who.member.id,
        userId: who.member.id,
        userName: who.member.name,
        lang: chance(0.9) ? "id" : "en",
        gameName: game.name,
        productCode: product.code,
        productName: product.name,
        price: priceFor(product, who.buyer) ?? null,
        playerId,
        createdAt: iso(createdMs),
        role: who.buyer.role,
        ...(who.buyer.role === "reseller" ? { tier: who.buyer.tier } : {}),
        state: "draft",
      };
      seq += 1;
      const answer = providerAnswer(draft, product, submittedMs);
      const outcomeAt = submittedMs + (answer.kind === "unknown" ? 60_000 : Math.floor(between(800, 4_000)));
      const past: PastOrder = {
        draft,
        submittedAt: iso(submittedMs),
        summaryMessageId: nextMessageId(who.member.id),
        offered,
        outcome: { ...fromTopupResult(answer), at: iso(outcomeAt) },
        toldAt: iso(outcomeAt + 300),
      };
      if (answer.kind === "success") past.balance = answer.lastBalance;
      if (answer.kind === "failed" && answer.reason === "not-sent") res.notSent += 1;
      let final = answer.kind;
      if (answer.kind === "unknown" && !(lastDays && chance(MIX.pendingShare))) {
        const verdict = chance(MIX.settledSuccess)
          ? { state: "success" as const, sn: `${submittedMs}${String(seq % 1_000_000).padStart(6, "0")}` }
          : { state: "failed" as const, reason: "Dicek di dashboard provider: transaksi gagal, saldo kembali" };
        const settledAt = outcomeAt + Math.floor(between(1, 6) * HOUR);
        past.settlement = {
          state: verdict.state,
          result: settledResult(past.outcome.result, verdict),
          at: iso(settledAt),
          adminId: pickAdmin().id,
          toldAt: iso(settledAt + 500),
        };
        res.settled[verdict.state] += 1;
        final = verdict.state;
      }
      res.byState[final] += 1;
      if (
        res.sample.oldRef === "" &&
        d >= Math.min(30, opts.days - 1) &&
        who.buyer.role === "staff" &&
        final === "success"
      ) {
        res.sample.oldRef = draft.refId;
        res.sample.oldRefUser = who.member.id;
      }
      return past;
    });

    await depositsForTheDay(day, dayStart, sales);
    await inPool(sales, opts.inFlight, async (sale) => {
      await writePastOrder(orders, sale, SEED_DRAFT_TTL_MS);
    });
    res.orders += sales.length;
    if ((d + 1) % 30 === 0 || d + 1 === opts.days) {
      const s = (performance.now() - began) / 1000;
      opts.progress?.(
        `day ${d + 1}/${opts.days} (${day}): ${res.orders.toLocaleString("en-US")} orders in ${s.toFixed(0)} s, ${(res.orders / s).toFixed(0)} orders/s`,
      );
    }
  }
  res.seconds = (performance.now() - began) / 1000;
  res.players = players.size;
  res.bigResellerMovements = (await wallets.statementPage(BIG_RESELLER.id, 0, 1)).total;
  return res;

  /** The provider's answer to a draft, as the client would have parsed it. */
  function providerAnswer(draft: OrderRecord, product: Product, atMs: number): TopupResult {
    const r = random();
    if (r < MIX.failed) {
      return chance(MIX.notSent)
        ? { kind: "failed", reason: "not-sent", detail: "connect ECONNREFUSED" }
        : {
            kind: "failed",
            reason: "provider-error",
            errorCode: chance(0.6) ? "transaction/destination-not-found" : "product/out-of-stock",
            errorMsg: "Nomor tujuan tidak ditemukan atau produk sedang gangguan",
          };
    }
    if (r < MIX.failed + MIX.unknown) {
      return chance(0.8)
        ? { kind: "unknown", reason: "timeout", detail: "no answer within 60000 ms" }
        : { kind: "unknown", reason: "connection-lost", detail: "socket hang up" };
    }
    const cost = Math.round(((product.price ?? 10_000) * 0.95) / 100) * 100;
    // The shop tops up its account with the provider when it runs low.
    if (providerBalance < cost + 3_000_000) providerBalance += 30_000_000;
    providerBalance -= cost;
    const name = sandboxPlayerName(draft.playerId);
    const sn = `${atMs}${String(seq % 1_000_000).padStart(6, "0")}`;
    return {
      kind: "success",
      trxId: `TRX-${iso(atMs).slice(2, 10).replace(/-/g, "")}-${String(seq).padStart(7, "0")}`,
      refId: draft.refId,
      destination: draft.playerId,
      destinationName: name,
      message: `Top up ${product.name} for ${name} succeeded. SN: ${sn}`,
      sn,
      lastBalance: providerBalance,
      productDetail: { name: product.name, code: product.code, price: cost, rate: 1, priceRp: cost, status: "SUKSES" },
    };
  }

  /**
   * Each reseller whose saldo will not cover the day's orders (every hold at once, before any
   * release) deposits between 06:00 and 07:00, before the first sale; now and then an admin puts
   * a typo right with a correction just after.
   */
  async function depositsForTheDay(day: string, dayStart: number, sales: readonly PastOrder[]): Promise<void> {
    await Promise.all(
      CAST.resellers.map(async (reseller) => {
        const need = sales
          .filter((s) => s.draft.userId === reseller.id)
          .reduce((sum, s) => sum + (s.draft.price ?? 0), 0);
        const { saldo } = await wallets.get(reseller.id);
        if (saldo >= need) return;
        const correction = chance(MIX.correction) ? -1000 * Math.ceil(between(1, 9)) : 0;
        let missing = Math.ceil(((need - saldo) * between(1.5, 3.5) - correction) / 100_000) * 100_000;
        let at = dayStart + Math.floor(between(6, 6.8) * HOUR);
        const admin = pickAdmin();
        const credit = async (amount: number, note: string) => {
          const deposit: PastDeposit = {
            id: newRefId("DP", new Date(at - 30_000)),
            resellerId: reseller.id,
            amount,
            note,
            adminId: admin.id,
            chatId: admin.id,
            createdAt: iso(at - 30_000),
          };
          await writePastDeposit(wallets, deposit, { at: iso(at), toldAt: iso(at + 1_000) }, SEED_DRAFT_TTL_MS);
          at += 60_000;
        };
        while (missing > 0) {
          const amount = Math.min(missing, MAX_DEPOSIT);
          await credit(amount, chance(0.5) ? "transfer BCA" : "transfer BRI");
          missing -= amount;
          res.deposits += 1;
        }
        if (correction < 0) {
          await credit(correction, `salah ketik ${day}`);
          res.corrections += 1;
        }
      }),
    );
  }
}
