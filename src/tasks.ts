/**
 * Work that shutdown must wait for: updates being handled, notices being sent. `track` adds a
 * promise (and returns it); `idle` resolves once every tracked promise, including ones added
 * while waiting, has settled.
 */
export function createTaskTracker() {
  const running = new Set<Promise<unknown>>();
  return {
    track<T>(work: Promise<T>): Promise<T> {
      running.add(work);
      const forget = () => void running.delete(work);
      work.then(forget, forget);
      return work;
    },
    get size(): number {
      return running.size;
    },
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

export type TaskTracker = ReturnType<typeof createTaskTracker>;

/**
 * Waits that a stop cuts short: `pause(ms)` resolves after `ms`, or at `wakeAll()`, whichever
 * comes first; at once when `skip()` is already true as it starts (the caller is stopping).
 */
export function createSleeper(skip: () => boolean = () => false) {
  const sleepers = new Set<() => void>();
  return {
    pause: (ms: number) =>
      new Promise<void>((resolve) => {
        if (skip()) return resolve();
        const wake = () => {
          clearTimeout(timer);
          sleepers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        sleepers.add(wake);
      }),
    /** Ends every pause under way now. */
    wakeAll: () => {
      for (const wake of [...sleepers]) wake();
    },
  };
}
