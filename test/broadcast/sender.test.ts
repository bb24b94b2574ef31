import { GrammyError, HttpError, type Api } from "grammy";
import { describe, expect, it } from "vitest";
import { createBroadcastStore, type BroadcastStore } from "../../src/broadcast/broadcast-store.js";
import { createBroadcaster } from "../../src/broadcast/sender.js";
import { broadcastTexts } from "../../src/bot/broadcast-texts.js";
import { loadTexts } from "../../src/bot/i18n.js";
import { createLogger } from "../../src/logger.js";
import { createLease } from "../../src/storage/leases.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";
import { deleteByPrefix, REDIS_URL, uniquePrefix } from "../helpers/redis.js";

const ADMIN = 1001;

/** A stand-in for the Bot API: records every message; `refuse` decides a send's failure. */
function fakeApi(refuse: (chatId: number, attempt: number) => Error | undefined = () => undefined) {
  const sent: Array<{ chatId: number; text: string }> = [];
  const attempts = new Map<number, number>();
  const api = {
    async sendMessage(chatId: number, text: string) {
      const attempt = (attempts.get(chatId) ?? 0) + 1;
      attempts.set(chatId, attempt);
      const error = refuse(chatId, attempt);
      if (error !== undefined) throw error;
      sent.push({ chatId, text });
      return { message_id: sent.length };
    },
    async editMessageText() {
      return true;
    },
  };
  return { api: api as unknown as Api, sent, attempts };
}

async function setup(refuse?: (chatId: number, attempt: number) => Error | undefined) {
  const storage = await createStorage({ redisUrl: undefined, prefix: "t:" });
  const store = createBroadcastStore(storage);
  const { api, sent, attempts } = fakeApi(refuse);
  const broadcaster = createBroadcaster({
    store,
    api,
    sendApi: api,
    texts: broadcastTexts(loadTexts(), { languageFor: async () => "en" }),
    logger: createLogger("silent"),
    intervalMs: 0,
  });
  return { store, broadcaster, sent, attempts };
}

async function confirmed(store: BroadcastStore, recipients: number[]) {
  const b = await store.saveDraft(
    { id: "BCUNIT1", adminId: ADMIN, chatId: ADMIN, text: "Promo <b>", createdAt: new Date().toISOString() },
    60_000,
  );
  await store.confirm(b.id, { recipients, at: new Date().toISOString() });
  return b.id;
}

const reportOf = (sent: Array<{ chatId: number; text: string }>) =>
  sent.filter((m) => m.chatId === ADMIN && /Broadcast finished/.test(m.text));

