import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../fake-bot-api.js";
import { button, createWorld, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const RINA: FakeUser = { id: 1003, first_name: "Rina", language_code: "en" };
const STAFF: FakeUser = { id: 1002, first_name: "Sari", language_code: "id" };

describe("the admins' notice of an order whose result is unknown", () => {
  let world: World;

  beforeEach(async () => {
    world = await createWorld({ initialBalance: 100_000 });
  });
  afterEach(() => world.cleanup());

  it("when an order's result is unknown, then each admin's notice has Success / Failed, and it is settled once", async () => {
    await world.run({
      ADMIN_IDS: `${ADMIN.id},${RINA.id}`,
      ALLOWED_USER_IDS: String(STAFF.id),
      TOPUP_BASE_URL: await world.flakyProvider(),
    });
    const unknown = await world.order(STAFF, "FF70", "777000111");
    const refId = /Ref ID: <code>([A-Z0-9]+)<\/code>/.exec(unknown.text)![1]!;
    const heading = new RegExp(`Order with unknown result</b> by Sari[^]*${refId}`);
    const [mine, hers] = await Promise.all([world.waitText(ADMIN, heading), world.waitText(RINA, heading)]);
    const success = button(mine, /Success/);
    const failed = button(hers, /Failed/);

    // Settled from the notice itself, as from /pending.
    world.fake.tapButton(ADMIN, mine, success);
    await world.waitText(ADMIN, /Send the SN of order/);
    world.fake.sendText(ADMIN, "99887766554433");
    await world.waitText(ADMIN, new RegExp(`Order <code>${refId}</code> is settled as ✅ success`));
    await world.waitText(STAFF, /Admin sudah memeriksa pesanan ini/);

    // Both notices lose their buttons; the other admin's old Failed is refused and changes nothing.
    const shown = (chat: number, id: number) => world.fake.messagesTo(chat).find((m) => m.message_id === id)!;
    await world.fake.waitFor(
      () =>
        shown(ADMIN.id, mine.message_id).reply_markup === undefined &&
        shown(RINA.id, hers.message_id).reply_markup === undefined,
    );
    world.fake.tapButton(RINA, hers.message_id, failed);
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /is not pending/.test(a.text ?? "")));
    await world.fake.waitForIdle();
    expect(world.fake.messagesTo(STAFF.id).filter((m) => /Admin sudah memeriksa/.test(m.text))).toHaveLength(1);
    expect(world.fake.messagesTo(RINA.id).some((m) => /Send the reason/.test(m.text))).toBe(false);
  });
});
