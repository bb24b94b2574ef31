import { z } from "zod";
import { parseProviders, providerList, type ProviderSettings } from "./config-providers.js";
import {
  errorCodes,
  httpUrl,
  lowBalance,
  optional,
  positiveInt,
  providerBaseUrl,
  readTrustedProxies,
  timeOfDay,
} from "./config-values.js";
import { MAIN_PROVIDER } from "./topup/types.js";

export type { ProviderSettings } from "./config-providers.js";

/**
 * Everything the bot reads from the environment, parsed once at start. The README and
 * .env.example list the same variables with their defaults.
 */
export interface Config {
  botToken: string;
  botApiRoot: string;
  /** `undefined` means: start the built-in sandbox provider, no real orders. */
  topup: { baseUrl: string; mitraId: string; secretKey: string } | undefined;
  topupTimeoutMs: number;
  /**
   * TOPUP_PROVIDERS: every provider orders may go to, in the order of preference (`main`, the
   * one of `topup` above, only when listed; it is by default).
   */
  providers: ProviderSettings[];
  redisUrl: string | undefined;
  /** Prefix of every key the bot writes, so several bots can share one Redis database. */
  redisKeyPrefix: string;
  adminIds: number[];
  allowedUserIds: number[];
  /** Prepaid resellers: who buys from their saldo, at their tier's price. */
  resellerIds: number[];
  catalogFile: string;
  refIdPrefix: string;
  lowBalanceThreshold: number | undefined;
  /** Where notices to admins go (a group, or a topic of a forum); undefined: each admin's private chat. */
  adminChat: { chatId: number; threadId?: number } | undefined;
  webhook: { url: string; secret: string | undefined } | undefined;
  port: number | undefined;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  timeZone: string;
  /** The pause between two messages of a /broadcast (milliseconds; 50 = at most 20 a second). */
  broadcastIntervalMs: number;
  /** SHOP_NAME: the shop's name on customer receipts; `undefined` means the bot's name (getMe). */
  shopName: string | undefined;
  /** WEBAPP_URL: the Mini App's public address (its page at `url`, which ends in /app/); unset: no Mini App. */
  webApp: { url: string } | undefined;
  /**
   * LEDGER_HOT_DAYS, LEDGER_COMPACT_EVERY_MS: finished orders older than `hotDays` days are
   * compacted (0: every finished order), by a pass at start and then every `compactEveryMs`.
   */
  ledger: { hotDays: number; compactEveryMs: number };
  /**
   * DEPOSIT_MIN, DEPOSIT_MAX (rupiah, inclusive): what a reseller may ask to deposit;
   * DEPOSIT_REQUEST_HOURS: how long a request waits for its proof of transfer.
   */
  depositRequests: { min: number; max: number; hours: number };
  /**
   * H2H_ENABLED: the shop serves its provider interface to its resellers' systems on PORT.
   * H2H_RATE_LIMIT: requests a second one partner may send (past it: 429). H2H_NOTICE_MINUTES:
   * the admins hear of the API's sales in one message per this many minutes, not one per sale.
   * H2H_CALLBACK_ALLOW_PRIVATE: partners' callbacks may go to loopback and private addresses
   * (tests, a shop on a private network); refused otherwise.
   */
  h2h: {
    enabled: boolean;
    ratePerSecond: number;
    noticeMinutes: number;
    callbackAllowPrivate: boolean;
    /** Proxies whose right-most X-Forwarded-For entry names the client (none: the peer is the client). */
    trustedProxies: string[];
  };
  /**
   * RECAP_AT: the minute of the day (after midnight in `timeZone`) at which the admins get the day's
   * recap, once a day; undefined: no recap.
   */
  recapAt: number | undefined;
  /** RESELLER_LOW_SALDO (rupiah): a reseller whose saldo falls below it after a sale is told, once per crossing. */
  resellerLowSaldo: number | undefined;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: string[] };

const userIdList = z.string().transform((raw, ctx) => {
  const ids: number[] = [];
  for (const part of raw
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")) {
    if (!/^[1-9][0-9]{0,15}$/.test(part)) {
      ctx.addIssue({ code: "custom", message: `"${part}" is not a Telegram user id (digits only, comma-separated)` });
      return z.NEVER;
    }
    ids.push(Number(part));
  }
  return ids;
});

