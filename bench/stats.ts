/** The figures' arithmetic: medians, percentiles and how a number is printed in the doc. */

export const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

/** A number with `d` decimals, "n/a" when there is none (a phase that measured nothing). */
export const f = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : "n/a");
