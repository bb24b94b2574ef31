/**
 * Redis per Confirm: with one chat and nothing else going on, the Redis round trips and commands
 * of the Confirm update, of a staff member's order and of a reseller's (paid from the saldo).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createLedger } from "../src/ledger/create-ledger.js";
import { createStorage } from "../src/storage/storage.js";
import type { FakeUser } from "../test/e2e/fake-bot-api.js";
import { writePastDeposit } from "../test/helpers/ledger-history.js";
import { launch, shutdown, type Harness } from "./bots.js";
import { confirmData, isSummary, lastId, newer, orderFlow, userRange } from "./chat-driver.js";
import { probe } from "./processes.js";
import { commandsBetween, commandsByName, redisInfo } from "./redis-info.js";
import { CONFIRM_SAMPLES, REDIS_URL, RUN_PREFIX } from "./settings.js";

export interface ConfirmResult {
  roundTrips: number[];
  commands: number[];
  byName: Array<Record<string, number>>;
}

/**
 * One chat, nothing else going on: Redis round trips and commands of the Confirm update, of a staff
 * member's order or of a reseller's (paid from a saldo credited through the ledger beforehand).
 */
export async function confirmProbe(h: Harness, buyer: "staff" | "reseller" = "staff"): Promise<ConfirmResult> {
  const user: FakeUser = { id: buyer === "staff" ? 600_000 : 610_000, first_name: "Probe", language_code: "en" };
  const warm = userRange(user.id + 1, 3);
  const prefix = `${RUN_PREFIX}confirm-${buyer}:`;
  const run = await launch(h, "ours", buyer === "staff" ? [user, ...warm] : warm, prefix, {
    probe: true,
    ...(buyer === "reseller" ? { resellers: [user] } : {}),
  });
  const { watch, proc } = run;
  const { fake } = watch;
  if (buyer === "reseller") await creditSaldo(prefix, user.id, 10_000_000);
  for (const u of warm) await orderFlow(watch, u);
  const res: ConfirmResult = { roundTrips: [], commands: [], byName: [] };
  for (let i = 0; i < CONFIRM_SAMPLES; i++) {
    let base = fake.sendText(user, `/order ML86 12345678(1234)`).message!.message_id;
    const summary = await watch.wait(user.id, () => newer(fake, user.id, base, isSummary), "summary");
    await sleep(300);
    const redisBefore = await redisInfo(h.redis);
    const before = await probe(proc);
    base = lastId(fake, user.id);
    fake.tapButton(user, summary, confirmData(summary));
    await watch.wait(user.id, () => newer(fake, user.id, base, (m) => /Top-up successful/.test(m.text)), "result");
    await sleep(300);
    const after = await probe(proc);
    const redisAfter = await redisInfo(h.redis);
    res.roundTrips.push(after.redisRoundTrips - before.redisRoundTrips);
    res.commands.push(commandsBetween(redisBefore, redisAfter));
    res.byName.push(commandsByName(redisBefore, redisAfter));
  }
  await shutdown(run);
  return res;
}

/** A deposit for a reseller, through the ledger's own steps (as /deposit and its Confirm take them). */
async function creditSaldo(prefix: string, userId: number, amount: number): Promise<void> {
  const storage = await createStorage({ redisUrl: REDIS_URL, prefix });
  try {
    const { wallets } = createLedger(storage);
    const at = new Date().toISOString();
    const deposit = { id: `DPBENCH${Date.now()}`, resellerId: userId, amount, note: "bench", adminId: 1, chatId: 1 };
    await writePastDeposit(wallets, { ...deposit, createdAt: at }, { at });
  } finally {
    await storage.close();
  }
}
