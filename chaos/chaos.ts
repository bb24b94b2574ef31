/**
 * `npm run chaos`: 100 orders through the real bot process while it is killed (SIGKILL) and
 * restarted at random moments, Redis is restarted once, two providers (main and a backup,
 * chaos/providers.ts) misbehave, refuse and stall at random, so orders go on to the backup and
 * providers rest, and some taps are doubled. Meanwhile admins take deposits for resellers, who
 * order from their saldo under the same faults (chaos/resellers.ts), and resellers ask for deposits
 * by transfer with a proof that an admin approves or rejects (chaos/requests.ts): each approval
 * credited once, no rejection ever credited. Then both providers' records of calls are reconciled
 * with the ledger (each call mapped back to its order through the attempt's ref id), every
 * reseller's money with the books, and every update Telegram handed out with the update stream and
 * the bot's logs. Prints the counts; exits non-zero on any duplicate or missing order, any order
 * carried out twice, any reseller money that does not add up, any update lost or out of order.
 *
 * `npm run chaos -- --replicas 3`: the same, twice, with three processes on one Redis: in webhook
 * mode behind a round-robin balancer, then in long-polling mode with two standbys; random
 * processes SIGKILLed, one rolling restart (SIGTERM to each in turn), one Redis restart
 * (chaos/fleet.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { OrderRecord } from "../src/orders/order.js";
import { createLedger } from "../src/ledger/create-ledger.js";
import { createStorage } from "../src/storage/storage.js";
import { createUpdateStream } from "../src/updates/update-stream.js";
import { createFakeBotApi, type FakeBotApi, type FakeUser, type SentMessage } from "../test/e2e/fake-bot-api.js";
import { freePort, ownRedis } from "../test/helpers/redis.js";
import { replicaFleet, singleFleet, type Fleet, type FleetMode } from "./fleet.js";
import { createPartners, splitBooks } from "./partners.js";
import { createRequestsDriver, setPayInfo } from "./requests.js";
import {
  attributeCalls,
  chaosCatalog,
  cutRests,
  faultyProvider,
  PROVIDERS,
  reconcileProviders,
  snsByOrder,
  type ProviderCall,
} from "./providers.js";
import {
  createResellerDriver,
  MAX_RESTING_TAPS,
  poll,
  readBooks,
  reconcileResellers,
  resellerPrices,
  restingTold,
} from "./resellers.js";
import { confirmOtherSummaries, reconcileAsks, type Ask } from "./summaries.js";

const ORDERS = Number(process.env.CHAOS_ORDERS ?? 100);
const USERS = Number(process.env.CHAOS_USERS ?? 5);
const RESELLERS = Number(process.env.CHAOS_RESELLERS ?? 3);
const RESELLER_ORDERS = Number(process.env.CHAOS_RESELLER_ORDERS ?? 12);
/** Partners ordering over the H2H API (chaos/partners.ts), and how many ref ids each. */
const PARTNER_IDS = [7101, 7102];
const PARTNER_ORDERS = Number(process.env.CHAOS_PARTNER_ORDERS ?? 20);
const TIMEOUT_MS = 1500;
const SECRET = "chaos-secret-never-printed";
const BACKUP_SECRET = "chaos-backup-secret-never-printed";
/** How long a provider's rest lasts in the run (the bot's five minutes are cut to it; 0: not cut). */
const REST_MS = Number(process.env.CHAOS_REST_MS ?? 15_000);
const DOC = "docs/chaos.md";
/** Where the section of the runs with several processes starts in docs/chaos.md. */
const REPLICAS_HEADING = "\n## Several processes on one Redis";
const replicasArg = process.argv.indexOf("--replicas");
const REPLICAS = replicasArg < 0 ? 1 : Number(process.argv[replicasArg + 1] ?? "3");
const runsArg = process.argv.indexOf("--runs");
/** `--runs N`: N runs in a row (seeds one after the other); docs/chaos.md lists them all. */
const RUNS = runsArg < 0 ? 1 : Math.max(1, Number(process.argv[runsArg + 1] ?? "1"));
const firstSeed = Number(process.env.CHAOS_SEED ?? Date.now() % 100_000);
let seed = firstSeed;
/** The seed of the run under way (every actor's generator starts from it). */
let initialSeed = seed;
/** A small seeded generator, so a failing run can be replayed with CHAOS_SEED. */
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
/** An independent generator per actor (mulberry32), from the seed and the actor's name. */
const fork = (actor: string) => {
  let state = [...actor].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0, initialSeed >>> 0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let report: string[] = [];
/** One line per run, for docs/chaos.md. */
const runLines: string[] = [];
const log = (line: string) => {
  report.push(line);
  process.stdout.write(`${line}\n`);
};

/** One "update handled" log line of any process (`process`: its index in the outputs). */
interface Handled {
  updateId: number;
  lane: string;
  time: number;
  process: number;
}

/** The time of the last log line of an output (0 when none). */
function lastLogTime(text: string): number {
  const times = [...text.matchAll(/"time":(\d+)/g)].map((m) => Number(m[1]));
  return times.length === 0 ? 0 : Math.max(...times);
}

/**
 * Whether the process logged, within 100 ms after `time`, that Redis could not be reached (the run
 * restarts Redis once): the update's done step after its handling failed, so it was handled again.
 */
function redisDownAfter(text: string, time: number): boolean {
  return text.split("\n").some((line) => {
    const at = Number(/"time":(\d+)/.exec(line)?.[1] ?? NaN);
    return (
      at >= time &&
      at - time <= 100 &&
      /"level":50/.test(line) &&
      /ClientOfflineError|client is offline|ECONNRESET|ECONNREFUSED|Socket closed/i.test(line)
    );
  });
}

function handledLines(outputs: readonly string[]): Handled[] {
  const out: Handled[] = [];
  for (const [index, text] of outputs.entries()) {
    for (const line of text.split("\n")) {
      if (!line.includes('"msg":"update handled"')) continue;
      try {
        const j = JSON.parse(line) as { updateId: number; chatId?: number; userId?: number; time: number };
        const lane = j.chatId === undefined ? `u${j.userId ?? "?"}` : `${j.chatId}:${j.userId ?? ""}`;
        out.push({ updateId: j.updateId, lane, time: j.time, process: index });
      } catch {
        // a line cut short by a SIGKILL
      }
    }
  }
  return out;
}

/**
 * Every update the fake Telegram handed out, reconciled from outside: acknowledged (a webhook POST
 * answered 200, or confirmed by a getUpdates offset), marked done in the update stream (or given
 * up after failing every time), handled to the end once (the "update handled" lines of every
 * process; lines of a process killed at that very moment can be missing, so this is a lower bound
 * of doubles), and in each member's order (those lines, by time, within each lane).
 */
async function reconcileUpdates(
  fake: FakeBotApi,
  redisUrl: string,
  mode: FleetMode,
  outputs: readonly string[],
  killed: readonly boolean[],
): Promise<{ lines: string[]; violations: string[] }> {
  const last = fake.lastUpdateId();
  const storage = await createStorage({ redisUrl, prefix: "topup:" });
  if (storage.kind !== "redis") throw new Error("redis expected");
  const stream = createUpdateStream(storage.redis, "topup:");
  const status = new Map<number, string>();
  try {
    // Wait for the last ones to be handled (the stream drains), at most a minute.
    for (let i = 0; i < 600; i++) {
      const backlog = await stream.backlog();
      if (backlog.length === 0 && fake.pendingUpdates() === 0) break;
      await sleep(100);
    }
    for (let id = 1; id <= last; id++) status.set(id, (await stream.status(id)) ?? "unknown");
  } finally {
    await storage.close();
  }
  const acknowledged = (id: number) =>
    mode === "webhook"
      ? fake.webhookPosts.some((p) => p.updateId === id && p.status === 200)
      : id < fake.confirmedOffset();
  const ids = [...status.keys()];
  const acked = ids.filter(acknowledged);
  const done = ids.filter((id) => status.get(id) === "done");
  const givenUp = ids.filter((id) => status.get(id) === "failed");
  const lost = acked.filter((id) => status.get(id) !== "done" && status.get(id) !== "failed");
  const unacked = ids.filter((id) => !acknowledged(id));
  const handled = handledLines(outputs);
  const count = new Map<number, number>();
  for (const h of handled) count.set(h.updateId, (count.get(h.updateId) ?? 0) + 1);
  const twice = [...count].filter(([, n]) => n > 1).map(([id]) => id);
  // A second completion is explained when the process that completed it first was SIGKILLed right
  // after (its last log line within 100 ms): it died between the end of the handling and the
  // update's done step, so the update went to another process; or when Redis was down right then
  // (the done step failed, so the update was handled again). Anything else is a violation.
  const firstOf = (id: number) => handled.filter((h) => h.updateId === id).sort((a, b) => a.time - b.time)[0]!;
  const killedRightAfter = (id: number) => {
    const first = firstOf(id);
    return killed[first.process] === true && lastLogTime(outputs[first.process]!) - first.time <= 100;
  };
  const redisDown = twice.filter(
    (id) => !killedRightAfter(id) && redisDownAfter(outputs[firstOf(id).process]!, firstOf(id).time),
  );
  const unexplained = twice.filter((id) => !killedRightAfter(id) && !redisDown.includes(id));
  const again = outputs.reduce((n, o) => n + (o.match(/updates: handling an update again/g)?.length ?? 0), 0);
  const lanes = new Map<string, Handled[]>();
  for (const h of handled) lanes.set(h.lane, [...(lanes.get(h.lane) ?? []), h]);
  const outOfOrder: string[] = [];
  for (const [lane, list] of lanes) {
    // Once per update (a second completion of an update adds nothing to the order), by time.
    const firsts = new Map<number, Handled>();
    for (const h of list) if (!firsts.has(h.updateId)) firsts.set(h.updateId, h);
    const byTime = [...firsts.values()].sort((a, b) => a.time - b.time || a.updateId - b.updateId);
    for (let i = 1; i < byTime.length; i++) {
      if (byTime[i]!.updateId < byTime[i - 1]!.updateId && byTime[i]!.time > byTime[i - 1]!.time)
        outOfOrder.push(`${lane}: ${byTime[i - 1]!.updateId} before ${byTime[i]!.updateId}`);
    }
  }
  const lines = [
    `  updates handed out: ${ids.length}; acknowledged: ${acked.length}; done in the update stream: ${done.length}; given up after failing every time: ${givenUp.length}`,
    `  updates lost (acknowledged, never done): ${lost.length}; never acknowledged: ${unacked.length}`,
    `  updates handled to the end twice (log lines): ${twice.length}${twice.length > 0 ? ` ${JSON.stringify(twice)}, ${twice.length - unexplained.length - redisDown.length} of them by a process SIGKILLed right after (before the done step), ${redisDown.length} while Redis was down (its done step failed)` : ""}; handlings started again after a process died in the middle: ${again}`,
    `  member order: ${lanes.size} lanes, ${handled.length} handlings logged, out of order: ${outOfOrder.length}`,
  ];
  const violations = [
    ...lost.map((id) => `update ${id} acknowledged but never handled (${status.get(id)})`),
    ...unacked.map((id) => `update ${id} never acknowledged`),
    ...outOfOrder.map((o) => `out of order: ${o}`),
    ...unexplained.map((id) => `update ${id} handled to the end twice`),
  ];
  return { lines, violations };
}

/** One run: a fleet of bot processes, the staff, resellers and admins, the chaos, the reconciliation. */
async function scenario(fleetOf: (deps: Parameters<typeof singleFleet>[0]) => Fleet): Promise<number> {
  const catalog = await chaosCatalog();
  // Two providers, each behind faults of its own: main's share the run's generator (as before), the
  // backup has one of its own.
  const main = await faultyProvider({
    name: "main",
    catalog: catalog.catalog,
    mitraId: "chaos",
    secretKey: SECRET,
    timeoutMs: TIMEOUT_MS,
    random,
  });
  const backup = await faultyProvider({
    name: "backup",
    catalog: catalog.catalog,
    mitraId: "chaos-backup",
    secretKey: BACKUP_SECRET,
    timeoutMs: TIMEOUT_MS,
    random: fork("backup provider"),
  });
  const providers = [main, backup];
  const redis = await ownRedis();
  const fake = createFakeBotApi();
  await fake.start();
  const users: FakeUser[] = Array.from({ length: USERS }, (_, i) => ({
    id: 8000 + i,
    first_name: `Staff ${i}`,
    language_code: "en",
  }));
  const resellers: FakeUser[] = Array.from({ length: RESELLERS }, (_, i) => ({
    id: 7001 + i,
    first_name: `Reseller ${i}`,
    language_code: "en",
  }));
  const admins: FakeUser[] = [
    { id: 9001, first_name: "Admin", language_code: "en" },
    { id: 9002, first_name: "Admin Two", language_code: "en" },
  ];
  const env = {
    BOT_TOKEN: fake.token,
    BOT_API_ROOT: fake.url,
    TOPUP_BASE_URL: main.url,
    TOPUP_MITRA_ID: "chaos",
    TOPUP_SECRET_KEY: SECRET,
    TOPUP_TIMEOUT_MS: String(TIMEOUT_MS),
    TOPUP_PROVIDERS: PROVIDERS.join(","),
    TOPUP_BACKUP_BASE_URL: backup.url,
    TOPUP_BACKUP_MITRA_ID: "chaos-backup",
    TOPUP_BACKUP_SECRET_KEY: BACKUP_SECRET,
    TOPUP_BACKUP_TIMEOUT_MS: String(TIMEOUT_MS),
    CATALOG_FILE: catalog.file,
    REDIS_URL: redis.url,
    ALLOWED_USER_IDS: users.map((u) => u.id).join(","),
    RESELLER_IDS: [...resellers.map((u) => u.id), ...PARTNER_IDS].join(","),
    H2H_ENABLED: "true",
    H2H_RATE_LIMIT: "100000",
    PORT: String(await freePort()),
    ADMIN_IDS: admins.map((u) => u.id).join(","),
    // "update handled" lines (info) are what the member order is checked on.
    LOG_LEVEL: "info",
  };
  let running = true;
  const fleet = fleetOf({ env, fake, random, redis, running: () => running });
  const partners = await createPartners({
    redisUrl: redis.url,
    ids: PARTNER_IDS,
    adminId: admins[0]!.id,
    ports: () => fleet.ports(),
    fork,
    orders: PARTNER_ORDERS,
    timeoutMs: TIMEOUT_MS,
  });
  await fleet.start();
  const rests = await cutRests(redis.url, "topup:", REST_MS);

  // --- a process killed right after it sent a summary (an order's or a deposit's): Telegram has
  // the message, the process never learns it went out; another process (or the restart) handles
  // the update again and must show the same ref id ---
  const summaryKill = fork("summary kills");
  let killedAfterSummary = 0;
  const stopKillingAfterSummaries = fake.beforeAnswer(async (call) => {
    if (!running || call.method !== "sendMessage" || call.answer?.ok !== true) return;
    if (!/"(?:c|dc|rq):/.test(JSON.stringify(call.payload.reply_markup ?? {})) || summaryKill() >= 0.15) return;
    if (await fleet.killSender(call.via)) killedAfterSummary++;
  });

  // --- the chaos: kills at random moments, restarts, one Redis restart ---
  const chaosLoop = (async () => {
    while (running) await fleet.step();
  })();

  // --- the users: quick order, Confirm (sometimes twice), wait for an outcome, tap again if silent ---
  const confirmed = new Set<string>();
  const answered = new Set<string>();
  /** Orders whose last Confirm was answered "temporarily unavailable": they may stay drafts. */
  const leftResting = new Set<string>();
  let restingAnswers = 0;
  let doubled = 0;
  const outcomeFor = (refId: string) => (m: SentMessage) =>
    m.text.includes(`<code>${refId}</code>`) &&
    /Top-up successful|Order failed|Order not sent|Result unknown/.test(m.text);
  const perUser = Math.ceil(ORDERS / USERS);
  /** Every /order and /deposit a driver made, by chat and what names it (player id, note). */
  const asks: Ask[] = [];
  // --- the resellers: admins take deposits while resellers order from their saldo ---
  const resellerDriver = createResellerDriver(
    { fake, catalog: catalog.catalog, fork, kills: () => fleet.kills(), killNow: () => fleet.killNow(), asks },
    resellers,
    admins,
  );
  // --- resellers also ask for deposits by transfer, with a proof, approved or rejected by an admin ---
  await setPayInfo(fake, admins[0]!);
  const requestsDriver = createRequestsDriver({
    fake,
    run: resellerDriver.run,
    fork,
    kills: () => fleet.kills(),
    killNow: () => fleet.killNow(),
  });
  let resellersDone = false;
  const resellerWork = Promise.all(resellers.map((r) => resellerDriver.orderLoop(r, RESELLER_ORDERS))).finally(
    () => (resellersDone = true),
  );
  const requestWork = Promise.all(resellers.map((r) => requestsDriver.loop(r, admins, () => resellersDone)));
  const depositWork = Promise.all(admins.map((a, i) => resellerDriver.depositLoop(a, i, () => resellersDone)));
  await Promise.all([
    ...PARTNER_IDS.map((id) => partners.loop(id)),
    resellerWork,
    depositWork,
    requestWork,
    ...users.map(async (user, u) => {
      for (let i = 0; i < perUser && u * perUser + i < ORDERS; i++) {
        const player = `1234567${String(i).padStart(2, "0")}`;
        const isSummary = (m: SentMessage) =>
          /Please check your order/.test(m.text) && m.text.includes(`Player id: <code>${player}</code>`);
        // One /order: an update the bot acknowledged is never lost, so it is sent again only after
        // a long silence (then it is a second request, and may be a second order).
        const ask = { chat: user.id, key: player, sends: 0 };
        asks.push(ask);
        let summary: SentMessage | undefined;
        for (let attempt = 0; attempt < 3 && summary === undefined; attempt++) {
          fake.sendText(user, `/order FF70 ${player}`);
          ask.sends++;
          summary = await fake.waitForMessage(user.id, isSummary, 30_000).catch(() => undefined);
        }
        if (summary === undefined) throw new Error(`user ${user.id} never got a summary`);
        const refId = /<code>([A-Z0-9]+)<\/code>\n\n/.exec(summary.text)![1]!;
        const data = `c:${refId}`;
        let restingTaps = 0;
        for (let tap = 0; tap < 6 && !answered.has(refId); tap++) {
          const restingBefore = restingTold(fake, user.id);
          fake.tapButton(user, summary, data);
          confirmed.add(refId);
          if (tap === 0 && random() < 0.2) {
            fake.tapButton(user, summary, data);
            doubled++;
          }
          const told = fake.waitForMessage(user.id, outcomeFor(refId), 6000).then(
            () => "told" as const,
            () => undefined,
          );
          const rested = poll(fake, () => (restingTold(fake, user.id) > restingBefore ? "resting" : undefined), 6000);
          const got = (await Promise.race([told, rested])) ?? (await told) ?? (await rested);
          if (got === "resting") {
            // Every route of the product rests (nothing sent): tapped again a moment later, not
            // counted as one of the taps.
            leftResting.add(refId);
            restingAnswers++;
            if (++restingTaps <= MAX_RESTING_TAPS) tap--;
            await sleep(2000);
            continue;
          }
          leftResting.delete(refId);
          if (got !== undefined) answered.add(refId);
        }
        // Shown this order's summary again (its process died right after sending it, and the
        // update was handled again): the user presses that Confirm too.
        for (const ref of await confirmOtherSummaries(fake, user, summary, isSummary, "c")) confirmed.add(ref);
      }
    }),
  ]);
  running = false;
  stopKillingAfterSummaries();
  await chaosLoop;

  // --- let recovery settle everything, then read the ledger ---
  await fleet.ensureRunning();
  await sleep(TIMEOUT_MS + 7000);
  const storage = await createStorage({ redisUrl: redis.url, prefix: "topup:" });
  const books = createLedger(storage);
  // An admin settles some of the resellers' unknown orders (spent or released at settlement).
  // The orders the providers were sent (each sandbox records its order operation only, not the
  // bot's status queries about unknown orders, which it does not offer), each call mapped back to
  // its order: an attempt's ref id is the order's, or the order's with `R<n>`.
  const records = books.orders;
  const attributed = () => attributeCalls(providers, (ref) => records.get(ref));
  await resellerDriver.settleSome(books, await attributed());
  await sleep(1500);
  const updates = await reconcileUpdates(fake, redis.url, fleet.mode, fleet.outputs(), fleet.killed());
  await rests.stop();
  const stopCodes = await fleet.stop();
  const calls: ProviderCall[] = await attributed();
  const orderCalls = () => calls;
  const outputs = fleet.outputs();
  // CHAOS_LOGS=dir: every process's output in a file of its own (for a run that needs explaining).
  const logDir = process.env.CHAOS_LOGS;
  if (logDir !== undefined) {
    mkdirSync(logDir, { recursive: true });
    outputs.forEach((o, i) => writeFileSync(`${logDir}/${fleet.mode}-${String(i).padStart(2, "0")}.log`, o));
  }
  const ledger = new Map<string, OrderRecord>();
  for (const ref of new Set([...confirmed, ...orderCalls().map((c) => c.refId)])) {
    const order = await records.get(ref);
    if (order) ledger.set(ref, order);
  }
  const run = resellerDriver.run;
  const summaryDepositIds = new Set(
    fake.calls
      .filter((c) => c.method === "sendMessage")
      .flatMap((c) => [...JSON.stringify(c.payload ?? {}).matchAll(/"dc:([A-Z0-9]+)"/g)].map((m) => m[1]!)),
  );
  const allBooks = await readBooks(
    books,
    resellers.map((r) => r.id),
    [...run.orders.keys()],
    [...run.deposits.keys(), ...summaryDepositIds],
  );
  const { resellers: resellerBooks, partners: partnerBooks } = splitBooks(allBooks, PARTNER_IDS);
  const h2h = await partners.reconcile({
    books: partnerBooks,
    calls: orderCalls(),
    sns: snsByOrder(providers, orderCalls()),
    prices: resellerPrices(catalog.catalog),
    messagesTo: (chatId) => fake.messagesTo(chatId),
  });
  await storage.close();
  const oneEach = reconcileAsks({
    asks,
    calls: fake.calls,
    provider: orderCalls(),
    credited: new Set([...resellerBooks.deposits.values()].filter((d) => d.state === "done").map((d) => d.id)),
    killedAfterSummary,
  });
  // A rejected request is never credited: no statement line carries its id.
  const requests = requestsDriver.requests;
  const rejectedCredited = requests.rejectedIds.filter((id) =>
    [...resellerBooks.statements.values()].some((lines) => lines.some((m) => m.ref === id)),
  );
  const money = reconcileResellers({
    run,
    books: resellerBooks,
    calls: orderCalls(),
    prices: resellerPrices(catalog.catalog),
    summaryDepositIds,
    messagesTo: (chatId) => fake.messagesTo(chatId),
  });

  // --- reconcile: every order of the run against both providers' calls ---
  const everyOrder = new Map<string, OrderRecord>([...ledger, ...allBooks.orders]);
  const across = reconcileProviders({ calls: orderCalls(), orders: everyOrder });
  const { duplicates } = across;
  const callsPerRef = new Map<string, number>();
  for (const c of orderCalls()) callsPerRef.set(c.refId, (callsPerRef.get(c.refId) ?? 0) + 1);
  const unknownToLedger = [...callsPerRef.keys()].filter((ref) => !everyOrder.has(ref));
  const FINAL = new Set(["success", "failed", "unknown"]);
  const stateOf = (ref: string) => ledger.get(ref)?.state ?? "missing";
  // A draft whose last Confirm was answered "temporarily unavailable" was rightly never sent.
  const restingDrafts = [...confirmed].filter((ref) => stateOf(ref) === "draft" && leftResting.has(ref));
  const notFinal = [...confirmed].filter((ref) => !FINAL.has(stateOf(ref)) && !restingDrafts.includes(ref));
  const providerDidNotKnow = [...ledger.values()]
    .filter((o) => o.state === "success" && !callsPerRef.has(o.refId))
    .map((o) => o.refId);
  const states = { success: 0, failed: 0, unknown: 0 } as Record<string, number>;
  for (const ref of confirmed) {
    const state = ledger.get(ref)?.state ?? "missing";
    states[state] = (states[state] ?? 0) + 1;
  }
  const leaked = [SECRET, BACKUP_SECRET, ...partners.secrets()].some(
    (secret) => outputs.some((o) => o.includes(secret)) || fake.allOutgoingText().includes(secret),
  );
  const fleetProblems = [
    ...fleet.violations(),
    ...stopCodes.filter((c) => c !== 0).map((c) => `a process stopped at the end exited ${String(c)}, not 0`),
  ];

  const how =
    fleet.mode === "single"
      ? ""
      : fleet.mode === "webhook"
        ? `, webhook, ${fleet.size} processes behind a round-robin balancer`
        : `, long polling, ${fleet.size} processes (one polls, the others stand by)`;
  log(`chaos run (seed ${initialSeed}${how}): ${ORDERS} orders by ${USERS} users`);
  log(
    fleet.mode === "single"
      ? `  bot killed with SIGKILL: ${fleet.kills()} times (${fleet.aimedKills()} of them just after a Confirm); Redis restarted: ${fleet.redisRestarts()}; doubled taps: ${doubled}`
      : `  processes killed with SIGKILL: ${fleet.kills()} times (${fleet.aimedKills()} of them just after a Confirm or a deposit's Confirm); Redis restarted: ${fleet.redisRestarts()}; doubled taps: ${doubled}`,
  );
  for (const line of fleet.figures()) log(line);
  log(`  provider faults: main ${JSON.stringify(main.faults)}; backup ${JSON.stringify(backup.faults)}`);
  const told = fake.messagesTo(admins[0]!.id).map((m) => m.text);
  const restsOf = (p: string) => told.filter((t) => t.includes(`Provider ${p} is resting`)).length;
  const backOf = (p: string) => told.filter((t) => t.includes(`Provider ${p} answers again`)).length;
  log(
    `  rests (the admins told): ${PROVIDERS.map((p) => `${p} ${restsOf(p)} (back ${backOf(p)})`).join(", ")}; each cut to ${REST_MS / 1000} s (${rests.cuts()} cuts); staff Confirms answered "temporarily unavailable" (every route resting; tapped again): ${restingAnswers}, orders left drafts after it (never sent): ${restingDrafts.length}`,
  );
  log(`  confirmed orders: ${confirmed.size}; outcomes in the ledger: ${JSON.stringify(states)}`);
  log(
    `  provider calls: ${orderCalls().length} (${PROVIDERS.map((p) => `${p} ${orderCalls().filter((c) => c.provider === p).length}`).join(", ")}) for ${callsPerRef.size} orders`,
  );
  for (const line of across.lines) log(line);
  log(`  sent twice (duplicates): ${duplicates.length}`);
  log(`  provider saw, ledger does not know: ${unknownToLedger.length}`);
  log(`  confirmed but not final or unknown (missing): ${notFinal.length}`);
  log(`  success in the ledger the provider never saw: ${providerDidNotKnow.length}`);
  for (const line of updates.lines) log(line);
  for (const line of oneEach.lines) log(line);
  log(`  secret key in any output: ${leaked ? "YES" : "no"}`);
  for (const line of money.lines) log(line);
  for (const line of h2h.lines) log(line);
  log(
    `  deposit requests: ${requests.asked} asked, ${requests.proofs} proofs, ${requests.approved} approved (credited once each, in the deposits above), ` +
      `${requests.rejected} rejected (${rejectedCredited.length} of them credited); ${requests.doubled} doubled taps, ${requests.aimedKills} kills right after a tap; ` +
      `${requests.limited} resellers stopped by the limit of requests an hour (as the shop means)`,
  );
  await fake.stop();
  for (const p of providers) await p.close();
  await redis.stop();
  const bad =
    across.violations.length +
    unknownToLedger.length +
    notFinal.length +
    providerDidNotKnow.length +
    (leaked ? 1 : 0) +
    money.violations.length +
    rejectedCredited.length +
    oneEach.violations.length +
    h2h.violations.length +
    updates.violations.length +
    fleetProblems.length;
  if (bad > 0) {
    log(
      `MISMATCH: ${JSON.stringify({ duplicates, unknownToLedger, notFinal: notFinal.map((r) => [r, ledger.get(r)?.state]), providerDidNotKnow })}`,
    );
    for (const v of across.violations) log(`PROVIDERS: ${v}`);
    for (const v of money.violations) log(`RESELLER MONEY: ${v}`);
    for (const id of rejectedCredited) log(`DEPOSIT REQUESTS: ${id} was rejected, and credited`);
    for (const v of oneEach.violations) log(`ONE REQUEST, ONE ID: ${v}`);
    for (const v of h2h.violations) log(`PARTNERS: ${v}`);
    for (const v of updates.violations) log(`UPDATES: ${v}`);
    for (const v of fleetProblems) log(`PROCESSES: ${v}`);
  } else {
    log(
      "OK: 0 duplicates, 0 missing, 0 updates lost or out of order; every reseller's and partner's money accounted for",
    );
  }
  runLines.push(
    `- seed ${initialSeed}${how === "" ? "" : ` (${fleet.mode})`}: ${fleet.kills()} SIGKILLs, ${killedAfterSummary} right after a summary was sent; ` +
      `${oneEach.lines[0]!.match(/shown more than one summary: (\d+)/)?.[1] ?? "?"} requests shown a second summary, every Confirm pressed; ` +
      `${orderCalls().length} provider calls for ${callsPerRef.size} orders; ${duplicates.length} duplicates; ` +
      `${bad === 0 ? "OK" : `${bad} violations`}`,
  );
  return bad;
}

/** docs/chaos.md: the classic run's part and the part of the runs with several processes, each kept by the other. */
function writeDoc(part: "single" | "replicas", text: string): void {
  let current = "";
  try {
    current = readFileSync(DOC, "utf8");
  } catch {
    current = "";
  }
  const at = current.indexOf(REPLICAS_HEADING);
  const single = at < 0 ? current : current.slice(0, at);
  const replicas = at < 0 ? "" : current.slice(at);
  writeFileSync(DOC, part === "single" ? `${text.trimEnd()}\n${replicas}` : `${single.trimEnd()}\n\n${text}`);
}

/** The runs in a row (`--runs N`), when there were several, for docs/chaos.md. */
const runsList = (command: string) =>
  RUNS <= 1
    ? ""
    : `${RUNS} runs in a row (\`${command} --runs ${RUNS}\`), each with its seed:\n\n${runLines.join("\n")}\n\nThe last one in full:\n\n`;

async function main() {
  const today = `${new Date().toISOString().slice(0, 10)}, Node ${process.version}`;
  let replay = "";
  for (let run = 0; run < RUNS; run++) {
    seed = initialSeed = firstSeed + run * 7919;
    report = [];
    if (run > 0) process.stdout.write("\n");
    if (REPLICAS <= 1) {
      if ((await scenario((deps) => singleFleet(deps))) > 0) {
        log(`replay with CHAOS_SEED=${initialSeed}`);
        process.exit(1);
      }
      replay = `replay it with \`CHAOS_SEED=${initialSeed} npm run chaos\``;
      continue;
    }
    const badWebhook = await scenario((deps) => replicaFleet(deps, "webhook", REPLICAS));
    log("");
    const badPolling = await scenario((deps) => replicaFleet(deps, "polling", REPLICAS));
    if (badWebhook + badPolling > 0) {
      log(`replay with CHAOS_SEED=${initialSeed} npm run chaos -- --replicas ${REPLICAS}`);
      process.exit(1);
    }
    replay = `replay it with \`CHAOS_SEED=${initialSeed} npm run chaos -- --replicas ${REPLICAS}\``;
  }
  const full = `\`\`\`\n${report.join("\n")}\n\`\`\`\n\n`;
  if (REPLICAS <= 1) {
    writeDoc(
      "single",
      `# Fault injection\n\nCommand: \`npm run chaos\`. Last run ${today}. ${runsList("npm run chaos --")}` +
        `${replay}:\n\n${full}${SINGLE_TEXT}`,
    );
  } else {
    writeDoc(
      "replicas",
      `${REPLICAS_HEADING.trimStart()}\n\nCommand: \`npm run chaos -- --replicas ${REPLICAS}\`. Last run ${today}. ` +
        `${runsList(`npm run chaos -- --replicas ${REPLICAS}`)}${replay}:\n\n${full}${REPLICAS_TEXT}`,
    );
  }
  process.exit(0);
}

const SINGLE_TEXT =
  "What happens: the real bot process (`node dist/main.js`) takes orders from several users through a fake Bot API that redelivers\n" +
  "unconfirmed updates as Telegram does; it is killed with SIGKILL and restarted every 0.15 to 0.9 s (before Confirm, during\n" +
  "the provider call, after the answer, during the reply: wherever the moment falls); Redis (with append-only persistence) is\n" +
  "restarted once; the provider answers 502s, refusals (status 0), malformed bodies after taking the order, answers after the\n" +
  "timeout, and resets; one Confirm in five is tapped twice, and a user taps again when no answer comes. Then every ref_id the\n" +
  "provider saw is looked up in the ledger, calls per ref_id are counted, and every confirmed order must be success, failed or\n" +
  "unknown. An unknown order is one an admin settles with /pending after checking the provider's dashboard.\n\n" +
  "Two providers (chaos/providers.ts): `TOPUP_PROVIDERS=main,backup`, each a sandbox behind random faults of its own. Main\n" +
  "also refuses about one order in six with a failover code (`product/unavailable`; now and then `balance/insufficient`,\n" +
  "its deposit empty, which rests it), so orders go on to the backup; the backup refuses with the same codes and stalls\n" +
  "(answers after the timeout, having taken the order or not). The run's catalogue (catalog.json with routes) sells ML86\n" +
  "as MLBB86 at the backup and ML172 at the backup first (MLBB172), then at main; the other products at main, then at the\n" +
  "backup; neither sells ML257. A provider rests after three results in a row that were not known or an empty deposit: the\n" +
  "bot's five minutes are cut to `CHAOS_REST_MS` (default 15000; 0 leaves them as they are) by bringing the end of the\n" +
  "rest written in Redis forward, as if the minutes had passed, so rests, trial orders and returns happen several times;\n" +
  'a Confirm while every route of the product rests is answered "temporarily unavailable" and tapped again 2 s later\n' +
  "(not counted among the taps; an order whose last Confirm had that answer may stay a draft, and is never sent).\n" +
  "Reconciled from outside: each sandbox's calls are mapped back to their order (an attempt's ref id is the order's, or\n" +
  "the order's with `R<n>`); each attempt ref id sent once, to one provider; every call an attempt the ledger records,\n" +
  "at that provider; at most one provider carried out an order, never at an attempt the ledger records as refused; a\n" +
  "success in the ledger carried out by exactly one provider, a failure or a draft by none; the resellers' and\n" +
  "partners' money against what either provider carried out. The counts: failovers (orders that went on after a\n" +
  "refusal) and rests (the admins' notices).\n\n" +
  "Resellers (chaos/resellers.ts), in the same run and under the same kills and faults: two admins take deposits\n" +
  "(`/deposit USER_ID AMOUNT NOTE`, now and then a correction downwards) and tap Confirm, some twice at once, some with the bot\n" +
  'SIGKILLed a few milliseconds after the tap, some pressed again after they were answered; a Confirm answered "temporarily\n' +
  'unavailable" (Redis restarting: the bot handles that tap once Redis is back) is tapped again. The resellers start with a\n' +
  "small saldo and order products at their\n" +
  "reseller price; neither provider sells ML257 (status 0 from both: the hold is released). A Confirm with too little saldo must be\n" +
  'refused ("Not enough saldo"): three in ten refused resellers give up, the others wait for a deposit and tap again. After\n' +
  "recovery, an admin settles about two thirds of the resellers' unknown orders as the provider's record says (success:\n" +
  "spent; failed: released), some by both admins at once; the rest stay unknown, held.\n\n" +
  "Then the ledger is read as an auditor would (`createLedger(...)`: wallets, whole statements, orders, deposits) and for every\n" +
  "reseller: the books balance (saldo = deposits + corrections − spent − held, saldo ≥ 0, held ≥ 0); the statement replays to\n" +
  "the wallet line by line; no order has two holds, two spends or releases, or both a spend and a release (double spends), or\n" +
  "two releases (double refunds); every hold is matched to its order's state (success: hold + spend; failed: hold + release;\n" +
  "unknown: hold only; never claimed: nothing, and never sent); every deposit id is credited at most once, and every one the\n" +
  "admin saw answered is; the money spent is the reseller prices of the orders the provider carried out and the ledger records\n" +
  "as success, the money held the prices of the orders still unknown; and deposits + corrections = saldo + held + spent over all\n" +
  "resellers. Rupiah unaccounted is the sum of every difference found. Any violation makes the run exit non-zero.\n\n" +
  'The "note" line, when there is one, is not about money: a reseller sent "Deposit credited" twice (the bot died after\n' +
  "sending it and before recording that it did, so the look for untold deposits sent it again) or never (the bot died between\n" +
  'the credit and the message, a later tap only answers "already credited", and the run ended before the look for untold\n' +
  "deposits, at start and then every few seconds in the process doing the background work, came round). It does not fail\n" +
  "the run.\n\n" +
  "Partners (chaos/partners.ts): two resellers with an H2H key and a saldo (written straight into Redis) order by HTTP from\n" +
  "their own systems during the kills, to the processes' `PORT`s in turn. A refused connection, a cut answer or a 5xx is sent\n" +
  "again with the same ref id (a used one's status is then asked); one ref id in five is sent twice at the same moment, one\n" +
  'in five again on purpose after its answer ("ref-id-already-exists"). Reconciled through the ledger\'s `pr:USER:REF` keys:\n' +
  "each partner ref id at most one order and one call per attempt, every status-1 answer carried out once by one provider with\n" +
  "its sn, and each partner's saldo against its statement and orders as the resellers' above.\n\n" +
  "One request, one id: one time in seven, the process that sent a summary (an order's or a deposit's) is SIGKILLed before\n" +
  "the fake Telegram answers that sendMessage: the user has the summary, the process never learned it went out, and the update\n" +
  "is handled again by the restarted process. Every request (/order, /deposit) is sent once (again only after 30 s without an\n" +
  "answer, which would make it a second request); a user shown a second summary for it presses its Confirm too (a reseller\n" +
  "who gave the order up does not). Reconciled from the fake's record of every summary sent: all the summaries of one request\n" +
  "carry one ref id (one deposit id), and one request became at most one order at the provider (one credited deposit).\n\n" +
  "A seed fixes each actor's choices (every reseller, admin and the settlement draw from a generator of their own); the kills,\n" +
  "the provider's faults and the staff share one generator whose draws follow the timing, so a replay is close, not identical.\n" +
  "\nEvery update the fake Telegram handed out is reconciled too: acknowledged (confirmed by a getUpdates offset), marked done\n" +
  'in the update stream (src/updates/), handled to the end once by the bot\'s own "update handled" lines (a lower bound of\n' +
  "doubles: a line written a moment before a SIGKILL can be lost), and in each member's order (those lines by time, per lane).\n" +
  "A restarted process takes over at once what the killed one held (its turn to poll, its lanes, its pending updates, the\n" +
  "background work): Redis's CLIENT LIST shows that none of the killed process's connections is open any more.\n";

const REPLICAS_TEXT =
  "What happens: the same users, resellers and admins as above, against three processes of the compiled bot on one Redis\n" +
  "(with append-only persistence), twice. In webhook mode the fake Telegram posts every update to a round-robin balancer\n" +
  "written in the run (test/e2e/round-robin.ts), which hands each POST to the next process whatever it is doing; a POST\n" +
  "answered with anything but 200 (a killed process: 502; a stopping one: 503) is posted again 150 ms later, the updates of one\n" +
  "chat one at a time, as Telegram does; one update in twenty is posted again after its 200 (Telegram did not get the answer).\n" +
  "In long-polling mode one process polls and two stand by. Every 1 to 3 s a random process is SIGKILLed (in polling mode the\n" +
  "poller one time in two) and started again 0.3 to 1.8 s later; drivers also kill a random process just after a Confirm, and\n" +
  "the process that sent a summary right after sending it (one time in seven: each process reaches the fake Telegram under a\n" +
  "name of its own, `BOT_API_ROOT=<fake>/via/<n>`, so the fake knows whose call it answers); once,\n" +
  "every process in turn gets SIGTERM and is started again (a rolling restart: each must exit 0 within 10 s); once, Redis is\n" +
  "restarted. Double taps, old buttons pressed again and redelivered updates as above.\n\n" +
  "Reconciled from outside, besides orders and money as above: every update handed out must be acknowledged (a 200, or a\n" +
  "getUpdates offset past it) and marked done in the update stream (0 lost); handled to the end once by the processes' own\n" +
  '"update handled" lines (0 twice; a lower bound, a line written just before a SIGKILL can be lost); each chat member\'s\n' +
  'updates handled in update_id order whichever process took them (those lines by time, per lane). "Handlings started again"\n' +
  "counts updates whose process died in the middle of them: another process handles them again from the start (their answer\n" +
  "may reach the user twice; orders and money have their own once-only guards, checked above). The takeover figure is the time\n" +
  "from the poller's SIGKILL to the next getUpdates of another process (the contract says within 15 s).\n";

main().catch((err: unknown) => {
  process.stderr.write(`chaos failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
