import { describe, expect, it } from "vitest";
import { parseConfig } from "../src/config.js";

const minimal = { BOT_TOKEN: "123456:ABC-def_ghi", ADMIN_IDS: "1001" };

function errorsOf(env: Record<string, string>): string[] {
  const result = parseConfig(env);
  if (result.ok) throw new Error("expected the configuration to be refused");
  return result.errors;
}

describe("configuration", () => {
  it("when only BOT_TOKEN and ADMIN_IDS are set, then the defaults of the contract apply", () => {
    const result = parseConfig(minimal);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({
      botApiRoot: "https://api.telegram.org",
      topup: undefined,
      topupTimeoutMs: 60_000,
      redisUrl: undefined,
      adminIds: [1001],
      allowedUserIds: [],
      catalogFile: "catalog.json",
      refIdPrefix: "TG",
      logLevel: "info",
      timeZone: "Asia/Jakarta",
    });
  });

  it("when H2H_CALLBACK_ALLOW_PRIVATE is unset, then partners' callbacks to private addresses are refused; true allows them; anything else is named", () => {
    const read = (env: Record<string, string>) => {
      const r = parseConfig({ ...minimal, ...env });
      if (!r.ok) throw new Error(r.errors.join("\n"));
      return r.config.h2h.callbackAllowPrivate;
    };
    expect(read({})).toBe(false);
    expect(read({ H2H_CALLBACK_ALLOW_PRIVATE: "true" })).toBe(true);
    expect(read({ H2H_CALLBACK_ALLOW_PRIVATE: "false" })).toBe(false);
    expect(errorsOf({ ...minimal, H2H_CALLBACK_ALLOW_PRIVATE: "sometimes" }).join("\n")).toMatch(
      /H2H_CALLBACK_ALLOW_PRIVATE/,
    );
  });

  it("when RECAP_AT and RESELLER_LOW_SALDO are unset, then there is no recap and no low-saldo notice; set, they are read", () => {
    const read = (env: Record<string, string>) => {
      const r = parseConfig({ ...minimal, ...env });
      if (!r.ok) throw new Error(r.errors.join("\n"));
      return { recapAt: r.config.recapAt, resellerLowSaldo: r.config.resellerLowSaldo };
    };
    expect(read({})).toEqual({ recapAt: undefined, resellerLowSaldo: undefined });
    expect(read({ RECAP_AT: "", RESELLER_LOW_SALDO: " " })).toEqual({
      recapAt: undefined,
      resellerLowSaldo: undefined,
    });
    expect(read({ RECAP_AT: "21:00", RESELLER_LOW_SALDO: "50000" })).toEqual({
      recapAt: 21 * 60,
      resellerLowSaldo: 50_000,
    });
    expect(read({ RECAP_AT: "00:00" }).recapAt).toBe(0);
    expect(read({ RECAP_AT: " 23:59 " }).recapAt).toBe(23 * 60 + 59);
  });

  it("when RECAP_AT is not a time of day HH:MM or RESELLER_LOW_SALDO not whole rupiah, then each is named", () => {
    for (const bad of ["24:00", "21", "9:00", "21:60", "21.00", "evening", "21:00:00"])
      expect(errorsOf({ ...minimal, RECAP_AT: bad })).toEqual([
        "RECAP_AT must be a time of day HH:MM between 00:00 and 23:59, such as 21:00",
      ]);
    expect(errorsOf({ ...minimal, RECAP_AT: "25:00", RESELLER_LOW_SALDO: "50.000" })).toEqual([
      "RESELLER_LOW_SALDO must be a whole number (rupiah, no dots)",
      "RECAP_AT must be a time of day HH:MM between 00:00 and 23:59, such as 21:00",
    ]);
  });

  it("when BOT_TOKEN is missing, then the message names it", () => {
    expect(errorsOf({})).toEqual(["BOT_TOKEN is required: the token @BotFather gave you"]);
  });

  it("when BOT_TOKEN is empty in a .env file, then it counts as missing", () => {
    expect(errorsOf({ BOT_TOKEN: "  " })).toEqual(["BOT_TOKEN is required: the token @BotFather gave you"]);
  });

  it("when several variables are bad, then each is named on its own line", () => {
    const errors = errorsOf({
      BOT_TOKEN: "has spaces in it",
      ADMIN_IDS: "1001,abc",
      ALLOWED_USER_IDS: "12;13",
      TOPUP_TIMEOUT_MS: "soon",
      REDIS_URL: "http://localhost:6379",
      TOPUP_BASE_URL: "not a url",
      PORT: "70000",
      LOG_LEVEL: "loud",
      TZ: "Mars/Olympus",
      REF_ID_PREFIX: "T G",
      LOW_BALANCE_THRESHOLD: "100.000,50",
      BOT_API_ROOT: "ftp://example.com",
    });
    expect(errors).toEqual([
      "BOT_TOKEN must not contain spaces or slashes (copy it exactly as @BotFather gave it)",
      "BOT_API_ROOT must start with http:// or https://",
      "TOPUP_BASE_URL must be a URL such as https://example.com",
      "TOPUP_TIMEOUT_MS must be a whole number of milliseconds",
      "REDIS_URL must start with redis:// or rediss://",
      'ADMIN_IDS "abc" is not a Telegram user id (digits only, comma-separated)',
      'ALLOWED_USER_IDS "12;13" is not a Telegram user id (digits only, comma-separated)',
      "REF_ID_PREFIX must be 1 to 10 letters or digits",
      "LOW_BALANCE_THRESHOLD must be a whole number (rupiah, no dots)",
      "PORT must be a port number between 1 and 65535",
      "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
      "TZ is not a time zone name such as Asia/Jakarta",
      "TOPUP_MITRA_ID is required when TOPUP_BASE_URL is set",
      "TOPUP_SECRET_KEY is required when TOPUP_BASE_URL is set",
    ]);
  });

  it("when H2H_TRUSTED_PROXIES names something other than IP addresses, then the entry is named; IPv4-mapped ones read as IPv4", () => {
    expect(errorsOf({ BOT_TOKEN: "123:abc", H2H_TRUSTED_PROXIES: "10.0.0.1, proxy.local" })).toEqual([
      'H2H_TRUSTED_PROXIES "proxy.local" is not an IP address (comma-separated IP addresses)',
    ]);
    const read = parseConfig({ BOT_TOKEN: "123:abc", H2H_TRUSTED_PROXIES: " 10.0.0.1,::ffff:127.0.0.1 ,fd00::1" });
    expect(read.ok && read.config.h2h.trustedProxies).toEqual(["10.0.0.1", "127.0.0.1", "fd00::1"]);
  });

  it("when REF_ID_PREFIX starts with TEST, then it is refused: the H2H test orders' ids start so", () => {
    expect(errorsOf({ BOT_TOKEN: "123:abc", REF_ID_PREFIX: "Test1" })).toEqual([
      "REF_ID_PREFIX must not start with TEST (the ids of the H2H API's test orders do)",
    ]);
  });

  it("when BOT_TOKEN is missing and TOPUP_BASE_URL is set without credentials, then all three are named in one run", () => {
    expect(errorsOf({ TOPUP_BASE_URL: "https://provider.example.com", ADMIN_IDS: "1001" })).toEqual([
      "BOT_TOKEN is required: the token @BotFather gave you",
      "TOPUP_MITRA_ID is required when TOPUP_BASE_URL is set",
      "TOPUP_SECRET_KEY is required when TOPUP_BASE_URL is set",
    ]);
  });

  it("when a value is bad and a rule between variables is broken too, then both are named in one run", () => {
    expect(
      errorsOf({
        ...minimal,
        ADMIN_IDS: "1001,x",
        RESELLER_IDS: "2002",
        ALLOWED_USER_IDS: "2002",
        WEBAPP_URL: "https://shop.example.com",
        WEBHOOK_URL: "https://bot.example.com:9000/telegram",
      }),
    ).toEqual([
      'ADMIN_IDS "x" is not a Telegram user id (digits only, comma-separated)',
      "WEBHOOK_URL uses port 9000: Telegram's Bot API server (api.telegram.org) posts webhooks only to ports 443, 80, 88 and 8443 (a self-hosted Bot API server, BOT_API_ROOT, takes any port)",
      "RESELLER_IDS lists 2002, also in ALLOWED_USER_IDS: give each user one role",
      "PORT is required when WEBHOOK_URL is set (the port the webhook server listens on)",
      "PORT is required when WEBAPP_URL is set (the port the Mini App is served on)",
    ]);
  });

  it("when PORT is given but bad, then it is named for its value and not also as missing", () => {
    expect(errorsOf({ ...minimal, PORT: "http", WEBAPP_URL: "https://shop.example.com" })).toEqual([
      "PORT must be a port number",
    ]);
  });

  it("when TOPUP_BASE_URL is set without credentials, then both missing credentials are named", () => {
    expect(errorsOf({ ...minimal, TOPUP_BASE_URL: "https://provider.example.com" })).toEqual([
      "TOPUP_MITRA_ID is required when TOPUP_BASE_URL is set",
      "TOPUP_SECRET_KEY is required when TOPUP_BASE_URL is set",
    ]);
  });

  it("when TOPUP_BASE_URL has a query or a fragment, then it is refused at once, not when the first order goes out", () => {
    for (const url of ["https://provider.example.com/?key=1", "https://provider.example.com/api#x"]) {
      const errors = errorsOf({ ...minimal, TOPUP_BASE_URL: url, TOPUP_MITRA_ID: "M1", TOPUP_SECRET_KEY: "s" });
      expect(errors).toEqual([
        "TOPUP_BASE_URL must not have a query or fragment (?… or #…): orders go to {TOPUP_BASE_URL}/v1/transaction/partner",
      ]);
    }
  });

  it("when a timeout of zero is given, then it is refused", () => {
    expect(errorsOf({ ...minimal, TOPUP_TIMEOUT_MS: "0" })).toEqual([
      "TOPUP_TIMEOUT_MS must be a positive number of milliseconds",
    ]);
  });

  it("when BROADCAST_INTERVAL_MS is set, then it paces broadcasts, and a bad value is named", () => {
    const parsed = parseConfig({ ...minimal, BROADCAST_INTERVAL_MS: "100" });
    expect(parsed.ok && parsed.config.broadcastIntervalMs).toBe(100);
    const defaults = parseConfig(minimal);
    expect(defaults.ok && defaults.config.broadcastIntervalMs).toBe(50);
    expect(errorsOf({ ...minimal, BROADCAST_INTERVAL_MS: "fast" })).toEqual([
      expect.stringMatching(/^BROADCAST_INTERVAL_MS must be a whole number of milliseconds/),
    ]);
    expect(errorsOf({ ...minimal, BROADCAST_INTERVAL_MS: "999999" })).toEqual([
      expect.stringMatching(/^BROADCAST_INTERVAL_MS must be at most 60000/),
    ]);
  });

  it("when LEDGER_HOT_DAYS and LEDGER_COMPACT_EVERY_MS are set, then compaction follows them, and a bad value is named", () => {
    const defaults = parseConfig(minimal);
    expect(defaults.ok && defaults.config.ledger).toEqual({ hotDays: 35, compactEveryMs: 3_600_000 });
    const set = parseConfig({ ...minimal, LEDGER_HOT_DAYS: "0", LEDGER_COMPACT_EVERY_MS: "2000" });
    expect(set.ok && set.config.ledger).toEqual({ hotDays: 0, compactEveryMs: 2000 });
    expect(errorsOf({ ...minimal, LEDGER_HOT_DAYS: "-1", LEDGER_COMPACT_EVERY_MS: "1h" })).toEqual([
      expect.stringMatching(/^LEDGER_HOT_DAYS must be a whole number of days/),
      expect.stringMatching(/^LEDGER_COMPACT_EVERY_MS must be a whole number of milliseconds/),
    ]);
    expect(errorsOf({ ...minimal, LEDGER_HOT_DAYS: "36500", LEDGER_COMPACT_EVERY_MS: "10" })).toEqual([
      "LEDGER_HOT_DAYS must be at most 3650 days",
      "LEDGER_COMPACT_EVERY_MS must be at least 1000 milliseconds",
    ]);
  });

  it("when the provider and lists are given with spaces, then they are read", () => {
    const result = parseConfig({
      ...minimal,
      ADMIN_IDS: " 1001 , 1002 ",
      ALLOWED_USER_IDS: "2001,",
      TOPUP_BASE_URL: "https://provider.example.com",
      TOPUP_MITRA_ID: "M1",
      TOPUP_SECRET_KEY: "s3cret",
      TOPUP_TIMEOUT_MS: "1500",
      REDIS_URL: "redis://127.0.0.1:6379/2",
    });
    expect(result.ok && result.config).toMatchObject({
      adminIds: [1001, 1002],
      allowedUserIds: [2001],
      topup: { baseUrl: "https://provider.example.com", mitraId: "M1", secretKey: "s3cret" },
      topupTimeoutMs: 1500,
      redisUrl: "redis://127.0.0.1:6379/2",
    });
  });

  it("when a bad value is refused, then the secret key never appears in the messages", () => {
    const errors = errorsOf({
      BOT_TOKEN: "bad token",
      TOPUP_BASE_URL: "https://p.example",
      TOPUP_MITRA_ID: "M",
      TOPUP_SECRET_KEY: "very-secret-value",
      TOPUP_TIMEOUT_MS: "x",
    });
    expect(errors.join("\n")).not.toContain("very-secret-value");
  });

  it("when WEBHOOK_URL is http or uses any port behind a self-hosted Bot API server, then it is accepted", () => {
    for (const url of ["http://bot.internal:8081/tg", "https://bot.example.com:9443/tg", "http://10.0.0.5/hook"]) {
      const result = parseConfig({ ...minimal, BOT_API_ROOT: "http://127.0.0.1:8081", WEBHOOK_URL: url, PORT: "8080" });
      expect(result.ok && result.config.webhook?.url).toBe(url);
    }
  });

  it("when WEBHOOK_URL is not what Telegram's own server posts to, then the bot refuses it and says why", () => {
    expect(errorsOf({ ...minimal, WEBHOOK_URL: "http://bot.example.com/tg", PORT: "8080" })).toEqual([
      "WEBHOOK_URL must be an https:// URL: Telegram's Bot API server (api.telegram.org) posts webhooks over https only (a self-hosted Bot API server, BOT_API_ROOT, also takes http)",
    ]);
    expect(errorsOf({ ...minimal, WEBHOOK_URL: "https://bot.example.com:9443/tg", PORT: "8080" })[0]).toMatch(
      /uses port 9443: .*only to ports 443, 80, 88 and 8443/,
    );
    for (const url of [
      "https://bot.example.com/tg",
      "https://bot.example.com:8443/tg",
      "https://bot.example.com:88/tg",
    ]) {
      expect(parseConfig({ ...minimal, WEBHOOK_URL: url, PORT: "8080" }).ok).toBe(true);
    }
    expect(errorsOf({ ...minimal, WEBHOOK_URL: "bot.example.com/tg", PORT: "8080" })).toEqual([
      "WEBHOOK_URL must be a URL such as https://bot.example.com/telegram",
    ]);
  });

  it("when resellers are listed, then they are read, and a user in two lists is refused with both names", () => {
    const ok = parseConfig({ ...minimal, ADMIN_IDS: "1", ALLOWED_USER_IDS: "2", RESELLER_IDS: "3, 4" });
    expect(ok.ok && ok.config.resellerIds).toEqual([3, 4]);
    expect(errorsOf({ ...minimal, ADMIN_IDS: "1", ALLOWED_USER_IDS: "2,3", RESELLER_IDS: "3,1" })).toEqual([
      "RESELLER_IDS lists 1, also in ADMIN_IDS: give each user one role",
      "RESELLER_IDS lists 3, also in ALLOWED_USER_IDS: give each user one role",
    ]);
  });

  it("when ADMIN_CHAT_ID is a group id or ID:THREAD_ID, then it is read; unset or empty means private chats", () => {
    const adminChat = (value: string | undefined) => {
      const result = parseConfig({ ...minimal, ...(value === undefined ? {} : { ADMIN_CHAT_ID: value }) });
      if (!result.ok) throw new Error(result.errors.join("\n"));
      return result.config.adminChat;
    };
    expect(adminChat(undefined)).toBeUndefined();
    expect(adminChat("")).toBeUndefined();
    expect(adminChat("-1001234567890")).toEqual({ chatId: -1001234567890 });
    expect(adminChat(" -4012345 ")).toEqual({ chatId: -4012345 });
    expect(adminChat("-1001234567890:7")).toEqual({ chatId: -1001234567890, threadId: 7 });
  });

  it("when ADMIN_CHAT_ID is a private chat or not an id, then the bot refuses it and names the variable once", () => {
    expect(errorsOf({ ...minimal, ADMIN_CHAT_ID: "1001" })).toEqual([
      'ADMIN_CHAT_ID "1001" is a private chat (a positive id): use the group\'s id, which is negative (supergroups start with -100, e.g. -1001234567890)',
    ]);
    expect(errorsOf({ ...minimal, ADMIN_CHAT_ID: "1001:7" })[0]).toMatch(/^ADMIN_CHAT_ID "1001:7" is a private chat/);
    const notAnId = (value: string) =>
      `ADMIN_CHAT_ID "${value}" is not a group id: a negative number such as -1001234567890, or ID:THREAD_ID such as -1001234567890:7 for a topic of a forum`;
    for (const value of [
      "@myshopgroup",
      "-100abc",
      "-100123:",
      "-100123:0",
      "-100123:-7",
      "-100123:7:8",
      "-0",
      "-99999999999999999",
    ])
      expect(errorsOf({ ...minimal, ADMIN_CHAT_ID: value })).toEqual([notAnId(value)]);
  });
});