/** A group or supergroup id (negative), optionally `:THREAD_ID` for a topic of a forum supergroup. */
const adminChatId = z.string().transform((raw, ctx) => {
  const value = raw.trim();
  if (/^\+?[1-9][0-9]*(:.*)?$/.test(value)) {
    ctx.addIssue({
      code: "custom",
      message:
        `"${value}" is a private chat (a positive id): use the group's id, which is negative ` +
        "(supergroups start with -100, e.g. -1001234567890)",
    });
    return z.NEVER;
  }
  const match = /^(-[1-9][0-9]{0,15})(?::([1-9][0-9]{0,15}))?$/.exec(value);
  const chatId = match === null ? NaN : Number(match[1]);
  const threadId = match?.[2] === undefined ? undefined : Number(match[2]);
  if (!Number.isSafeInteger(chatId) || (threadId !== undefined && !Number.isSafeInteger(threadId))) {
    ctx.addIssue({
      code: "custom",
      message:
        `"${value}" is not a group id: a negative number such as -1001234567890, ` +
        "or ID:THREAD_ID such as -1001234567890:7 for a topic of a forum",
    });
    return z.NEVER;
  }
  return threadId === undefined ? { chatId } : { chatId, threadId };
});

const schema = z.object({
  BOT_TOKEN: z
    .string({ error: "is required: the token @BotFather gave you" })
    .trim()
    .min(1, "is required: the token @BotFather gave you")
    .regex(/^[^\s/]+$/, "must not contain spaces or slashes (copy it exactly as @BotFather gave it)"),
  BOT_API_ROOT: optional(httpUrl),
  TOPUP_BASE_URL: optional(providerBaseUrl("TOPUP_BASE_URL")),
  TOPUP_MITRA_ID: optional(z.string().trim()),
  TOPUP_SECRET_KEY: optional(z.string().trim()),
  TOPUP_TIMEOUT_MS: optional(positiveInt("milliseconds")),
  TOPUP_PROVIDERS: optional(providerList),
  TOPUP_FAILOVER_CODES: optional(errorCodes),
  TOPUP_EMPTY_CODES: optional(errorCodes),
  REDIS_URL: optional(
    z
      .string()
      .trim()
      .refine((u) => /^rediss?:\/\/\S+$/i.test(u), "must start with redis:// or rediss://"),
  ),
  REDIS_KEY_PREFIX: optional(z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, "must be 1 to 64 letters, digits or : _ . -")),
  ADMIN_IDS: optional(userIdList),
  ALLOWED_USER_IDS: optional(userIdList),
  RESELLER_IDS: optional(userIdList),
  CATALOG_FILE: optional(z.string().trim()),
  REF_ID_PREFIX: optional(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{1,10}$/, "must be 1 to 10 letters or digits")
      // The H2H test orders' ids start with TEST: a shop's own ids must never be taken for them.
      .refine((v) => !/^test/i.test(v), "must not start with TEST (the ids of the H2H API's test orders do)"),
  ),
  LOW_BALANCE_THRESHOLD: optional(lowBalance),
  RESELLER_LOW_SALDO: optional(lowBalance),
  RECAP_AT: optional(timeOfDay),
  ADMIN_CHAT_ID: optional(adminChatId),
  WEBHOOK_URL: optional(
    z
      .string()
      .trim()
      .refine(
        (u) => /^https?:\/\/\S+$/i.test(u) && URL.canParse(u),
        "must be a URL such as https://bot.example.com/telegram",
      ),
  ),
  WEBHOOK_SECRET: optional(
    z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, "must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -"),
  ),
  PORT: optional(
    z
      .string()
      .regex(/^[0-9]+$/, "must be a port number")
      .transform(Number)
      .refine((n) => n >= 1 && n <= 65535, "must be a port number between 1 and 65535"),
  ),
  LOG_LEVEL: optional(
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      error: "must be one of fatal, error, warn, info, debug, trace, silent",
    }),
  ),
  TZ: optional(
    z.string().refine((tz) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, "is not a time zone name such as Asia/Jakarta"),
  ),
  SHOP_NAME: optional(z.string().trim().max(64, "must be at most 64 characters")),
  WEBAPP_URL: optional(
    z
      .string()
      .trim()
      .refine(
        (u) => /^https:\/\/\S+$/i.test(u) && URL.canParse(u) && new URL(u).search === "" && new URL(u).hash === "",
        "must be the https:// address at which the bot's PORT is reachable, such as https://shop.example.com (Telegram opens Mini Apps over https only)",
      ),
  ),
  LEDGER_HOT_DAYS: optional(
    z
      .string()
      .trim()
      .regex(/^[0-9]+$/, "must be a whole number of days (0 or more)")
      .transform(Number)
      .refine((n) => n <= 3650, "must be at most 3650 days"),
  ),
  LEDGER_COMPACT_EVERY_MS: optional(
    z
      .string()
      .trim()
      .regex(/^[0-9]+$/, "must be a whole number of milliseconds")
      .transform(Number)
      .refine((n) => n >= 1000 && Number.isSafeInteger(n), "must be at least 1000 milliseconds"),
  ),
  BROADCAST_INTERVAL_MS: optional(
    z
      .string()
      .regex(/^[0-9]+$/, "must be a whole number of milliseconds (0 or more)")
      .transform(Number)
      .refine((n) => n <= 60_000, "must be at most 60000 milliseconds"),
  ),
  DEPOSIT_MIN: optional(positiveInt("rupiah (no dots)")),
  DEPOSIT_MAX: optional(
    positiveInt("rupiah (no dots)").refine((n) => n <= 100_000_000, "must be at most 100000000 rupiah"),
  ),
  DEPOSIT_REQUEST_HOURS: optional(
    positiveInt("hours").refine((n) => n <= 24 * 30, "must be at most 720 hours (30 days)"),
  ),
  H2H_ENABLED: optional(
    z
      .string()
      .trim()
      .toLowerCase()
      .refine((v) => ["true", "false", "1", "0", "yes", "no"].includes(v), "must be true or false")
      .transform((v) => v === "true" || v === "1" || v === "yes"),
  ),
  H2H_RATE_LIMIT: optional(
    positiveInt("requests a second").refine((n) => n <= 100_000, "must be at most 100000 requests a second"),
  ),
  H2H_NOTICE_MINUTES: optional(positiveInt("minutes").refine((n) => n <= 24 * 60, "must be at most 1440 minutes")),
  H2H_CALLBACK_ALLOW_PRIVATE: optional(
    z
      .string()
      .trim()
      .toLowerCase()
      .refine((v) => ["true", "false", "1", "0", "yes", "no"].includes(v), "must be true or false")
      .transform((v) => v === "true" || v === "1" || v === "yes"),
  ),
  H2H_TRUSTED_PROXIES: optional(
    z.string().transform((typed, ctx) => {
      const read = readTrustedProxies(typed);
      if (read.ok) return read.addresses;
      ctx.addIssue({ code: "custom", message: `"${read.bad}" is not an IP address (comma-separated IP addresses)` });
      return z.NEVER;
    }),
  ),
});

