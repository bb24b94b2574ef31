/**
 * A year of sales (issue 20): a redis-server of its own, no persistence, so its memory is the
 * year's alone; the year seeded through the ledger (year-seed.ts); its bytes by key shape; then
 * the bot as production runs it on that Redis, and the time of each question a shop owner asks of
 * a year: the Mini App's API calls over real HTTP with signed init data, and the same questions in
 * the chat through the fake Bot API, as a user sends them. Between the seed and the bot: the
 * bot's first compaction pass (LEDGER_HOT_DAYS=35) run through the ledger, timed, and Redis after
 * it; and the bytes of one finished order, recent and compacted, on a Redis of its own.
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "@keyv/redis";
import type { Catalog } from "../src/catalog/catalog.js";
import { dayIn, dayPlus } from "../src/calendar.js";
import { createLedger } from "../src/ledger/create-ledger.js";
import type { CompactResult } from "../src/orders/ledger.js";
import type { OrderRecord } from "../src/orders/order.js";
import { newRefId } from "../src/orders/ref-id.js";
import { createStorage } from "../src/storage/storage.js";
import { writePastDeposit, writePastOrder } from "../test/helpers/ledger-history.js";
import { createFakeBotApi, type FakeBotApi, type FakeUser, type SentMessage } from "../test/e2e/fake-bot-api.js";
import { signInitData } from "../test/helpers/init-data.js";
import { freePort, ownRedis } from "../test/helpers/redis.js";
import { botEnv, READY, type Harness } from "./bots.js";
import { watchDriverGc, type DriverGc, type DriverPauses } from "./driver-gc.js";
import { alsoStop, memoryOf, startProc, stopProc } from "./processes.js";
import { keysByShape, keysUnder, redisInfo, type KeyShape, type RedisClient } from "./redis-info.js";
import {
  DRIVER_GC,
  MAIN,
  MB,
  ROOT,
  YEAR_CALLS,
  YEAR_DAYS,
  YEAR_IN_FLIGHT,
  YEAR_PER_DAY,
  YEAR_QUESTION_BUDGET_MS,
  YEAR_WARM_CALLS,
} from "./settings.js";
import { f, percentile } from "./stats.js";
import {
  BIG_RESELLER,
  CAST,
  SEED_DRAFT_TTL_MS,
  seedYear,
  TIME_ZONE,
  type Member,
  type SeedResult,
} from "./year-seed.js";

/** LEDGER_HOT_DAYS's default: the bot's first compaction pass on the year packs what is older. */
export const HOT_DAYS = 35;
/** A busy day: the orders of the bytes-per-order measurement. */
const BUSY_DAY = 2_000;

/** The production default: the seed and the bot use it. */
const PREFIX = "topup:";
/** A user sends at most 30 messages in 2 s (the bot's flood limit): one command per user every 100 ms. */
export const COMMAND_GAP_MS = 100;
/** A call unanswered this long is given up (a phone user gave up long before). */
export const ANSWER_TIMEOUT_MS = 120_000;

/** One question's timed calls (ms), and the size of its last answer (bytes). */
export interface Timing {
  /** The call or command, as the doc names it. */
  call: string;
  samples: number[];
  bytes: number;
  /** Fewer than YEAR_CALLS: the question took longer than YEAR_QUESTION_BUDGET_MS. */
  stoppedEarly: boolean;
  /** A call had no answer within ANSWER_TIMEOUT_MS: the question was given up there. */
  noAnswer: boolean;
}

/** A call that had no answer within ANSWER_TIMEOUT_MS: a figure too (the question is given up), not a failure. */
class NoAnswer extends Error {
  override name = "NoAnswer";
}

