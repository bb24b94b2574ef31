/**
 * The H2H API (#31), one phase of `npm run bench`: partners' systems ordering by HTTP.
 *
 * - **shop**: one bot process (`node dist/main.js`, as the other rounds run it) with H2H_ENABLED, a
 *   few partners (resellers with a key and a saldo), each order a distinct ref id, `H2H_IN_FLIGHT`
 *   requests in flight over keep-alive connections: orders/s, p50/p95 of the whole H2H request and
 *   Redis commands per order (INFO on the shared Redis, before and after: server-wide figures);
 * - **sandbox direct**: the same load straight at the sandbox provider (real HTTP, no latency), in
 *   the same run: what the provider itself takes, so the difference is what the shop adds;
 * - **chain**: a second bot process whose provider (TOPUP_BASE_URL) is the first one's H2H API, with
 *   its own partners: partner → shop B → shop A → sandbox.
 *
 * The keys and saldos are written from here through the shop's own stores (src/access/partners.ts,
 * the ledger), under the bot's key prefix, as `/apikey` and a confirmed deposit write them.
 * Settings (settings.ts): BENCH_H2H=0 leaves it out, BENCH_H2H_ORDERS (default 2000),
 * BENCH_H2H_WARM (default 200), BENCH_H2H_IN_FLIGHT (default 16), BENCH_H2H_PARTNERS (default 4).
 */
import { Agent, request } from "undici";
import { createPartnerStore, type IssuedKey } from "../src/access/partners.js";
import { createLedger } from "../src/ledger/create-ledger.js";
import { createStorage } from "../src/storage/storage.js";
import { createFakeBotApi, type FakeBotApi } from "../test/e2e/fake-bot-api.js";
import { writePastDeposit } from "../test/helpers/ledger-history.js";
import { freePort } from "../test/helpers/redis.js";
import { botEnv, READY, type Harness } from "./bots.js";
import { startProc, stopProc, type Proc } from "./processes.js";
import { commandsBetween, commandsByName, redisInfo } from "./redis-info.js";
import { H2H_IN_FLIGHT, H2H_ORDERS, H2H_PARTNERS, H2H_WARM, MAIN, REDIS_URL, RUN_PREFIX } from "./settings.js";
import { f, percentile } from "./stats.js";

const PLAYER = "12345678(1234)";
const ITEM = "ML86";
const ADMIN = 630_000;
const SALDO = 1_000_000_000_000;

/** One load: `orders` requests, `inFlight` at a time. */
export interface H2hLoad {
  orders: number;
  seconds: number;
  ordersPerSecond: number;
  /** Each request's time, ms, request sent to body read. */
  latency: number[];
  /** Answers that were not `status: 1` (or not HTTP 200). */
  failed: number;
  /** The first such answer, to say why. */
  firstFailure?: string;
}

export interface H2hResult {
  partners: number;
  inFlight: number;
  warm: number;
  direct: H2hLoad;
  shop: H2hLoad & { commandsPerOrder: number; byName: Record<string, number> };
  chain: H2hLoad & { commandsPerOrder: number };
  /**
   * The same paths one request at a time (no queueing behind other requests): the latency the shop
   * itself adds to its provider's time.
   */
  oneAtATime: { direct: H2hLoad; shop: H2hLoad; chain: H2hLoad };
}

/** How many orders each one-at-a-time line sends. */
const ONE_AT_A_TIME = 300;

const p = (xs: number[], q: number) => percentile(xs, q);

