import { describe, expect, it } from "vitest";
import { parseConfig } from "../src/config.js";

const minimal = { BOT_TOKEN: "123456:ABC-def_ghi", ADMIN_IDS: "1001" };
const main = {
  ...minimal,
  TOPUP_BASE_URL: "https://main.example.com",
  TOPUP_MITRA_ID: "M1",
  TOPUP_SECRET_KEY: "main-secret",
};
const backup = {
  TOPUP_BACKUP_BASE_URL: "https://backup.example.com/api",
  TOPUP_BACKUP_MITRA_ID: "B7",
  TOPUP_BACKUP_SECRET_KEY: "backup-secret",
};
const defaultFailover = [
  "product/not-found",
  "product/unavailable",
  "destination/invalid",
  "balance/insufficient",
  "shop/paused",
  "request/rate-limited",
  "transaction/insufficient-balance",
  "transaction/product-unavailable",
];
const defaultEmpty = ["balance/insufficient", "transaction/insufficient-balance"];

function configOf(env: Record<string, string>) {
  const result = parseConfig(env);
  if (!result.ok) throw new Error(result.errors.join("\n"));
  return result.config;
}

function errorsOf(env: Record<string, string>): string[] {
  const result = parseConfig(env);
  if (result.ok) throw new Error("expected the configuration to be refused");
  return result.errors;
}

