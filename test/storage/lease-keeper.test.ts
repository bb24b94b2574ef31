import { describe, expect, it } from "vitest";
import { keepLease, type Lease } from "../../src/storage/leases.js";

/**
 * A lease whose hold this test ends by hand: what a process sees when its hold ran out before a
 * renewal came back (Redis down for a while, an event loop stalled), with nobody else taking it.
 */
function handLease() {
  const state = { held: false, tries: 0 };
  const lease: Lease = {
    name: "by-hand",
    ttlMs: 30,
    async acquire() {
      state.tries++;
      state.held = true;
      return true;
    },
    async renew() {
      return state.held;
    },
    async release() {
      state.held = false;
    },
    held: () => state.held,
    fence: () => (state.held ? "me:1" : undefined),
  };
  return { lease, state };
}

describe("keepLease", () => {
  it("when a hold runs out and the lease is taken straight back, then the holder is told it lost it and got it again, and whoever waits for it goes on", async () => {
    const { lease, state } = handLease();
    const events: string[] = [];
    const keeper = keepLease(lease, {
      retryMs: 5,
      onAcquired: () => events.push("acquired"),
      onLost: () => events.push("lost"),
    });
    try {
      await keeper.whenHeld();
      expect(events).toEqual(["acquired"]);

      // The hold runs out here; the poller, finding no fence, waits for the lease again.
      state.held = false;
      const triesBefore = state.tries;
      const waiting = keeper.whenHeld();
      await waiting;

      expect(state.tries).toBeGreaterThan(triesBefore);
      expect(events).toEqual(["acquired", "lost", "acquired"]);
      expect(keeper.held()).toBe(true);
    } finally {
      await keeper.stop();
    }
  });
});
