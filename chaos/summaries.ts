/**
 * One /order, one order; one /deposit, one deposit: the part of `npm run chaos` that checks what a
 * user is shown for one request. A process killed right after it sent a summary (Telegram has it,
 * the process never learned it went out) leaves the update to be handled again, and the user may
 * be shown a second summary: it must carry the same ref id (the same deposit id), and the user who
 * presses its Confirm too must not order (or be credited) twice.
 */
import type { SandboxCall } from "../src/topup/sandbox.js";
import type { ApiCall, FakeBotApi, FakeUser, SentMessage } from "../test/e2e/fake-bot-api.js";

/** A request a driver made: an /order (named by its player id) or a /deposit (by its note), and how often it sent it. */
export interface Ask {
  chat: number;
  key: string;
  sends: number;
}

/** The ids a message's buttons act on, by callback prefix (`c:TG…` → TG…). */
const idsOn = (markup: unknown, prefix: string) =>
  [...JSON.stringify(markup ?? {}).matchAll(new RegExp(`"${prefix}:([A-Za-z0-9]+)"`, "g"))].map((m) => m[1]!);

/**
 * Presses Confirm on every other summary the user was shown for the same request (`isSummary`)
 * than the one they confirmed (`shown`), and waits for each tap's answer. The ids pressed.
 */
export async function confirmOtherSummaries(
  fake: FakeBotApi,
  user: FakeUser,
  shown: SentMessage,
  isSummary: (m: SentMessage) => boolean,
  prefix: "c" | "dc",
): Promise<string[]> {
  const pressed: string[] = [];
  const others = fake.messagesTo(user.id).filter((m) => m.message_id !== shown.message_id && isSummary(m));
  for (const other of others) {
    for (const id of idsOn(other.reply_markup, prefix)) {
      const tap = fake.tapButton(user, other, `${prefix}:${id}`);
      const queryId = String(tap.callback_query!.id);
      pressed.push(id);
      await fake
        .waitFor(() => fake.callbackAnswers.some((a) => a.callback_query_id === queryId), 8000)
        .catch(() => {
          // answered later, or never: the reconciliation counts what was ordered, not the answers
        });
    }
  }
  return pressed;
}

/** What names the request a summary the bot sent belongs to: its chat and player id, or its deposit note. */
function requestOf(call: ApiCall): { chat: number; key: string; prefix: "c" | "dc" } | undefined {
  const text = String(call.payload?.text ?? "");
  const chat = Number(call.payload?.chat_id);
  const player = /Player id: <code>([^<]+)<\/code>/.exec(text)?.[1];
  if (idsOn(call.payload?.reply_markup, "c").length > 0 && player !== undefined)
    return { chat, key: player, prefix: "c" };
  const note = /Note: (chaos-\d+)/.exec(text)?.[1];
  if (idsOn(call.payload?.reply_markup, "dc").length > 0 && note !== undefined)
    return { chat, key: note, prefix: "dc" };
  return undefined;
}

/**
 * Every request against what its summaries carried and what came of them: at most one ref id (or
 * deposit id) per sending of the request, at most one order at the provider per sending, at most
 * one deposit credited per sending.
 */
export function reconcileAsks(input: {
  asks: readonly Ask[];
  calls: readonly ApiCall[];
  provider: readonly SandboxCall[];
  /** Deposit ids credited in the books. */
  credited: ReadonlySet<string>;
  /** Processes killed right after they sent a summary. */
  killedAfterSummary: number;
}): { lines: string[]; violations: string[] } {
  const shown = new Map<string, { ids: Set<string>; messages: number; prefix: "c" | "dc" }>();
  for (const call of input.calls) {
    if (call.method !== "sendMessage" || call.answer?.ok !== true) continue;
    const request = requestOf(call);
    if (request === undefined) continue;
    const k = `${request.chat}:${request.key}`;
    const entry = shown.get(k) ?? { ids: new Set<string>(), messages: 0, prefix: request.prefix };
    for (const id of idsOn(call.payload.reply_markup, request.prefix)) entry.ids.add(id);
    entry.messages++;
    shown.set(k, entry);
  }
  const called = new Set(input.provider.map((c) => c.refId));
  const violations: string[] = [];
  let twice = 0;
  let resent = 0;
  for (const ask of input.asks) {
    const entry = shown.get(`${ask.chat}:${ask.key}`);
    if (ask.sends > 1) resent++;
    if (entry === undefined) continue;
    if (entry.messages > ask.sends) twice++;
    const ids = [...entry.ids];
    const what = entry.prefix === "c" ? "/order" : "/deposit";
    if (ids.length > ask.sends)
      violations.push(
        `${what} ${ask.key} in chat ${ask.chat}, sent ${ask.sends}×, was shown ${ids.length} ids: ${ids.join(", ")}`,
      );
    const acted = ids.filter((id) => (entry.prefix === "c" ? called.has(id) : input.credited.has(id)));
    if (acted.length > ask.sends)
      violations.push(
        `${what} ${ask.key} in chat ${ask.chat}, sent ${ask.sends}×, became ${acted.length} ${entry.prefix === "c" ? "orders at the provider" : "credited deposits"}: ${acted.join(", ")}`,
      );
  }
  const orders = input.asks.filter((a) => shown.get(`${a.chat}:${a.key}`)?.prefix === "c").length;
  const lines = [
    `  one request, one id: ${input.asks.length} requests (${orders} /order, ${input.asks.length - orders} /deposit); processes killed right after sending a summary: ${input.killedAfterSummary}; requests shown more than one summary: ${twice} (every summary's Confirm pressed); sent again after 30 s of silence: ${resent}; shown two ids or made two orders/credits: ${violations.length}`,
  ];
  return { lines, violations };
}
