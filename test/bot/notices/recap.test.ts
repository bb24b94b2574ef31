import { describe, expect, it } from "vitest";
import type { Api } from "grammy";
import pino from "pino";
import { loadTexts } from "../../../src/bot/i18n.js";
import { createAdminFanOut } from "../../../src/bot/notices/fan-out.js";
import { createRecapNotice } from "../../../src/bot/notices/recap.js";
import { daysUpTo } from "../../../src/calendar.js";
import type { RecapFigures } from "../../../src/reports/recap.js";

const figures = (providers: number): RecapFigures => ({
  day: "2026-03-12",
  orders: { total: 3, success: 2, failed: 1, unknown: 0, submitting: 0 },
  selling: 39_000,
  margin: 1_000,
  unpriced: { count: 0, selling: 0 },
  deposits: 0,
  owed: { saldo: 0, held: 0, total: 0 },
  balances: Array.from({ length: providers }, (_, i) => ({
    provider: `provider${i}`,
    balance: { balance: 1_000_000 + i, at: "2026-03-12T10:00:00Z", refId: "TG1" },
  })),
  pending: { count: 0, oldest: [] },
  week: daysUpTo("2026-03-12", 7).map((day) => ({
    day,
    sales: 1,
    selling: 0,
    provider: 0,
    margin: 500,
    balance: null,
  })),
});

/** The admins' recap through a recording Api: which methods, to whom, with what caption. */
async function send(f: RecapFigures, adminIds: number[]) {
  const calls: Array<{ method: string; chatId: number; caption?: string; text?: string }> = [];
  const api = {
    sendPhoto: async (chatId: number, _photo: unknown, other?: { caption?: string }) => {
      calls.push({ method: "sendPhoto", chatId, ...(other?.caption === undefined ? {} : { caption: other.caption }) });
      return { message_id: calls.length };
    },
    sendMessage: async (chatId: number, text: string) => {
      calls.push({ method: "sendMessage", chatId, text });
      return { message_id: calls.length };
    },
  } as unknown as Api;
  const prefs = { languageFor: async (id: number) => (id === 2 ? ("id" as const) : ("en" as const)) };
  const fanOut = createAdminFanOut({ api, prefs, adminIds, logger: pino({ level: "silent" }) });
  await createRecapNotice({ api, texts: loadTexts(), fanOut })(f, { day: f.day, late: undefined });
  return calls;
}

describe("the recap notice", () => {
  it("when the recap fits a caption, then each admin gets one photo with the recap as its caption, in their language", async () => {
    const calls = await send(figures(1), [1, 2]);
    expect(calls.map((c) => [c.method, c.chatId])).toEqual([
      ["sendPhoto", 1],
      ["sendPhoto", 2],
    ]);
    expect(calls[0]!.caption).toContain("Recap of Thu, 12 Mar 2026");
    expect(calls[1]!.caption).toContain("Rekap");
  });

  it("when the recap is longer than a caption may be, then the photo goes first and the text after it", async () => {
    const calls = await send(figures(40), [1]);
    expect(calls.map((c) => c.method)).toEqual(["sendPhoto", "sendMessage"]);
    expect(calls[0]!.caption).toBeUndefined();
    expect(calls[1]!.text).toContain("Balance at provider39: Rp 1,000,039");
  });
});