describe("the broadcast sender", () => {
  it("when it sends, then each recipient gets the text escaped under the heading, and the admin the count", async () => {
    const { store, broadcaster, sent } = await setup();
    const id = await confirmed(store, [1, 2, 3]);
    broadcaster.start(id);
    broadcaster.start(id); // a second start in the same process is the same loop
    await broadcaster.idle();
    const toUsers = sent.filter((m) => m.chatId !== ADMIN);
    expect(toUsers.map((m) => m.chatId)).toEqual([1, 2, 3]);
    expect(toUsers[0]!.text).toBe("📢 <b>Announcement</b>\n\nPromo &lt;b&gt;");
    expect(reportOf(sent)).toHaveLength(1);
    expect(reportOf(sent)[0]!.text).toContain("<b>3</b> delivered, 0 blocked the bot, 0 failed (of 3)");
    expect((await store.get(id))?.reportedAt).toBeDefined();
  });

  it("when Telegram answers 429 after the auto-retry gave up, then that user is sent to again later, once", async () => {
    const tooMany = new GrammyError(
      "Call to 'sendMessage' failed!",
      { ok: false, error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } },
      "sendMessage",
      {},
    );
    const { store, broadcaster, sent, attempts } = await setup((chatId, attempt) =>
      chatId === 2 && attempt === 1 ? tooMany : undefined,
    );
    const id = await confirmed(store, [1, 2, 3]);
    broadcaster.start(id);
    await broadcaster.idle();
    expect(attempts.get(2)).toBe(2);
    expect(sent.filter((m) => m.chatId === 2)).toHaveLength(1);
    expect(reportOf(sent)[0]!.text).toContain("<b>3</b> delivered");
  });

  it("when a send ends in a network error or a 403, then it counts as failed or blocked and is never sent again", async () => {
    const { store, broadcaster, sent, attempts } = await setup((chatId) =>
      chatId === 1
        ? new HttpError("Network request for 'sendMessage' failed!", new Error("ECONNRESET"))
        : chatId === 3
          ? new GrammyError(
              "Call to 'sendMessage' failed!",
              { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" },
              "sendMessage",
              {},
            )
          : undefined,
    );
    const id = await confirmed(store, [1, 2, 3]);
    broadcaster.start(id);
    await broadcaster.idle();
    expect(attempts.get(1)).toBe(1);
    expect(reportOf(sent)[0]!.text).toContain("<b>1</b> delivered, 1 blocked the bot, 1 failed (of 3)");
  });

  it("when a run died between a claim and its send, then resume counts that user as interrupted and sends to the rest", async () => {
    const { store, broadcaster, sent } = await setup();
    const id = await confirmed(store, [1, 2, 3]);
    // The previous process claimed 1 and died.
    expect(await store.claimNext(id, new Date().toISOString())).toEqual({ kind: "claimed", userId: 1 });
    await broadcaster.resume();
    await broadcaster.idle();
    expect(sent.filter((m) => m.chatId !== ADMIN).map((m) => m.chatId)).toEqual([2, 3]);
    const report = reportOf(sent)[0]!.text;
    expect(report).toContain("<b>2</b> delivered, 0 blocked the bot, 1 failed (of 3)");
    expect(report).toContain("1 of the failed were being sent when the bot stopped");
  });

  it("when it is stopped, then it ends between two sends and sends nothing after", async () => {
    const { store, broadcaster, sent } = await setup();
    const id = await confirmed(store, [1, 2, 3]);
    await broadcaster.stop();
    broadcaster.start(id);
    await broadcaster.idle();
    expect(sent).toHaveLength(0);
    expect((await store.get(id))?.state).toBe("sending");
  });

  it("when two processes could send one broadcast, then only the lease holder sends; after it stops, the other goes on, and nobody gets it twice", async () => {
    const prefix = uniquePrefix("broadcast-lease");
    const storages = [
      await createStorage({ redisUrl: REDIS_URL, prefix }),
      await createStorage({ redisUrl: REDIS_URL, prefix }),
    ];
    try {
      const gate = { open: () => {}, opened: Promise.resolve() };
      gate.opened = new Promise<void>((r) => (gate.open = r));
      let firstSend = () => {};
      const started = new Promise<void>((r) => (firstSend = r));
      const sent: Array<{ chatId: number; text: string; by: string }> = [];
      const processOf = (name: string, storage: Storage, hold: boolean) => {
        const api = {
          async sendMessage(chatId: number, text: string) {
            if (hold && chatId !== ADMIN) {
              firstSend();
              await gate.opened;
            }
            sent.push({ chatId, text, by: name });
            return { message_id: sent.length };
          },
          editMessageText: async () => true,
        } as unknown as Api;
        return createBroadcaster({
          store: createBroadcastStore(storage),
          api,
          sendApi: api,
          texts: broadcastTexts(loadTexts(), { languageFor: async () => "en" }),
          logger: createLogger("silent"),
          intervalMs: 0,
          lease: (id) => createLease(storage, `broadcast:${id}`, { ttlMs: 60_000, owner: name }),
        });
      };
      const a = processOf("a", storages[0]!, true);
      const b = processOf("b", storages[1]!, false);
      const id = await confirmed(createBroadcastStore(storages[0]!), [1, 2, 3, 4]);
      a.start(id);
      await started;
      // While a holds the lease (and waits on its first send), b is asked twice to send it: nothing.
      b.start(id);
      await b.resume();
      await b.idle();
      expect(sent).toEqual([]);
      // a stops after the send in flight; b goes on at once (the lease was given back, not waited out).
      const stopped = a.stop();
      gate.open();
      await stopped;
      await b.resume();
      await b.idle();
      const toUsers = sent.filter((m) => m.chatId !== ADMIN);
      expect(toUsers.map((m) => m.chatId).sort()).toEqual([1, 2, 3, 4]);
      expect(toUsers.find((m) => m.chatId === 1)?.by).toBe("a");
      expect(toUsers.filter((m) => m.by === "b").length).toBeGreaterThan(0);
      expect(reportOf(sent)).toHaveLength(1);
      expect(reportOf(sent)[0]!.text).toContain("<b>4</b> delivered, 0 blocked the bot, 0 failed (of 4)");
    } finally {
      for (const s of storages) await s.close();
      await deleteByPrefix(prefix);
    }
  });
});
