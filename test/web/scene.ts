import { dayIn, dayPlus, dayRange } from "../../src/calendar.js";
import { createLedger } from "../../src/ledger/create-ledger.js";
import type { OrderRecord } from "../../src/orders/order.js";
import { createStorage } from "../../src/storage/storage.js";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { ADMIN, button, STAFF, type World } from "../e2e/world.js";
import { writePastOrder } from "../helpers/ledger-history.js";
import { freePort, REDIS_URL } from "../helpers/redis.js";

export const RESELLER: FakeUser = { id: 5005, first_name: "Budi", language_code: "en" };
export const RESELLER_ID: FakeUser = { id: 5006, first_name: "Dewi", language_code: "id" };
export const ADMIN_ID: FakeUser = { id: 1003, first_name: "Rina", language_code: "id" };

const HOUR_MS = 3_600_000;
/** The bot's default time zone (the scene's bot runs on it). */
const TIME_ZONE = "Asia/Jakarta";

/**
 * The last four weeks of a small shop, written through the ledger's own steps (draft, claim,
 * outcome: test/helpers/ledger-history.ts) with their past times: what the Today chart draws.
 */
async function pastSales(prefix: string, now: number): Promise<void> {
  const storage = await createStorage({ redisUrl: REDIS_URL, prefix });
  try {
    const { orders } = createLedger(storage, { timeZone: TIME_ZONE });
    let seq = 0;
    let balance = 2_400_000;
    const today = dayIn(TIME_ZONE, new Date(now));
    for (let daysAgo = 28; daysAgo >= 1; daysAgo--) {
      const sales = 3 + ((daysAgo * 7) % 9);
      // From 09:00 of that day in the shop's time zone, ten minutes apart: never on the day after,
      // whatever the hour the test runs.
      const opening = dayRange(dayPlus(today, -daysAgo), TIME_ZONE)!.fromMs + 9 * HOUR_MS;
      for (let i = 0; i < sales; i++) {
        const at = new Date(opening + i * 600_000).toISOString();
        const big = (i + daysAgo) % 3 === 0;
        const order: OrderRecord = {
          refId: `TGPAST${String(++seq).padStart(15, "0")}`,
          chatId: STAFF.id,
          userId: STAFF.id,
          userName: STAFF.first_name,
          lang: "id",
          gameName: big ? "Mobile Legends" : "Free Fire",
          productCode: big ? "ML172" : "FF70",
          productName: big ? "172 Diamonds" : "70 Diamonds",
          price: big ? 39000 : 10000,
          playerId: big ? "12345678(1234)" : "123456789",
          createdAt: at,
          role: "staff",
          state: "draft",
        };
        const cost = big ? 37500 : 9400;
        balance -= cost;
        if (balance < 300_000) balance += 2_000_000; // the shop tops up its provider account now and then
        await writePastOrder(orders, {
          draft: order,
          submittedAt: at,
          outcome: {
            state: "success",
            at,
            result: {
              sn: String(1000000 + seq),
              lastBalance: balance,
              productDetail: {
                name: order.productName,
                code: order.productCode,
                price: cost,
                rate: 1,
                priceRp: cost,
                status: "SUKSES",
              },
            },
          },
          balance,
        });
      }
    }
  } finally {
    await storage.close();
  }
}

export interface Scene {
  /** http://127.0.0.1:PORT: the page is at /app/. */
  base: string;
  /** An order whose result is unknown, waiting in Pending. */
  unknownRef: string;
}

/**
 * A shop as a phone shows it: four weeks of sales, today's orders (one unknown), two resellers
 * with deposits and an order, the bot running as in production (`node dist/main.js`) with its
 * Mini App on a port of its own.
 */
export async function shopScene(
  world: World,
  opts: { history?: boolean; env?: Record<string, string> } = {},
): Promise<Scene> {
  if (opts.history !== false) await pastSales(world.prefix, Date.now());
  const port = await freePort();
  await world.runProcess({
    ADMIN_IDS: `${ADMIN.id},${ADMIN_ID.id}`,
    ALLOWED_USER_IDS: String(STAFF.id),
    RESELLER_IDS: `${RESELLER.id},${RESELLER_ID.id}`,
    PORT: String(port),
    WEBAPP_URL: "https://shop.example.com",
    SHOP_NAME: "Toko Berkah",
    TOPUP_BASE_URL: await world.flakyProvider(),
    ...opts.env,
  });
  for (const user of [RESELLER, RESELLER_ID, ADMIN, ADMIN_ID]) {
    world.fake.sendText(user, "/start");
    await world.fake.waitForMessage(user.id, () => true);
  }
  for (const [id, amount] of [
    [RESELLER.id, "250000"],
    [RESELLER_ID.id, "100000"],
  ] as const) {
    world.fake.sendText(ADMIN, `/deposit ${id} ${amount} transfer BCA`);
    // The reseller is named beside their id (they wrote /start above).
    const summary = await world.waitText(ADMIN, new RegExp(`for reseller [^<]*<code>${id}</code>`));
    world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    await world.waitText(ADMIN, /Credited/);
  }
  await world.order(STAFF, "ML86", "12345678(1234)");
  await world.order(RESELLER, "ML172", "87654321(4321)");
  await world.order(ADMIN, "FF140", "223344556");
  const unknown = await world.order(STAFF, "FF70", "777123456");
  const unknownRef = /<code>(TG[A-Z0-9]+)<\/code>/.exec(unknown.text)![1]!;
  await world.fake.waitForIdle();
  return { base: `http://127.0.0.1:${port}`, unknownRef };
}