export interface YearResult {
  seed: SeedResult;
  /** used_memory of the year's own Redis, empty and after the seed (open drafts expired). */
  redis: { empty: number; seeded: number; keys: number; version: string };
  shapes: KeyShape[];
  /**
   * The bot's first compaction pass on the year (LEDGER_HOT_DAYS=35), run through the ledger as the
   * bot runs it: its time, what it packed, and the year's Redis after it.
   */
  compaction: { ms: number; result: CompactResult; used: number; keys: number; shapes: KeyShape[] };
  /** Bytes of Redis per finished order (a busy day of 2,000 on a Redis of their own), while recent and once compacted. */
  perOrder: { staff: OrderBytes; reseller: OrderBytes };
  bot: { startMs: number; rssAfterStart: number; rssAfter: number; peak: number };
  /** What a shop owner asks, in the Mini App and in the chat (either may be missing). */
  questions: Array<{ question: string; app?: Timing; chat?: Timing }>;
  /** The bench driver's own collections that fell inside timed calls, and whether it collected before each call. */
  driverPauses: DriverPauses & { collecting: boolean };
  /** dist/web/size.json's firstLoadGzip (bytes), if the build wrote it. */
  firstLoadGzip: number | undefined;
}

const fakeUser = (m: Member): FakeUser => ({ id: m.id, first_name: m.name, language_code: "en" });

/**
 * Calls `once` for warm-up, then YEAR_CALLS times (fewer when the question is slow), and gives up
 * at the first call without an answer; `once` times itself. The driver collects its own garbage
 * before each call.
 */
async function timeCalls(
  call: string,
  once: () => Promise<{ ms: number; bytes: number }>,
  driver: DriverGc,
): Promise<Timing> {
  const samples: number[] = [];
  let bytes = 0;
  const timing = (noAnswer: boolean): Timing => ({
    call,
    samples,
    bytes,
    stoppedEarly: samples.length < YEAR_CALLS,
    noAnswer,
  });
  try {
    for (let i = 0; i < YEAR_WARM_CALLS; i++) {
      driver.collect();
      // A question that reads the whole year warms up once.
      if ((await once()).ms > YEAR_QUESTION_BUDGET_MS / 10) break;
    }
    const began = performance.now();
    for (let i = 0; i < YEAR_CALLS; i++) {
      driver.collect();
      const from = performance.now();
      const r = await once();
      driver.timed(from, performance.now());
      samples.push(r.ms);
      bytes = r.bytes;
      if (samples.length >= 3 && performance.now() - began > YEAR_QUESTION_BUDGET_MS) break;
    }
  } catch (err) {
    if (err instanceof NoAnswer) return timing(true);
    throw err;
  }
  return timing(false);
}

export async function year(h: Harness, catalog: Catalog, progress: (line: string) => void): Promise<YearResult> {
  const server = await ownRedis({ appendOnly: false });
  const forget = alsoStop(server.stop);
  const redis: RedisClient = createClient({ url: server.url });
  try {
    await redis.connect();
    const empty = await redisInfo(redis);
    const storage = await createStorage({ redisUrl: server.url, prefix: PREFIX });
    let seed: SeedResult;
    try {
      seed = await seedYear(storage, catalog, {
        days: YEAR_DAYS,
        perDay: YEAR_PER_DAY,
        inFlight: YEAR_IN_FLIGHT,
        now: new Date(),
        progress: (line) => progress(`  seed: ${line}`),
      });
    } finally {
      await storage.close();
    }
    // What stays: the open-draft pointers of the last orders expire with their drafts' TTL.
    const until = performance.now() + 4 * SEED_DRAFT_TTL_MS;
    // (SCAN drops an expired key when it meets it.)
    while ((await keysUnder(redis, `${PREFIX}open-draft:`)).length > 0 && performance.now() < until) await sleep(500);
    const seeded = await redisInfo(redis);
    const keys = await redis.dbSize();
    const shapes = await keysByShape(redis, PREFIX, { sample: 50, exact: true });
    progress(
      `  Redis: ${f((seeded.usedMemory - empty.usedMemory) / MB, 0)} MB for the year, ` +
        `${f((seeded.usedMemory - empty.usedMemory) / seed.orders, 0)} B per order, ${keys} keys`,
    );
    const compaction = await compactYear(server.url, redis, PREFIX, progress);
    const perOrder = {
      staff: await orderBytes("staff", progress),
      reseller: await orderBytes("reseller", progress),
    };
    const asked = await askTheBot(h, server.url, seed, progress);
    let firstLoadGzip: number | undefined;
    try {
      firstLoadGzip = (JSON.parse(readFileSync(`${ROOT}dist/web/size.json`, "utf8")) as { firstLoadGzip?: number })
        .firstLoadGzip;
    } catch {
      firstLoadGzip = undefined;
    }
    return {
      seed,
      redis: { empty: empty.usedMemory, seeded: seeded.usedMemory, keys, version: seeded.version },
      shapes,
      compaction,
      perOrder,
      ...asked,
      firstLoadGzip,
    };
  } finally {
    if (redis.isOpen) await redis.close();
    await server.stop();
    forget();
  }
}

