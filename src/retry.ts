/**
 * Waits `ms`, or less when `signal` aborts (then it resolves at once, it does not reject): a stop
 * never sits out a long wait. The timer keeps the process alive, like any wait a start depends on.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** How one loop retries: every rule is the caller's, the helper only runs them in order. */
export interface RetryOptions<T> {
  /**
   * The wait after attempt `attempt` (1 for the first) failed or asked `again`; undefined: no more
   * attempts (the last error is thrown, or the last value returned).
   */
  delayMs: (attempt: number) => number | undefined;
  /** Whether a failure may be tried again at all; the others are thrown at once (default: all). */
  retryOn?: (err: unknown, attempt: number) => boolean;
  /** A value that means "not yet": tried again like a failure, without an error (default: none). */
  again?: (value: T, attempt: number) => boolean;
  /** Told about each failure that is tried again, before the wait (the place for a log line). */
  onRetry?: (err: unknown, info: { attempt: number; delayMs: number }) => void;
  /**
   * A stop: once it is aborted, an attempt that failed (or asked `again`) is not tried again, and
   * a wait under way ends at once; the helper then throws the signal's reason. An attempt under
   * way, or the first one, is the caller's to cut short or to skip.
   */
  signal?: AbortSignal;
  /** How to wait (tests pass one that does not touch the clock). Default: `sleep`. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Calls `attempt` until it gives a value, waiting between tries as `delayMs` says. It decides
 * nothing by itself: which failures are retried, how long, what is logged and when to stop are the
 * options of each loop. `attempt` gets its number (1 for the first try).
 */
export async function retry<T>(attempt: (n: number) => Promise<T>, options: RetryOptions<T>): Promise<T> {
  const wait = options.sleep ?? sleep;
  const { signal } = options;
  for (let n = 1; ; n++) {
    let value: T;
    try {
      value = await attempt(n);
    } catch (err) {
      if (options.retryOn !== undefined && !options.retryOn(err, n)) throw err;
      const delay = options.delayMs(n);
      if (delay === undefined) throw err;
      options.onRetry?.(err, { attempt: n, delayMs: delay });
      signal?.throwIfAborted();
      await wait(delay, signal);
      signal?.throwIfAborted();
      continue;
    }
    if (options.again === undefined || !options.again(value, n)) return value;
    const delay = options.delayMs(n);
    if (delay === undefined) return value;
    signal?.throwIfAborted();
    await wait(delay, signal);
    signal?.throwIfAborted();
  }
}
