import { describe, expect, it } from "vitest";
import { retry, sleep } from "../src/retry.js";

/** A wait that records what it was asked and returns at once: no test here depends on the clock. */
function recordingSleep() {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
}

/** An attempt that fails `failures` times, then answers "done". */
function flaky(failures: number) {
  const calls: number[] = [];
  return {
    calls,
    attempt: async (n: number) => {
      calls.push(n);
      if (calls.length <= failures) throw new Error(`failure ${calls.length}`);
      return "done";
    },
  };
}

describe("one retry helper for every retry loop", () => {
  it("when the first attempt works, then nothing waits and the value comes back", async () => {
    const clock = recordingSleep();
    const work = flaky(0);
    await expect(retry(work.attempt, { delayMs: () => 100, sleep: clock.sleep })).resolves.toBe("done");
    expect(work.calls).toEqual([1]);
    expect(clock.waits).toEqual([]);
  });

  it("when attempts fail, then each waits what delayMs says for its number and the next one is numbered on", async () => {
    const clock = recordingSleep();
    const work = flaky(3);
    const told: { attempt: number; delayMs: number; message: string }[] = [];
    const value = await retry(work.attempt, {
      delayMs: (attempt) => 100 * 2 ** (attempt - 1),
      onRetry: (err, info) => told.push({ ...info, message: (err as Error).message }),
      sleep: clock.sleep,
    });
    expect(value).toBe("done");
    expect(work.calls).toEqual([1, 2, 3, 4]);
    expect(clock.waits).toEqual([100, 200, 400]);
    expect(told).toEqual([
      { attempt: 1, delayMs: 100, message: "failure 1" },
      { attempt: 2, delayMs: 200, message: "failure 2" },
      { attempt: 3, delayMs: 400, message: "failure 3" },
    ]);
  });

  it("when delayMs says no more attempts, then the last error is thrown and onRetry is not told of it", async () => {
    const clock = recordingSleep();
    const work = flaky(5);
    const told: number[] = [];
    await expect(
      retry(work.attempt, {
        delayMs: (attempt) => (attempt < 3 ? 10 : undefined),
        onRetry: (_err, { attempt }) => told.push(attempt),
        sleep: clock.sleep,
      }),
    ).rejects.toThrow("failure 3");
    expect(work.calls).toEqual([1, 2, 3]);
    expect(told).toEqual([1, 2]);
  });

  it("when a failure is not one to retry, then it is thrown at once without a wait", async () => {
    const clock = recordingSleep();
    const work = flaky(5);
    await expect(
      retry(work.attempt, {
        delayMs: () => 10,
        retryOn: (_err, attempt) => attempt < 2,
        sleep: clock.sleep,
      }),
    ).rejects.toThrow("failure 2");
    expect(work.calls).toEqual([1, 2]);
    expect(clock.waits).toEqual([10]);
  });

  it("when a value means not yet, then it is asked again until another value comes", async () => {
    const clock = recordingSleep();
    const answers = [false, false, true];
    let calls = 0;
    const got = await retry(async () => answers[calls++]!, {
      again: (held) => !held,
      delayMs: () => 500,
      sleep: clock.sleep,
    });
    expect(got).toBe(true);
    expect(calls).toBe(3);
    expect(clock.waits).toEqual([500, 500]);
  });

  it("when a not-yet value meets the last attempt, then that value comes back", async () => {
    const clock = recordingSleep();
    const got = await retry(async () => "busy", {
      again: (v) => v === "busy",
      delayMs: (attempt) => (attempt < 2 ? 1 : undefined),
      sleep: clock.sleep,
    });
    expect(got).toBe("busy");
    expect(clock.waits).toEqual([1]);
  });

  it("when an attempt fails after the stop signal, then it is not tried again and the signal's reason is thrown", async () => {
    const clock = recordingSleep();
    const stop = new AbortController();
    const told: number[] = [];
    const calls: number[] = [];
    await expect(
      retry(
        async (n) => {
          calls.push(n);
          stop.abort(new Error("stopping"));
          throw new Error("store down");
        },
        {
          delayMs: () => 10,
          onRetry: (_err, { attempt }) => told.push(attempt),
          signal: stop.signal,
          sleep: clock.sleep,
        },
      ),
    ).rejects.toThrow("stopping");
    expect(calls).toEqual([1]);
    expect(told).toEqual([1]);
    expect(clock.waits).toEqual([]);
  });

  it("when the stop signal is given before the first attempt, then that attempt still runs (the caller decides)", async () => {
    const stop = new AbortController();
    stop.abort(new Error("stopping"));
    const work = flaky(0);
    await expect(retry(work.attempt, { delayMs: () => 10, signal: stop.signal })).resolves.toBe("done");
    expect(work.calls).toEqual([1]);
  });

  it("when the stop signal comes during a wait, then no further attempt starts", async () => {
    const stop = new AbortController();
    const work = flaky(5);
    const waits: number[] = [];
    await expect(
      retry(work.attempt, {
        delayMs: () => 10,
        signal: stop.signal,
        sleep: async (ms, signal) => {
          waits.push(ms);
          expect(signal).toBe(stop.signal);
          stop.abort(new Error("stopping"));
        },
      }),
    ).rejects.toThrow("stopping");
    expect(work.calls).toEqual([1]);
    expect(waits).toEqual([10]);
  });

  it("when a stop comes during the default wait, then the wait ends at once", async () => {
    const stop = new AbortController();
    // An hour's wait: the test ends only because the abort cuts it short.
    const waiting = sleep(3_600_000, stop.signal);
    stop.abort();
    await expect(waiting).resolves.toBeUndefined();
    await expect(sleep(3_600_000, stop.signal)).resolves.toBeUndefined();
  });
});
