import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../fake-bot-api.js";
import { button, createWorld, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };

describe("the payment instructions with the shop's QRIS picture", () => {
  let world: World;
  beforeEach(async () => {
    world = await createWorld();
  });
  afterEach(() => world.cleanup());

  it("when the instructions are too long for a caption, then the QRIS picture comes first and the text after it", async () => {
    await world.run({ ADMIN_IDS: String(ADMIN.id), RESELLER_IDS: String(BUDI.id) });
    const long =
      `Transfer ke BCA 1234567890 a.n. Toko Maju & Sejahtera, atau scan QRIS di atas. ${"Tulis id permintaan di berita transfer. ".repeat(18)}`.slice(
        0,
        800,
      );
    world.fake.sendPhoto(ADMIN, undefined, { fileId: "qris-1", fileUniqueId: "qris", caption: `/payinfo ${long}` });
    await world.waitText(ADMIN, /instructions set/);

    world.fake.sendText(BUDI, "/deposit 100rb");
    const request = await world.waitText(BUDI, /Deposit request/);
    const id = /<code>(DR[0-9A-Z]{19})<\/code>/.exec(request.text)![1]!;
    // The picture, then the request with its whole text and its Cancel button.
    const sent = world.fake.messagesTo(BUDI.id);
    const at = sent.findIndex((m) => m.message_id === request.message_id);
    expect(sent[at - 1]?.method).toBe("sendPhoto");
    expect(request.method).toBe("sendMessage");
    expect(request.plain_text).toContain("Tulis id permintaan di berita transfer.");
    expect(button(request, /^rq:/)).toContain(id);

    // The proof answers the request's text, as it would its caption.
    world.fake.sendPhoto(BUDI, undefined, { replyTo: request });
    await world.waitText(BUDI, new RegExp(`Proof received for <code>${id}</code>`));
  });
});