const TELEGRAM_API_ROOT = "https://api.telegram.org";
/** The ports Telegram's own Bot API server delivers webhooks to. */
const TELEGRAM_WEBHOOK_PORTS = new Set(["443", "80", "88", "8443"]);

/**
 * What the Bot API server in use would refuse about a webhook URL, if anything. Telegram's own
 * server posts only to https on ports 443, 80, 88 and 8443; a self-hosted Bot API server
 * (BOT_API_ROOT) also posts to http and to any port, so nothing is refused there.
 */
export function webhookRefusal(webhookUrl: string, botApiRoot: string): string | undefined {
  if (new URL(botApiRoot).hostname !== new URL(TELEGRAM_API_ROOT).hostname) return undefined;
  const url = new URL(webhookUrl);
  if (url.protocol !== "https:") {
    return (
      "must be an https:// URL: Telegram's Bot API server (api.telegram.org) posts webhooks over https only " +
      "(a self-hosted Bot API server, BOT_API_ROOT, also takes http)"
    );
  }
  const port = url.port === "" ? "443" : url.port;
  if (!TELEGRAM_WEBHOOK_PORTS.has(port)) {
    return (
      `uses port ${port}: Telegram's Bot API server (api.telegram.org) posts webhooks only to ports 443, 80, 88 ` +
      "and 8443 (a self-hosted Bot API server, BOT_API_ROOT, takes any port)"
    );
  }
  return undefined;
}

