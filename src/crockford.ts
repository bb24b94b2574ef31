import { randomBytes } from "node:crypto";

/** Crockford's base-32 alphabet: digits and upper-case letters without I, L, O and U (never misread). */
export const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** `count` random characters of the alphabet (5 random bits each). */
export function randomCrockford(count: number): string {
  const bytes = randomBytes(count);
  let out = "";
  for (const b of bytes) out += CROCKFORD[b % 32];
  return out;
}
