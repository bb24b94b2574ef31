import { CROCKFORD, randomCrockford } from "../crockford.js";

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
  return `${prefix}${time}${randomCrockford(10)}`;
}

/**
 * The ids a shop's own id may be, as someone typed it (`tg1m8av471…` for `TG1M8AV471…`): as typed,
 * upper case, and upper case after the configured prefix kept as it is written (a prefix set in
 * lower case). Letters and digits only; at most three, tried in that order.
 */
export function ownIdCandidates(text: string, prefix: string): string[] {
  const typed = text.trim();
  const upper = typed.toUpperCase();
  const withPrefix = upper.startsWith(prefix.toUpperCase()) ? prefix + upper.slice(prefix.length) : upper;
  return [...new Set([typed, upper, withPrefix])].filter((id) => /^[A-Za-z0-9]{1,64}$/.test(id));
}

/**
 * The ref_id of an order's attempt `n` at a provider (n >= 2; the first attempt sends the order's
 * own ref id): a provider refuses a ref_id it has seen, and another provider may be this shop's
 * own bot, so every attempt has its own. Letters and digits only, like the order's.
 */
export const attemptRefId = (refId: string, n: number): string => `${refId}R${n}`;

/**
 * The ref ids an order may have, given the ref id of one of its attempts (what a provider or an
 * admin quotes): the id itself (a first attempt's is the order's), and the id without the attempt
 * suffix `R<n>` when it has one.
 */
export function attemptBase(ref: string): string[] {
  const m = /^(.+)R\d+$/.exec(ref);
  return m === null ? [ref] : [ref, m[1]!];
}
