import { randomBytes } from "node:crypto";

/** Crockford's base-32 alphabet: digits and upper-case letters without I, L, O and U (never misread). */
export const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** `count` random characters of the alphabet (5 random bits each). */
export function randomCrockford(count: number): string {
  if (pooled + count > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, count));
    pooled = 0;
  }
  let out = "";
  for (let i = 0; i < count; i++) out += CROCKFORD[pool[pooled + i]! % 32];
  pooled += count; // each random byte is used once

  return out;
}

/**
 * Random bytes drawn from the system's generator a few kilobytes at a time, not ten at a time: an
 * order's ref id is made on every order, and one call per id cost more than the id.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let pooled = 0;
