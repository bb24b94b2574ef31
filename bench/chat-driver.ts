/**
 * Driving chats through a fake Bot API as users would, cheaply enough for a thousand at once:
 * the order (five updates), the bare bot's same mix, a chat left at the game menu; and waiting for
 * the bot's answers without the driver becoming the bottleneck.
 */
import type { ApiCall, FakeBotApi, FakeUser, SentMessage } from "../test/e2e/fake-bot-api.js";
import { STEP_TIMEOUT_MS } from "./settings.js";
interface Waiter {
  chatId: number;
  check: () => SentMessage | undefined;
  resolve: (m: SentMessage) => void;
  reject: (err: Error) => void;
  deadline: number;
}

/**
 * The driver must stay far from being the bottleneck (2 cores for driver, fake, bot and Redis).
 * The fake's call log is replaced by a hook: a call that names a chat marks that chat, and one
 * check per event-loop turn looks only at the marked chats that someone waits on. The calls are
 * not kept (nothing here reads them), so the driver's heap does not grow with every update.
 */
export class Watch {
  readonly waiters = new Map<number, Waiter[]>();
  private readonly dirty = new Set<number>();
  private scheduled = false;
  /** performance.now() of the first getUpdates the fake received. */
  firstGetUpdates: Promise<number>;
  /** Bot API calls received, getUpdates apart. */
  apiCalls = 0;
  getUpdatesCalls = 0;

  constructor(readonly fake: FakeBotApi) {
    let resolveFirst!: (at: number) => void;
    let seenFirst = false;
    this.firstGetUpdates = new Promise((resolve) => (resolveFirst = resolve));
    Object.defineProperty(fake.calls, "push", {
      configurable: true,
      value: (...calls: ApiCall[]) => {
        for (const call of calls) {
          if (call.method === "getUpdates") {
            this.getUpdatesCalls += 1;
            if (!seenFirst) {
              seenFirst = true;
              resolveFirst(performance.now());
            }
            continue;
          }
          this.apiCalls += 1;
          const chatId = Number((call.payload as { chat_id?: unknown } | undefined)?.chat_id);
          if (this.waiters.has(chatId)) this.mark(chatId);
        }
        return 0;
      },
    });
    watches.add(this);
  }

  private mark(chatId: number) {
    this.dirty.add(chatId);
    if (this.scheduled) return;
    this.scheduled = true;
    // The fake records the message synchronously after logging the call: by then it is there.
    setImmediate(() => {
      this.scheduled = false;
      const chats = [...this.dirty];
      this.dirty.clear();
      for (const chatId of chats) this.run(chatId);
    });
  }

  private run(chatId: number) {
    const list = this.waiters.get(chatId);
    if (list === undefined) return;
    for (const w of [...list]) {
      const hit = w.check();
      if (hit === undefined) continue;
      this.remove(w);
      w.resolve(hit);
    }
  }

  remove(w: Waiter) {
    const list = this.waiters.get(w.chatId);
    if (list === undefined) return;
    list.splice(list.indexOf(w), 1);
    if (list.length === 0) this.waiters.delete(w.chatId);
  }

  /** Resolves with the first message `check` returns, looking again whenever the chat changes. */
  wait(chatId: number, check: () => SentMessage | undefined, what: string): Promise<SentMessage> {
    const now = check();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        chatId,
        check,
        resolve,
        reject: (err) =>
          reject(
            new Error(
              `${what}: ${err.message}; last messages: ${JSON.stringify(
                this.fake
                  .messagesTo(chatId)
                  .slice(-3)
                  .map((m) => m.text),
              )}`,
            ),
          ),
        deadline: Date.now() + STEP_TIMEOUT_MS,
      };
      const list = this.waiters.get(chatId) ?? [];
      list.push(w);
      this.waiters.set(chatId, list);
    });
  }

  close() {
    watches.delete(this);
  }
}

const watches = new Set<Watch>();
setInterval(() => {
  const now = Date.now();
  for (const watch of watches) {
    for (const list of [...watch.waiters.values()]) {
      for (const w of [...list]) {
        if (w.deadline > now) continue;
        watch.remove(w);
        w.reject(new Error(`no answer within ${STEP_TIMEOUT_MS} ms`));
      }
    }
  }
}, 1000).unref();

/** The bot's messages in the chat newer than message id `afterId`, newest first, matching. */
export function newer(
  fake: FakeBotApi,
  chatId: number,
  afterId: number,
  match: (m: SentMessage) => boolean,
): SentMessage | undefined {
  const list = fake.messagesTo(chatId);
  let hit: SentMessage | undefined;
  for (let i = list.length - 1; i >= 0 && list[i]!.message_id > afterId; i--) if (match(list[i]!)) hit = list[i];
  return hit;
}
export const buttons = (m: SentMessage) =>
  ((m.reply_markup?.inline_keyboard ?? []) as Array<Array<{ text: string; callback_data?: string }>>).flat();