/** The Mini App's page under WEBAPP_URL (a path of the reverse proxy kept): `https://shop.example.com/app/`. */
function miniAppUrl(webAppUrl: string): string {
  const base = new URL(webAppUrl);
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  return new URL("app/", base).toString();
}

type Env = z.infer<typeof schema>;

/**
 * Parses the environment. Never throws: a bad configuration comes back as one line per bad
 * variable, every one of them in the same run (a missing TOPUP_MITRA_ID is named beside a missing
 * BOT_TOKEN, not after it is fixed), so the operator fixes them all in one go.
 */
export function parseConfig(env: Record<string, string | undefined>): ConfigResult {
  const errors: string[] = [];
  // Each variable on its own: one bad value must not hide the checks that need the others.
  const values: Partial<Record<keyof Env, unknown>> = {};
  const bad = new Set<keyof Env>();
  for (const name of Object.keys(schema.shape) as Array<keyof Env>) {
    const result = schema.shape[name].safeParse(env[name]);
    if (result.success) {
      values[name] = result.data;
      continue;
    }
    bad.add(name);
    // One line per variable: the first problem is the one to fix.
    const issue = result.error.issues[0];
    const message =
      name === "BOT_TOKEN" && env[name] === undefined
        ? "is required: the token @BotFather gave you"
        : (issue?.message ?? "is not valid");
    errors.push(`${name} ${message}`);
  }
  const e = values as Partial<Env>;
  /** Set, well or badly: what a rule about another variable goes by. */
  const given = (name: keyof Env) => e[name] !== undefined || bad.has(name);
  if (given("TOPUP_BASE_URL")) {
    if (!given("TOPUP_MITRA_ID")) errors.push("TOPUP_MITRA_ID is required when TOPUP_BASE_URL is set");
    if (!given("TOPUP_SECRET_KEY")) errors.push("TOPUP_SECRET_KEY is required when TOPUP_BASE_URL is set");
  }
  const mainBad = (["TOPUP_BASE_URL", "TOPUP_MITRA_ID", "TOPUP_SECRET_KEY", "TOPUP_TIMEOUT_MS"] as const).some((n) =>
    bad.has(n),
  );
  const { providers, errors: providerErrors } = parseProviders(
    env,
    e.TOPUP_PROVIDERS ?? [MAIN_PROVIDER],
    mainBad || bad.has("LOW_BALANCE_THRESHOLD") || bad.has("TOPUP_FAILOVER_CODES") || bad.has("TOPUP_EMPTY_CODES")
      ? null
      : {
          topup: topupOf(e),
          timeoutMs: e.TOPUP_TIMEOUT_MS ?? 60_000,
          lowBalance: e.LOW_BALANCE_THRESHOLD,
          failoverCodes: e.TOPUP_FAILOVER_CODES,
          emptyCodes: e.TOPUP_EMPTY_CODES,
        },
    given("TOPUP_BASE_URL"),
  );
  errors.push(...providerErrors);
  const apiRoot = (e.BOT_API_ROOT ?? TELEGRAM_API_ROOT).replace(/\/+$/, "");
  // Which server posts the webhook is unknown while BOT_API_ROOT itself is bad (it is named above).
  if (e.WEBHOOK_URL !== undefined && !bad.has("BOT_API_ROOT")) {
    const refused = webhookRefusal(e.WEBHOOK_URL, apiRoot);
    if (refused !== undefined) errors.push(`WEBHOOK_URL ${refused}`);
  }
  // One role per user: an id in two lists is a mistake the operator should see, not a guess.
  const lists: Array<[string, number[]]> = [
    ["ADMIN_IDS", e.ADMIN_IDS ?? []],
    ["ALLOWED_USER_IDS", e.ALLOWED_USER_IDS ?? []],
    ["RESELLER_IDS", e.RESELLER_IDS ?? []],
  ];
  for (const [i, [name, ids]] of lists.entries()) {
    for (const [otherName, other] of lists.slice(i + 1)) {
      const both = ids.filter((id) => other.includes(id));
      if (both.length > 0)
        errors.push(`${otherName} lists ${both.join(", ")}, also in ${name}: give each user one role`);
    }
  }
  if (given("WEBHOOK_URL") && !given("PORT")) {
    errors.push("PORT is required when WEBHOOK_URL is set (the port the webhook server listens on)");
  }
  if (given("WEBAPP_URL") && !given("PORT")) {
    errors.push("PORT is required when WEBAPP_URL is set (the port the Mini App is served on)");
  }
  if (e.H2H_ENABLED === true && !given("PORT")) {
    errors.push("PORT is required when H2H_ENABLED is true (the port the H2H API is served on)");
  }
  if ((e.DEPOSIT_MIN ?? 10_000) > (e.DEPOSIT_MAX ?? 10_000_000))
    errors.push("DEPOSIT_MIN must not be above DEPOSIT_MAX (the smallest and largest deposit a reseller may ask for)");
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, config: configOf(values as Env, apiRoot, providers) };
}

