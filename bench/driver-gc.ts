/**
 * The bench driver's own garbage collection. The driver is one process (the fake Bot API, the
 * sandbox provider, the HTTP client of the Mini App's calls) that has seeded a year and keeps
 * every message the bot sent: its full collections take several milliseconds, and one that comes
 * while a call is timed is counted as the bot's time. So the driver collects its garbage before
 * each timed call, and reports the pauses of its own that still fell inside one.
 */
import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";

/** The driver's collections that fell inside timed calls. */
export interface DriverPauses {
  /** Timed calls with at least one pause of the driver inside. */
  calls: number;
  /** All of those pauses, ms. */
  ms: number;
  /** The longest one, ms. */
  longest: number;
}

export interface DriverGc {
  /** A full collection of the driver's heap, now, between timed calls (none with BENCH_DRIVER_GC=0). */
  collect(): void;
  /** Notes a timed call's window (performance.now() at its start and end). */
  timed(from: number, to: number): void;
  /** The pauses that fell inside the windows noted so far; stops watching. */
  finish(): Promise<DriverPauses>;
}

/** `collecting`: false leaves the collections out (BENCH_DRIVER_GC=0); the pauses are watched either way. */
export function watchDriverGc(collecting: boolean): DriverGc {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  const pauses: Array<{ start: number; end: number }> = [];
  const windows: Array<{ from: number; to: number }> = [];
  // The forced collections are observed too; they come between timed calls, never inside one.
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  observer.observe({ entryTypes: ["gc"] });
  return {
    collect: () => {
      if (collecting) gc();
    },
    timed(from, to) {
      windows.push({ from, to });
    },
    async finish() {
      // Entries are delivered after the collection, on a later turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      observer.disconnect();
      const result: DriverPauses = { calls: 0, ms: 0, longest: 0 };
      for (const w of windows) {
        let inside = 0;
        for (const p of pauses) {
          const overlap = Math.min(p.end, w.to) - Math.max(p.start, w.from);
          if (overlap > 0) {
            inside += overlap;
            result.longest = Math.max(result.longest, overlap);
          }
        }
        if (inside > 0) {
          result.calls += 1;
          result.ms += inside;
        }
      }
      return result;
    },
  };
}
