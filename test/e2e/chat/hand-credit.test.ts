import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";
import { button, createWorld, type RunningBot, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const ADMIN2: FakeUser = { id: 1003, first_name: "Rina", language_code: "id" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };
const DEWI: FakeUser = { id: 5006, first_name: "Dewi", language_code: "id" };

const rupiah = (text: string) => Number(text.replace(/[.,]/g, ""));

describe("an admin credits a deposit request by hand (/deposit USER_ID AMOUNT DR…): once, by any path", () => {
  let world: World;
  let bot: RunningBot;
  let clock = Date.parse("2026-11-26T03:00:00Z");
  const env = { ADMIN_IDS: `${ADMIN.id},${ADMIN2.id}`, RESELLER_IDS: `${BUDI.id},${DEWI.id}` };

  beforeEach(async () => {
    clock = Date.parse("2026-11-26T03:00:00Z");
    world = await createWorld({ initialBalance: 1_000_000 });
    bot = await world.run(env, { now: () => new Date(clock), recoveryIntervalMs: 100 });
    await answer(ADMIN, () => world.fake.sendText(ADMIN, "/payinfo BCA 1234567890 a.n. Toko Maju"), /instructions set/);
  });
  afterEach(() => world.cleanup());

  /** What the user is sent after `send()`, the first one matching. */
  async function answer(user: FakeUser, send: () => void, pattern: RegExp): Promise<SentMessage> {
    const before = world.fake.messagesTo(user.id).length;
    send();
    return world.fake.waitForMessage(
      user.id,
      (m) => pattern.test(m.text) && world.fake.messagesTo(user.id).indexOf(m) >= before,
    );
  }

  /** A reseller's /deposit: the request's message, id and exact amount. */
  async function ask(user: FakeUser, amount: string) {
    const message = await answer(
      user,
      () => world.fake.sendText(user, `/deposit ${amount}`),
      /Deposit request|Permintaan deposit/,
    );
    const m = /<code>(DR[0-9A-Z]{19})<\/code>[\s\S]*?<b>Rp ([0-9.,]+)<\/b>/.exec(message.text)!;
    return { message, id: m[1]!, exact: rupiah(m[2]!) };
  }

  /** A proof answering the request; resolves with the admins' notice (Approve / Other amount / Reject). */
  async function prove(user: FakeUser, request: { message: SentMessage; id: string }) {
    await answer(user, () => world.fake.sendPhoto(user, undefined, { replyTo: request.message }), /Proof|Bukti/);
    return world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendPhoto" && m.text.includes(request.id));
  }

  const saldoOf = async (userId: number) => (await bot.app!.wallets.get(userId)).saldo;

  it("when a request was approved and an admin then credits it by hand, then it is refused, naming when and by whom", async () => {
    const request = await ask(BUDI, "100rb");
    const notice = await prove(BUDI, request);
    world.fake.tapButton(ADMIN, notice, button(notice, /^ra:/));
    await world.waitText(BUDI, /Deposit credited/);
    clock += 60 * 60 * 1000;
    const refused = await answer(
      ADMIN2,
      () => world.fake.sendText(ADMIN2, `/deposit ${BUDI.id} ${request.exact} ${request.id}`),
      /sudah dikredit/,
    );
    expect(refused.text).toContain(request.id);
    expect(refused.text).toContain("Admin <code>1001</code>");
    expect(refused.text).toMatch(/pada 26 Nov 2026,? 10[.:]00/);
    expect(refused.text).toContain("Tidak dikredit lagi");
    expect(refused.reply_markup).toBeUndefined();
    expect(await saldoOf(BUDI.id)).toBe(request.exact);
  });

  it("when an admin credits a request by hand, then its Approve does nothing and says so, a second hand credit is refused, and /status says credited by hand", async () => {
    const request = await ask(BUDI, "100rb");
    const notice = await prove(BUDI, request);
    // The button as it was shown: the notice itself loses its buttons with the decision.
    const approve = button(notice, /^ra:/);
    const summary = await answer(
      ADMIN,
      () => world.fake.sendText(ADMIN, `/deposit ${BUDI.id} ${request.exact} transfer BCA ${request.id}`),
      /Deposit<\/b> for reseller/,
    );
    expect(summary.text).toContain(`credits deposit request <code>${request.id}</code> by hand`);
    // A second summary for the same request, made before either is confirmed.
    const second = await answer(
      ADMIN2,
      () => world.fake.sendText(ADMIN2, `/deposit ${BUDI.id} ${request.exact} ${request.id}`),
      /Deposit<\/b> untuk reseller|Deposit/,
    );
    world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    await world.waitText(ADMIN, /Credited to Budi/);
    await world.waitText(BUDI, /Deposit credited/);

    // The Approve of the admins' notice credits nothing more.
    world.fake.tapButton(ADMIN, notice, approve);
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => a.text === "Already decided: credited by hand."),
    );
    // Nor does the other summary.
    world.fake.tapButton(ADMIN2, second, button(second, /^dc:/));
    const refused = await world.fake.waitForMessage(
      ADMIN2.id,
      (m) => m.message_id === second.message_id && /sudah dikredit manual/.test(m.text),
    );
    expect(refused.text).toContain("Admin <code>1001</code>");
    await world.fake.waitForIdle();
    expect(await saldoOf(BUDI.id)).toBe(request.exact);
    expect(world.fake.messagesTo(BUDI.id).filter((m) => /Deposit credited/.test(m.text))).toHaveLength(1);

    const status = await answer(BUDI, () => world.fake.sendText(BUDI, `/status ${request.id}`), /Deposit request/);
    expect(status.text).toContain("credited by hand");
    expect(status.text).toContain(`Credited: Rp ${request.exact.toLocaleString("en-US")}`);
  });

  it("when the request named is another reseller's, then the hand credit is refused and nobody is credited", async () => {
    const request = await ask(BUDI, "100rb");
    const refused = await answer(
      ADMIN,
      () => world.fake.sendText(ADMIN, `/deposit ${DEWI.id} ${request.exact} ${request.id.toLowerCase()}`),
      /not this reseller's/,
    );
    expect(refused.text).toContain("Budi <code>5005</code>");
    expect(refused.reply_markup).toBeUndefined();
    await answer(
      ADMIN,
      () => world.fake.sendText(ADMIN, `/deposit ${BUDI.id} 100rb DR0000000000000000000`),
      /no deposit request/,
    );
    expect(await saldoOf(DEWI.id)).toBe(0);
    expect(await saldoOf(BUDI.id)).toBe(0);
    // The request itself is untouched: it still waits for its proof.
    const status = await answer(BUDI, () => world.fake.sendText(BUDI, `/status ${request.id}`), /Deposit request/);
    expect(status.text).toContain("waiting for proof");
  });

  it("when an expired request is credited by hand, then it is decided as credited by hand and cannot be credited again", async () => {
    const request = await ask(DEWI, "100rb");
    clock += 25 * 60 * 60 * 1000;
    await world.waitText(DEWI, /kedaluwarsa tanpa bukti/);
    const summary = await answer(
      ADMIN,
      () => world.fake.sendText(ADMIN, `/deposit ${DEWI.id} ${request.exact} ${request.id}`),
      /Deposit<\/b> for reseller/,
    );
    world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    await world.waitText(ADMIN, /Credited to Dewi/);
    expect(await saldoOf(DEWI.id)).toBe(request.exact);
    const status = await answer(DEWI, () => world.fake.sendText(DEWI, `/status ${request.id}`), /DR/);
    expect(status.text).toContain("dikredit manual");
    const again = await answer(
      ADMIN,
      () => world.fake.sendText(ADMIN, `/deposit ${DEWI.id} ${request.exact} ${request.id}`),
      /already credited by hand/,
    );
    expect(again.text).toContain("Admin <code>1001</code>");
    expect(await saldoOf(DEWI.id)).toBe(request.exact);
  });
});