/** The bot's first compaction pass on the year, through the ledger as the bot runs it (orders older than HOT_DAYS). */
async function compactYear(
  url: string,
  redis: RedisClient,
  prefix: string,
  progress: (line: string) => void,
): Promise<YearResult["compaction"]> {
  const storage = await createStorage({ redisUrl: url, prefix });
  try {
    const ledger = createLedger(storage, { timeZone: TIME_ZONE });
    const now = new Date();
    const t0 = performance.now();
    const result = await ledger.compact({ before: new Date(now.getTime() - HOT_DAYS * 86_400_000), now });
    const ms = performance.now() - t0;
    const after = await redisInfo(redis);
    const keys = await redis.dbSize();
    const shapes = await keysByShape(redis, prefix, { sample: 50, exact: true });
    progress(
      `  compaction (LEDGER_HOT_DAYS=${HOT_DAYS}): ${result.orders} orders and ${result.movements} statement ` +
        `movements in ${f(ms / 1000, 0)} s; Redis ${f(after.usedMemory / MB, 0)} MB, ${keys} keys`,
    );
    return { ms, result, used: after.usedMemory, keys, shapes };
  } finally {
    await storage.close();
  }
}

/** Bytes of Redis per finished order: used_memory before and after. */
export interface OrderBytes {
  orders: number;
  /** While recent (a hash of its own), and once compacted, indexes (and a reseller's statement lines) included. */
  hot: number;
  compacted: number;
}

/**
 * A busy day of one kind of order on a Redis of its own: 2,000 successful orders of 2,000 player
 * ids, as the bot writes them (draft, claim, outcome, the user told), one staff member or one
 * reseller (their deposit first); used_memory before, after (everything recent) and after a
 * compaction pass that packs them all. The shop's fixed keys and Redis's own one-time costs are
 * paid by a first order and pass before the measurement.
 */
