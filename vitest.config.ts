import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests start real bot processes; give them room, but never assert on timings.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each e2e file starts processes and servers of its own; two at a time suits a 2-core CI box.
    maxWorkers: 2,
    // expect.poll waits for something to happen (a message, a button): as long as a step may take
    // on a busy machine, not vitest's 1 s default. A poll that passes returns at once.
    expect: { poll: { timeout: 15_000 } },
  },
});
