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
}

/**
 * Connects to Redis, configured to fail loudly: no offline queue (a command while disconnected
 * throws at once instead of hanging), a connect timeout at start (a wrong URL stops the bot with
 * a clear message), and reconnects in the background at most every 2 s once it was up.
 */
export async function connectRedis(opts: RedisOptions): Promise<RedisClient> {
  const connectTimeout = opts.connectTimeoutMs ?? 5000;
  const client = createClient({
    url: opts.url,
    disableOfflineQueue: true,
    socket: { connectTimeout, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000) },
  }) as RedisClientType;
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