async function orderBytes(kind: "staff" | "reseller", progress: (line: string) => void): Promise<OrderBytes> {
  const server = await ownRedis({ appendOnly: false });
  const forget = alsoStop(server.stop);
  const client: RedisClient = createClient({ url: server.url });
  const storage = await createStorage({ redisUrl: server.url, prefix: PREFIX });
  try {
    await client.connect();
    const ledger = createLedger(storage, { timeZone: TIME_ZONE });
    await ledger.upgrade();
    const member = kind === "staff" ? CAST.staff[0]! : BIG_RESELLER;
    const day = Date.now() - 100 * 86_400_000;
    if (kind === "reseller") {
      await writePastDeposit(
        ledger.wallets,
        {
          id: newRefId("DP", new Date(day - 3_600_000)),
          resellerId: member.id,
          amount: 100_000_000,
          note: "transfer BCA",
          adminId: CAST.admins[0]!.id,
          chatId: CAST.admins[0]!.id,
          createdAt: new Date(day - 3_600_000).toISOString(),
        },
        { at: new Date(day - 3_590_000).toISOString(), toldAt: new Date(day - 3_580_000).toISOString() },
      );
    }
    const sell = async (i: number) => {
      const made = day + i * 40_000;
      const draft: OrderRecord = {
        refId: newRefId("TG", new Date(made)),
        chatId: member.id,
        userId: member.id,
        userName: member.name,
        lang: "id",
        gameName: "Mobile Legends",
        productCode: "ML86",
        productName: "86 Diamonds",
        price: kind === "staff" ? 20_000 : 19_700,
        playerId: `${String(10_000_000 + ((i * 2_654_435_761) % 89_999_999))}(${1000 + (i % 9000)})`,
        createdAt: new Date(made).toISOString(),
        state: "draft",
        ...(kind === "reseller" ? { role: "reseller" as const, tier: "gold" } : { role: "staff" as const }),
      };
      const at = new Date(made + 9_000).toISOString();
      const balance = 500_000_000 - i * 19_500;
      await writePastOrder(ledger.orders, {
        draft,
        submittedAt: new Date(made + 6_000).toISOString(),
        summaryMessageId: 4000 + i,
        outcome: {
          state: "success",
          at,
          result: {
            trxId: `TRX${String(2_611_250_000 + i)}`,
            destinationName: `Player#${String(1000 + (i % 9000))}`,
            sn: String(1_795_580_000_000_000_000n + BigInt(i)),
            lastBalance: balance,
            message: `Top up 86 Diamonds for Player#${String(1000 + (i % 9000))} succeeded. SN: ${String(1_795_580_000_000_000_000n + BigInt(i))}`,
            productDetail: {
              name: "86 Diamonds",
              code: "ML86",
              price: 19_500,
              rate: 1,
              priceRp: 19_500,
              status: "SUKSES",
            },
          },
        },
        balance,
        toldAt: new Date(made + 10_000).toISOString(),
      });
    };
    const everything = { before: new Date(Date.now() + 86_400_000), now: new Date(Date.now() + 2 * 86_400_000) };
    await sell(0);
    await ledger.compact(everything);
    const before = (await redisInfo(client)).usedMemory;
    for (let i = 1; i <= BUSY_DAY; i++) await sell(i);
    const hot = (await redisInfo(client)).usedMemory;
    await ledger.compact(everything);
    const compacted = (await redisInfo(client)).usedMemory;
    const bytes = { orders: BUSY_DAY, hot: (hot - before) / BUSY_DAY, compacted: (compacted - before) / BUSY_DAY };
    progress(`  a ${kind}'s order: ${f(bytes.hot, 0)} B recent, ${f(bytes.compacted, 0)} B compacted`);
    return bytes;
  } finally {
    await storage.close();
    if (client.isOpen) await client.close();
    await server.stop();
    forget();
  }
}

