import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PNG } from "pngjs";
import { createAccess } from "../../src/access/access.js";
import { createPeople } from "../../src/access/people.js";
import { createUserList } from "../../src/access/user-list.js";
import { loadTexts, translator } from "../../src/bot/i18n.js";
import { drawRecap, recapText } from "../../src/bot/notices/recap.js";
import { createDepositRequestStore } from "../../src/deposits/request-store.js";
import { createLedger } from "../../src/ledger/create-ledger.js";
import type { Ledger } from "../../src/orders/ledger.js";
import type { OrderRecord } from "../../src/orders/order.js";
import { RECAP_PICTURE_WIDTH } from "../../src/pictures/recap-picture.js";
import { recapFigures, type RecapFigures } from "../../src/reports/recap.js";
import { createReports, type Reports } from "../../src/reports/reports.js";
import type { Storage } from "../../src/storage/storage.js";
import { draft, TEST_CATALOG } from "../orders/fixtures.js";
import { writePastDeposit, writePastOrder } from "../helpers/ledger-history.js";
import { redisStorage } from "../helpers/redis.js";

const TZ = "Asia/Jakarta";
/** "Now": Thursday 2026-03-12, 21:00 in Jakarta, when the recap is due. */
const NOW = new Date("2026-03-12T14:00:00Z");
const BUDI = { userId: 3001, userName: "Budi", role: "reseller" as const, tier: "reseller" };
const DEWI = { userId: 3002, userName: "Dewi", role: "reseller" as const, tier: "gold" };
const SARI = { userId: 501, userName: "Sari", role: "staff" as const };
const ML86 = { gameName: "Mobile Legends", productCode: "ML86", productName: "86 Diamonds" };
const FF70 = { gameName: "Free Fire", productCode: "FF70", productName: "70 Diamonds" };

let seq = 0;

