import { randomBytes } from "node:crypto";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A ref_id unique forever: the millisecond clock in base 32 (sortable) plus 50 random bits.
 * Letters and digits only, because the provider's rules for ref_id are not shown.
 */
export function newRefId(prefix: string, now: Date): string {
  let time = "";
  let t = now.getTime();
  for (let i = 0; i < 9; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(10);
  let rand = "";
  for (let i = 0; i < 10; i++) rand += CROCKFORD[bytes[i]! % 32];
  return `${prefix}${time}${rand}`;
}
