import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "../../helpers/redis.js";
import { fundReseller } from "../../helpers/ledger-history.js";
import type { FakeUser } from "../fake-bot-api.js";
import { createWorld, type RunningBot, type World } from "../world.js";
import { csvFile, eachLineWithPartnerRef } from "../../../src/reports/csv.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };
const DEWI: FakeUser = { id: 5006, first_name: "Dewi", language_code: "en" };
/** The flaky provider answers 502 for player ids starting with 777: the outcome is not known. */
const UNKNOWN_PLAYER = "77712345(1234)";

/** An admin looks after H2H orders by the ids partners quote: their own ref_ids. */
describe("admins and H2H orders, by the partner's ref_id", () => {
  let world: World;
  let bot: RunningBot;
  let base: string;
  const keys = new Map<number, { mitraId: string; secretKey: string }>();

  beforeEach(async () => {
    world = await createWorld({ initialBalance: 10_000_000 });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    bot = await world.run({
      ADMIN_IDS: String(ADMIN.id),
      RESELLER_IDS: `${BUDI.id},${DEWI.id}`,
      H2H_ENABLED: "true",
      H2H_CALLBACK_ALLOW_PRIVATE: "true",
      PORT: String(port),
      TOPUP_BASE_URL: await world.flakyProvider(),
    });
    for (const user of [BUDI, DEWI]) {
      keys.set(user.id, await bot.app!.partners.issue(user.id, Date.now()));
      await fundReseller(bot.app!.wallets, user.id, 100_000, ADMIN.id, Date.now());
    }
  });
  afterEach(async () => {
    await world.cleanup();
  });

  async function order(user: FakeUser, ref: string) {
    const key = keys.get(user.id)!;
    const q = new URLSearchParams({
      mitra_id: key.mitraId,
      secret_key: key.secretKey,
      ref_id: ref,
      item_code: "ML86",
      destination: UNKNOWN_PLAYER,
    });
    const res = await fetch(`${base}/v1/transaction/partner?${q.toString()}`);
    return (await res.json()) as { status: number; data: { trx_id: string; product_detail: { status: string } } };
  }

  async function ask(text: string, pattern: RegExp) {
    const before = world.fake.messagesTo(ADMIN.id).length;
    world.fake.sendText(ADMIN, text);
    return world.fake.waitForMessage(
      ADMIN.id,
      (m) => pattern.test(m.text) && world.fake.messagesTo(ADMIN.id).indexOf(m) >= before,
    );
  }

  const shopRefOf = async (user: FakeUser, ref: string) => (await bot.app!.ledger.partnerOrder(user.id, ref))!;

  it("when partners quote their ref_ids, then /status and /settle find the order by them, an id of two orders settles nothing, and the admin is told what the partner was sent", async () => {
    expect((await order(BUDI, "INV-7")).data.product_detail.status).toBe("PENDING");
    expect((await order(DEWI, "INV-7")).data.product_detail.status).toBe("PENDING");
    expect((await order(DEWI, "dewi.order_2")).data.product_detail.status).toBe("PENDING");
    const budiRef = await shopRefOf(BUDI, "INV-7");
    const dewiRef = await shopRefOf(DEWI, "INV-7");

    // The admins' notice of the unknown order names the partner's ref_id beside the shop's.
    const notice = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.text.includes(budiRef) && m.text.includes("Partner's ref_id: <code>INV-7</code>"),
    );
    expect(notice.text).toContain("H2H");

    // /pending shows it too.
    const pending = await ask("/pending", /dewi\.order_2/);
    expect(pending.text).toContain("Partner's ref_id: <code>dewi.order_2</code>");

    // One partner's own id (case and dots as they sent it) finds their order.
    const one = await ask("/status dewi.order_2", /Order status/);
    expect(one.text).toContain("Partner's ref_id: <code>dewi.order_2</code>");
    // Two partners used INV-7: listed by the shop's ref ids, and /settle settles neither.
    const several = await ask("/status INV-7", /names several orders/);
    expect(several.text).toContain(budiRef);
    expect(several.text).toContain(dewiRef);
    const refused = await ask("/settle INV-7 success SN777", /nothing was settled/);
    expect(refused.text).toContain(budiRef);
    expect((await bot.app!.ledger.get(budiRef))?.state).toBe("unknown");
    expect((await bot.app!.ledger.get(dewiRef))?.state).toBe("unknown");

    // Settled by the partner's id: no callback URL, so the admin is told the partner was sent nothing.
    const dewiSettled = await ask("/settle dewi.order_2 failed out of stock", /settled as/);
    expect(dewiSettled.text).toMatch(/sent nothing/);
    expect(dewiSettled.text).not.toMatch(/The user has been told/);

    // With a callback URL, the admin is told a callback goes to the partner's system.
    await bot.app!.partners.setCallback(BUDI.id, "http://127.0.0.1:9/cb");
    const budiSettled = await ask(`/settle ${budiRef} success SN1234`, /settled as/);
    expect(budiSettled.text).toMatch(/gets a callback/);
    expect(budiSettled.text).not.toMatch(/The user has been told/);
    expect((await bot.app!.ledger.get(budiRef))?.state).toBe("success");

    // The CSV (of /report and /export) ends with the partner's ref_id of each H2H order.
    const file = csvFile("Asia/Jakarta", { header: true });
    await eachLineWithPartnerRef(bot.app!.ledger, 0, Date.now() + 60_000, (line) => file.add(line));
    const rows = file.bytes().toString("utf8").split("\r\n");
    expect(rows[0]!.endsWith(",partner_ref_id")).toBe(true);
    expect(rows.find((r) => r.includes(budiRef))!.endsWith(",INV-7")).toBe(true);
    expect(rows.find((r) => r.includes(dewiRef))!.endsWith(",INV-7")).toBe(true);
  });
});
