import { dayIn, dayRange } from "../../src/calendar.js";
import type { OrderLedger } from "../../src/orders/ledger.js";
import type { FinalState, OrderRecord } from "../../src/orders/order.js";
import type { OrderLine } from "../../src/orders/order-line.js";
import { hoursOf } from "../../src/orders/day-figures.js";
import type { Deposit, Wallets } from "../../src/orders/wallet.js";
import { draft } from "../orders/fixtures.js";

const HOUR = 60 * 60 * 1000;
const TZ = "Asia/Jakarta";

/** A small deterministic random sequence (no clock, no Math.random): the same run every time. */
export function sequence(seed: number) {
  let x = seed;
  return {
    next: () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648,
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(this.next() * items.length)]!;
    },
  };
}

/** What a seeded shop holds: who, which players, which days, which ref ids. */
export interface Seeded {
  refIds: string[];
  users: number[];
  resellers: number[];
  players: string[];
  days: string[];
  /** Orders left unknown (settle them to see a compacted day take a late order). */
  unknown: OrderRecord[];
  /** Orders left submitting (in flight). */
  open: OrderRecord[];
}

/**
 * Writes a few days of a shop through a ledger's own steps: staff and resellers, successes,
 * failures, unknown orders settled and left, late answers, deposits and corrections, orders with
 * names and results of every shape, an order still in flight. Deterministic; `start` is the first
 * order's time, `count` how many orders; `leaveInFlight: false` leaves none submitting (a bot that
 * starts on them recovers them: they would not read as before). `providers`: some orders go to a
 * second provider ("backup"), first or after main refused them, and its sales report its balance.
 */
