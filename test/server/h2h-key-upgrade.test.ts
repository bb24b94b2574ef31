import { createHash, createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@keyv/redis";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { createWorld, type World } from "../e2e/world.js";
import { freePort, REDIS_URL } from "../helpers/redis.js";
import { fundReseller } from "../helpers/ledger-history.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };
const PLAYER = "12345678(1234)";
/** A key as the bot kept it before keys were hashed: in clear, in the record's field `k`. */
const OLD_KEY = "Zx9-old_key_kept_in_clear_before_the_upgrade_0123";
const MITRA = "P0AB1CD2EF3";

describe("the upgrade of API keys kept in clear", () => {
  let world: World;
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => (server === undefined ? r(undefined) : server.close(r)));
    await world.cleanup();
  });

  it("when a shop with a partner's key in clear starts, then the key still orders, callbacks are signed with it, and Redis no longer holds it", async () => {
    world = await createWorld({ initialBalance: 10_000_000 });
    const received: Array<{ body: string; signature: string | undefined }> = [];
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        received.push({ body, signature: req.headers["x-signature"] as string | undefined });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    const callbackUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`;

    // The record as the version before wrote it, by hand.
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    const record = () => redis.hGetAll(`${world.prefix}h2h:p:${BUDI.id}`);
    try {
      await redis.hSet(`${world.prefix}h2h:p:${BUDI.id}`, {
        m: MITRA,
        k: OLD_KEY,
        on: "1",
        at: String(Date.parse("2026-01-02T03:04:05Z")),
        cb: callbackUrl,
      });
      await redis.set(`${world.prefix}h2h:m:${MITRA}`, String(BUDI.id));
      await redis.sAdd(`${world.prefix}h2h:ps`, String(BUDI.id));

      const port = await freePort();
      const bot = await world.run(
        {
          ADMIN_IDS: String(ADMIN.id),
          RESELLER_IDS: String(BUDI.id),
          H2H_ENABLED: "true",
          H2H_CALLBACK_ALLOW_PRIVATE: "true",
          PORT: String(port),
        },
        { recoveryIntervalMs: 50 },
      );
      // Upgraded at the start, before any request read it.
      const upgraded = await record();
      expect(upgraded.k).toBeUndefined();
      expect(upgraded.kh).toBe(createHash("sha256").update(OLD_KEY).digest("hex"));
      expect(bot.output()).toMatch(/API keys upgraded: 1 kept as a hash only/);

      const app = bot.app!;
      await fundReseller(app.wallets, BUDI.id, 100_000, ADMIN.id, Date.now());
      const q = new URLSearchParams({
        ref_id: "OLD-1",
        item_code: "ML86",
        destination: PLAYER,
        mitra_id: MITRA,
        secret_key: OLD_KEY,
      });
      const answer = (await (
        await fetch(`http://127.0.0.1:${port}/v1/transaction/partner?${q.toString()}`)
      ).json()) as {
        status: number;
        data: { ref_id: string; sn: string };
      };
      expect(answer.status).toBe(1);

      // Its callback (owed as for a partner who hung up before the answer) is signed with the old key.
      const refId = (await app.ledger.partnerOrder(BUDI.id, "OLD-1"))!;
      await app.partnerCallbacks.owe(refId, Date.now());
      await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThan(0);
      const sent = received[0]!;
      expect(sent.signature).toBe(`sha256=${createHmac("sha256", OLD_KEY).update(sent.body).digest("hex")}`);
      expect(JSON.parse(sent.body)).toMatchObject({ status: 1, data: { ref_id: "OLD-1", sn: answer.data.sn } });

      // The key is in Redis as a hash and as the signing secret, nowhere in clear else, and in no log.
      for (const key of await redis.keys(`${world.prefix}h2h:*`)) {
        const type = await redis.type(key);
        const value =
          type === "hash" ? JSON.stringify(await redis.hGetAll(key)) : type === "string" ? await redis.get(key) : "";
        if (key !== `${world.prefix}h2h:p:${BUDI.id}`) expect(value ?? "").not.toContain(OLD_KEY);
      }
      expect(Object.entries(await record()).filter(([, v]) => v === OLD_KEY)).toEqual([["ss", OLD_KEY]]);
      expect(bot.output()).not.toContain(OLD_KEY);
    } finally {
      await redis.close();
    }
  });
});
