import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";
import { button, createWorld, type World } from "../world.js";
import { signInitData } from "../../helpers/init-data.js";
import { freePort } from "../../helpers/redis.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const RINA: FakeUser = { id: 1003, first_name: "Rina", language_code: "id" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };

describe("a decision made anywhere shows on every notice of the request", () => {
  let world: World;
  let base: string;

  beforeEach(async () => {
    world = await createWorld();
    const port = await freePort();
    Object.assign(world.env, {
      ADMIN_IDS: `${ADMIN.id},${RINA.id}`,
      RESELLER_IDS: String(BUDI.id),
      PORT: String(port),
      WEBAPP_URL: "https://shop.example.com",
    });
    base = `http://127.0.0.1:${port}/app/api`;
  });
  afterEach(() => world.cleanup());

  /** Budi asks for 100rb and answers with a proof: each admin's notice of it, with its buttons. */
  async function requestWithProof(): Promise<{
    id: string;
    exact: number;
    notices: SentMessage[];
    approve: string[];
    reject: string[];
  }> {
    // Rina has spoken to the bot: her notices are in her language.
    world.fake.sendText(RINA, "/start");
    await world.waitText(RINA, /./);
    world.fake.sendText(ADMIN, "/payinfo BCA 1234567890 a.n. Toko Maju");
    await world.waitText(ADMIN, /instructions set/);
    world.fake.sendText(BUDI, "/deposit 100rb");
    const asked = await world.waitText(BUDI, /Deposit request/);
    const m = /<code>(DR[0-9A-Z]{19})<\/code>[\s\S]*?<b>Rp ([0-9,]+)<\/b>/.exec(asked.text)!;
    const id = m[1]!;
    world.fake.sendPhoto(BUDI, undefined, { replyTo: asked });
    await world.waitText(BUDI, /Proof received/);
    const notices = await Promise.all(
      [ADMIN, RINA].map((a) => world.fake.waitForMessage(a.id, (n) => n.method === "sendPhoto" && n.text.includes(id))),
    );
    // The buttons as they were shown (the messages themselves change with their edits).
    const approve = notices.map((n) => button(n, /^ra:/));
    const reject = notices.map((n) => button(n, /^rj:/));
    return { id, exact: Number(m[2]!.replace(/,/g, "")), notices, approve, reject };
  }

  /** The notice as it is now in its chat. */
  const now = (n: SentMessage) => world.fake.messagesTo(n.chat_id).find((m) => m.message_id === n.message_id)!;

  it("when an admin approves in the Mini App, then every admin's notice loses its buttons and says who approved and the saldo after", async () => {
    await world.run();
    const { id, exact, notices, approve } = await requestWithProof();
    const res = await request(`${base}/admin/deposit-requests/${id}/approve`, {
      method: "POST",
      headers: { authorization: `tma ${signInitData(ADMIN, world.fake.token)}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(res.statusCode).toBe(200);
    await res.body.text();

    await world.fake.waitFor(() => notices.every((n) => now(n).edits.length > 0));
    const amount = `Rp ${exact.toLocaleString("en-US")}`;
    const mine = now(notices[0]!);
    expect(mine.reply_markup).toBeUndefined();
    expect(mine.text).toContain(`Approved by Admin <code>1001</code>: ${amount} credited.`);
    expect(mine.text).toContain(`Saldo after the credit: <b>${amount}</b>`);
    expect(mine.text).not.toContain("Saldo now: Rp 0");
    // Rina reads it in her language.
    const hers = now(notices[1]!);
    expect(hers.reply_markup).toBeUndefined();
    expect(hers.text).toContain(`Disetujui oleh Admin <code>1001</code>: Rp ${exact.toLocaleString("id-ID")}`);
    expect(hers.text).toContain(`Saldo setelah dikreditkan: <b>Rp ${exact.toLocaleString("id-ID")}</b>`);

    // The old button changes nothing and edits nothing again.
    world.fake.tapButton(RINA, notices[1]!, approve[1]!);
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /Sudah diputuskan/.test(a.text ?? "")));
    await world.fake.waitForIdle();
    expect(notices.map((n) => now(n).edits.length)).toEqual([1, 1]);
    expect(world.fake.messagesTo(BUDI.id).filter((m) => /Deposit credited/.test(m.text))).toHaveLength(1);
  });

  it("when an admin rejects in the chat, then the other admin's notice loses its buttons and says who rejected", async () => {
    await world.run();
    const { id, notices, approve, reject } = await requestWithProof();
    world.fake.tapButton(ADMIN, notices[0]!, reject[0]!);
    await world.waitText(ADMIN, new RegExp(`Rejected <code>${id}</code>`));

    await world.fake.waitFor(() => notices.every((n) => now(n).edits.length > 0));
    for (const n of notices) expect(now(n).reply_markup).toBeUndefined();
    expect(now(notices[0]!).text).toContain("❌ Rejected by Admin <code>1001</code>.");
    expect(now(notices[1]!).text).toContain("❌ Ditolak oleh Admin <code>1001</code>.");

    // Rina's old Approve credits nothing.
    world.fake.tapButton(RINA, notices[1]!, approve[1]!);
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /Sudah diputuskan/.test(a.text ?? "")));
    await world.fake.waitForIdle();
    expect(world.fake.messagesTo(BUDI.id).some((m) => /Deposit credited/.test(m.text))).toBe(false);
    expect(notices.map((n) => now(n).edits.length)).toEqual([1, 1]);
  });
  it("when an admin credits the request by hand in the chat, then every admin's notice loses its buttons and says it was credited by hand", async () => {
    await world.run();
    const { id, exact, notices, approve } = await requestWithProof();
    world.fake.sendText(ADMIN, `/deposit ${BUDI.id} ${exact} ${id}`);
    const summary = await world.waitText(ADMIN, /by hand/);
    world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    await world.waitText(BUDI, /Deposit credited/);

    await world.fake.waitFor(() => notices.every((n) => now(n).edits.length > 0));
    for (const n of notices) expect(now(n).reply_markup).toBeUndefined();
    const amount = `Rp ${exact.toLocaleString("en-US")}`;
    expect(now(notices[0]!).text).toContain(`Credited by hand by Admin <code>1001</code>: ${amount}.`);
    expect(now(notices[0]!).text).toContain(`Saldo after the credit: <b>${amount}</b>`);
    expect(now(notices[1]!).text).toContain("Dikreditkan manual oleh Admin <code>1001</code>");

    // Rina's old Approve credits nothing more.
    world.fake.tapButton(RINA, notices[1]!, approve[1]!);
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /Sudah diputuskan/.test(a.text ?? "")));
    await world.fake.waitForIdle();
    expect(world.fake.messagesTo(BUDI.id).filter((m) => /Deposit credited/.test(m.text))).toHaveLength(1);
    expect(notices.map((n) => now(n).edits.length)).toEqual([1, 1]);
  });
});