export const hasButton = (m: SentMessage, data: (d: string) => boolean) =>
  buttons(m).some((b) => b.callback_data !== undefined && data(b.callback_data));
export const lastId = (fake: FakeBotApi, chatId: number) => fake.lastMessageTo(chatId)?.message_id ?? 0;

// ---------------------------------------------------------------------------------------------
// What a chat does

/** Step latencies (ms): from the update being queued at the fake to the answer recorded by it. */
export type Latencies = number[];

export async function timed(
  lat: Latencies | undefined,
  send: () => void,
  wait: () => Promise<SentMessage>,
): Promise<SentMessage> {
  const t0 = performance.now();
  send();
  const m = await wait();
  lat?.push(performance.now() - t0);
  return m;
}

/** The order's summary with its Confirm button. */
export const isSummary = (m: SentMessage) =>
  /Please check your order/.test(m.text) && hasButton(m, (d) => d.startsWith("c:"));
/** The callback data of a summary's Confirm button. */
export const confirmData = (summary: SentMessage) =>
  buttons(summary).find((b) => b.callback_data?.startsWith("c:") === true)!.callback_data!;

/** The whole order: /order, game, product, player id, Confirm. Five updates. */
export async function orderFlow(watch: Watch, user: FakeUser, lat?: Latencies): Promise<void> {
  const { fake } = watch;
  const chat = user.id;
  /** The bot's first message in the chat after message `after` that matches. */
  const next = (after: () => number, match: (m: SentMessage) => boolean, what: string) => () =>
    watch.wait(chat, () => newer(fake, chat, after(), match), what);
  let base = 0;
  const menu = await timed(
    lat,
    () => (base = fake.sendText(user, "/order").message!.message_id),
    next(
      () => base,
      (m) => /Choose a game/.test(m.text) && hasButton(m, (d) => d === "g:0"),
      "game menu",
    ),
  );
  const products = await timed(
    lat,
    () => fake.tapButton(user, menu, "g:0"),
    next(
      () => menu.message_id - 1,
      (m) => m.message_id === menu.message_id && hasButton(m, (d) => d === "p:ML86"),
      "product menu",
    ),
  );
  base = lastId(fake, chat);
  await timed(
    lat,
    () => fake.tapButton(user, products, "p:ML86"),
    // The question is the menu, edited (a tapped product), or a new message (the bot may do either).
    next(
      () => menu.message_id - 1,
      (m) => /Send the player id/.test(m.text),
      "player id prompt",
    ),
  );
  const summary = await timed(
    lat,
    () => (base = fake.sendText(user, "12345678(1234)").message!.message_id),
    next(() => base, isSummary, "summary"),
  );
  const confirm = confirmData(summary);
  base = lastId(fake, chat);
  await timed(
    lat,
    () => fake.tapButton(user, summary, confirm),
    next(
      () => base,
      (m) => /Top-up successful/.test(m.text),
      "result",
    ),
  );
}

/** The bare bot gets the same mix: two messages and three taps, each waiting for its reply. */
export async function bareFlow(watch: Watch, user: FakeUser, lat?: Latencies): Promise<void> {
  const { fake } = watch;
  const chat = user.id;
  let base = 0;
  const reply = () => watch.wait(chat, () => newer(fake, chat, base, () => true), "bare reply");
  const first = await timed(lat, () => (base = fake.sendText(user, "/order").message!.message_id), reply);
  for (const data of ["g:0", "p:ML86"]) {
    base = lastId(fake, chat);
    await timed(lat, () => fake.tapButton(user, first, data), reply);
  }
  await timed(lat, () => (base = fake.sendText(user, "12345678(1234)").message!.message_id), reply);
  base = lastId(fake, chat);
  await timed(lat, () => fake.tapButton(user, first, "c:TGX"), reply);
}

/** /order and the game menu, then nothing more: a chat left in the middle of an order. */
export async function leaveMidOrder(watch: Watch, user: FakeUser, bare: boolean): Promise<void> {
  const { fake } = watch;
  const base = fake.sendText(user, "/order").message!.message_id;
  await watch.wait(user.id, () => newer(fake, user.id, base, (m) => bare || /Choose a game/.test(m.text)), "game menu");
}

export const userRange = (first: number, n: number): FakeUser[] =>
  Array.from({ length: n }, (_, i) => ({ id: first + i, first_name: `Chat ${first + i}`, language_code: "en" }));