/** `count` GETs of `url(i)`, `inFlight` at a time, over the agent's keep-alive connections. */
async function load(agent: Agent, url: (i: number) => string, count: number, inFlight: number): Promise<H2hLoad> {
  const latency: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  let next = 0;
  const began = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t = performance.now();
      const res = await request(url(i), { dispatcher: agent });
      const text = await res.body.text();
      latency.push(performance.now() - t);
      if (res.statusCode !== 200 || (JSON.parse(text) as { status?: number }).status !== 1) {
        failed++;
        firstFailure ??= `HTTP ${res.statusCode} ${text.slice(0, 300)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = (performance.now() - began) / 1000;
  return { orders: count, seconds, ordersPerSecond: count / seconds, latency, failed, firstFailure };
}

const orderUrl = (base: string, key: { mitraId: string; secretKey: string }, ref: string) =>
  `${base}/v1/transaction/partner?${new URLSearchParams({
    destination: PLAYER,
    ref_id: ref,
    item_code: ITEM,
    mitra_id: key.mitraId,
    secret_key: key.secretKey,
  }).toString()}`;

/** Keys and saldos for `users` in the shop under `prefix`, through its own stores. */
async function partners(prefix: string, users: number[]): Promise<IssuedKey[]> {
  const storage = await createStorage({ redisUrl: REDIS_URL, prefix });
  try {
    const store = createPartnerStore(storage);
    const { wallets } = createLedger(storage);
    const keys: IssuedKey[] = [];
    for (const user of users) {
      keys.push(await store.issue(user, Date.now()));
      const at = new Date().toISOString();
      const deposit = {
        id: `DPH2H${user}`,
        resellerId: user,
        amount: SALDO,
        note: "bench",
        adminId: ADMIN,
        chatId: ADMIN,
      };
      await writePastDeposit(wallets, { ...deposit, createdAt: at }, { at });
    }
    return keys;
  } finally {
    await storage.close();
  }
}

interface Shop {
  base: string;
  proc: Proc;
  fake: FakeBotApi;
}

async function startShop(
  h: Harness,
  prefix: string,
  resellers: number[],
  provider?: { url: string; key: IssuedKey },
): Promise<Shop> {
  const fake = createFakeBotApi();
  await fake.start();
  const port = await freePort();
  const env = {
    ...botEnv(fake, prefix, [], h.sandbox),
    ALLOWED_USER_IDS: String(ADMIN + 1),
    ADMIN_IDS: String(ADMIN),
    RESELLER_IDS: resellers.join(","),
    H2H_ENABLED: "true",
    H2H_RATE_LIMIT: "100000",
    PORT: String(port),
    ...(provider === undefined
      ? {}
      : {
          TOPUP_BASE_URL: provider.url,
          TOPUP_MITRA_ID: provider.key.mitraId,
          TOPUP_SECRET_KEY: provider.key.secretKey,
        }),
  };
  const proc = startProc(MAIN, env, { probe: false });
  await proc.waitOutput(READY.ours);
  await proc.waitOutput(/H2H API on/);
  return { base: `http://127.0.0.1:${port}`, proc, fake };
}

async function stopShop(shop: Shop): Promise<void> {
  await stopProc(shop.proc);
  await shop.fake.stop();
}

/** Warm-up, then the timed load: the whole H2H request, and Redis commands per order. */
async function timed(h: Harness, agent: Agent, url: (i: number) => string) {
  await load(agent, url, H2H_WARM, H2H_IN_FLIGHT);
  const before = await redisInfo(h.redis);
  const run = await load(agent, (i) => url(H2H_WARM + i), H2H_ORDERS, H2H_IN_FLIGHT);
  const after = await redisInfo(h.redis);
  return {
    ...run,
    commandsPerOrder: commandsBetween(before, after) / H2H_ORDERS,
    byName: commandsByName(before, after),
  };
}

export async function h2h(h: Harness, log: (line: string) => void): Promise<H2hResult> {
  const agent = new Agent({ connections: H2H_IN_FLIGHT * 2, keepAliveTimeout: 30_000 });
  const users = Array.from({ length: H2H_PARTNERS }, (_, i) => 620_001 + i);
  const shopBAtA = 620_100;
  const usersB = Array.from({ length: H2H_PARTNERS }, (_, i) => 620_201 + i);
  const prefixA = `${RUN_PREFIX}h2h-a:`;
  const prefixB = `${RUN_PREFIX}h2h-b:`;
  const run = `${Date.now()}`;
  const shops: Shop[] = [];
  try {
    // The provider alone, the same way: the bench's own sandbox, its own mitra id.
    const sandboxKey = { mitraId: "bench", secretKey: "bench-secret" };
    const direct = await timed(h, agent, (i) => orderUrl(h.sandbox.url, sandboxKey, `HD${run}-${i}`));
    const directOne = await load(agent, (i) => orderUrl(h.sandbox.url, sandboxKey, `HD1${run}-${i}`), ONE_AT_A_TIME, 1);
    log(
      `  sandbox direct: ${f(direct.ordersPerSecond)} orders/s, p50/p95 ${f(p(direct.latency, 50), 2)}/${f(p(direct.latency, 95), 2)} ms`,
    );

    const keysA = await partners(prefixA, [...users, shopBAtA]);
    const shopA = await startShop(h, prefixA, [...users, shopBAtA]);
    shops.push(shopA);
    const byPartner = (base: string, keys: IssuedKey[], tag: string) => (i: number) =>
      orderUrl(base, keys[i % H2H_PARTNERS]!, `${tag}${run}-${i}`);
    const shop = await timed(h, agent, byPartner(shopA.base, keysA, "HA"));
    const shopOne = await load(agent, byPartner(shopA.base, keysA, "HA1"), ONE_AT_A_TIME, 1);
    log(
      `  one shop: ${f(shop.ordersPerSecond)} orders/s, p50/p95 ${f(p(shop.latency, 50), 2)}/${f(p(shop.latency, 95), 2)} ms, ` +
        `${f(shop.commandsPerOrder, 1)} Redis commands/order${shop.failed > 0 ? `, ${shop.failed} failed: ${shop.firstFailure}` : ""}`,
    );

    const keysB = await partners(prefixB, usersB);
    const shopB = await startShop(h, prefixB, usersB, { url: shopA.base, key: keysA[H2H_PARTNERS]! });
    shops.push(shopB);
    const chain = await timed(h, agent, byPartner(shopB.base, keysB, "HB"));
    const chainOne = await load(agent, byPartner(shopB.base, keysB, "HB1"), ONE_AT_A_TIME, 1);
    log(
      `  chain B → A → sandbox: ${f(chain.ordersPerSecond)} orders/s, p50/p95 ${f(p(chain.latency, 50), 2)}/${f(p(chain.latency, 95), 2)} ms, ` +
        `${f(chain.commandsPerOrder, 1)} Redis commands/order${chain.failed > 0 ? `, ${chain.failed} failed: ${chain.firstFailure}` : ""}`,
    );
    log(
      `  one at a time: sandbox ${f(p(directOne.latency, 50), 2)}/${f(p(directOne.latency, 95), 2)} ms, ` +
        `one shop ${f(p(shopOne.latency, 50), 2)}/${f(p(shopOne.latency, 95), 2)} ms, chain ${f(p(chainOne.latency, 50), 2)}/${f(p(chainOne.latency, 95), 2)} ms`,
    );
    return {
      partners: H2H_PARTNERS,
      inFlight: H2H_IN_FLIGHT,
      warm: H2H_WARM,
      direct,
      shop,
      chain,
      oneAtATime: { direct: directOne, shop: shopOne, chain: chainOne },
    };
  } finally {
    for (const s of shops.reverse()) await stopShop(s).catch(() => undefined);
    await agent.close();
  }
}
