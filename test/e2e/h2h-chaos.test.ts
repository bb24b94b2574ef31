import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createPartnerStore, type IssuedKey } from "../../src/access/partners.js";
import { createLedger } from "../../src/ledger/create-ledger.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { dayIn } from "../../src/calendar.js";
import { fundReseller } from "../helpers/ledger-history.js";
import { walletBalances } from "../helpers/wallet-balances.js";
import { freePort, REDIS_URL } from "../helpers/redis.js";
import { createWorld, type RunningBot, type World } from "./world.js";

const ADMIN_ID = 1001;
const PARTNERS = [7101, 7102, 7103];
/** ML86 for a reseller of the sample catalogue. */
const PRICE = 19_800;
const DEPOSIT = 2_000_000;
/** Each partner's ref ids; nearly every one is sent to both processes at once, and all again after the kill. */
const REFS_PER_PARTNER = 24;
/** A player id the provider in front answers with an HTML 502 (result unknown): its price stays held. */
const UNKNOWN_PLAYER = "77712345(1234)";
const PLAYER = "12345678(1234)";

interface Answer {
  status: number;
  error_code?: string;
  data?: { ref_id?: string; trx_id?: string; sn?: string; product_detail?: { status?: string } };
}

/**
 * The provider as a partner's order reaches it: every order counted by its ref id and held until
 * the test lets answers go (a kill finds orders in flight), then a 502 for UNKNOWN_PLAYER, the
 * sandbox's answer otherwise.
 */