export async function seedShop(
  ledger: { orders: OrderLedger; wallets: Wallets },
  opts: { start: number; count: number; seed?: number; stepMs?: number; leaveInFlight?: boolean; providers?: boolean },
): Promise<Seeded> {
  const rand = sequence(opts.seed ?? 20261124);
  const users = [
    { userId: 501, userName: "Sari", role: "staff" as const, lang: "id" as const },
    { userId: 502, userName: "Budi\tthe \\admin", role: "admin" as const, lang: "en" as const },
    { userId: 7001, userName: "Dewi 🌸", role: "reseller" as const, tier: "gold", lang: "id" as const },
    { userId: 7002, userName: "Eko", role: "reseller" as const, tier: "reseller", lang: "id" as const },
  ];
  const products = [
    { gameName: "Mobile Legends", productCode: "ML86", productName: "86 Diamonds", price: 20000, cost: 19500 },
    { gameName: "Free Fire", productCode: "FF70", productName: "70 Diamonds", price: 10000, cost: 9400.4 },
    { gameName: "PUBG", productCode: "PUBG60", productName: "60 UC", price: null, cost: 14000 },
  ];
  const players = ["12345678(1234)", "87654321(4321)", "5550001", "x\\y"];
  let clock = opts.start;
  const stepMs = opts.stepMs ?? 7 * 60 * 1000;
  const tick = () => new Date((clock += stepMs)).toISOString();
  const seeded: Seeded = {
    refIds: [],
    users: users.map((u) => u.userId),
    resellers: [7001, 7002],
    players,
    days: [],
    unknown: [],
    open: [],
  };
  let depositSeq = 0;
  const deposit = async (resellerId: number, amount: number) => {
    const d: Deposit = {
      id: `DP${String(opts.start).slice(-6)}X${String(++depositSeq).padStart(5, "0")}`,
      resellerId,
      amount,
      note: "transfer BCA",
      adminId: 502,
      chatId: 502,
      createdAt: tick(),
      state: "draft",
    };
    await ledger.wallets.saveDeposit(d, HOUR);
    await ledger.wallets.confirmDeposit(d.id, { adminId: 502, at: tick() });
  };
  await deposit(7001, 5_000_000);
  await deposit(7002, 3_000_000);
  const inFlight: OrderRecord[] = [];
  for (let i = 0; i < opts.count; i++) {
    const u = rand.pick(users);
    const p = rand.pick(products);
    const { cost, ...product } = p;
    const order = draft({
      ...u,
      chatId: rand.next() < 0.2 ? -1001234567890 : u.userId,
      ...product,
      playerId: rand.pick(players),
      createdAt: tick(),
      ...(rand.next() < 0.1 ? { requestMessageId: 4242 } : {}),
    });
    await ledger.orders.saveDraft(order, 24 * HOUR);
    // Without the random sequence, so that a shop with providers is the same shop otherwise.
    const route = opts.providers === true ? i % 6 : -1;
    const claim = await ledger.orders.claim(order.refId, {
      userId: order.userId,
      at: tick(),
      ...(rand.next() < 0.8 ? { summaryMessageId: 1000 + i } : {}),
      ...(route === 1 ? { attempt: { provider: "backup", code: `${p.productCode}-B` } } : {}),
    });
    if (claim.kind !== "claimed") continue;
    if (route === 2 || route === 3) {
      const step = await ledger.orders.nextAttempt(order, {
        from: order.refId,
        refusal:
          route === 2
            ? { reason: "provider-error", errorCode: "product/unavailable", errorMsg: "Stok\thabis \\ 🌸" }
            : { reason: "not-sent" },
        next: { provider: "backup", code: p.productCode, refId: `${order.refId}R2`, at: tick() },
      });
      if (step.kind !== "next") throw new Error(`the next attempt was ${step.kind}`);
    }
    const backup = route >= 1 && route <= 3;
    seeded.refIds.push(order.refId);
    const roll = rand.next();
    const at = tick();
    if (roll < 0.05 && opts.leaveInFlight !== false) {
      inFlight.push(order);
      continue;
    }
    const state: FinalState = roll < 0.7 ? "success" : roll < 0.85 ? "failed" : "unknown";
    const result =
      state === "success"
        ? {
            trxId: `TRX-${i}`,
            destinationName: rand.next() < 0.5 ? "Budi#0001" : "名前\tx",
            sn: String(1_000_000_000 + i),
            lastBalance: 5_000_000 - i * 1000,
            message: "SUKSES",
            productDetail: {
              name: p.productName,
              code: p.productCode,
              price: cost,
              rate: 1,
              priceRp: cost,
              status: "SUKSES",
            },
          }
        : state === "failed"
          ? { reason: "provider-error" as const, errorCode: "E42", errorMsg: "Nomor tujuan salah" }
          : { reason: "timeout" as const, detail: "no answer in 60000 ms" };
    await ledger.orders.finish(
      order,
      { state, at, result },
      {
        ...(state === "success"
          ? {
              balance: {
                balance: result.lastBalance!,
                at,
                refId: order.refId,
                ...(backup ? { provider: "backup" } : {}),
              },
            }
          : {}),
        ...(backup ? { provider: "backup" } : {}),
      },
    );
    if (rand.next() < 0.7) await ledger.orders.markNotified(order.refId, tick());
    if (state === "unknown") {
      const fate = rand.next();
      if (fate < 0.4) {
        await ledger.orders.settle(order, {
          state: rand.pick(["success", "failed"] as const),
          at: tick(),
          adminId: 502,
          result: { sn: "SETTLED1", reason: "settled" },
        });
      } else if (fate < 0.6) {
        await ledger.orders.finish(
          order,
          { state: "success", at: tick(), result: { sn: "LATE1", trxId: "-" } },
          { acceptLate: true },
        );
      } else {
        seeded.unknown.push(order);
      }
    }
    if (rand.next() < 0.05) await deposit(rand.pick([7001, 7002]), rand.pick([100_000, -20_000]));
  }
  seeded.open = inFlight;
  seeded.days = [...new Set([opts.start, clock].map((t) => dayIn(TZ, new Date(t))))];
  for (let t = opts.start; t < clock; t += 24 * HOUR) seeded.days.push(dayIn(TZ, new Date(t)));
  seeded.days = [...new Set(seeded.days)].sort();
  return seeded;
}

