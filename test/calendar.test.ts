import { describe, expect, it } from "vitest";
import { dayIn, dayRange, daysUpTo, hourIn, isDay, monthDays, weekStart } from "../src/calendar.js";

describe("the shop's calendar", () => {
  it("when an order comes at 23:30 UTC, then in Jakarta it is the next day at 6 in the morning", () => {
    const at = Date.parse("2026-11-25T23:30:00Z");
    expect(dayIn("Asia/Jakarta", new Date(at))).toBe("2026-11-26");
    expect(hourIn("Asia/Jakarta", at)).toBe(6);
    expect(hourIn("UTC", at)).toBe(23);
  });

  it("when a day's range is asked in a zone with summer time, then its hours count what the clock shows", () => {
    // Berlin moves its clocks forward on 2026-03-29: that day has 23 hours.
    const range = dayRange("2026-03-29", "Europe/Berlin")!;
    expect((range.toMs + 1 - range.fromMs) / 3_600_000).toBe(23);
    expect(hourIn("Europe/Berlin", range.fromMs)).toBe(0);
    expect(hourIn("Europe/Berlin", range.toMs)).toBe(23);
  });

  it("when days are walked, then months and years roll over and impossible days are refused", () => {
    expect(daysUpTo("2026-03-02", 3)).toEqual(["2026-02-28", "2026-03-01", "2026-03-02"]);
    expect(monthDays("2028-02")).toHaveLength(29);
    expect(monthDays("2026-13")).toBeUndefined();
    expect(isDay("2026-02-31")).toBe(false);
    expect(dayRange("2026-02-31", "Asia/Jakarta")).toBeUndefined();
    expect(weekStart("2026-11-26")).toBe("2026-11-23"); // a Thursday: its Monday
    expect(weekStart("2026-11-29")).toBe("2026-11-23"); // a Sunday ends the week
    expect(weekStart("2026-11-23")).toBe("2026-11-23");
  });
});
