import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lengthenHolds } from "../helpers/redis.js";
import { addBackup, routedCatalog } from "./backup.js";
import { ADMIN, button, STAFF, staffWorld, type World } from "./world.js";

describe("several providers across a SIGKILL: the bot as a process (`node dist/main.js`)", () => {
  let world: World;
  beforeEach(async () => (world = await staffWorld()));
  afterEach(() => world.cleanup());

  it("killed after the first provider refused and while the second has the order: after the restart the order is held, never sent a third time", async () => {
    // ML86 is bought from main as NOPE86 (main refuses it: product/not-found, nothing bought), then
    // from a backup that carries the order out and answers slowly, so the kill lands meanwhile.
    const backup = await addBackup(world, {
      products: [{ code: "ML86", name: "86 Diamonds", priceRp: 19_600 }],
      latencyMs: 1500,
    });
    const env = { CATALOG_FILE: await routedCatalog("ML86") };

    const first = await world.runProcess(env);
    const summary = await world.summaryFor(STAFF, "ML86", "12345678(1234)");
    const refId = /Ref pesanan: <code>([A-Z0-9]+)<\/code>/.exec(summary.text)![1]!;
    const tap = world.fake.tapButton(STAFF, summary, button(summary, /^c:/));
    await world.fake.waitFor(() => backup.calls.length === 1);
    await first.kill("SIGKILL");
    await lengthenHolds(world.prefix, 60_000);
    world.fake.redeliver(tap);

    // Restarted with its clock at the second attempt's start: it is still in flight for it.
    let clock = backup.calls[0]!.at;
    const restarted = await world.run(env, { now: () => new Date(clock) });
    const notSummary = () => world.fake.messagesTo(STAFF.id).filter((m) => m.message_id !== summary.message_id);
    await world.fake.waitFor(() => notSummary().some((m) => /Hasil belum diketahui|sedang diproses/.test(m.text)));
    // Past the backup's timeout (counted from its own attempt), recovery holds it as unknown.
    clock += 10 * 60_000;
    await world.fake.waitForMessage(
      ADMIN.id,
      (m) => /Order with unknown result/.test(m.text) && m.text.includes(refId),
      20_000,
    );
    await world.fake.waitForIdle();

    expect(world.sandbox.calls).toMatchObject([{ refId, itemCode: "NOPE86", outcome: "error" }]);
    expect(backup.calls).toHaveLength(1);
    expect(backup.calls[0]!.refId).toBe(`${refId}R2`);
    const order = await restarted.app!.ledger.get(refId);
    expect(order).toMatchObject({
      state: "unknown",
      attempt: { provider: "backup", refId: `${refId}R2` },
      refused: [{ provider: "main", refId, errorCode: "product/not-found" }],
    });
    expect(world.fake.messagesTo(STAFF.id).some((m) => /Top up berhasil/i.test(m.text))).toBe(false);
  });
});
