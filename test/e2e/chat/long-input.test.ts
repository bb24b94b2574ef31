import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../fake-bot-api.js";
import { createWorld, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "id" };

describe("answers to very long input", () => {
  let world: World;
  beforeEach(async () => {
    world = await createWorld();
  });
  afterEach(() => world.cleanup());

  it("when someone types 5,000 characters where an amount, a code or an id goes, then the answer quotes a short part and says what is expected", async () => {
    await world.run({ ADMIN_IDS: String(ADMIN.id), RESELLER_IDS: String(BUDI.id) });
    world.fake.sendText(ADMIN, "/payinfo BCA 1234567890 a.n. Toko Maju");
    await world.waitText(ADMIN, /instructions set/);
    const long = `50rb${"x".repeat(5000)}`;
    const tries: Array<[FakeUser, string]> = [
      [ADMIN, `/price ML86 ${long}`],
      [ADMIN, `/deposit ${BUDI.id} ${long}`],
      [BUDI, `/deposit ${long}`],
      [ADMIN, `/settle ${long} failed no such order`],
      [ADMIN, `/status ${long}`],
      [ADMIN, `/order ${long}`],
      [ADMIN, `/order ML86 ${long}`],
    ];
    for (const [user, text] of tries) {
      const before = world.fake.messagesTo(user.id).length;
      world.fake.sendText(user, text);
      const answer = await world.fake.waitForMessage(
        user.id,
        (m) => world.fake.messagesTo(user.id).findIndex((n) => n.message_id === m.message_id) >= before,
      );
      expect(answer.plain_text, text.slice(0, 20)).not.toMatch(/something went wrong|ada yang salah/i);
      // At most a short part of what was typed comes back.
      expect(answer.plain_text, text.slice(0, 20)).not.toContain("x".repeat(41));
      world.fake.sendText(user, "/cancel");
      await world.fake.waitForIdle();
    }
    const quoted = world.fake.messagesTo(ADMIN.id).find((m) => /I can't tell which amount/.test(m.plain_text));
    expect(quoted?.plain_text).toContain(`50rb${"x".repeat(36)}…`);
  });
});
