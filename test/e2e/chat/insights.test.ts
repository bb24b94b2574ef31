import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";
import { ADMIN, button, createWorld, STAFF, type World } from "../world.js";

const RESELLER: FakeUser = { id: 5005, first_name: "Budi", language_code: "id" };
const ADMIN_ID: FakeUser = { id: 1003, first_name: "Wati", language_code: "id" };

/** The owner's questions in the chat: the best sellers of a day, week or month, and this month against last. */
describe("the owner's questions: /top, /hours and /compare", () => {
  let world: World;
  beforeEach(async () => (world = await createWorld({ initialBalance: 1_000_000 })));
  afterEach(() => world.cleanup());

  const labels = (m: SentMessage) =>
    (m.reply_markup?.inline_keyboard ?? []).map((row: Array<{ text: string }>) => row.map((b) => b.text));

  /** The shop's clock: set by the test, so each order is sent at the hour the test says. */
  let shift = 0;
  const setClock = (iso: string) => (shift = Date.parse(iso) - Date.now());

  /** A day of sales, on Thursday 12 March 2026 at noon in Jakarta: no midnight comes during the test. */
  async function aDayOfSales() {
    setClock("2026-03-12T05:00:00Z");
    await world.run(
      {
        ADMIN_IDS: `${ADMIN.id},${ADMIN_ID.id}`,
        ALLOWED_USER_IDS: String(STAFF.id),
        RESELLER_IDS: String(RESELLER.id),
      },
      { now: () => new Date(Date.now() + shift) },
    );
    world.fake.sendText(ADMIN, `/deposit ${RESELLER.id} 100000 transfer`);
    const summary = await world.waitText(ADMIN, /for reseller/);
    world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    await world.waitText(ADMIN, /Credited/);
    await world.order(RESELLER, "ML172", "87654321(4321)");
    await world.order(STAFF, "ML86", "12345678(1234)");
    await world.order(STAFF, "ML86", "12345679(1234)");
    await world.order(ADMIN, "FF140", "223344556");
  }

  it("when an admin asks for today's top and switches to the week, the week before and the month, then the same message shows each", async () => {
    await aDayOfSales();
    const message = (id: number) => world.fake.messagesTo(ADMIN.id).find((m) => m.message_id === id)!;
    const becomes = async (id: number, pattern: RegExp) => {
      await world.fake.waitFor(() => pattern.test(message(id).text));
      return message(id);
    };

    world.fake.sendText(ADMIN, "/top today");
    const top = await world.waitText(ADMIN, /Top sellers of 2026-03-12/);
    // The sandbox charges 500 below each selling price: the margins are the shop's 500 a sale, 200 on Budi's.
    expect(top.text).toContain("4 sales · revenue Rp 98,200 · margin Rp 1,700");
    expect(top.text).toMatch(
      /1\. ML86 · 86 Diamonds: 2 × · Rp 40,000 · margin Rp 1,000\n2\. ML172 · 172 Diamonds: 1 × · Rp 38,700 · margin Rp 200\n3\. FF140 · 140 Diamonds: 1 × · Rp 19,500 · margin Rp 500/,
    );
    expect(top.text).toContain("1. Budi · 5005: 1 × · Rp 38,700 · profit Rp 200");
    expect(labels(top)).toEqual([["· Day ·", "Week", "Month"], ["◀ Before"]]);

    world.fake.tapButton(ADMIN, top, button(top, /^Week$/));
    const week = await becomes(top.message_id, /Top sellers of the week 2026-03-09 – 2026-03-15/);
    expect(week.text).toContain("4 sales · revenue Rp 98,200");
    world.fake.tapButton(ADMIN, week, button(week, /◀ Before/));
    const before = await becomes(top.message_id, /week 2026-03-02 – 2026-03-08/);
    expect(before.text).toContain("No sales in this period.");
    expect(labels(before)).toEqual([
      ["Day", "· Week ·", "Month"],
      ["◀ Before", "After ▶"],
    ]);
    world.fake.tapButton(ADMIN, before, button(before, /^Month$/));
    const month = await becomes(top.message_id, /Top sellers of March 2026/);
    expect(month.text).toContain("4 sales · revenue Rp 98,200 · margin Rp 1,700");
  });

  it("when an Indonesian admin asks for the week and compares the month, then it is in Indonesian, and last month's empty days compare with nothing", async () => {
    await aDayOfSales();
    world.fake.sendText(ADMIN_ID, "/top minggu");
    const week = await world.waitText(ADMIN_ID, /Terlaris minggu 2026-03-09 – 2026-03-15/);
    expect(week.text).toContain("4 penjualan · omzet Rp 98.200 · margin Rp 1.700");
    expect(week.text).toContain("1. Budi · 5005: 1 × · Rp 38.700 · laba Rp 200");

    world.fake.sendText(ADMIN_ID, "/compare");
    const compare = await world.waitText(ADMIN_ID, /Maret 2026 sejauh ini dibanding Februari 2026/);
    expect(compare.text).toContain("tanggal 1 sampai 12");
    expect(compare.text).toContain("Penjualan: 4 (bulan lalu 0) (tidak ada pembanding)");
    expect(compare.text).toContain("Omzet: Rp 98.200 (bulan lalu Rp 0) (tidak ada pembanding)");

    world.fake.sendText(ADMIN_ID, "/top tahun");
    await world.waitText(ADMIN_ID, /Gunakan \/top untuk bulan ini/);
  });

  it("when orders come at noon and in the afternoon, then /hours names the busiest hour, its provider cost and a bar per hour, and pages to the week", async () => {
    await aDayOfSales();
    setClock("2026-03-12T08:30:00Z"); // 15:30 in Jakarta
    await world.order(STAFF, "ML86", "12345670(1234)");
    world.fake.sendText(ADMIN, "/hours today");
    const hours = await world.waitText(ADMIN, /When orders came on 2026-03-12/);
    expect(hours.text).toContain("5 orders sent");
    // Four at noon (96,500 of provider cost: revenue 98,200 less the margin 1,700), one at 15:30.
    expect(hours.text).toMatch(/12:00–13:00: 4 orders · Rp 96,500 at the provider\n15:00–16:00: 1 order · Rp 19,500/);
    expect(hours.text).toContain("Keep the provider deposit full before 12:00.");
    expect(hours.text).toMatch(/12 ▇{12} 4\n13\n14\n15 ▇{3} 1/);
    world.fake.tapButton(ADMIN, hours, button(hours, /^Week$/));
    await world.fake.waitFor(() =>
      world.fake
        .messagesTo(ADMIN.id)
        .some((m) => m.message_id === hours.message_id && /the week 2026-03-09/.test(m.text)),
    );

    world.fake.sendText(ADMIN_ID, "/hours minggu");
    const id = await world.waitText(ADMIN_ID, /Jam pesanan masuk minggu 2026-03-09 – 2026-03-15/);
    expect(id.text).toContain("12:00–13:00: 4 pesanan · Rp 96.500 di provider");
    expect(id.text).toContain("Isi penuh deposit provider sebelum pukul 12:00.");
  });

  it("when a staff member or a reseller asks, then they are refused and see no figures", async () => {
    await aDayOfSales();
    for (const user of [STAFF, RESELLER]) {
      const before = world.fake.messagesTo(user.id).length;
      world.fake.sendText(user, "/top");
      await world.fake.waitFor(() => world.fake.messagesTo(user.id).length > before);
      world.fake.sendText(user, "/compare");
      await world.fake.waitFor(() => world.fake.messagesTo(user.id).length > before + 1);
      world.fake.sendText(user, "/hours");
      await world.fake.waitFor(() => world.fake.messagesTo(user.id).length > before + 2);
      const answers = world.fake.messagesTo(user.id).slice(before);
      expect(answers.map((m) => m.text).join("\n")).not.toMatch(
        /Rp 98|Terlaris|Top sellers|Penjualan:|orders sent|pesanan dikirim/,
      );
    }
  });
});
