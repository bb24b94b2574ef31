import { afterEach, describe, expect, it } from "vitest";
import { createPartnerStore } from "../../src/access/partners.js";
import { createLedger } from "../../src/ledger/create-ledger.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { freePort, REDIS_URL } from "../helpers/redis.js";
import { createWorld, type World } from "./world.js";
import { fundReseller } from "../helpers/ledger-history.js";

const ADMIN_ID = 1001;
const PARTNER_ID = 7007;
const PLAYER = "12345678(1234)";

describe("the H2H API when the process that took an order is killed", () => {
  let world: World;
  let storage: Storage;
  afterEach(async () => {
    await storage.close();
    await world.cleanup();
  });

  it("SIGKILL between the hold and the answer, then the same ref id again: nothing more is ordered, the outcome is asked by status", async () => {
    world = await createWorld();
    // The provider answers after 2 s: the kill comes while it is being asked.
    const slow = await world.slowSandbox(2000);
    const port = await freePort();
    const env = {
      ADMIN_IDS: String(ADMIN_ID),
      RESELLER_IDS: String(PARTNER_ID),
      H2H_ENABLED: "true",
      PORT: String(port),
      TOPUP_BASE_URL: slow.url,
      TOPUP_TIMEOUT_MS: "5000",
    };
    // The partner's key and saldo, written where every process of this shop reads them.
    storage = await createStorage({ redisUrl: REDIS_URL, prefix: world.prefix });
    const key = await createPartnerStore(storage).issue(PARTNER_ID, Date.now());
    const { wallets } = createLedger(storage, { timeZone: "Asia/Jakarta" });
    await fundReseller(wallets, PARTNER_ID, 50_000, ADMIN_ID, Date.now());
    const url = (path: string, params: Record<string, string>) =>
      `http://127.0.0.1:${port}${path}?${new URLSearchParams({ ...params, mitra_id: key.mitraId, secret_key: key.secretKey }).toString()}`;
    const ask = async (path: string, params: Record<string, string>) =>
      (await (await fetch(url(path, params))).json()) as { status: number; error_code?: string; data?: any };

    const first = await world.runProcess(env);
    const pending = fetch(
      url("/v1/transaction/partner", { ref_id: "KILL-1", item_code: "ML86", destination: PLAYER }),
    ).then(
      () => "answered",
      () => "cut",
    );
    await expect.poll(() => slow.calls.length, { timeout: 10_000 }).toBe(1);
    await first.kill("SIGKILL");
    expect(await pending).toBe("cut");

    await world.runProcess(env);
    const again = await ask("/v1/transaction/partner", { ref_id: "KILL-1", item_code: "ML86", destination: PLAYER });
    expect(again).toMatchObject({ status: 0, error_code: "transaction/ref-id-already-exists" });
    const status = await ask("/v1/transaction/status", { ref_id: "KILL-1" });
    expect(status).toMatchObject({
      status: 1,
      data: { ref_id: "KILL-1", sn: "", product_detail: { status: "PENDING" } },
    });
    // The price stays held until an admin settles the order; the provider was asked once.
    expect(await ask("/v1/balance", {})).toEqual({ status: 1, data: { balance: 50_000 - 19_800, held: 19_800 } });
    expect(slow.calls).toHaveLength(1);
    for (const bot of world.bots) expect(bot.output()).not.toContain(key.secretKey);
  });
});
