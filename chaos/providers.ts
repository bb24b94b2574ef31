/**
 * The providers of `npm run chaos`: two sandboxes, `main` and `backup`, each behind random faults of
 * its own, a catalogue whose products go to both (some under another code at the backup, one with
 * the backup first), and the reconciliation across them from outside: every call either sandbox
 * received, mapped back to its order through the attempt's ref id (`${refId}R<n>`), against the
 * ledger.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCatalog, routesOf, type Catalog } from "../src/catalog/catalog.js";
import { currentAttempt, type OrderRecord } from "../src/orders/order.js";
import { attemptBase } from "../src/orders/ref-id.js";
import { luaScript } from "../src/storage/redis.js";
import { createStorage } from "../src/storage/storage.js";
import { createSandboxProvider, type SandboxCall } from "../src/topup/sandbox.js";
import { NOT_AT_PROVIDER } from "./resellers.js";

/** The shop's providers, in the order of preference (TOPUP_PROVIDERS). */
export const PROVIDERS = ["main", "backup"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/**
 * One call a sandbox received, mapped back to its order: `refId` is the order's ref id (what the
 * users, the ledger and the books know), `attemptRef` the ref_id the provider was sent.
 */
export interface ProviderCall extends SandboxCall {
  provider: ProviderName;
  attemptRef: string;
}

/**
 * Routes written into the run's catalogue: ML86 is MLBB86 at the backup, ML172 goes to the backup
 * first (MLBB172) and to main after it; the other products go to main, then to the backup, under
 * their own code.
 */
const ROUTES: Readonly<Record<string, ReadonlyArray<{ provider: ProviderName; code: string }>>> = {
  ML86: [
    { provider: "main", code: "ML86" },
    { provider: "backup", code: "MLBB86" },
  ],
  ML172: [
    { provider: "backup", code: "MLBB172" },
    { provider: "main", code: "ML172" },
  ],
};

/** catalog.json with the run's routes, written to a file of its own (CATALOG_FILE of the bot). */
export async function chaosCatalog(): Promise<{ file: string; catalog: Catalog }> {
  const raw = JSON.parse(readFileSync("catalog.json", "utf8")) as {
    games: Array<{ products: Array<{ code: string; routes?: unknown }> }>;
  };
  for (const game of raw.games)
    for (const product of game.products) if (ROUTES[product.code] !== undefined) product.routes = ROUTES[product.code];
  const file = join(tmpdir(), `chaos-catalog-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(raw, null, 2));
  const loaded = await loadCatalog(file, PROVIDERS);
  if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
  return { file, catalog: loaded.catalog };
}

const json = { "content-type": "application/json" };
const refusal = (code: string, msg: string) => JSON.stringify({ status: 0, error_code: code, error_msg: msg });

/**
 * A provider as the bot sees it: a sandbox behind random faults. Some faults happen after the
 * sandbox took the order (the provider has it, the bot cannot know), some before. `main` answers
 * 502s, refusals with failover codes (now and then "balance/insufficient", an empty deposit),
 * malformed bodies, late answers and resets; `backup` refuses with failover codes and stalls
 * (answers after the timeout, having taken the order or not).
 */
export async function faultyProvider(opts: {
  name: ProviderName;
  catalog: Catalog;
  mitraId: string;
  secretKey: string;
  timeoutMs: number;
  random: () => number;
}) {
  const { name, random, timeoutMs } = opts;
  const sandbox = createSandboxProvider({
    mitraId: opts.mitraId,
    secretKey: opts.secretKey,
    // Neither provider sells every product of the catalogue: they refuse those (product/not-found).
    products: opts.catalog.games.flatMap((g) =>
      g.products
        .filter((p) => !NOT_AT_PROVIDER.has(p.code))
        .flatMap((p) => {
          const route = routesOf(p, PROVIDERS).find((r) => r.provider === name);
          return route === undefined ? [] : [{ code: route.code, name: p.name, priceRp: (p.price ?? 10000) - 500 }];
        }),
    ),
    initialBalance: 1_000_000_000,
  });
  await sandbox.listen(0, "127.0.0.1");
  const faults: Record<string, number> =
    name === "main"
      ? { ok: 0, http502: 0, refusedBefore: 0, emptyBefore: 0, malformedAfter: 0, slowAfter: 0, resetAfter: 0 }
      : { ok: 0, refusedBefore: 0, emptyBefore: 0, stallBefore: 0, stallAfter: 0 };
  const count = (k: string) => (faults[k] = (faults[k] ?? 0) + 1);
  /** The sn of every order the sandbox carried out, by the ref id it was sent, as it answered. */
  const sns = new Map<string, string>();
  const late = (res: ServerResponse, then: () => void) => setTimeout(() => res.destroyed || then(), timeoutMs * 2);
  const proxy = createServer((req, res) => {
    const roll = random();
    const forward = (then: (status: number, body: string) => void) => {
      const up = new URL(sandbox.url);
      const r = httpRequest({ host: up.hostname, port: up.port, path: req.url, method: "GET" }, (answer) => {
        let body = "";
        answer.on("data", (c: Buffer) => (body += c.toString()));
        answer.on("end", () => {
          const sn = /"ref_id":"([^"]+)"[\s\S]*"sn":"([^"]*)"/.exec(body) ?? [];
          if (sn[1] !== undefined) sns.set(sn[1], sn[2]!);
          then(answer.statusCode ?? 200, body);
        });
      });
      r.end();
    };
    const answerNow = (status: number, body: string) => {
      count("ok");
      setTimeout(
        () => {
          if (res.destroyed) return;
          res.writeHead(status, json);
          res.end(body);
        },
        Math.floor(random() * 300),
      );
    };
    // Refusals the provider means (status 0 with a failover code): nothing was ordered there.
    const refuse = (kind: "refusedBefore" | "emptyBefore") => {
      count(kind);
      res.writeHead(200, json);
      res.end(
        kind === "emptyBefore"
          ? refusal("balance/insufficient", "insufficient balance")
          : refusal("product/unavailable", "product is temporarily unavailable"),
      );
    };
    if (name === "backup") {
      if (roll < 0.08) return refuse("refusedBefore");
      if (roll < 0.1) return refuse("emptyBefore");
      if (roll < 0.13) {
        // Stalls before taking the order: a gateway timeout long after the bot gave up.
        count("stallBefore");
        return void late(res, () => {
          res.writeHead(504, { "content-type": "text/html" });
          res.end("<html>504 Gateway Timeout</html>");
        });
      }
      return forward((status, body) => {
        if (roll < 0.2) {
          count("stallAfter");
          return void late(res, () => res.end(body));
        }
        answerNow(status, body);
      });
    }
    if (roll < 0.08) {
      count("http502");
      res.writeHead(502, { "content-type": "text/html" });
      return void res.end("<html>502 Bad Gateway</html>");
    }
    if (roll > 0.985) return refuse("emptyBefore");
    if (roll > 0.84) return refuse("refusedBefore");
    forward((status, body) => {
      if (roll < 0.14) {
        count("malformedAfter");
        res.writeHead(200, json);
        return void res.end('{"status":1,"data":{"trx_id":');
      }
      if (roll < 0.2) {
        count("slowAfter");
        return void late(res, () => res.end(body));
      }
      if (roll < 0.24) {
        count("resetAfter");
        return void req.socket.destroy();
      }
      answerNow(status, body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    name,
    sandbox,
    faults,
    sns,
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    async close() {
      await sandbox.close();
      proxy.closeAllConnections();
      proxy.close();
    },
  };
}

export type FaultyProvider = Awaited<ReturnType<typeof faultyProvider>>;

// KEYS: a provider's rest state; ARGV: the latest end of a rest (ms)
const CUT = luaScript(`
local s = redis.call('HMGET', KEYS[1], 'r', 'u')
if s[1] == '1' and tonumber(s[2] or '0') > tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'u', ARGV[1])
  return 1
end
return 0
`);

/**
 * Cuts every provider's rest to `restMs` (the bot rests a provider five minutes, most of a run):
 * twice a second the end of a rest written in Redis (`provider-rest:<name>`) is brought forward, as
 * if the minutes had passed, so that rests, trial orders and returns happen several times in a
 * run. `restMs` 0: rests are left as the bot sets them.
 */
export async function cutRests(redisUrl: string, prefix: string, restMs: number) {
  let cuts = 0;
  if (restMs <= 0) return { cuts: () => cuts, stop: async () => undefined };
  const storage = await createStorage({ redisUrl, prefix });
  if (storage.kind !== "redis") throw new Error("redis expected");
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const p of PROVIDERS) {
        // Redis restarts once in a run: a tick that fails is simply skipped.
        const cut = await CUT(storage.redis, [`${prefix}provider-rest:${p}`], [Date.now() + restMs]).catch(() => 0);
        if (cut === 1) cuts++;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  return {
    cuts: () => cuts,
    async stop() {
      running = false;
      await loop;
      await storage.close();
    },
  };
}

/**
 * Every call the sandboxes received, each mapped to the order it was an attempt of: the ref id
 * itself when the ledger has an order of that id (a first attempt), else the id without its
 * `R<n>` suffix. A call whose order the ledger does not know keeps its own ref id.
 */
export async function attributeCalls(
  providers: readonly FaultyProvider[],
  orderOf: (refId: string) => Promise<OrderRecord | undefined>,
): Promise<ProviderCall[]> {
  const known = new Map<string, string | undefined>();
  const out: ProviderCall[] = [];
  for (const p of providers)
    for (const c of p.sandbox.calls) {
      if (!known.has(c.refId)) {
        let found: string | undefined;
        for (const candidate of attemptBase(c.refId))
          if ((await orderOf(candidate)) !== undefined) {
            found = candidate;
            break;
          }
        known.set(c.refId, found);
      }
      out.push({ ...c, provider: p.name, attemptRef: c.refId, refId: known.get(c.refId) ?? c.refId });
    }
  return out;
}

/** The sn of every order carried out, by the order's ref id (whichever provider carried it out). */
export function snsByOrder(providers: readonly FaultyProvider[], calls: readonly ProviderCall[]): Map<string, string> {
  const orderOf = new Map(calls.map((c) => [`${c.provider} ${c.attemptRef}`, c.refId]));
  const out = new Map<string, string>();
  for (const p of providers) for (const [ref, sn] of p.sns) out.set(orderOf.get(`${p.name} ${ref}`) ?? ref, sn);
  return out;
}

/**
 * The orders against both providers' calls: each attempt ref id sent once, to one provider; at
 * most one provider carried out an order, and only at the attempt the ledger says it is at (never
 * at one it records as refused); a success in the ledger was carried out by exactly one provider,
 * a failure by none, a draft by none; every call is an attempt the ledger records, at that provider. Counts the
 * orders that went on to another provider.
 */
export function reconcileProviders(input: {
  calls: readonly ProviderCall[];
  /** Every order of the run the ledger has, by ref id. */
  orders: ReadonlyMap<string, OrderRecord>;
}): { lines: string[]; violations: string[]; duplicates: string[] } {
  const v: string[] = [];
  const byAttempt = new Map<string, ProviderCall[]>();
  for (const c of input.calls) byAttempt.set(c.attemptRef, [...(byAttempt.get(c.attemptRef) ?? []), c]);
  const duplicates = [...byAttempt].filter(([, list]) => list.length > 1).map(([ref]) => ref);
  for (const ref of duplicates)
    v.push(
      `attempt ${ref} sent ${byAttempt.get(ref)!.length} times (${byAttempt
        .get(ref)!
        .map((c) => c.provider)
        .join(", ")})`,
    );
  const byOrder = new Map<string, ProviderCall[]>();
  for (const c of input.calls) byOrder.set(c.refId, [...(byOrder.get(c.refId) ?? []), c]);
  for (const c of input.calls) {
    const order = input.orders.get(c.refId);
    if (order === undefined) continue; // counted by the caller (the provider saw, the ledger does not know)
    const attempts = [...(order.refused ?? []), currentAttempt(order)];
    const attempt = attempts.find((a) => a.refId === c.attemptRef);
    if (attempt === undefined)
      v.push(`${c.refId}: ${c.provider} was sent ${c.attemptRef}, an attempt the ledger does not record`);
    else if (attempt.provider !== c.provider)
      v.push(`${c.refId}: ${c.attemptRef} went to ${c.provider}, the ledger has it at ${attempt.provider}`);
    if (c.outcome === "success" && c.attemptRef !== currentAttempt(order).refId)
      v.push(`${c.refId}: carried out by ${c.provider} at ${c.attemptRef}, an attempt the ledger records as refused`);
  }
  let twoProviders = 0;
  let carriedByBackup = 0;
  for (const [ref, order] of input.orders) {
    if ((order.state === "draft" || order.state === "cancelled") && byOrder.has(ref))
      v.push(
        `${ref}: never claimed (${order.state}), yet sent to ${byOrder
          .get(ref)!
          .map((c) => c.provider)
          .join(", ")}`,
      );
    const carried = (byOrder.get(ref) ?? []).filter((c) => c.outcome === "success");
    if (carried.length > 1)
      v.push(`${ref}: carried out ${carried.length} times (${carried.map((c) => c.provider).join(", ")})`);
    if (order.state === "success" && carried.length !== 1)
      v.push(`${ref}: success in the ledger, carried out by ${carried.length} providers`);
    if (order.state === "failed" && carried.length > 0)
      v.push(`${ref}: failed in the ledger, yet ${carried.map((c) => c.provider).join(", ")} carried it out`);
    if (new Set((byOrder.get(ref) ?? []).map((c) => c.provider)).size > 1) twoProviders++;
    if (carried.some((c) => c.provider === "backup")) carriedByBackup++;
  }
  const sent = [...input.orders.values()].filter((o) => o.attempt !== undefined || o.submittedAt !== undefined);
  const failovers = sent.filter((o) => (o.refused?.length ?? 0) > 0);
  const outcomeAfter: Record<string, number> = {};
  for (const o of failovers) outcomeAfter[o.state] = (outcomeAfter[o.state] ?? 0) + 1;
  const at: Record<string, number> = {};
  for (const o of sent) at[currentAttempt(o).provider] = (at[currentAttempt(o).provider] ?? 0) + 1;
  const lines = [
    `  providers: orders claimed, by the provider of their last attempt: ${JSON.stringify(at)}; carried out by the backup: ${carriedByBackup}`,
    `  failovers: ${failovers.length} orders went on to the next provider after a refusal (${failovers.reduce((n, o) => n + (o.refused?.length ?? 0), 0)} refused attempts; then ${JSON.stringify(outcomeAfter)}); orders the two sandboxes both received: ${twoProviders}`,
    `  attempt ref ids sent twice (to either provider): ${duplicates.length}; orders carried out by two providers: ${v.filter((x) => / carried out \d+ times/.test(x)).length}; ledger against the providers (success by exactly one, failed by none, every call an attempt the ledger records): ${v.length - duplicates.length} violations`,
  ];
  return { lines, violations: v, duplicates };
}
