/**
 * The shop's days and months in its time zone (`TIME_ZONE`): the one place that turns an instant
 * into the shop's day, a day into the instants it spans, and walks days and months. A day is
 * written `YYYY-MM-DD` and a month `YYYY-MM`, as the owner types them.
 */

const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of an instant in a time zone. */
export function dayIn(timeZone: string, at: Date): string {
  const ms = at.getTime();
  const offset = steadyOffset(timeZone, ms);
  if (offset !== undefined) {
    const wall = new Date(ms + offset);
    const year = wall.getUTCFullYear();
    if (year >= 1000 && year <= 9999) return wall.toISOString().slice(0, 10);
  }
  let format = dayFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** The hour of the day (0–23) of an instant in a time zone. */
export function hourIn(timeZone: string, atMs: number): number {
  const offset = steadyOffset(timeZone, atMs) ?? wallOffsetMs(timeZone, atMs);
  return Math.floor(((((atMs + offset) % DAY_MS) + DAY_MS) % DAY_MS) / 3_600_000);
}

/** A quarter of an hour: clocks are changed at whole quarters of an hour (UTC), offsets are whole quarters too. */
const QUARTER_MS = 15 * 60 * 1000;
const steady = new Map<string, { quarter: number; offset: number }>();

/**
 * The time zone's offset at `atMs` when it is the same over the whole quarter hour around it, read
 * once per quarter hour and zone (every order asks for its day and hour: the time zone database is
 * asked a few times an hour instead). Undefined when the offset changes within that quarter.
 */
function steadyOffset(timeZone: string, atMs: number): number | undefined {
  const quarter = Math.floor(atMs / QUARTER_MS);
  const known = steady.get(timeZone);
  if (known?.quarter === quarter) return known.offset;
  const offset = wallOffsetMs(timeZone, quarter * QUARTER_MS);
  if (offset !== wallOffsetMs(timeZone, (quarter + 1) * QUARTER_MS - 1)) return undefined;
  steady.set(timeZone, { quarter, offset });
  return offset;
}

/** The day `days` after a day `YYYY-MM-DD` (before it when negative): calendar days, whatever the time zone. */
export function dayPlus(day: string, days: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** The `count` calendar days up to and including `last`, oldest first. */
export function daysUpTo(last: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => dayPlus(last, i - count + 1));
}

const partFormats = new Map<string, Intl.DateTimeFormat>();

/** Milliseconds to add to UTC to get the wall clock of `timeZone` at that instant. */
export function wallOffsetMs(timeZone: string, at: number): number {
  let format = partFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return wall - Math.floor(at / 1000) * 1000;
}

/** Whether `day` is a real calendar day written `YYYY-MM-DD` (not 2026-02-31). */
export function isDay(day: string): boolean {
  const m = DAY.exec(day);
  if (m === null) return false;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).toISOString().slice(0, 10) === day;
}

/** The first and last millisecond of a calendar day in the shop's time zone; undefined for no such day. */
export function dayRange(day: string, timeZone: string): { fromMs: number; toMs: number } | undefined {
  if (!isDay(day)) return undefined;
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  const start = (wallMs: number) => wallMs - wallOffsetMs(timeZone, wallMs - wallOffsetMs(timeZone, wallMs));
  return { fromMs: start(midnightUtc), toMs: start(midnightUtc + DAY_MS) - 1 };
}

/**
 * The instant a day's wall clock in the shop's time zone shows `minutes` after midnight (21:00 is
 * 1260); undefined for no such day. A time a clock change skips is read with the offset before it.
 */
export function wallTimeAt(day: string, minutes: number, timeZone: string): number | undefined {
  if (!isDay(day)) return undefined;
  const wallMs = Date.parse(`${day}T00:00:00Z`) + minutes * 60_000;
  return wallMs - wallOffsetMs(timeZone, wallMs - wallOffsetMs(timeZone, wallMs));
}

/** The month (`YYYY-MM`) before a month written `YYYY-MM`. */
export function monthBefore(month: string): string {
  const [year, mon] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, mon - 2, 1)).toISOString().slice(0, 7);
}

/** The days (`YYYY-MM-DD`) of a month written `YYYY-MM`, or undefined for anything else. */
export function monthDays(month: string): string[] | undefined {
  const m = MONTH.exec(month);
  if (m === null) return undefined;
  const [year, mon] = [Number(m[1]), Number(m[2])];
  if (mon < 1 || mon > 12 || year < 2000) return undefined;
  const count = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  return Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, "0")}`);
}

/** The Monday (`YYYY-MM-DD`) of the week a day is in. */
export function weekStart(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return dayPlus(day, -((weekday + 6) % 7));
}

/** A stretch of days the owner asks about: a day, a week (Monday to Sunday) or a calendar month. */
export type PeriodKind = "day" | "week" | "month";

export interface Period {
  kind: PeriodKind;
  /** Its first and last day. */
  from: string;
  to: string;
}

/** The day, week or month that `day` is in. */
export function periodOf(kind: PeriodKind, day: string): Period {
  if (kind === "day") return { kind, from: day, to: day };
  if (kind === "week") {
    const from = weekStart(day);
    return { kind, from, to: dayPlus(from, 6) };
  }
  const days = monthDays(day.slice(0, 7))!;
  return { kind, from: days[0]!, to: days.at(-1)! };
}

/** The days of a period from its first, up to its last or `upTo` (today) if that comes first. */
export function daysOf(period: Pick<Period, "from" | "to">, upTo: string): string[] {
  const last = period.to < upTo ? period.to : upTo;
  const days: string[] = [];
  for (let day = period.from; day <= last; day = dayPlus(day, 1)) days.push(day);
  return days;
}
