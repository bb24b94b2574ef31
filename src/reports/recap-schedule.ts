import { dayIn, dayPlus, wallTimeAt } from "../calendar.js";
import type { Logger } from "../logger.js";
import { createClaims, type Claims } from "../storage/claims.js";
import type { Liveness } from "../storage/liveness.js";
import { luaScript } from "../storage/redis.js";
import type { Storage } from "../storage/storage.js";

/** A recap sent more than this after its time says it is late (the looks come every half minute or so). */
export const RECAP_LATE_AFTER_MS = 5 * 60_000;
/**
 * How long one process may take to send a recap before another may send it instead. A process that
 * dies while sending is seen gone at once (liveness.ts); this is for one that vanished unseen.
 */
const RECAP_CLAIM_MS = 10 * 60_000;

/** What the store remembers of the recaps: since when they are due, and the last day sent. */
interface RecapBook {
  /** `since`: the day RECAP_AT was first seen on this store; `sent`: the last day whose recap went out. */
  read(): Promise<{ since: string | undefined; sent: string | undefined }>;
  /** Records `day` as the first day of recaps, unless one is recorded already; the one recorded. */
  begin(day: string): Promise<string>;
  /** Records that `day`'s recap went out (a later day recorded already stays). */
  sent(day: string): Promise<void>;
}

// KEYS: the book (a hash); ARGV: the day. Days compare as strings (YYYY-MM-DD).
const MARK_SENT = luaScript(`
local sent = redis.call('HGET', KEYS[1], 'sent')
if not sent or sent < ARGV[1] then redis.call('HSET', KEYS[1], 'sent', ARGV[1]) end
return 1
`);

function createRecapBook(storage: Storage): RecapBook {
  if (storage.kind === "redis") {
    const { redis } = storage;
    const key = `${storage.prefix}recap`;
    return {
      async read() {
        const [since, sent] = await redis.hmGet(key, ["since", "sent"]);
        return { since: since ?? undefined, sent: sent ?? undefined };
      },
      async begin(day) {
        await redis.hSetNX(key, "since", day);
        return (await redis.hGet(key, "since")) ?? day;
      },
      sent: async (day) => void (await MARK_SENT(redis, [key], [day])),
    };
  }
  const book: { since: string | undefined; sent: string | undefined } = { since: undefined, sent: undefined };
  return {
    read: async () => ({ ...book }),
    async begin(day) {
      book.since ??= day;
      return book.since;
    },
    async sent(day) {
      if (book.sent === undefined || book.sent < day) book.sent = day;
    },
  };
}

/** A recap to send: its day, and when it was due when it goes out late (`HH:MM` in the shop's time zone). */
export interface DueRecap {
  day: string;
  late: { dueAt: string } | undefined;
}

export interface RecapScheduleDeps {
  storage: Storage;
  /** This process's name (the claim's holder), and how a dead holder is told. */
  owner?: string | undefined;
  liveness?: Liveness | undefined;
  timeZone: string;
  /** RECAP_AT: minutes after midnight in `timeZone`. */
  recapAt: number;
  /** Sends the recap; resolves once it went out (a throw: not sent, tried again at the next look). */
  send: (recap: DueRecap) => Promise<void>;
  logger: Logger;
  now: () => Date;
}

export interface RecapSchedule {
  /**
   * Sends what is due now: yesterday's recap if it never went out (late), then today's once its
   * time has passed. Cheap when nothing is due: nothing at all once this process knows today's went
   * out, else one read of the store.
   */
  look(): Promise<void>;
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/**
 * The evening recap, once a day among every process on one store, however often they restart. Its
 * rules, kept in the store (`recap` hash): a day's recap is due once the shop's clock passes
 * RECAP_AT on that day; it is recorded as sent only after it went out, under a claim per day that
 * keeps two processes from sending it at once (a process that dies while sending lets the claim go,
 * and the next look sends it). A recap missed while every process was down is sent late at the
 * next look, for the last missed day only (yesterday's, then today's when due), and never for a day
 * before RECAP_AT was first seen on this store: a fresh install has no empty yesterday to tell.
 */
export function createRecapSchedule(deps: RecapScheduleDeps): RecapSchedule {
  const book = createRecapBook(deps.storage);
  const claims: Claims = createClaims(deps.storage, "recap", {
    ...(deps.owner === undefined ? {} : { owner: deps.owner }),
    ...(deps.liveness === undefined ? {} : { liveness: deps.liveness }),
  });
  const dueAt = (day: string) => wallTimeAt(day, deps.recapAt, deps.timeZone)!;
  /** What this process knows of the store: the first day of recaps, and a day known sent. */
  let since: string | undefined;
  let knownSent: string | undefined;

  /** Sends one day's recap unless another process has, or is sending it; false: stop this look. */
  async function sendOne(day: string, nowMs: number): Promise<boolean> {
    if (!(await claims.take(day, RECAP_CLAIM_MS))) return false;
    try {
      // Read again under the claim: another process may have sent it since the first read.
      const { sent } = await book.read();
      if (sent !== undefined && sent >= day) {
        knownSent = sent;
        return true;
      }
      const late = nowMs - dueAt(day) > RECAP_LATE_AFTER_MS ? { dueAt: hhmm(deps.recapAt) } : undefined;
      await deps.send({ day, late });
      await book.sent(day);
      knownSent = day;
      deps.logger.info({ day, late: late !== undefined }, "daily recap sent");
      return true;
    } finally {
      await claims.giveBack(day);
    }
  }

  return {
    async look() {
      const nowMs = deps.now().getTime();
      const today = dayIn(deps.timeZone, new Date(nowMs));
      const yesterday = dayPlus(today, -1);
      const lastDue = nowMs >= dueAt(today) ? today : yesterday;
      if (knownSent !== undefined && knownSent >= lastDue) return;
      const read = await book.read();
      since = read.since ?? since ?? (await book.begin(today));
      if (read.sent !== undefined && (knownSent === undefined || read.sent > knownSent)) knownSent = read.sent;
      for (const day of lastDue === today ? [yesterday, today] : [yesterday]) {
        if (day < since || (knownSent !== undefined && knownSent >= day)) continue;
        if (!(await sendOne(day, nowMs))) return;
      }
    },
  };
}
