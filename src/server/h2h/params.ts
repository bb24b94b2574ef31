/**
 * `max_price` as a partner sent it: absent, a whole number of rupiah (at most 15 digits), or
 * malformed (repeated, empty, signed, with dots or letters). Real and test orders read it alike.
 */
export function maxPriceOf(url: URL): { ok: true; value: number | undefined } | { ok: false } {
  const all = url.searchParams.getAll("max_price");
  if (all.length === 0) return { ok: true, value: undefined };
  return all.length === 1 && /^[0-9]{1,15}$/.test(all[0]!) ? { ok: true, value: Number(all[0]) } : { ok: false };
}

/** What a malformed `max_price` is told. */
export const MAX_PRICE_MSG = "max_price must be a whole number of rupiah, at least 0 (no dots or commas)";
