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
