import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { createWorld, type RunningBot, type World } from "../e2e/world.js";
import { freePort } from "../helpers/redis.js";
import { writePastDeposit } from "../helpers/ledger-history.js";

/** A Mobile Legends player id of the sample catalogue; one starting 777 gets no answer from the provider. */
const PLAYER = "12345678(1234)";
const NO_ANSWER = (n: number) => `7770000${n}(1234)`;
const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const BUDI: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };
const DEWI: FakeUser = { id: 5006, first_name: "Dewi", language_code: "en" };

interface Answer {
  status: number;
  body: Record<string, unknown> & { status: number; error_code?: string; error_msg?: string; data?: any };
}

interface Mutation {
  time: string;
  kind: string;
  amount: number;
  balance_after: number;
  ref_id?: string;
  trx_id?: string;
  note?: string;
}

describe("the H2H API's books: a partner reconciles a day from its transactions and mutations", () => {
  let world: World;
  let bot: RunningBot;
  let base: string;
  /** The shop's clock (the orders' and movements' times); Jakarta is UTC+7. */
  let clock = 0;
  let keys: Map<number, { mitraId: string; secretKey: string }>;

  beforeEach(async () => {
    world = await createWorld({ initialBalance: 100_000_000 });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    clock = Date.parse("2026-03-09T15:00:00.000Z");
    bot = await world.run(
      {
        ADMIN_IDS: String(ADMIN.id),
        RESELLER_IDS: `${BUDI.id},${DEWI.id}`,
        H2H_ENABLED: "true",
        H2H_RATE_LIMIT: "1000",
        PORT: String(port),
        TZ: "Asia/Jakarta",
        TOPUP_BASE_URL: await world.flakyProvider(),
      },
      { now: () => new Date(clock) },
    );
    keys = new Map();
    for (const user of [BUDI, DEWI]) keys.set(user.id, await bot.app!.partners.issue(user.id, clock));
  });
  afterEach(async () => {
    await world.cleanup();
  });

  async function get(path: string, params: Record<string, string | string[]>, method = "GET"): Promise<Answer> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) q.append(k, one);
    const res = await fetch(`${base}${path}?${q.toString()}`, { method });
    return { status: res.status, body: (await res.json()) as Answer["body"] };
  }
  const creds = (user: FakeUser) => ({
    mitra_id: keys.get(user.id)!.mitraId,
    secret_key: keys.get(user.id)!.secretKey,
  });
  const order = (user: FakeUser, ref: string, destination = PLAYER) =>
    get("/v1/transaction/partner", { destination, ref_id: ref, item_code: "ML86", ...creds(user) });
  const deposit = (user: FakeUser, id: string, amount: number, note = "") =>
    writePastDeposit(
      bot.app!.wallets,
      { id, resellerId: user.id, amount, note, adminId: ADMIN.id, chatId: ADMIN.id, createdAt: at() },
      { at: at() },
    );
  const at = () => new Date(clock).toISOString();
  const transactions = (user: FakeUser, date: string, page?: number) =>
    get("/v1/transactions", { date, ...(page === undefined ? {} : { page: String(page) }), ...creds(user) });
  const mutations = (user: FakeUser, date: string, page?: number) =>
    get("/v1/mutations", { date, ...(page === undefined ? {} : { page: String(page) }), ...creds(user) });

  it("lists each day's orders and saldo movements in the shop's time zone, and they add up to the saldo", async () => {
    await deposit(BUDI, "DEPA1", 200_000);
    await deposit(DEWI, "DEPB1", 100_000);
    // 23:59:59.999 in Jakarta: the 9th.
    clock = Date.parse("2026-03-09T16:59:59.999Z");
    const late = (await order(BUDI, "INV-LATE")).body.data;
    // Midnight in Jakarta: the 10th.
    clock = Date.parse("2026-03-09T17:00:00.000Z");
    const early = (await order(BUDI, "INV-EARLY")).body.data;
    clock += 1000;
    await deposit(BUDI, "DEPA2", 50_000, "BCA 10/3");
    clock += 1000;
    await order(BUDI, "PEND-1", NO_ANSWER(1));
    clock += 1000;
    await order(BUDI, "FAIL-1", NO_ANSWER(2));
    await order(DEWI, "DEWI-1");
    clock += 1000;
    // The admin found FAIL-1 failed at the provider: its price comes back to the saldo.
    const failRef = (await bot.app!.ledger.partnerOrder(BUDI.id, "FAIL-1"))!;
    const settled = await bot.app!.orders.settle({
      refId: failRef,
      adminId: ADMIN.id,
      outcome: { state: "failed", reason: "refused by the provider" },
    });
    expect(settled.kind).toBe("settled");
    clock += 1000;
    // An order placed in the chat is the reseller's too: listed, without a partner's ref id.
    const receipt = await world.order(BUDI, "ML86", PLAYER);
    expect(receipt.text).toMatch(/SN/);
    // The next day starts at midnight in Jakarta, 17:00 UTC.
    clock = Date.parse("2026-03-10T17:00:00.000Z");
    await order(BUDI, "INV-NEXT");

    const ninth = await transactions(BUDI, "2026-03-09");
    expect(ninth.body).toEqual({
      status: 1,
      data: {
        date: "2026-03-09",
        page: 1,
        pages: 1,
        total: 1,
        items: [
          {
            ref_id: "INV-LATE",
            trx_id: late.trx_id,
            code: "ML86",
            destination: PLAYER,
            price: 19_800,
            state: "success",
            sn: late.sn,
            time: "2026-03-09T16:59:59.999Z",
          },
        ],
      },
    });

    const tenth = (await transactions(BUDI, "2026-03-10")).body.data;
    expect(tenth).toMatchObject({ date: "2026-03-10", page: 1, pages: 1, total: 4 });
    const items = tenth.items as Array<Record<string, unknown>>;
    expect(items.map((t) => [t.ref_id, t.state, t.time])).toEqual([
      ["INV-EARLY", "success", "2026-03-09T17:00:00.000Z"],
      ["PEND-1", "pending", "2026-03-09T17:00:02.000Z"],
      ["FAIL-1", "failed", "2026-03-09T17:00:03.000Z"],
      ["", "success", "2026-03-09T17:00:05.000Z"],
    ]);
    expect(items[0]).toMatchObject({ trx_id: early.trx_id, sn: early.sn, price: 19_800, destination: PLAYER });
    expect(items[1]).toMatchObject({ sn: "", destination: NO_ANSWER(1), price: 19_800 });
    expect(items[2]).toMatchObject({ sn: "", destination: NO_ANSWER(2) });
    // A trx id is the one the status answer gives for the same order.
    const status = await get("/v1/transaction/status", { ref_id: "INV-EARLY", ...creds(BUDI) });
    expect(status.body.data.trx_id).toBe(items[0]!.trx_id);
    for (const t of items) expect(t.trx_id).toMatch(/^[A-Z0-9]+-\d{6}-\d+$/);
    expect((await transactions(BUDI, "2026-03-11")).body.data.items.map((t: { ref_id: string }) => t.ref_id)).toEqual([
      "INV-NEXT",
    ]);
    // Another partner's orders never show: Dewi sees her own only.
    expect((await transactions(DEWI, "2026-03-10")).body.data.items.map((t: { ref_id: string }) => t.ref_id)).toEqual([
      "DEWI-1",
    ]);

    const days = ["2026-03-09", "2026-03-10", "2026-03-11"];
    const moves: Mutation[][] = [];
    for (const day of days) moves.push((await mutations(BUDI, day)).body.data.items as Mutation[]);
    expect(moves[0]).toEqual([
      { time: "2026-03-09T15:00:00.000Z", kind: "deposit", amount: 200_000, balance_after: 200_000, note: "DEPA1" },
      {
        time: "2026-03-09T16:59:59.999Z",
        kind: "order",
        amount: -19_800,
        balance_after: 180_200,
        ref_id: "INV-LATE",
        trx_id: late.trx_id,
      },
    ]);
    expect(moves[1]!.map((m) => [m.kind, m.amount, m.ref_id ?? m.note])).toEqual([
      ["order", -19_800, "INV-EARLY"],
      ["deposit", 50_000, "DEPA2 BCA 10/3"],
      ["order", -19_800, "PEND-1"],
      ["order", -19_800, "FAIL-1"],
      ["refund", 19_800, "FAIL-1"],
      ["order", -19_800, ""],
    ]);
    expect(moves[1]![5]!.trx_id).toBe(items[3]!.trx_id);
    expect(moves[2]!.map((m) => [m.kind, m.ref_id])).toEqual([["order", "INV-NEXT"]]);
    // Read down the days, each saldo is the one before plus the amount, and the last is the saldo now.
    let saldo = 0;
    for (const m of moves.flat()) {
      saldo += m.amount;
      expect(m.balance_after).toBe(saldo);
    }
    const balance = (await get("/v1/balance", creds(BUDI))).body.data;
    expect(balance).toEqual({ balance: saldo, held: 19_800 });
    expect(saldo).toBe(200_000 + 50_000 - 5 * 19_800);

    // A day with nothing: no pages.
    expect((await transactions(BUDI, "2026-03-08")).body.data).toEqual({
      date: "2026-03-08",
      page: 1,
      pages: 0,
      total: 0,
      items: [],
    });
    expect((await mutations(BUDI, "2026-03-12")).body.data).toMatchObject({ pages: 0, total: 0, items: [] });
  });

  it("pages a busy day by 100, oldest first, and a page past the end is empty", async () => {
    clock = Date.parse("2026-03-10T01:00:00.000Z");
    await deposit(BUDI, "DEPA1", 3_000_000);
    const refs = Array.from({ length: 101 }, (_, i) => `BULK-${String(i).padStart(3, "0")}`);
    for (let i = 0; i < refs.length; i += 10) {
      clock += 1000;
      const batch = await Promise.all(refs.slice(i, i + 10).map((ref) => order(BUDI, ref)));
      for (const a of batch) expect(a.body.status).toBe(1);
    }
    const first = (await transactions(BUDI, "2026-03-10")).body.data;
    const second = (await transactions(BUDI, "2026-03-10", 2)).body.data;
    expect(first).toMatchObject({ page: 1, pages: 2, total: 101 });
    expect(second).toMatchObject({ page: 2, pages: 2, total: 101 });
    expect(first.items).toHaveLength(100);
    expect(second.items).toHaveLength(1);
    const all = [...first.items, ...second.items] as Array<{ ref_id: string; time: string; state: string }>;
    expect(new Set(all.map((t) => t.ref_id))).toEqual(new Set(refs));
    const times = all.map((t) => Date.parse(t.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(all.every((t) => t.state === "success")).toBe(true);
    expect((await transactions(BUDI, "2026-03-10", 3)).body.data).toEqual({
      date: "2026-03-10",
      page: 3,
      pages: 2,
      total: 101,
      items: [],
    });

    // The deposit and 101 orders: 102 movements over two pages, adding up to the saldo.
    const m1 = (await mutations(BUDI, "2026-03-10")).body.data;
    const m2 = (await mutations(BUDI, "2026-03-10", 2)).body.data;
    expect(m1).toMatchObject({ pages: 2, total: 102 });
    const moves = [...m1.items, ...m2.items] as Mutation[];
    expect(moves).toHaveLength(102);
    expect(moves[0]).toMatchObject({ kind: "deposit", amount: 3_000_000 });
    const sum = moves.reduce((s, m) => s + m.amount, 0);
    expect(moves.at(-1)!.balance_after).toBe(sum);
    expect((await get("/v1/balance", creds(BUDI))).body.data.balance).toBe(sum);
    expect(new Set(moves.slice(1).map((m) => m.ref_id))).toEqual(new Set(refs));
  });

  it("refuses a date or page that is not one, and other methods", async () => {
    const cases: Array<[Record<string, string | string[]>, RegExp]> = [
      [{}, /date is missing/],
      [{ date: "" }, /date/],
      [{ date: "2026-02-30" }, /date/],
      [{ date: "2026-3-01" }, /date/],
      [{ date: "20260301" }, /date/],
      [{ date: "2026-03-01T00:00" }, /date/],
      [{ date: ["2026-03-01", "2026-03-02"] }, /date/],
      [{ date: "2026-03-01", page: "0" }, /page/],
      [{ date: "2026-03-01", page: "-1" }, /page/],
      [{ date: "2026-03-01", page: "1.5" }, /page/],
      [{ date: "2026-03-01", page: "two" }, /page/],
      [{ date: "2026-03-01", page: "" }, /page/],
      [{ date: "2026-03-01", page: ["1", "2"] }, /page/],
    ];
    for (const path of ["/v1/transactions", "/v1/mutations"]) {
      for (const [params, words] of cases) {
        const a = await get(path, { ...params, ...creds(BUDI) });
        const what = `${path} ${JSON.stringify(params)}`;
        expect(a.status, what).toBe(200);
        expect(a.body, what).toMatchObject({ status: 0, error_code: "request/invalid-parameter" });
        expect(a.body.error_msg, what).toMatch(words);
      }
      const wrong = await get(path, { date: "2026-03-01", ...creds(BUDI), secret_key: "wrong" });
      expect(wrong.body).toMatchObject({ status: 0, error_code: "auth/invalid-credentials" });
      const post = await get(path, { date: "2026-03-01", ...creds(BUDI) }, "POST");
      expect(post.status).toBe(405);
      expect(post.body).toMatchObject({ status: 0, error_code: "request/method-not-allowed" });
      // A leap day is a day.
      expect((await get(path, { date: "2028-02-29", ...creds(BUDI) })).body.status).toBe(1);
    }
    expect(bot.output()).not.toContain(keys.get(BUDI.id)!.secretKey);
  });
});
