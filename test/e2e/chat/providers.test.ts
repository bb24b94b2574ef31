import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SandboxProvider } from "../../../src/topup/sandbox.js";
import { freePort } from "../../helpers/redis.js";
import { addBackup, BACKUP_SECRET, routedCatalog } from "../backup.js";
import { ADMIN, button, STAFF, staffWorld, type World } from "../world.js";

/*
 * Two providers over real HTTP: the world's sandbox is `main`, a second sandbox is `backup`. Each
 * counts the calls it got, so every test can say which provider was asked, and how often.
 */

describe("several providers: failover, no failover on an unknown result, resting and coming back", () => {
  let world: World;
  let backup: SandboxProvider;
  let t = Date.parse("2026-11-28T09:00:00Z");
  const clock = () => new Date(t);

  beforeEach(async () => {
    world = await staffWorld();
    t = Date.parse("2026-11-28T09:00:00Z");
    backup = await addBackup(world);
  });
  afterEach(async () => {
    await world.cleanup();
    const logs = world.bots.map((b) => b.output()).join("\n");
    expect(logs).not.toContain(BACKUP_SECRET);
  });

  const refOf = (text: string) => /(?:Order ref|Ref pesanan): <code>([A-Z0-9]+)<\/code>/.exec(text)![1]!;

  it("a refusal that bought nothing goes to the next route under its own code: one order, one success, its first ref id everywhere", async () => {
    await world.run({ CATALOG_FILE: await routedCatalog() });
    const summary = await world.summaryFor(ADMIN, "ML86", "12345678(1234)");
    const refId = refOf(summary.text);
    world.fake.tapButton(ADMIN, summary, button(summary, /Confirm/));
    const result = await world.waitText(ADMIN, /Top-up successful/);
    expect(result.text).toContain(`Ref id: <code>${refId}</code>`);
    // main was asked under its route's code and refused; backup sold it under its own, with a new ref id.
    expect(world.sandbox.calls).toMatchObject([
      { refId, itemCode: "NOPE86", outcome: "error", errorCode: "product/not-found" },
    ]);
    expect(backup.calls).toMatchObject([{ refId: `${refId}R2`, itemCode: "MLBB86", outcome: "success" }]);
    const order = await world.bots[0]!.app!.ledger.get(refId);
    expect(order).toMatchObject({
      state: "success",
      attempt: { provider: "backup", code: "MLBB86", refId: `${refId}R2` },
      refused: [{ provider: "main", code: "NOPE86", refId, errorCode: "product/not-found" }],
    });
  });

  it("a timeout is never sent to another provider: the order is held as unknown, the backup never hears of it", async () => {
    const slow = await world.slowSandbox(2_500);
    await world.run({ TOPUP_BASE_URL: slow.url, TOPUP_TIMEOUT_MS: "1000" });
    const summary = await world.summaryFor(STAFF, "ML86", "12345678(1234)");
    world.fake.tapButton(STAFF, summary, button(summary, /Konfirmasi/));
    await world.waitText(STAFF, /belum diketahui/);
    expect(slow.calls).toHaveLength(1);
    expect(backup.calls).toHaveLength(0);
    const order = await world.bots[0]!.app!.ledger.get(refOf(summary.text));
    expect(order?.state).toBe("unknown");
    expect(order?.refused).toBeUndefined();
  });

  it("a provider whose deposit is empty rests (the admins told once), orders go around it, and after its rest one order brings it back", async () => {
    world.sandbox.deposit(-world.sandbox.balance());
    await world.run({}, { now: clock });
    const first = await world.order(STAFF, "ML86", "12345678(1234)");
    expect(first.text).toMatch(/berhasil/i);
    expect(world.sandbox.calls).toHaveLength(1);
    expect(backup.calls).toHaveLength(1);
    await world.waitText(ADMIN, /Provider main is resting/);

    // Resting: the next order goes straight to the backup.
    const second = await world.order(STAFF, "ML172", "12345678(1234)");
    expect(second.text).toMatch(/berhasil/i);
    expect(world.sandbox.calls).toHaveLength(1);
    expect(backup.calls).toHaveLength(2);

    // Five minutes later, topped up: the next order tries main again, and it is back.
    t += 5 * 60_000;
    world.sandbox.deposit(1_000_000);
    const third = await world.order(STAFF, "ML86", "11112222(3333)");
    expect(third.text).toMatch(/berhasil/i);
    expect(world.sandbox.calls).toHaveLength(2);
    expect(world.sandbox.calls[1]!.outcome).toBe("success");
    expect(backup.calls).toHaveLength(2);
    await world.waitText(ADMIN, /Provider main answers again/);
    const resting = world.fake.messagesTo(ADMIN.id).filter((m) => /Provider main is resting/.test(m.text));
    expect(resting).toHaveLength(1);
  });

  it("when every route rests the product is temporarily unavailable: nothing is sent or held, and the same Confirm works once one is back", async () => {
    world.sandbox.deposit(-world.sandbox.balance());
    backup.deposit(-backup.balance());
    await world.run({}, { now: clock });
    const failed = await world.order(STAFF, "ML86", "12345678(1234)");
    expect(failed.text).toMatch(/gagal/i);
    expect(world.sandbox.calls).toHaveLength(1);
    expect(backup.calls).toHaveLength(1);

    const summary = await world.summaryFor(STAFF, "ML86", "87654321(4321)");
    world.fake.tapButton(STAFF, summary, button(summary, /Konfirmasi/));
    await world.waitText(STAFF, /sementara tidak tersedia/);
    expect(world.sandbox.calls).toHaveLength(1);
    expect(backup.calls).toHaveLength(1);

    t += 5 * 60_000;
    backup.deposit(1_000_000);
    world.fake.tapButton(STAFF, summary, button(summary, /Konfirmasi/));
    const done = await world.waitText(STAFF, new RegExp(`berhasil[\\s\\S]*${refOf(summary.text)}`));
    expect(done.text).toContain(refOf(summary.text));
    // main was tried first (its trial), still empty, and the backup sold it.
    expect(world.sandbox.calls).toHaveLength(2);
    expect(backup.calls).toHaveLength(2);
    expect(backup.calls[1]!.outcome).toBe("success");
  });

  it("a refusal that is not one of the provider's failover codes fails the order there: the backup never hears of it", async () => {
    await world.run({ CATALOG_FILE: await routedCatalog(), TOPUP_FAILOVER_CODES: "shop/paused" });
    const result = await world.order(STAFF, "ML86", "12345678(1234)");
    expect(result.text).toMatch(/gagal/i);
    expect(result.text).toContain("product/not-found");
    expect(world.sandbox.calls).toHaveLength(1);
    expect(backup.calls).toHaveLength(0);
  });

  it("a provider that cannot be reached: each order goes on to the backup, and after three such calls it rests and is not tried", async () => {
    await world.run({ TOPUP_BASE_URL: `http://127.0.0.1:${await freePort()}` });
    const players = ["12345678(1234)", "22345678(1234)", "32345678(1234)", "42345678(1234)"];
    for (const player of players) {
      const result = await world.order(STAFF, "ML86", player);
      expect(result.text).toMatch(/berhasil/i);
    }
    expect(backup.calls.map((c) => c.destination)).toEqual(players);
    // Three calls never sent, then it rests: the fourth order was not tried there.
    await world.waitText(ADMIN, /Provider main is resting/);
    const log = world.bots[0]!.output();
    expect(log.match(/order sent to the next provider/g)).toHaveLength(3);
  });

  it("while every route of a product rests, /order's buttons and /pricelist say it is temporarily unavailable; after the rest they do not", async () => {
    world.sandbox.deposit(-world.sandbox.balance());
    backup.deposit(-backup.balance());
    await world.run({}, { now: clock });
    // Before: nothing rests, nothing is marked.
    world.fake.sendText(STAFF, "/pricelist");
    const before = await world.waitText(STAFF, /Daftar harga/);
    expect(before.text).not.toMatch(/tidak tersedia/);

    const failed = await world.order(STAFF, "ML86", "12345678(1234)");
    expect(failed.text).toMatch(/gagal/i);
    // Both providers rest, and every product is sold only through them.
    await world.waitText(ADMIN, /Provider backup is resting/);

    const pricelist = async (user: typeof STAFF, pattern: RegExp) => {
      const count = world.fake.messagesTo(user.id).length;
      world.fake.sendText(user, "/pricelist");
      return world.fake.waitForMessage(
        user.id,
        (m) => pattern.test(m.text) && world.fake.messagesTo(user.id).indexOf(m) >= count,
      );
    };
    const resting = await pricelist(STAFF, /Daftar harga/);
    expect(resting.text).toMatch(
      /<code>ML86<\/code> 86 Diamonds: <b>Rp 20\.000<\/b> <i>\(sementara tidak tersedia\)<\/i>/,
    );
    const admin = await pricelist(ADMIN, /Price list/);
    expect(admin.text).toContain("(temporarily unavailable)");

    world.fake.sendText(STAFF, "/order");
    const menu = await world.waitText(STAFF, /Pilih game/);
    world.fake.tapButton(STAFF, menu, button(menu, /Mobile Legends/));
    const products = await world.fake.waitForMessage(
      STAFF.id,
      (m) => m.message_id === menu.message_id && /86 Diamonds/.test(JSON.stringify(m.reply_markup)),
    );
    const labels = (products.reply_markup!.inline_keyboard as Array<Array<{ text: string }>>).flat().map((b) => b.text);
    expect(labels).toContain("ML86 · 86 Diamonds · ⏸ sementara tidak tersedia");
    world.fake.sendText(STAFF, "/cancel");

    // Five minutes later the rest is over (the next order may try them): nothing is marked.
    t += 5 * 60_000;
    const after = await pricelist(STAFF, /Daftar harga/);
    expect(after.text).not.toMatch(/tidak tersedia/);
  });

  it("a one-provider shop is as before: its orders carry no provider fields and nothing rests", async () => {
    delete world.env.TOPUP_PROVIDERS;
    world.sandbox.deposit(-world.sandbox.balance());
    await world.run();
    for (const player of ["12345678(1234)", "22345678(1234)", "32345678(1234)", "42345678(1234)"]) {
      const result = await world.order(STAFF, "ML86", player);
      expect(result.text).toMatch(/gagal/i);
    }
    expect(world.sandbox.calls).toHaveLength(4);
    expect(backup.calls).toHaveLength(0);
    expect(world.fake.allOutgoingText()).not.toMatch(/is resting|diistirahatkan/);
    const order = await world.bots[0]!.app!.ledger.get(world.sandbox.calls[0]!.refId);
    expect(order?.attempt).toBeUndefined();
  });
});