/** The bot on the year's Redis, with its Mini App on a port; every question timed. */
async function askTheBot(
  h: Harness,
  redisUrl: string,
  seed: SeedResult,
  progress: (line: string) => void,
): Promise<Pick<YearResult, "bot" | "questions" | "driverPauses">> {
  const fake = createFakeBotApi();
  await fake.start();
  const port = await freePort();
  const admin = fakeUser(CAST.admins[0]!);
  const staff = fakeUser(CAST.staff.find((m) => m.id === seed.sample.staff)!);
  const oldRefUser = fakeUser(CAST.staff.find((m) => m.id === seed.sample.oldRefUser)!);
  const reseller = fakeUser(BIG_RESELLER);
  const env = {
    ...botEnv(fake, PREFIX, CAST.staff.map(fakeUser), h.sandbox),
    REDIS_URL: redisUrl,
    ADMIN_IDS: CAST.admins.map((m) => m.id).join(","),
    RESELLER_IDS: CAST.resellers.map((m) => m.id).join(","),
    PORT: String(port),
    WEBAPP_URL: "https://shop.example.com",
  };
  const proc = startProc(MAIN, env, { probe: false });
  try {
    await proc.waitOutput(READY.ours, 0, 120_000);
    const startMs = performance.now() - proc.spawnedAt;
    const rssAfterStart = memoryOf(proc.pid).rss;
    progress(`  the bot started on the year in ${startMs.toFixed(0)} ms; the questions:`);
    const asked: Asked[] = [];
    const driver = watchDriverGc(DRIVER_GC);
    const ask: Ask = async (question, side, call, once) => {
      const timing = await timeCalls(call, once, driver);
      asked.push({ question, side, timing });
      const { samples } = timing;
      progress(
        `    ${side === "app" ? "Mini App" : "chat"} ${call}: p50 ${f(percentile(samples, 50))}, ` +
          `p95 ${f(percentile(samples, 95))}, max ${f(Math.max(...samples))} ms (${samples.length} calls)` +
          (timing.noAnswer ? `, then no answer within ${ANSWER_TIMEOUT_MS / 1000} s` : ""),
      );
    };
    const api = `http://127.0.0.1:${port}/app/api/`;
    await miniAppQuestions(api, fake.token, { admin, staff, reseller }, seed, ask, { readingTheYear: false });
    await chatQuestions(fake, { admin, staff, oldRefUser, reseller }, seed, ask);
    // Last: the bot and Redis may go on reading the year after the call is given up.
    await miniAppQuestions(api, fake.token, { admin, staff, reseller }, seed, ask, { readingTheYear: true });
    const mem = memoryOf(proc.pid);
    const driverPauses = await driver.finish();
    progress(
      `  the driver's own collections inside timed calls: ${f(driverPauses.ms)} ms in ${driverPauses.calls} calls ` +
        `(the longest ${f(driverPauses.longest)} ms)`,
    );
    return {
      bot: { startMs, rssAfterStart, rssAfter: mem.rss, peak: mem.peak },
      questions: mergeQuestions(asked),
      driverPauses: { ...driverPauses, collecting: DRIVER_GC },
    };
  } finally {
    await stopProc(proc);
    await fake.stop();
  }
}

interface Asked {
  question: string;
  side: "app" | "chat";
  timing: Timing;
}

/** Times one question on one side (timeCalls) and keeps it. */
type Ask = (
  question: string,
  side: Asked["side"],
  call: string,
  once: () => Promise<{ ms: number; bytes: number }>,
) => Promise<void>;

/** One row per question, the Mini App's call and the chat's side by side, in the order first asked. */
function mergeQuestions(asked: Asked[]): YearResult["questions"] {
  const rows: YearResult["questions"] = [];
  for (const a of asked) {
    let row = rows.find((r) => r.question === a.question);
    if (row === undefined) rows.push((row = { question: a.question }));
    row[a.side] = a.timing;
  }
  return rows;
}

/**
 * The Mini App's pages' calls, as the page makes them: GET with `Authorization: tma <initData>`;
 * the ones that read every order of the year, or all the others.
 */
