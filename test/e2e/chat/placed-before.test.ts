import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";
import { button, createWorld, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const STAFF: FakeUser = { id: 1002, first_name: "Sari", language_code: "en" };
const RESELLER: FakeUser = { id: 5006, first_name: "Dewi", language_code: "id" };

/** The text of the summary's Confirm button (the first button, whose data starts `c:`). */
function confirmText(summary: SentMessage): string {
  const rows = (summary.reply_markup?.inline_keyboard ?? []) as Array<Array<{ text: string; callback_data?: string }>>;
  return rows.flat().find((b) => b.callback_data?.startsWith("c:") === true)?.text ?? "";
}

describe("the same product for the same player id within ten minutes", () => {
  let world: World;
  let clock: { ms: number };

  beforeEach(async () => {
    world = await createWorld({ initialBalance: 1_000_000 });
    clock = { ms: Date.parse("2026-11-28T07:00:00Z") };
    await world.run(
      { ADMIN_IDS: String(ADMIN.id), ALLOWED_USER_IDS: String(STAFF.id), RESELLER_IDS: String(RESELLER.id) },
      { now: () => new Date(clock.ms) },
    );
  });
  afterEach(() => world.cleanup());

  it("when staff order again for the same player, then the summary says when and by whom, and Confirm reads Order again", async () => {
    const first = await world.summaryFor(STAFF, "FF70", "123456789");
    expect(first.text).not.toContain("Ordered before");
    expect(confirmText(first)).toMatch(/Confirm/);
    await world.order(STAFF, "FF70", "123456789");

    clock.ms += 3 * 60_000;
    const again = await world.summaryFor(STAFF, "FF70", "123456789");
    expect(again.text).toMatch(/Ordered before:<\/b> you ordered this for this player at 14:00 \(3 minutes ago\)/);
    expect(confirmText(again)).toBe("🔁 Order again");

    // The admin is told it was Sari; another product or another player is not pointed out.
    const admins = await world.summaryFor(ADMIN, "FF70", "123456789");
    expect(admins.text).toMatch(/Sari ordered this for this player at 14:00/);
    expect((await world.summaryFor(ADMIN, "FF140", "123456789")).text).not.toContain("Ordered before");
    expect((await world.summaryFor(ADMIN, "FF70", "987654321")).text).not.toContain("Ordered before");

    // Nothing is refused: Order again orders a second time.
    world.fake.tapButton(STAFF, again, button(again, /^c:/));
    const againRef = /Order ref: <code>([A-Z0-9]+)<\/code>/.exec(again.text)![1]!;
    await world.waitText(STAFF, new RegExp(`Top-up successful[^]*${againRef}`));
    expect(world.sandbox.calls.filter((c) => c.destination === "123456789")).toHaveLength(2);

    // Ten minutes after the last one, the note is gone.
    clock.ms += 10 * 60_000 + 1000;
    const later = await world.summaryFor(STAFF, "FF70", "123456789");
    expect(later.text).not.toContain("Ordered before");
    expect(confirmText(later)).toMatch(/Confirm/);
  });

  it("when a reseller orders for a player someone else just topped up, then they learn nothing of it", async () => {
    await world.order(STAFF, "FF70", "123456789");
    const summary = await world.summaryFor(RESELLER, "FF70", "123456789");
    expect(summary.text).not.toMatch(/Sudah pernah dipesan|Sari/);
    expect(confirmText(summary)).not.toMatch(/Pesan lagi/);
  });
});
