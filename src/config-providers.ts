import { z } from "zod";
import { errorCodes, lowBalance, optional, positiveInt, providerBaseUrl } from "./config-values.js";
import { MAIN_PROVIDER } from "./topup/types.js";

/**
 * One provider orders may go to, as configured: `main` is TOPUP_*, every other one is
 * TOPUP_<NAME>_*. The shop tries its providers in the order of TOPUP_PROVIDERS.
 */
export interface ProviderSettings {
  /** `a-z0-9`; `main` for TOPUP_BASE_URL (or the built-in sandbox). */
  name: string;
  /** `undefined` only for `main` without TOPUP_BASE_URL: the built-in sandbox. */
  baseUrl: string | undefined;
  /** Empty for the sandbox (it has credentials of its own). */
  mitraId: string;
  /** Empty for the sandbox. Never logged. */
  secretKey: string;
  timeoutMs: number;
  /** Below this balance the admins are told; unset: never. */
  lowBalance?: number;
  /** The `error_code`s of a status 0 answer that mean nothing was ordered: the next route may be tried. */
  failoverCodes: string[];
  /** The `error_code`s that mean this provider's own deposit is empty. */
  emptyCodes: string[];
}

/** The refusals of this bot's own H2H API and of the provider interface that mean nothing was ordered. */
export const DEFAULT_FAILOVER_CODES: readonly string[] = [
  "product/not-found",
  "product/unavailable",
  "destination/invalid",
  "balance/insufficient",
  "shop/paused",
  "request/rate-limited",
  "transaction/insufficient-balance",
  "transaction/product-unavailable",
];

/** The answers that mean a provider's own deposit is empty. */
export const DEFAULT_EMPTY_CODES: readonly string[] = ["balance/insufficient", "transaction/insufficient-balance"];

/** TOPUP_PROVIDERS: names `a-z0-9`, comma-separated, each once, in the order of preference. */
export const providerList = z.string().transform((raw, ctx) => {
  const names: string[] = [];
  for (const part of raw
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")) {
    const problem = !/^[a-z0-9]{1,20}$/.test(part)
      ? `"${part}" is not a provider name (1 to 20 lowercase letters a-z or digits, comma-separated)`
      : names.includes(part)
        ? `names ${part} twice (each provider once, in the order of preference)`
        : undefined;
    if (problem !== undefined) {
      ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    }
    names.push(part);
  }
  if (names.length === 0) {
    ctx.addIssue({ code: "custom", message: "must name at least one provider, such as main" });
    return z.NEVER;
  }
  return names;
});

/** The variables of one provider other than main: TOPUP_<NAME>_BASE_URL and the rest. */
const otherProviderVariables = (prefix: string) => ({
  BASE_URL: optional(providerBaseUrl(`${prefix}BASE_URL`)),
  MITRA_ID: optional(z.string().trim()),
  SECRET_KEY: optional(z.string().trim()),
  TIMEOUT_MS: optional(positiveInt("milliseconds")),
  LOW_BALANCE: optional(lowBalance),
  FAILOVER_CODES: optional(errorCodes),
  EMPTY_CODES: optional(errorCodes),
});

/** What main's settings are made of: the TOPUP_* variables, parsed with the rest of the configuration. */
export interface MainProviderValues {
  topup: { baseUrl: string; mitraId: string; secretKey: string } | undefined;
  timeoutMs: number;
  lowBalance: number | undefined;
  failoverCodes: string[] | undefined;
  emptyCodes: string[] | undefined;
}

/**
 * Every provider of TOPUP_PROVIDERS (`names`), in its order, from the environment: each bad or
 * missing TOPUP_<NAME>_* variable is one line of `errors`, none of them showing a value (a secret
 * key must not reach a log). `main` is null while main's own variables are bad (they are named
 * elsewhere).
 */
export function parseProviders(
  env: Record<string, string | undefined>,
  names: readonly string[],
  main: MainProviderValues | null,
  /** TOPUP_BASE_URL is set (well or badly): without it the sandbox is the only provider. */
  mainBaseUrlGiven: boolean,
): { providers: ProviderSettings[]; errors: string[] } {
  const providers: ProviderSettings[] = [];
  const errors: string[] = [];
  const others = names.filter((n) => n !== MAIN_PROVIDER);
  if (others.length > 0 && !mainBaseUrlGiven) {
    errors.push(
      `TOPUP_PROVIDERS names ${others.join(", ")} while TOPUP_BASE_URL is unset: the built-in sandbox is then ` +
        "the only provider (set TOPUP_BASE_URL, or list only main)",
    );
  }
  for (const name of names) {
    if (name === MAIN_PROVIDER) {
      if (main !== null)
        providers.push({
          name,
          baseUrl: main.topup?.baseUrl,
          mitraId: main.topup?.mitraId ?? "",
          secretKey: main.topup?.secretKey ?? "",
          timeoutMs: main.timeoutMs,
          ...(main.lowBalance === undefined ? {} : { lowBalance: main.lowBalance }),
          failoverCodes: main.failoverCodes ?? [...DEFAULT_FAILOVER_CODES],
          emptyCodes: main.emptyCodes ?? [...DEFAULT_EMPTY_CODES],
        });
      continue;
    }
    const prefix = `TOPUP_${name.toUpperCase()}_`;
    const values: Record<string, unknown> = {};
    let ok = true;
    for (const [suffix, schema] of Object.entries(otherProviderVariables(prefix))) {
      const result = schema.safeParse(env[prefix + suffix]);
      if (!result.success) {
        ok = false;
        errors.push(`${prefix}${suffix} ${result.error.issues[0]?.message ?? "is not valid"}`);
        continue;
      }
      values[suffix] = result.data;
      if (result.data === undefined && ["BASE_URL", "MITRA_ID", "SECRET_KEY"].includes(suffix)) {
        ok = false;
        errors.push(`${prefix}${suffix} is required: TOPUP_PROVIDERS names the provider ${name}`);
      }
    }
    if (!ok) continue;
    const v = values as z.infer<z.ZodObject<ReturnType<typeof otherProviderVariables>>>;
    providers.push({
      name,
      baseUrl: v.BASE_URL!,
      mitraId: v.MITRA_ID!,
      secretKey: v.SECRET_KEY!,
      timeoutMs: v.TIMEOUT_MS ?? 60_000,
      ...(v.LOW_BALANCE === undefined ? {} : { lowBalance: v.LOW_BALANCE }),
      failoverCodes: v.FAILOVER_CODES ?? [...DEFAULT_FAILOVER_CODES],
      emptyCodes: v.EMPTY_CODES ?? [...DEFAULT_EMPTY_CODES],
    });
  }
  return { providers, errors };
}