async function miniAppQuestions(
  api: string,
  botToken: string,
  who: { admin: FakeUser; staff: FakeUser; reseller: FakeUser },
  seed: SeedResult,
  ask: Ask,
  opts: { readingTheYear: boolean },
): Promise<void> {
  const initData = {
    admin: signInitData(who.admin, botToken),
    reseller: signInitData(who.reseller, botToken),
  };
  const { day, oldRef, player } = seed.sample;
  /** A day of last week (the seeded year ends yesterday: last week is always full). */
  const lastWeek = dayPlus(dayIn(TIME_ZONE, new Date()), -7);
  /** Yesterday: the newest full day, its orders still recent (not compacted). */
  const yesterday = dayPlus(dayIn(TIME_ZONE, new Date()), -1);
  /** One GET, timed from the request to the last byte of the answer; `check` says the answer is the one asked for. */
  const get = (as: "admin" | "reseller", path: string, check: (body: string) => boolean) => async () => {
    const t0 = performance.now();
    let res: Response;
    let body: string;
    try {
      res = await fetch(`${api}${path}`, {
        headers: { authorization: `tma ${initData[as]}` },
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      });
      body = await res.text();
    } catch (err) {
      if (err instanceof Error && err.name === "TimeoutError") throw new NoAnswer(path);
      throw err;
    }
    const ms = performance.now() - t0;
    if (res.status !== 200 || !check(body))
      throw new Error(`Mini App ${path}: not the expected answer (${res.status}): ${body.slice(0, 300)}`);
    return { ms, bytes: Buffer.byteLength(body) };
  };
  const viewed = (body: string) => (JSON.parse(body) as { orders: Array<{ state: string; userId?: number }> }).orders;
  const orders = (body: string) => viewed(body).length;
  const calls: Array<[string, "admin" | "reseller", string, (body: string) => boolean, "reads the year"?]> = [
    ["who is asking (every page first)", "admin", "session", (b) => b.includes('"role":"admin"')],
    ["a day's sales figures", "admin", "admin/today", (b) => b.includes('"days"')],
    ["the catalogue", "admin", "admin/catalog", (b) => b.includes('"games"')],
    ["orders with an unknown result", "admin", "admin/pending", (b) => orders(b) === seed.byState.unknown],
    ["the resellers", "admin", "admin/resellers", (b) => b.includes(`"userId":${BIG_RESELLER.id}`)],
    [
      "the big reseller's statement, first page",
      "admin",
      `admin/resellers/${BIG_RESELLER.id}`,
      (b) => b.includes('"movements"'),
    ],
    ["the newest orders, everyone's", "admin", "admin/orders", (b) => orders(b) === 20],
    ["one order by its ref id, months old", "admin", `admin/orders?q=${oldRef}`, (b) => orders(b) === 1],
    ["a player's orders", "admin", `admin/orders?q=${encodeURIComponent(player)}`, (b) => orders(b) > 0],
    ["a day's orders", "admin", `admin/orders?day=${day}`, (b) => orders(b) === 20],
    [
      "a day's failed orders of one staff member",
      "admin",
      `admin/orders?day=${day}&state=failed&user=${who.staff.id}`,
      (b) => viewed(b).every((o) => o.state === "failed" && o.userId === who.staff.id),
    ],
    [
      "failed orders, the whole year (no day)",
      "admin",
      "admin/orders?state=failed",
      (b) => viewed(b).length === 20 && viewed(b).every((o) => o.state === "failed"),
    ],
    ["a staff member's orders, first page", "admin", `admin/orders?user=${who.staff.id}`, (b) => orders(b) === 20],
    ["a staff member's orders, page 50", "admin", `admin/orders?user=${who.staff.id}&page=49`, (b) => orders(b) > 0],
    ["a day's orders as CSV", "admin", `admin/orders.csv?day=${day}`, (b) => b.split("\n").length > seed.perDay],
    [
      "yesterday's orders as CSV (recent, not compacted)",
      "admin",
      `admin/orders.csv?day=${yesterday}`,
      (b) => b.split("\n").length > seed.perDay,
    ],
    [
      "the top products and resellers of the month",
      "admin",
      "admin/top?period=month",
      (b) => b.includes('"products"') && b.includes('"resellers"'),
    ],
    [
      "the top products and resellers of last week",
      "admin",
      `admin/top?period=week&day=${lastWeek}`,
      (b) => b.includes('"products"'),
    ],
    ["when in the day orders come, this month", "admin", "admin/hours?period=month", (b) => b.includes('"busiest"')],
    ["this month against the same days of last month", "admin", "admin/compare", (b) => b.includes('"change"')],
    [
      "orders still unknown, the whole year (no day)",
      "admin",
      "admin/orders?state=unknown",
      (b) => orders(b) === Math.min(20, seed.byState.unknown),
      "reads the year",
    ],
    ["a reseller's own saldo", "reseller", "reseller/wallet", (b) => b.includes('"saldo"')],
    ["a reseller's own statement, first page", "reseller", "reseller/statement", (b) => b.includes('"movements"')],
    ["a reseller's own orders, first page", "reseller", "reseller/orders", (b) => orders(b) === 20],
    ["a reseller's prices", "reseller", "reseller/prices", (b) => b.includes('"games"')],
  ];
  for (const [question, as, path, check, reads] of calls) {
    if ((reads !== undefined) === opts.readingTheYear)
      await ask(question, "app", `/app/api/${path}`, get(as, path, check));
  }
}

