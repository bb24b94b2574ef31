import { createHash } from "node:crypto";
import { createClient, type RedisClientType } from "@keyv/redis";

export type RedisClient = RedisClientType;

export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
}

/** `redis://user:pass@host:6379/0` → `redis://host:6379/0`, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return "(unparsable REDIS_URL)";
  }
}

export interface RedisOptions {
  url: string;
  connectTimeoutMs?: number;
  /** Errors of a connection that was up (it reconnects by itself); never the first connect. */
  onError?: (err: unknown) => void;
  /**
   * The name this connection and its duplicates carry in `CLIENT LIST` (CLIENT SETNAME, sent
   * again at every reconnect), so other processes can tell whether this one is still alive
   * (storage/liveness.ts). A server that refuses CLIENT SETNAME gets an unnamed connection:
   * `client.options.name` is then undefined.
   */
  name?: string;
}

/** A reply of the server refusing a command (an ACL, a renamed or unknown command), not a broken connection. */
export function isRefusal(err: unknown): boolean {
  return err instanceof Error && /^(ERR|NOPERM|NOAUTH|WRONGPASS)\b/.test(err.message);
}

/**
 * Connects to Redis, configured to fail loudly: no offline queue (a command while disconnected
 * throws at once instead of hanging), a connect timeout at start (a wrong URL stops the bot with
 * a clear message), and reconnects in the background at most every 2 s once it was up.
 *
 * With a `name`, the first connection asks the server whether it takes CLIENT SETNAME and is then
 * replaced by one that sends the name in its handshake (node-redis sends it again at every
 * reconnect, and duplicates inherit it). Asked first because a handshake the server refuses is
 * not an error node-redis gives up on: it would reconnect forever.
 */
export async function connectRedis(opts: RedisOptions): Promise<RedisClient> {
  const first = await open(
    opts,
    createClient({
      url: opts.url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: opts.connectTimeoutMs ?? 5000,
        reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000),
      },
    }),
  );
  if (opts.name === undefined) return first;
  try {
    await first.sendCommand(["CLIENT", "SETNAME", opts.name]);
  } catch (err) {
    if (isRefusal(err)) return first; // unnamed: other processes wait for this one's leases to run out
    first.destroy();
    throw new StoreUnavailableError(`cannot use Redis at ${redactRedisUrl(opts.url)} (${(err as Error).message})`);
  }
  try {
    // A duplicate, not a new createClient(): the same options and client class (a new one costs ~35 ms).
    return await open(opts, first.duplicate({ name: opts.name }));
  } finally {
    // A close that fails leaves a broken connection: dropped without waiting.
    await first.close().catch(() => first.destroy());
  }
}

/** Connects `client` within the connect timeout, or throws StoreUnavailableError (the client destroyed). */
async function open(opts: RedisOptions, client: RedisClientType): Promise<RedisClient> {
  const connectTimeout = opts.connectTimeoutMs ?? 5000;
  let lastError: unknown;
  let connected = false;
  client.on("error", (err: unknown) => {
    lastError = err;
    if (connected) opts.onError?.(err);
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(lastError instanceof Error ? lastError : new Error(`no answer within ${connectTimeout} ms`)),
          connectTimeout,
        );
      }),
    ]);
  } catch (err) {
    client.destroy();
    const code = (err as NodeJS.ErrnoException).code;
    throw new StoreUnavailableError(
      `cannot connect to Redis at ${redactRedisUrl(opts.url)} (${code ?? (err as Error).message})`,
    );
  } finally {
    clearTimeout(timer);
  }
  connected = true;
  return client;
}

/**
 * A Lua script run with EVALSHA (one round trip), loaded with EVAL the first time a server does
 * not know it (after a restart or a SCRIPT FLUSH). Redis runs a script atomically: nothing else
 * happens between its first and its last command.
 */
export function luaScript(source: string) {
  const sha = createHash("sha1").update(source).digest("hex");
  async function run(client: RedisClient, keys: string[], args: Array<string | number>): Promise<unknown> {
    const options = { keys, arguments: args.map(String) };
    try {
      return await client.evalSha(sha, options);
    } catch (err) {
      if (!String((err as Error).message).startsWith("NOSCRIPT")) throw err;
      return client.eval(source, options);
    }
  }
  /** Loads the script into the server's cache now (at start), rather than with its first use. */
  run.load = async (client: RedisClient): Promise<void> => {
    await client.scriptLoad(source);
  };
  return run;
}

export type LuaScript = ReturnType<typeof luaScript>;
