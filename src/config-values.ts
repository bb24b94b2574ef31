import { isIP } from "node:net";
import { z } from "zod";

/** Empty strings count as unset: `FOO=` in a .env file means "no value", not "the empty value". */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema.optional());

export const positiveInt = (what: string) =>
  z
    .string()
    .regex(/^[0-9]+$/, `must be a whole number of ${what}`)
    .transform(Number)
    .refine((n) => n > 0 && Number.isSafeInteger(n), `must be a positive number of ${what}`);

export const httpUrl = z
  .string()
  .url("must be a URL such as https://example.com")
  .refine((u) => /^https?:\/\//i.test(u), "must start with http:// or https://");

/** A provider's address: orders go to {base}/v1/transaction/partner, so a query or fragment would sit in front of that path. */
export const providerBaseUrl = (name: string) =>
  httpUrl.refine(
    (u) => !/[?#]/.test(u),
    `must not have a query or fragment (?… or #…): orders go to {${name}}/v1/transaction/partner`,
  );

/** A balance under which the admins are told (whole rupiah). */
export const lowBalance = z
  .string()
  .regex(/^[0-9]+$/, "must be a whole number (rupiah, no dots)")
  .transform(Number);

/**
 * A time of day written HH:MM (00:00 to 23:59), read as minutes after midnight: when the daily recap
 * is due, in the shop's time zone.
 */
export const timeOfDay = z
  .string()
  .trim()
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, "must be a time of day HH:MM between 00:00 and 23:59, such as 21:00")
  .transform((hhmm) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5)));

/** A provider's `error_code`s, comma-separated: `product/not-found,shop/paused`. */
export const errorCodes = z.string().transform((raw, ctx) => {
  const codes: string[] = [];
  for (const part of raw
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")) {
    if (!/^[A-Za-z0-9._-]{1,64}(\/[A-Za-z0-9._-]{1,64}){0,3}$/.test(part)) {
      ctx.addIssue({
        code: "custom",
        message: `"${part}" is not an error_code such as product/not-found (comma-separated)`,
      });
      return z.NEVER;
    }
    if (!codes.includes(part)) codes.push(part);
  }
  return codes;
});

/** An address as it is compared and counted: an IPv4-mapped IPv6 address is its IPv4 address. */
export function normaliseAddress(address: string): string {
  const a = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  return mapped === null ? a : mapped[1]!;
}

/**
 * H2H_TRUSTED_PROXIES as typed: comma-separated IP addresses (spaces allowed). The addresses read,
 * or the first entry that is not one.
 */
export function readTrustedProxies(typed: string): { ok: true; addresses: string[] } | { ok: false; bad: string } {
  const addresses: string[] = [];
  for (const entry of typed.split(",")) {
    const a = entry.trim();
    if (a === "") continue;
    if (isIP(a) === 0) return { ok: false, bad: a.slice(0, 60) };
    addresses.push(normaliseAddress(a));
  }
  return { ok: true, addresses };
}
