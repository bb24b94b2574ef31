/**
 * The fields of one separated text (a compacted order's tab-separated fields, a kept line's
 * byte-1-separated values), found without splitting it: a day's CSV reads thousands of orders,
 * and splitting each into two dozen strings was a third of the file's time and most of its
 * garbage. A scanner holds the bounds of one text at a time: read what you need of it before the
 * next scan (nothing in between may wait).
 */
export interface FieldScanner {
  /**
   * Finds the fields of `text` from `from` to `to` (exclusive), separated by `separator`; false when
   * there are more than the scanner holds.
   */
  scan(text: string, from: number, to: number, separator: string): boolean;
  /** How many fields the last scan found. */
  readonly count: number;
  /** Field i ("" past the last). */
  field: (i: number) => string;
  /** Field i, or undefined past the last. */
  at: (i: number) => string | undefined;
  /** Whether field i is empty or past the last. */
  blank: (i: number) => boolean;
}

export function fieldScanner(maxFields: number): FieldScanner {
  const starts = new Int32Array(maxFields);
  const ends = new Int32Array(maxFields);
  let count = 0;
  let scanned = "";
  return {
    scan(text, from, to, separator) {
      scanned = text;
      count = 0;
      let start = from;
      for (let n = 0; n < maxFields; n++) {
        let cut = text.indexOf(separator, start);
        if (cut < 0 || cut > to) cut = to;
        starts[n] = start;
        ends[n] = cut;
        if (cut === to) {
          count = n + 1;
          return true;
        }
        start = cut + 1;
      }
      return false;
    },
    get count() {
      return count;
    },
    field: (i) => (i < count ? scanned.slice(starts[i], ends[i]) : ""),
    at: (i) => (i < count ? scanned.slice(starts[i], ends[i]) : undefined),
    blank: (i) => i >= count || starts[i] === ends[i],
  };
}
