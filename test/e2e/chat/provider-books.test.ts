import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SandboxProvider } from "../../../src/topup/sandbox.js";
import { addBackup, BACKUP_SECRET, routedCatalog } from "../backup.js";
import { ADMIN, MITRA, SECRET, STAFF, staffWorld, type World } from "../world.js";

/*
 * Each provider's books: the world's sandbox is `main`, a second sandbox is `backup`. ML86 is routed
 * to main under a code main does not sell (so it is refused and goes on) and then to the backup:
 * every ML86 is the backup's, every other product main's.
 */

const refOf = (text: string) => /(?:Order ref|Ref pesanan|Ref id|Ref ID): <code>([A-Z0-9]+)<\/code>/i.exec(text)![1]!;

describe("each provider's books: balances, alerts, report lines and settling at the provider", () => {
  let world: World;
  let backup: SandboxProvider;

  beforeEach(async () => {
    world = await staffWorld();
    backup = await addBackup(world, { products: [{ code: "MLBB86", name: "86 Diamonds", priceRp: 19_000 }] });
  });
  afterEach(async () => {
    await world.cleanup();
    const logs = world.bots.map((b) => b.output()).join("\n");
    expect(logs).not.toContain(BACKUP_SECRET);
    expect(world.fake.allOutgoingText()).not.toContain(BACKUP_SECRET);
  });

  it("when both providers sold, then /balance lists each one's balance and /report gives each one's orders, cost and margin", async () => {
    await world.run({ CATALOG_FILE: await routedCatalog("MLBB86") });
    world.fake.sendText(ADMIN, "/balance");
    const before = await world.waitText(ADMIN, /Partner balances/);
    expect(before.text).toContain("main: no sale yet");
    expect(before.text).toContain("backup: no sale yet");

    const atBackup = await world.order(ADMIN, "ML86", "12345678(1234)"); // backup: 20,000 sold, 19,000 cost
    const atMain = await world.order(ADMIN, "FF70", "123456789"); // main: 10,000 sold, 9,500 cost
    expect(atBackup.text).toMatch(/Top-up successful/);
    expect(atMain.text).toMatch(/Top-up successful/);

    world.fake.sendText(ADMIN, "/balance");
    const after = await world.waitText(ADMIN, /Partner balances[\s\S]*Rp 981,000/);
    expect(after.text).toContain(`backup: <b>Rp 981,000</b>`);
    expect(after.text).toContain(refOf(atBackup.text));
    expect(after.text).toContain(`main: <b>Rp ${new Intl.NumberFormat("en-US").format(world.sandbox.balance())}</b>`);
    expect(after.text).toContain(refOf(atMain.text));

    world.fake.sendText(ADMIN, "/report");
    const report = await world.waitText(ADMIN, /Sales report/);
    expect(report.text).toContain("By provider");
    expect(report.text).toContain("backup: 1 order · sold Rp 20,000 − cost Rp 19,000 = Rp 1,000");
    expect(report.text).toContain("main: 1 order · sold Rp 10,000 − cost Rp 9,500 = Rp 500");

    // The owner's top list over the day says the same.
    world.fake.sendText(ADMIN, "/top");
    const top = await world.waitText(ADMIN, /By provider/);
    expect(top.text).toContain("backup: 1 order · sold Rp 20,000 − cost Rp 19,000 = Rp 1,000");
  });

  it("when a sale takes the backup below its own threshold, then the admins are alerted once, naming backup and its threshold; main's sales alert nobody", async () => {
    await world.run({ CATALOG_FILE: await routedCatalog("MLBB86"), TOPUP_BACKUP_LOW_BALANCE: "990000" });
    await world.order(STAFF, "FF70", "123456789"); // main: no threshold of its own here
    await world.order(STAFF, "ML86", "12345678(1234)"); // backup: 981,000 < 990,000
    const alert = await world.waitText(ADMIN, /Low balance/);
    expect(alert.text).toContain("Rp 981,000");
    expect(alert.text).toContain("Rp 990,000");
    expect(alert.text).toContain("Provider: <b>backup</b>");
    await world.order(STAFF, "ML86", "22345678(1234)"); // still below: no second alert
    await world.order(STAFF, "FF70", "223456789");
    expect(world.fake.messagesTo(ADMIN.id).filter((m) => /Low balance/.test(m.text))).toHaveLength(1);
  });

  it("when the backup's deposit is empty and it was the last route, then the order fails and the empty-deposit alert names backup", async () => {
    backup.deposit(-backup.balance());
    await world.run({ CATALOG_FILE: await routedCatalog("MLBB86") });
    const failed = await world.order(STAFF, "ML86", "12345678(1234)");
    expect(failed.text).toMatch(/gagal/i);
    const alert = await world.waitText(ADMIN, /deposit with the provider is empty/);
    expect(alert.text).toContain("balance/insufficient");
    expect(alert.text).toContain("Provider: <b>backup</b>");
    // main sold nothing and is not said to be empty.
    expect(
      world.fake.messagesTo(ADMIN.id).filter((m) => /deposit with the provider is empty/.test(m.text)),
    ).toHaveLength(1);
  });

  it("when an order is unknown at the backup, then /pending names backup and its attempt's ref id, /settle takes that ref id, and its cost counts under backup", async () => {
    const slow = await world.slowSandbox(2_500); // sells ML86 at 19,500
    Object.assign(world.env, {
      TOPUP_BACKUP_BASE_URL: slow.url,
      TOPUP_BACKUP_MITRA_ID: MITRA,
      TOPUP_BACKUP_SECRET_KEY: SECRET,
      TOPUP_BACKUP_TIMEOUT_MS: "1000",
    });
    await world.run({ CATALOG_FILE: await routedCatalog("ML86") });
    const held = await world.order(ADMIN, "ML86", "12345678(1234)");
    const refId = refOf(held.text);
    expect(slow.calls).toMatchObject([{ refId: `${refId}R2`, itemCode: "ML86" }]);
    expect((await world.bots[0]!.app!.ledger.get(refId))?.state).toBe("unknown");

    world.fake.sendText(ADMIN, "/pending");
    const line = await world.waitText(ADMIN, new RegExp(`<code>${refId}</code> ·`));
    expect(line.text).toContain(`Provider: <b>backup</b>, ref id there <code>${refId}R2</code>`);

    world.fake.sendText(ADMIN, `/settle ${refId.toLowerCase()}r2 success SN998877 19500`);
    const done = await world.waitText(ADMIN, /is settled as/);
    expect(done.text).toContain(`<code>${refId}</code>`);
    expect(done.text).toContain(`Provider: <b>backup</b>, ref id there <code>${refId}R2</code>`);

    world.fake.sendText(ADMIN, "/report");
    const report = await world.waitText(ADMIN, /Sales report/);
    expect(report.text).toContain("backup: 1 order · sold Rp 20,000 − cost Rp 19,500 = Rp 500");
    expect(report.text).not.toMatch(/main: \d+ orders?/);

    // /status finds the order by the attempt's ref id too.
    world.fake.sendText(ADMIN, `/status ${refId}R2`);
    await world.waitText(ADMIN, new RegExp(`${refId}[\\s\\S]*SN998877`));
  });
});