describe("the evening recap's figures, against a day made by hand", () => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let ledger: Ledger;
  let reports: Reports;

  /** An order submitted at `at` (Jakarta wall clock): success at `cost`, settled without a cost, failed, or still unknown. */
  async function sale(
    at: string,
    who: typeof BUDI | typeof DEWI | typeof SARI,
    product: typeof ML86 | typeof FF70,
    price: number,
    cost: number | "unpriced" | "failed" | "unknown",
    balance?: number,
  ): Promise<OrderRecord> {
    const submittedAt = new Date(`${at}:00+07:00`).toISOString();
    const order = draft({
      ...who,
      chatId: who.userId,
      ...product,
      price,
      refId: `TGR${String(++seq).padStart(6, "0")}`,
      createdAt: submittedAt,
    });
    const done = new Date(Date.parse(submittedAt) + 5_000).toISOString();
    const past = { draft: order, submittedAt };
    if (cost === "failed")
      return writePastOrder(ledger.orders, {
        ...past,
        outcome: { state: "failed", at: done, result: { reason: "provider-error", errorCode: "x" } },
      });
    if (cost === "unknown" || cost === "unpriced")
      return writePastOrder(ledger.orders, {
        ...past,
        outcome: { state: "unknown", at: done, result: { reason: "timeout" } },
        ...(cost === "unpriced"
          ? { settlement: { state: "success" as const, at: done, adminId: 1, result: { sn: "S" } } }
          : {}),
      });
    const detail = { name: product.productName, code: product.productCode, price: cost, rate: 1, priceRp: cost };
    return writePastOrder(ledger.orders, {
      ...past,
      ...(balance === undefined ? {} : { balance }),
      outcome: { state: "success", at: done, result: { sn: "S", productDetail: { ...detail, status: "SUKSES" } } },
    });
  }

  beforeEach(async () => {
    seq = 0;
    ({ storage, cleanup } = await redisStorage("recap"));
    ledger = createLedger(storage, { timeZone: TZ });
    reports = createReports({
      ledger: ledger.orders,
      partnerUsers: async () => [],
      wallets: ledger.wallets,
      requests: createDepositRequestStore(storage),
      access: createAccess({
        users: createUserList(storage),
        adminIds: [1],
        allowedUserIds: [SARI.userId],
        resellerIds: [BUDI.userId, DEWI.userId],
        now: () => NOW,
      }),
      people: createPeople(storage),
      shop: { state: async () => ({ catalog: TEST_CATALOG }) as never, catalog: async () => TEST_CATALOG },
      timeZone: TZ,
      refIdPrefix: "TG",
      providers: ["main"],
      now: () => NOW,
    });
    const deposit = (r: typeof BUDI, amount: number, wall: string) => {
      const at = new Date(`${wall}:00+07:00`).toISOString();
      const d = {
        id: `DPR${r.userId}${wall.slice(8, 10)}`,
        resellerId: r.userId,
        amount,
        note: "",
        adminId: 1,
        chatId: 1,
      };
      return writePastDeposit(ledger.wallets, { ...d, createdAt: at }, { at });
    };
    await deposit(BUDI, 1_000_000, "2026-03-01T08:00");
    await deposit(DEWI, 500_000, "2026-03-01T08:00");
    // Outside the week (the 5th is the eighth day back): in no bar.
    await sale("2026-03-05T10:00", SARI, ML86, 20_000, 18_000);
    await sale("2026-03-06T00:05", SARI, ML86, 20_000, 17_000);
    await sale("2026-03-10T13:00", BUDI, ML86, 19_000, 18_000);
    // The day: two priced sales, one settled without a provider price, one failed, one unknown.
    await sale("2026-03-12T09:00", BUDI, ML86, 19_000, 18_000, 4_321_000);
    await sale("2026-03-12T09:30", DEWI, FF70, 9_800, 9_000);
    await sale("2026-03-12T10:00", DEWI, FF70, 9_800, "unpriced");
    await sale("2026-03-12T11:00", BUDI, FF70, 9_500, "failed");
    await sale("2026-03-12T12:00", SARI, ML86, 20_000, "unknown");
    await deposit(BUDI, 50_000, "2026-03-12T15:00");
    // Tomorrow's first minutes belong to tomorrow.
    await sale("2026-03-13T00:01", SARI, ML86, 20_000, 18_000);
  });
  afterEach(() => cleanup());

  const figuresOf = () => recapFigures({ reports, ledger: ledger.orders }, "2026-03-12");

  it("when the recap of a day is made, then it holds the day's outcomes, revenue, margin, deposits, what is owed, the balance, the pending orders", async () => {
    const r = await figuresOf();
    expect(r.orders).toEqual({ total: 5, success: 3, failed: 1, unknown: 1, submitting: 0 });
    expect(r.selling).toBe(19_000 + 9_800 + 9_800);
    // The sale settled without a provider price is left out of the margin, and counted apart.
    expect(r.margin).toBe(19_000 - 18_000 + (9_800 - 9_000));
    expect(r.unpriced).toEqual({ count: 1, selling: 9_800 });
    expect(r.deposits).toBe(50_000);
    // Budi 1,000,000 + 50,000 − 19,000 × 2; Dewi 500,000 − 9,800 × 2 (the failed order's hold came back).
    expect(r.owed).toEqual({ saldo: 1_492_400, held: 0, total: 1_492_400 });
    expect(r.balances).toEqual([{ provider: "main", balance: expect.objectContaining({ balance: 4_321_000 }) }]);
    expect(r.pending.count).toBe(1);
    expect(r.pending.oldest).toEqual([{ refId: "TGR000008", at: "2026-03-12T05:00:00.000Z" }]);
  });

  it("when the recap of a day is made, then its week is the day and the six before it, the same figures per day", async () => {
    const r = await figuresOf();
    expect(r.week.map((p) => [p.day, p.sales, p.margin])).toEqual([
      ["2026-03-06", 1, 3_000],
      ["2026-03-07", 0, 0],
      ["2026-03-08", 0, 0],
      ["2026-03-09", 0, 0],
      ["2026-03-10", 1, 1_000],
      ["2026-03-11", 0, 0],
      ["2026-03-12", 3, 1_800],
    ]);
  });

  it("when the recap is written for the admins, then each language reads the figures, late says when it was due", async () => {
    const r = await figuresOf();
    const texts = loadTexts();
    const en = recapText(translator(texts, "en"), "en", r, { day: r.day, late: { dueAt: "21:00" } });
    expect(en).toContain("Recap of Thu, 12 Mar 2026");
    expect(en).toContain("Late: due 21:00");
    expect(en).toContain("Orders: 5 (✅ 3 · ❌ 1 · ⚠️ 1 · ⏳ 0)");
    expect(en).toContain("Revenue: <b>Rp 38,600</b>");
    expect(en).toContain("Margin: <b>Rp 1,800</b>");
    expect(en).toContain("Deposits credited: Rp 50,000");
    expect(en).toContain("Provider balance: Rp 4,321,000");
    expect(en).toContain("Owed to resellers: <b>Rp 1,492,400</b> (saldo Rp 1,492,400 · held Rp 0)");
    expect(en).toContain("Pending orders: <b>1</b>, oldest <code>TGR000008</code>");
    const id = recapText(translator(texts, "id"), "id", r, { day: r.day, late: undefined });
    expect(id).toContain("Omzet: <b>Rp 38.600</b>");
    expect(id).not.toContain("Terlambat");
  });

  it("when the recap's picture is drawn, then it is a phone-sized PNG that is not blank", async () => {
    const r: RecapFigures = await figuresOf();
    const png = await drawRecap(translator(loadTexts(), "id"), "id", r, { day: r.day, late: undefined }, "Toko Budi");
    const image = PNG.sync.read(png);
    expect(image.width).toBe(RECAP_PICTURE_WIDTH * 2);
    expect(image.height).toBeGreaterThan(1000);
    // Not blank: many pixels differ from the white paper, and the day's bar is in its blue.
    let inked = 0;
    let blue = 0;
    for (let i = 0; i < image.data.length; i += 4) {
      const [red, green, b] = [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
      if (red < 200 || green < 200 || b < 200) inked += 1;
      if (red === 0x2f && green === 0x6f && b === 0xed) blue += 1;
    }
    expect(inked).toBeGreaterThan(image.width * image.height * 0.02);
    expect(blue).toBeGreaterThan(1000);
  });
});