async function gatedProvider(sandboxUrl: string) {
  const calls = new Map<string, number>();
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const ref = url.searchParams.get("ref_id") ?? "";
    // Orders only: the shop asks the status of its unknown ones too (no order is made by that).
    if (url.pathname === "/v1/transaction/partner") calls.set(ref, (calls.get(ref) ?? 0) + 1);
    void gate.then(() => {
      if (url.searchParams.get("destination") === UNKNOWN_PLAYER) {
        res.writeHead(502, { "content-type": "text/html" });
        res.end("<html>502 Bad Gateway</html>");
        return;
      }
      const upstream = new URL(sandboxUrl);
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: "GET" },
        (a) => {
          res.writeHead(a.statusCode ?? 502, a.headers);
          a.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      forward.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    open: () => open(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("the H2H API under chaos: partners ordering at once from two processes, one killed", () => {
  let world: World;
  let storage: Storage;
  afterEach(async () => {
    await storage.close();
    await world.cleanup();
  });

  it("when every ref id is sent twice at once, a process is killed mid-way and partners send again, then each ref id made one order and one provider call, and every saldo is exact", async () => {
    world = await createWorld({ initialBalance: 1_000_000_000 });
    const provider = await gatedProvider(world.sandbox.url);
    world.onCleanup(provider.close);
    storage = await createStorage({ redisUrl: REDIS_URL, prefix: world.prefix });
    const store = createPartnerStore(storage);
    const { wallets } = createLedger(storage, { timeZone: "Asia/Jakarta" });
    const keys = new Map<number, IssuedKey>();
    for (const id of PARTNERS) {
      keys.set(id, await store.issue(id, Date.now()));
      await fundReseller(wallets, id, DEPOSIT, ADMIN_ID, Date.now());
    }
    const env = (port: number) => ({
      ADMIN_IDS: String(ADMIN_ID),
      RESELLER_IDS: PARTNERS.join(","),
      H2H_ENABLED: "true",
      H2H_RATE_LIMIT: "1000",
      PORT: String(port),
      TOPUP_BASE_URL: provider.url,
      TOPUP_TIMEOUT_MS: "5000",
    });
    const ports = [await freePort(), await freePort(), await freePort()];
    const processes: RunningBot[] = [await world.runProcess(env(ports[0]!)), await world.runProcess(env(ports[1]!))];

    const ask = async (port: number, path: string, partner: number, params: Record<string, string>) => {
      const key = keys.get(partner)!;
      const query = new URLSearchParams({ ...params, mitra_id: key.mitraId, secret_key: key.secretKey });
      try {
        const res = await fetch(`http://127.0.0.1:${port}${path}?${query.toString()}`);
        return (await res.json()) as Answer;
      } catch {
        return undefined; // the connection was cut (the process was killed)
      }
    };
    const order = (port: number, partner: number, ref: string) =>
      ask(port, "/v1/transaction/partner", partner, {
        ref_id: ref,
        item_code: "ML86",
        // Every fifth order's result stays unknown.
        destination: Number(ref.split("-")[1]) % 5 === 0 ? UNKNOWN_PLAYER : PLAYER,
      });
    const refs = PARTNERS.flatMap((partner) =>
      Array.from({ length: REFS_PER_PARTNER }, (_, i) => ({ partner, ref: `C${partner}-${i}` })),
    );

    // Every ref id to both processes at the same moment, the first three of each partner's to the
    // first process alone (it surely has orders in flight). Once every order is with the provider,
    // the first process is killed; then the provider answers.
    const firstRound = Promise.all(
      refs.flatMap(({ partner, ref }) =>
        (Number(ref.split("-")[1]) < 3 ? [ports[0]!] : [ports[0]!, ports[1]!]).map((p) => order(p, partner, ref)),
      ),
    );
    await expect.poll(() => provider.calls.size, { timeout: 20_000 }).toBe(refs.length);
    await processes[0]!.kill("SIGKILL");
    provider.open();
    const answers = await firstRound;
    expect(answers.filter((a) => a === undefined).length).toBeGreaterThanOrEqual(3 * PARTNERS.length);

    // A new process takes the dead one's place; partners send every ref id again, to both, and a
    // few new ones.
    processes.push(await world.runProcess(env(ports[2]!)));
    const again = await Promise.all(
      refs.flatMap(({ partner, ref }) => [ports[1]!, ports[2]!].map((p) => order(p, partner, ref))),
    );
    for (const a of again) expect(a?.error_code).toBe("transaction/ref-id-already-exists");
    const fresh = PARTNERS.map((partner) => ({ partner, ref: `C${partner}-${REFS_PER_PARTNER}` }));
    const freshAnswers = await Promise.all(fresh.map(({ partner, ref }) => order(ports[2]!, partner, ref)));
    for (const a of freshAnswers)
      expect(a).toMatchObject({ status: 1, data: { product_detail: { status: "SUKSES" } } });
    refs.push(...fresh);

    // Each ref id made exactly one order, called the provider at most once.
    const shopRefs = new Set<string>();
    for (const { partner, ref } of refs) {
      const status = await ask(ports[1]!, "/v1/transaction/status", partner, { ref_id: ref });
      expect(
        status?.status === 1 || status?.error_code === "transaction/failed",
        `${ref}: ${JSON.stringify(status)}`,
      ).toBe(true);
      const trx = status?.data?.trx_id ?? "";
      expect(trx).not.toBe("");
      shopRefs.add(trx);
    }
    expect(shopRefs.size).toBe(refs.length);
    expect(provider.calls.size).toBe(refs.length);
    for (const [, n] of provider.calls) expect(n).toBe(1);

    // Every saldo is exact: what was sold is spent, what is unknown is held, the rest is there.
    const day = dayIn("Asia/Jakarta", new Date());
    for (const partner of PARTNERS) {
      const w = await wallets.get(partner);
      expect(walletBalances(w)).toBe(true);
      const listed = await ask(ports[1]!, "/v1/transactions", partner, { date: day, page: "1" });
      const items = (listed as unknown as { data: { items: Array<{ ref_id: string; state: string }> } }).data.items;
      expect(items.map((i) => i.ref_id).sort()).toEqual(
        refs
          .filter((r) => r.partner === partner)
          .map((r) => r.ref)
          .sort(),
      );
      const sold = items.filter((i) => i.state === "success").length;
      const pending = items.filter((i) => i.state === "pending").length;
      expect(w.spent).toBe(sold * PRICE);
      expect(w.held).toBe(pending * PRICE);
      expect(w.saldo).toBe(DEPOSIT - (sold + pending) * PRICE);
      const balance = await ask(ports[2]!, "/v1/balance", partner, {});
      expect(balance).toEqual({ status: 1, data: { balance: w.saldo, held: w.held } });
    }
  }, 60_000);
});