/** Every page of a paged question, concatenated (and how many pages it took). */
/** A ledger's lines of the orders submitted in [fromMs, toMs], as it gives them one by one. */
export async function linesBetween(o: OrderLedger, fromMs: number, toMs: number): Promise<OrderLine[]> {
  const lines: OrderLine[] = [];
  await o.eachSubmittedLine(fromMs, toMs, (line) => lines.push(line));
  return lines;
}

async function allPages<T>(page: (n: number) => Promise<{ items: T[]; more: boolean }>): Promise<T[]> {
  const out: T[] = [];
  for (let n = 0; n < 1000; n++) {
    const p = await page(n);
    out.push(...p.items);
    if (!p.more) break;
  }
  return out;
}

/**
 * Everything a user, an admin or the Mini App can ask the ledger about a seeded shop, as plain
 * data: every order by ref id, every history page (everyone's and each user's), searches by player,
 * user, state and day, each day's orders and figures, statements page by page, wallets, balances.
 */
export async function ledgerViews(
  ledger: { orders: OrderLedger; wallets: Wallets },
  s: Seeded,
  opts: { pageSize?: number } = {},
) {
  const size = opts.pageSize ?? 7;
  const o = ledger.orders;
  const refs = (list: OrderRecord[]) => list.map((x) => x.refId);
  const history = async (scope: number | "all") => {
    const first = await o.history(scope, 0, size);
    const pages = await allPages(async (n) => {
      const p = await o.history(scope, n, size);
      return { items: refs(p.orders), more: (n + 1) * size < p.total };
    });
    return { total: first.total, pages };
  };
  const find = (q: Omit<Parameters<OrderLedger["findOrders"]>[0], "page" | "pageSize">) =>
    allPages(async (n) => {
      const p = await o.findOrders({ ...q, page: n, pageSize: size });
      return { items: refs(p.orders), more: p.hasMore };
    });
  const days = await Promise.all(
    s.days.map(async (day) => {
      const range = dayRange(day, TZ)!;
      return {
        day,
        orders: await o.submittedBetween(range.fromMs, range.toMs),
        lines: await linesBetween(o, range.fromMs, range.toMs),
        found: await find({ fromMs: range.fromMs, toMs: range.toMs }),
        failed: await find({ fromMs: range.fromMs, toMs: range.toMs, state: "failed" }),
        oneUsersSales: await find({ fromMs: range.fromMs, toMs: range.toMs, state: "success", userId: s.users[2]! }),
        figures: await o.dayFigures(day),
      };
    }),
  );
  return {
    orders: await o.getMany([...s.refIds, "TGMISSING"]),
    each: await Promise.all(s.refIds.map((r) => o.get(r))),
    all: await history("all"),
    users: await Promise.all(s.users.map(history)),
    byPlayer: await Promise.all(s.players.map((playerId) => find({ playerId }))),
    byUserAndPlayer: await Promise.all(s.players.map((playerId) => find({ playerId, userId: s.users[0]! }))),
    byUserState: await Promise.all(s.users.map((userId) => find({ userId, state: "success" }))),
    unknownOnes: await find({ state: "unknown" }),
    days,
    pending: refs(await o.pending()),
    inFlight: refs(await o.inFlight()).sort(),
    lastBalance: await o.lastBalance(),
    balances: await o.balances(),
    statements: await Promise.all(
      s.resellers.map(async (id) => ({
        last: await ledger.wallets.statement(id, 10),
        pages: await allPages(async (n) => {
          const p = await ledger.wallets.statementPage(id, n, size);
          return { items: p.movements, more: (n + 1) * size < p.total };
        }),
        total: (await ledger.wallets.statementPage(id, 0, 1)).total,
      })),
    ),
    wallets: await ledger.wallets.all(),
    totals: await ledger.wallets.totals(),
  };
}

/**
 * The views of a ledger that kept no figures by hour (the layout before them), each day's hours
 * filled in as a recount of its orders says: what the same views read once the upgrade counted them.
 */
export function withHoursCounted<V extends Awaited<ReturnType<typeof ledgerViews>>>(views: V): V {
  return {
    ...views,
    days: views.days.map((d) => ({ ...d, figures: { ...d.figures, byHour: hoursOf(d.orders, TZ) } })),
  };
}