/** The same questions in the chat, sent as a user sends them; timed until the bot's answer (or its last part) arrives. */
async function chatQuestions(
  fake: FakeBotApi,
  who: { admin: FakeUser; staff: FakeUser; oldRefUser: FakeUser; reseller: FakeUser },
  seed: SeedResult,
  ask: Ask,
): Promise<void> {
  const { day, oldRef } = seed.sample;
  const lastSent = new Map<number, number>();
  const newestId = (chat: number) => fake.lastMessageTo(chat)?.message_id ?? 0;
  /** The bot's messages in the chat after message id `after`, once `count` of them are there. */
  const answers = async (chat: number, after: number, count: number) => {
    let found: SentMessage[] = [];
    await fake
      .waitFor(
        () => (found = fake.messagesTo(chat).filter((m) => m.message_id > after)).length >= count,
        ANSWER_TIMEOUT_MS,
      )
      .catch(() => {
        throw new NoAnswer(`chat ${chat}`);
      });
    return found;
  };
  /** A command, as the user sends it (never faster than the flood limit allows); timed until `count` answers. */
  const command =
    (user: FakeUser, text: string, check: (m: SentMessage) => boolean, count = 1) =>
    async () => {
      await sleep(Math.max(0, (lastSent.get(user.id) ?? 0) + COMMAND_GAP_MS - performance.now()));
      lastSent.set(user.id, performance.now());
      const t0 = performance.now();
      const sent = fake.sendText(user, text).message!.message_id;
      const got = await answers(user.id, sent, count);
      const ms = performance.now() - t0;
      if (!check(got[0]!)) throw new Error(`chat ${text}: not the expected answer: ${got[0]!.text.slice(0, 300)}`);
      return { ms, bytes: got.reduce((sum, m) => sum + Buffer.byteLength(m.text), 0), message: got[0]! };
    };
  /** A tap on a button of `message`, timed until `done` says the bot answered it. */
  const tap = async (user: FakeUser, message: SentMessage, data: string, done: () => SentMessage | undefined) => {
    const t0 = performance.now();
    fake.tapButton(user, message, data);
    let hit: SentMessage | undefined;
    await fake
      .waitFor(() => (hit = done()) !== undefined, ANSWER_TIMEOUT_MS)
      .catch(() => {
        throw new NoAnswer(`tap ${data}`);
      });
    return { ms: performance.now() - t0, message: hit! };
  };
  /** The next edit of a message (history pages are turned in place). */
  const edited = (message: SentMessage) => {
    const edits = message.edits.length;
    return () => (message.edits.length > edits ? message : undefined);
  };

  const add = (question: string, call: string, once: () => Promise<{ ms: number; bytes: number }>) =>
    ask(question, "chat", call, once);

  const report = (of: string) =>
    command(
      who.admin,
      `/report ${of}`,
      (m) => /Sales report/.test(m.text) && /CSV/.test(JSON.stringify(m.reply_markup)),
    );
  await add("a day's sales figures", `/report ${day}`, report(day));
  /** The CSV button of a day's report, timed from the tap to the document. */
  const csv = async (question: string, of: string) => {
    const reportMessage = (await report(of)()).message;
    const csvData = fake.buttonData(reportMessage, /CSV/);
    await add(question, of === day ? "/report's CSV button" : `/report ${of}, CSV button`, async () => {
      const after = newestId(who.admin.id);
      const r = await tap(who.admin, reportMessage, csvData, () =>
        fake.messagesTo(who.admin.id).find((m) => m.message_id > after && m.method === "sendDocument"),
      );
      if (!new RegExp(`Orders of ${of}: ${seed.perDay}\\b`).test(r.message.text))
        throw new Error(`chat CSV of ${of}: not the expected document: ${r.message.text}`);
      return { ms: r.ms, bytes: Buffer.byteLength(r.message.document?.content ?? "") };
    });
  };
  await csv("a day's orders as CSV", day);
  await csv("yesterday's orders as CSV (recent, not compacted)", dayPlus(dayIn(TIME_ZONE, new Date()), -1));
  await add(
    "the top products and resellers of the month",
    "/top month",
    command(who.admin, "/top month", (m) => /Top sellers of/.test(m.text) && /Resellers/.test(m.text)),
  );
  await add("the top products and resellers of last week", "/top week, ◀ Before", async () => {
    const week = (await command(who.admin, "/top week", (m) => /the week/.test(m.text))()).message;
    const r = await tap(who.admin, week, fake.buttonData(week, /Before/), edited(week));
    if (!/\d+ sales? ·/.test(r.message.text)) throw new Error(`chat /top: last week has no sales: ${r.message.text}`);
    return { ms: r.ms, bytes: Buffer.byteLength(r.message.text) };
  });
  await add(
    "when in the day orders come, this month",
    "/hours month",
    command(who.admin, "/hours month", (m) => /When orders came/.test(m.text)),
  );
  await add(
    "this month against the same days of last month",
    "/compare",
    command(who.admin, "/compare", (m) => /so far against/.test(m.text)),
  );
  await add(
    "the newest orders, everyone's",
    "/history all",
    command(who.admin, "/history all", (m) => /All orders/.test(m.text)),
  );
  const history = command(who.staff, "/history", (m) => /Your orders<\/b>: page 1 of/.test(m.text));
  await add("a staff member's orders, first page", "/history", history);

  // Page 50 (or the last, in a short year): "Older »" pressed from page 1 to the page before it, then
  // back and forth between that page and the next, the press onto it timed.
  const first = (await history()).message;
  const pages = Number(/page 1 of (\d+)/.exec(first.text)?.[1] ?? 1);
  const target = Math.min(50, pages);
  if (target > 1) {
    const press = (label: RegExp) => tap(who.staff, first, fake.buttonData(first, label), edited(first));
    for (let page = 1; page < target - 1; page++) await press(/Older/);
    await add(`a staff member's orders, page ${target}`, `/history, Older » to page ${target}`, async () => {
      const r = await press(/Older/);
      if (!r.message.text.includes(`page ${target} of`))
        throw new Error(`chat /history: not page ${target}: ${r.message.text.slice(0, 200)}`);
      await press(/Newer/);
      return { ms: r.ms, bytes: Buffer.byteLength(r.message.text) };
    });
  }
  await add(
    "one order by its ref id, months old",
    "/status REF",
    command(who.oldRefUser, `/status ${oldRef}`, (m) => /Order status/.test(m.text) && m.text.includes(oldRef)),
  );
  const pendingParts = 1 + Math.min(20, seed.byState.unknown);
  await add(
    "orders with an unknown result",
    `/pending (${pendingParts} messages)`,
    command(who.admin, "/pending", (m) => /unknown result/.test(m.text), pendingParts),
  );
  await add(
    "the resellers",
    "/saldo all",
    command(who.admin, "/saldo all", (m) => /Resellers' saldo/.test(m.text)),
  );
  await add(
    "the big reseller's statement, first page",
    `/saldo ${BIG_RESELLER.id}`,
    command(who.admin, `/saldo ${BIG_RESELLER.id}`, (m) => /Last movements/.test(m.text)),
  );
  await add(
    "a reseller's own statement, first page",
    "/saldo (the reseller)",
    command(who.reseller, "/saldo", (m) => /Your saldo/.test(m.text) && /Last movements/.test(m.text)),
  );
  await add(
    "a reseller's own orders, first page",
    "/history (the reseller)",
    command(who.reseller, "/history", (m) => /Your orders<\/b>: page 1 of/.test(m.text)),
  );
}
