import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wallClock } from "../../src/reports/csv.js";
import { dayIn, hourIn } from "../../src/calendar.js";

/** What Intl itself writes for an instant in a zone: what a CSV's submitted_at must read. */
const intl = (timeZone: string, ms: number) =>
  new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "medium" }).format(new Date(ms));

/**
 * Zones whose offsets are whole hours, half or three quarters of an hour, change twice a year
 * (by an hour or by half of one), or were once a local mean time of minutes and seconds.
 */
const ZONES = [
  "Asia/Jakarta",
  "Asia/Makassar",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Australia/Lord_Howe",
  "America/New_York",
  "Europe/London",
  "Pacific/Chatham",
  "America/St_Johns",
  "UTC",
];
const instant = fc.integer({ min: Date.parse("1900-01-01"), max: Date.parse("2100-01-01") });
/** Days of a change of offset, and any day. */
const changeDay = fc.oneof(
  fc.constantFrom("2026-03-08", "2026-11-01", "2026-03-29", "2026-10-25", "2026-04-05", "2026-09-27"),
  instant.map((ms) => new Date(ms).toISOString().slice(0, 10)),
);

describe("the CSV's wall clock", () => {
  it("when instants come in any order, then each reads as Intl writes it in the shop's zone", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.array(instant, { minLength: 1, maxLength: 50 }), (zone, times) => {
        const clock = wallClock(zone);
        for (const ms of times) expect(clock(ms)).toBe(intl(zone, ms));
      }),
      { numRuns: 300 },
    );
  });

  it("when a day's orders come in time order across its changes of offset, then each second reads as Intl writes it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        changeDay,
        fc.array(fc.integer({ min: 0, max: 2 * 86_400_000 }), { minLength: 1, maxLength: 200 }),
        (zone, day, offsets) => {
          const clock = wallClock(zone);
          const start = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
          for (const ms of offsets.sort((a, b) => a - b).map((o) => start + o)) expect(clock(ms)).toBe(intl(zone, ms));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("the day and hour an order counts in", () => {
  const intlParts = (timeZone: string, ms: number) => {
    const parts = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
    }).formatToParts(new Date(ms));
    const get = (type: string) => parts.find((p) => p.type === type)!.value;
    return { day: `${get("year")}-${get("month")}-${get("day")}`, hour: Number(get("hour")) };
  };

  it("when orders come at any instant, around changes of offset too, then their day and hour are the zone's wall clock", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        changeDay,
        fc.array(fc.integer({ min: 0, max: 2 * 86_400_000 }), { minLength: 1, maxLength: 100 }),
        (zone, day, offsets) => {
          const start = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
          for (const ms of offsets.map((o) => start + o)) {
            const want = intlParts(zone, ms);
            expect(dayIn(zone, new Date(ms))).toBe(want.day);
            expect(hourIn(zone, ms)).toBe(want.hour);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
