import type { Logger } from "../logger.js";
import { isRefusal } from "./redis.js";
import { connectionName, type Storage } from "./storage.js";

/**
 * Whether the process that holds something (a lease, a lane's lock, pending updates) is gone, so
 * that another process may take it at once instead of waiting for its time to run out.
 *
 * Every process names its Redis connections after itself (CLIENT SETNAME, `<prefix><owner>`, see
 * storage.ts). A process killed outright (SIGKILL, a crash) has its sockets closed by the kernel
 * at once, and Redis drops them at once: a holder none of whose connections is in `CLIENT LIST`
 * is gone. A live process that lost its connection reconnects within about 2 s (redis.ts), so
 * the one case where a live process looks gone is a connection it lost a moment ago; there a
 * poller's fencing token refuses the old holder's writes, and an update it was handling may be
 * handled again (orders and money have their own once-only guards). What `CLIENT LIST` cannot
 * tell, it does not guess:
 *
 * - Redis restarted less than 5 s ago (every process is reconnecting; `INFO server` uptime): no
 *   takeover yet.
 * - A machine that vanished without closing its sockets stays in the list until the server drops
 *   them: its holds run out by their time.
 * - Redis refuses CLIENT SETNAME or CLIENT LIST (an ACL, a managed service), or the list does not
 *   show this process's own connection (a proxy in between): takeovers wait for the time to run
 *   out, and the log says so once.
 *
 * Only a list fetched after the holder was read counts (a process that took something a moment
 * ago is in it). Callers read the holder, then ask: the checks of one moment share one
 * `CLIENT LIST`, and an owner seen alive is taken as alive for half a second (never the other way:
 * a "gone" is always fresh).
 */
export interface Liveness {
  /** True only when none of `owner`'s connections is open on Redis now (call it after reading the holder). */
  gone(owner: string): Promise<boolean>;
  /** Logs a takeover from a process that is gone (one line). */
  tookOver(what: string, from: string): void;
  /** Asks once (at start) whether this Redis can tell; says so in the log when it cannot. */
  probe(): Promise<boolean>;
}

/** An owner seen in `CLIENT LIST` is taken as alive this long without asking again. */
const ALIVE_MS = 500;
/** Right after a Redis restart every process is still reconnecting: nobody is taken for gone. */
const RESTART_GRACE_S = 5;

const NEVER: Liveness = { gone: async () => false, tookOver: () => undefined, probe: async () => false };

export function createLiveness(storage: Storage, logger: Logger): Liveness {
  if (storage.kind !== "redis") return NEVER;
  const { redis, prefix } = storage;
  const me = storage.owner;
  const namePrefix = connectionName(prefix, "");
  /** Why this Redis cannot tell (for good); undefined while it can. */
  let cannot: string | undefined =
    me === undefined ? "Redis refused CLIENT SETNAME, or this process's connections are not named" : undefined;
  let toldCannot = false;
  const seenAlive = new Map<string, number>();
  let next: { sent: boolean; names: Promise<Set<string> | undefined> } | undefined;

  const sayCannot = () => {
    if (toldCannot || cannot === undefined) return;
    toldCannot = true;
    logger.warn(
      { why: cannot },
      "Redis cannot tell whether another process is alive: what a killed process held (the poller's turn, " +
        "a chat's updates, background work) is taken over only once its time runs out (up to 15 s)",
    );
  };

  /** The owners with a connection open now; undefined when this cannot be told now. */
  async function names(): Promise<Set<string> | undefined> {
    let list: string;
    let info: string;
    try {
      [list, info] = await Promise.all([
        redis.sendCommand<string>(["CLIENT", "LIST"]),
        redis.sendCommand<string>(["INFO", "server"]),
      ]);
    } catch (err) {
      if (isRefusal(err)) {
        cannot = `Redis refused CLIENT LIST or INFO (${(err as Error).message.split("\n")[0]})`;
        sayCannot();
      }
      return undefined; // a broken connection: cannot tell now
    }
    const owners = new Set<string>();
    for (const line of String(list).split("\n")) {
      const name = / name=(\S*)/.exec(` ${line}`)?.[1];
      if (name !== undefined && name.startsWith(namePrefix)) owners.add(name.slice(namePrefix.length));
    }
    if (!owners.has(me!)) {
      // This very connection is named: a list without it is not the server's whole list.
      cannot = "CLIENT LIST does not show this process's own connection (a proxy in front of Redis?)";
      sayCannot();
      return undefined;
    }
    const now = performance.now();
    for (const owner of owners) seenAlive.set(owner, now);
    for (const [owner, at] of seenAlive) if (now - at > 10 * ALIVE_MS) seenAlive.delete(owner);
    const uptime = Number(/uptime_in_seconds:(\d+)/.exec(String(info))?.[1] ?? 0);
    return uptime < RESTART_GRACE_S ? undefined : owners;
  }

  /** A list fetched after this call: the callers of one moment share it. */
  function fresh(): Promise<Set<string> | undefined> {
    if (next !== undefined && !next.sent) return next.names;
    const slot: { sent: boolean; names: Promise<Set<string> | undefined> } = {
      sent: false,
      names: new Promise((resolve) =>
        setImmediate(() => {
          slot.sent = true;
          resolve(names());
        }),
      ),
    };
    next = slot;
    return slot.names;
  }

  return {
    async gone(owner) {
      if (cannot !== undefined || owner === me) return false;
      const seen = seenAlive.get(owner);
      if (seen !== undefined && performance.now() - seen < ALIVE_MS) return false;
      const owners = await fresh();
      return owners !== undefined && !owners.has(owner);
    },
    tookOver(what, from) {
      logger.info({ what, from }, "taken over at once from a process that is gone (no connection of it is open)");
    },
    async probe() {
      if (cannot === undefined) await fresh();
      sayCannot();
      return cannot === undefined;
    },
  };
}
