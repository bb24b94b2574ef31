import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PNG } from "pngjs";
import type { FakeUser } from "../fake-bot-api.js";
import { button, createWorld, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const RESELLER: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };
/** Jakarta wall clock `YYYY-MM-DDTHH:MM` as milliseconds. */
const at = (wall: string) => Date.parse(`${wall}:00+07:00`);

describe("the evening recap and the reseller's low saldo, through the bot", () => {
  let world: World;
  let clock: number;
  const start = (env: Record<string, string>) =>
    world.run({ ADMIN_IDS: String(ADMIN.id), ...env }, { now: () => new Date(clock), recoveryIntervalMs: 100 });

  beforeEach(async () => {
    world = await createWorld({ initialBalance: 1_000_000 });
  });
  afterEach(() => world.cleanup());

  it("when the shop's clock passes RECAP_AT, then the admin gets the day's recap as one photo with the recap as its caption", async () => {
    clock = at("2026-03-12T20:00");
    await start({ RECAP_AT: "21:00", SHOP_NAME: "Toko Budi" });
    await world.order(ADMIN, "ML86", "12345678(1234)");
    clock = at("2026-03-12T21:00") + 20_000;
    const recap = await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendPhoto");
    expect(recap.plain_text).toContain("Recap of Thu, 12 Mar 2026");
    expect(recap.plain_text).toContain("Orders: 1 (✅ 1 · ❌ 0 · ⚠️ 0 · ⏳ 0)");
    expect(recap.plain_text).toContain("Revenue: Rp 20,000");
    expect(recap.plain_text).toContain("Margin: Rp 500");
    expect(recap.plain_text).toContain("Pending orders: none");
    expect(recap.plain_text).not.toMatch(/Late/);
    const image = PNG.sync.read(recap.document!.bytes!);
    expect(image.width).toBe(1440);
    expect(image.height).toBeGreaterThan(1000);
  });

  it("when the bot starts after RECAP_AT and the day's recap never went out, then it goes out marked late", async () => {
    clock = at("2026-03-12T09:00");
    const first = await start({ RECAP_AT: "21:00" });
    await first.app!.notifier.idle();
    await first.kill();
    // Every process was down over 21:00.
    clock = at("2026-03-12T23:30");
    await start({ RECAP_AT: "21:00" });
    const recap = await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendPhoto");
    expect(recap.plain_text).toContain("Recap of Thu, 12 Mar 2026");
    expect(recap.plain_text).toContain("Late: due 21:00");
  });

  it("when a reseller's sale leaves the saldo below RESELLER_LOW_SALDO, then they are told once per crossing, again after a deposit and a fall", async () => {
    clock = at("2026-03-12T10:00");
    const bot = await start({ RESELLER_LOW_SALDO: "30000" });
    world.fake.sendText(ADMIN, "/allow 5005 reseller");
    await world.waitText(ADMIN, /<code>5005<\/code> is a reseller now/);
    world.fake.sendText(RESELLER, "/start");
    await world.waitText(RESELLER, /./);
    const deposit = async (amount: string) => {
      const before = world.fake.messagesTo(ADMIN.id).length;
      world.fake.sendText(ADMIN, `/deposit 5005 ${amount}`);
      const summary = await world.fake.waitForMessage(
        ADMIN.id,
        (m) =>
          /"dc:/.test(JSON.stringify(m.reply_markup ?? {})) && world.fake.messagesTo(ADMIN.id).indexOf(m) >= before,
      );
      world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
      await world.fake.waitForMessage(
        ADMIN.id,
        (m) => m.message_id === summary.message_id && /Credited to/.test(m.text),
      );
    };
    const buy = async (saldoLeft: string) => {
      const result = await world.order(RESELLER, "ML86", "12345678(1234)");
      expect(result.plain_text).toContain(`Saldo left: ${saldoLeft}`);
    };
    await deposit("60.000");
    await buy("Rp 40,200");
    await buy("Rp 20,400"); // below Rp 30,000: told
    await buy("Rp 600"); // still below: not told again
    await deposit("50.000"); // Rp 50,600: at or above again
    await buy("Rp 30,800");
    await buy("Rp 11,000"); // below again: told again
    await bot.app!.notifier.idle();
    const told = world.fake.messagesTo(RESELLER.id).filter((m) => /saldo is down to/.test(m.plain_text));
    expect(told.map((m) => m.plain_text)).toEqual([
      "⚠️ Your saldo is down to Rp 20,400, below Rp 30,000. Top up with /deposit AMOUNT (e.g. /deposit 100000) so your next orders go through.",
      "⚠️ Your saldo is down to Rp 11,000, below Rp 30,000. Top up with /deposit AMOUNT (e.g. /deposit 100000) so your next orders go through.",
    ]);
  });
});