describe("several providers", () => {
  it("when TOPUP_PROVIDERS is unset, then main is the only provider: the sandbox without TOPUP_BASE_URL", () => {
    expect(configOf(minimal).providers).toEqual([
      {
        name: "main",
        baseUrl: undefined,
        mitraId: "",
        secretKey: "",
        timeoutMs: 60_000,
        failoverCodes: defaultFailover,
        emptyCodes: defaultEmpty,
      },
    ]);
  });

  it("when main is configured, then its settings are TOPUP_*, LOW_BALANCE_THRESHOLD and its own code lists", () => {
    const config = configOf({
      ...main,
      TOPUP_TIMEOUT_MS: "9000",
      LOW_BALANCE_THRESHOLD: "50000",
      TOPUP_FAILOVER_CODES: "product/not-found, shop/paused",
      TOPUP_EMPTY_CODES: "balance/insufficient",
    });
    expect(config.providers).toEqual([
      {
        name: "main",
        baseUrl: "https://main.example.com",
        mitraId: "M1",
        secretKey: "main-secret",
        timeoutMs: 9000,
        lowBalance: 50_000,
        failoverCodes: ["product/not-found", "shop/paused"],
        emptyCodes: ["balance/insufficient"],
      },
    ]);
    // What was there before stays as it was.
    expect(config.topup).toEqual({ baseUrl: "https://main.example.com", mitraId: "M1", secretKey: "main-secret" });
    expect(config.topupTimeoutMs).toBe(9000);
    expect(config.lowBalanceThreshold).toBe(50_000);
  });

  it("when TOPUP_PROVIDERS lists two providers, then they come in that order, each with its own settings", () => {
    const config = configOf({
      ...main,
      ...backup,
      TOPUP_PROVIDERS: " backup , main ",
      TOPUP_BACKUP_TIMEOUT_MS: "20000",
      TOPUP_BACKUP_LOW_BALANCE: "100000",
      TOPUP_BACKUP_FAILOVER_CODES: "product/not-found",
      TOPUP_BACKUP_EMPTY_CODES: "",
    });
    expect(config.providers.map((p) => p.name)).toEqual(["backup", "main"]);
    expect(config.providers[0]).toEqual({
      name: "backup",
      baseUrl: "https://backup.example.com/api",
      mitraId: "B7",
      secretKey: "backup-secret",
      timeoutMs: 20_000,
      lowBalance: 100_000,
      failoverCodes: ["product/not-found"],
      emptyCodes: defaultEmpty,
    });
    expect(config.providers[1]).toMatchObject({ name: "main", timeoutMs: 60_000 });
    expect(config.providers[1]).not.toHaveProperty("lowBalance");
  });

  it("when another provider leaves its timeout and codes unset, then the defaults apply", () => {
    const config = configOf({ ...main, ...backup, TOPUP_PROVIDERS: "main,backup" });
    expect(config.providers[1]).toEqual({
      name: "backup",
      baseUrl: "https://backup.example.com/api",
      mitraId: "B7",
      secretKey: "backup-secret",
      timeoutMs: 60_000,
      failoverCodes: defaultFailover,
      emptyCodes: defaultEmpty,
    });
  });

  it("when TOPUP_PROVIDERS leaves main out, then main is not a provider, though TOPUP_* is set", () => {
    const config = configOf({ ...main, ...backup, TOPUP_PROVIDERS: "backup" });
    expect(config.providers.map((p) => p.name)).toEqual(["backup"]);
  });

  it("when TOPUP_PROVIDERS has a bad name, a name twice or no name, then it is named on one line", () => {
    expect(errorsOf({ ...main, TOPUP_PROVIDERS: "main,Backup" })).toEqual([
      'TOPUP_PROVIDERS "Backup" is not a provider name (1 to 20 lowercase letters a-z or digits, comma-separated)',
    ]);
    expect(errorsOf({ ...main, TOPUP_PROVIDERS: "main,back-up" })).toEqual([
      'TOPUP_PROVIDERS "back-up" is not a provider name (1 to 20 lowercase letters a-z or digits, comma-separated)',
    ]);
    expect(errorsOf({ ...main, ...backup, TOPUP_PROVIDERS: "backup,main,backup" })).toEqual([
      "TOPUP_PROVIDERS names backup twice (each provider once, in the order of preference)",
    ]);
    expect(errorsOf({ ...main, TOPUP_PROVIDERS: " , " })).toEqual([
      "TOPUP_PROVIDERS must name at least one provider, such as main",
    ]);
  });

  it("when another provider misses its address or credentials, then each missing variable is named, with every other problem", () => {
    expect(
      errorsOf({
        ...main,
        TOPUP_PROVIDERS: "main,backup,spare2",
        TOPUP_BACKUP_BASE_URL: "https://backup.example.com/?x=1",
        TOPUP_BACKUP_SECRET_KEY: "backup-secret",
        TOPUP_BACKUP_TIMEOUT_MS: "0",
        TOPUP_BACKUP_LOW_BALANCE: "10.000",
        TOPUP_BACKUP_FAILOVER_CODES: "product/not-found,not a code",
        TOPUP_SPARE2_BASE_URL: "https://spare.example.com",
        TOPUP_SPARE2_MITRA_ID: "S",
        TOPUP_SPARE2_SECRET_KEY: " ",
        TOPUP_TIMEOUT_MS: "soon",
      }),
    ).toEqual([
      "TOPUP_TIMEOUT_MS must be a whole number of milliseconds",
      "TOPUP_BACKUP_BASE_URL must not have a query or fragment (?… or #…): orders go to {TOPUP_BACKUP_BASE_URL}/v1/transaction/partner",
      "TOPUP_BACKUP_MITRA_ID is required: TOPUP_PROVIDERS names the provider backup",
      "TOPUP_BACKUP_TIMEOUT_MS must be a positive number of milliseconds",
      "TOPUP_BACKUP_LOW_BALANCE must be a whole number (rupiah, no dots)",
      'TOPUP_BACKUP_FAILOVER_CODES "not a code" is not an error_code such as product/not-found (comma-separated)',
      "TOPUP_SPARE2_SECRET_KEY is required: TOPUP_PROVIDERS names the provider spare2",
    ]);
  });

  it("when main's code lists are bad, then they are named", () => {
    expect(errorsOf({ ...main, TOPUP_FAILOVER_CODES: "shop/paused;x", TOPUP_EMPTY_CODES: "a b" })).toEqual([
      'TOPUP_FAILOVER_CODES "shop/paused;x" is not an error_code such as product/not-found (comma-separated)',
      'TOPUP_EMPTY_CODES "a b" is not an error_code such as product/not-found (comma-separated)',
    ]);
  });

  it("when a provider other than main is named without TOPUP_BASE_URL, then the sandbox cannot be one of several", () => {
    expect(errorsOf({ ...minimal, ...backup, TOPUP_PROVIDERS: "main,backup" })).toEqual([
      "TOPUP_PROVIDERS names backup while TOPUP_BASE_URL is unset: the built-in sandbox is then the only provider (set TOPUP_BASE_URL, or list only main)",
    ]);
    expect(errorsOf({ ...minimal, ...backup, TOPUP_PROVIDERS: "backup" })).toHaveLength(1);
    expect(configOf({ ...minimal, TOPUP_PROVIDERS: "main" }).providers.map((p) => p.name)).toEqual(["main"]);
  });

  it("when a provider's variables are refused, then no secret key appears in the messages", () => {
    const errors = errorsOf({
      ...main,
      TOPUP_PROVIDERS: "main,backup",
      TOPUP_BACKUP_BASE_URL: "backup-secret-in-the-wrong-place",
      TOPUP_BACKUP_SECRET_KEY: "backup-secret",
      TOPUP_BACKUP_TIMEOUT_MS: "x",
    });
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join("\n")).not.toContain("secret");
  });
});