/** main's address and credentials (TOPUP_*), or undefined for the built-in sandbox. */
const topupOf = (e: Partial<Env>): Config["topup"] =>
  e.TOPUP_BASE_URL === undefined
    ? undefined
    : { baseUrl: e.TOPUP_BASE_URL, mitraId: e.TOPUP_MITRA_ID!, secretKey: e.TOPUP_SECRET_KEY! };

/** The configuration from an environment in which every variable parsed and every rule held. */
function configOf(e: Env, apiRoot: string, providers: ProviderSettings[]): Config {
  return {
    botToken: e.BOT_TOKEN,
    botApiRoot: apiRoot,
    topup: topupOf(e),
    topupTimeoutMs: e.TOPUP_TIMEOUT_MS ?? 60_000,
    providers,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX ?? "topup:",
    adminIds: e.ADMIN_IDS ?? [],
    allowedUserIds: e.ALLOWED_USER_IDS ?? [],
    resellerIds: e.RESELLER_IDS ?? [],
    catalogFile: e.CATALOG_FILE ?? "catalog.json",
    refIdPrefix: e.REF_ID_PREFIX ?? "TG",
    lowBalanceThreshold: e.LOW_BALANCE_THRESHOLD,
    adminChat: e.ADMIN_CHAT_ID,
    webhook: e.WEBHOOK_URL === undefined ? undefined : { url: e.WEBHOOK_URL, secret: e.WEBHOOK_SECRET },
    port: e.PORT,
    logLevel: e.LOG_LEVEL ?? "info",
    timeZone: e.TZ ?? "Asia/Jakarta",
    broadcastIntervalMs: e.BROADCAST_INTERVAL_MS ?? 50,
    shopName: e.SHOP_NAME,
    webApp: e.WEBAPP_URL === undefined ? undefined : { url: miniAppUrl(e.WEBAPP_URL) },
    ledger: { hotDays: e.LEDGER_HOT_DAYS ?? 35, compactEveryMs: e.LEDGER_COMPACT_EVERY_MS ?? 3_600_000 },
    depositRequests: {
      min: e.DEPOSIT_MIN ?? 10_000,
      max: e.DEPOSIT_MAX ?? 10_000_000,
      hours: e.DEPOSIT_REQUEST_HOURS ?? 24,
    },
    h2h: {
      enabled: e.H2H_ENABLED ?? false,
      ratePerSecond: e.H2H_RATE_LIMIT ?? 50,
      noticeMinutes: e.H2H_NOTICE_MINUTES ?? 10,
      callbackAllowPrivate: e.H2H_CALLBACK_ALLOW_PRIVATE ?? false,
      trustedProxies: e.H2H_TRUSTED_PROXIES ?? [],
    },
    recapAt: e.RECAP_AT,
    resellerLowSaldo: e.RESELLER_LOW_SALDO,
  };
}
