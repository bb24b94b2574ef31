import { Api, GrammyError, HttpError } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import { loadCatalog, type Catalog } from "../catalog/catalog.js";
import type { PartnerStore } from "../access/partners.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { Ledger } from "../orders/ledger.js";
import { retry } from "../retry.js";
import type { Shop } from "../shop/shop.js";
import { createLease, whileHeld } from "../storage/leases.js";
import type { Liveness } from "../storage/liveness.js";
import { StoreUnavailableError } from "../storage/redis.js";
import { createStorage, type Storage } from "../storage/storage.js";

/** A start-up failure an operator can fix: a title and one line per problem, never a stack trace. */
export class StartupError extends Error {
  override name = "StartupError";
  constructor(
    readonly title: string,
    readonly lines: string[],
  ) {
    super(`${title} ${lines.join("; ")}`);
  }
}

/** The waits between attempts to reach Telegram at start: about a minute and a half in all. */
export const TELEGRAM_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000, 15_000, 15_000];
/** The ledger upgrade's lease, renewed every third of it while the upgrade runs. */
const UPGRADE_LEASE_MS = 15_000;
/** How often a process waiting for another one's upgrade looks at its lease. */
const UPGRADE_WAIT_MS = 500;

/** CATALOG_FILE, read and checked once; a bad file stops the start with every problem named. */
export async function readCatalog(config: Config): Promise<Catalog> {
  const result = await loadCatalog(
    config.catalogFile,
    config.providers.map((p) => p.name),
  );
  if (!result.ok) throw new StartupError(`CATALOG_FILE ${config.catalogFile} is not valid:`, result.errors);
  return result.catalog;
}

/**
 * Redis when REDIS_URL is set (its connections named after `owner`, so the other processes see at
 * once when this one is gone), else the in-process memory store. A Redis that cannot be used stops
 * the start with its reason.
 */
export async function openStorage(config: Config, owner: string, logger: Logger): Promise<Storage> {
  try {
    return await createStorage({
      redisUrl: config.redisUrl,
      prefix: config.redisKeyPrefix,
      owner,
      onError: (err) => logger.error({ err }, "redis error"),
    });
  } catch (err) {
    if (err instanceof StoreUnavailableError) throw new StartupError("REDIS_URL cannot be used:", [err.message]);
    throw err;
  }
}

/** Why a call to Telegram failed, in one line without the token. */
function telegramFailure(err: unknown, token: string): string {
  // grammY's HttpError says which call failed; its `error` says why (refused, DNS, TLS…).
  const cause = err instanceof HttpError && err.error instanceof Error ? `: ${err.error.message}` : "";
  return `${err instanceof Error ? err.message : String(err)}${cause}`.replaceAll(token, "***");
}

/**
 * getMe, retried on network trouble with one line per attempt, waiting `delaysMs` in turn; after the
 * last one the start fails. A refused token stops at once.
 */
export async function reachTelegram(
  config: Config,
  logger: Logger,
  delaysMs: readonly number[],
): Promise<UserFromGetMe> {
  // A plain Api, without the bot's auto-retry: every failed attempt is logged here.
  const api = new Api(config.botToken, { apiRoot: config.botApiRoot });
  const refused = (err: unknown) => err instanceof GrammyError && err.error_code === 401;
  let attempts = 0;
  try {
    return await retry(
      (attempt) => {
        attempts = attempt;
        return api.getMe();
      },
      {
        delayMs: (attempt) => delaysMs[attempt - 1],
        retryOn: (err) => !refused(err),
        onRetry: (err, { attempt, delayMs }) =>
          logger.error(
            { botApiRoot: config.botApiRoot, attempt, retryInMs: delayMs, err: telegramFailure(err, config.botToken) },
            "Telegram cannot be reached; retrying",
          ),
      },
    );
  } catch (err) {
    if (refused(err))
      throw new StartupError("BOT_TOKEN was rejected by Telegram:", [
        "401 Unauthorized: check the token from @BotFather",
      ]);
    throw new StartupError("Telegram cannot be reached:", [
      `${config.botApiRoot}: ${telegramFailure(err, config.botToken)}`,
      `gave up after ${attempts} attempts`,
    ]);
  }
}

/**
 * The ledger's upgrade, by one process at a time; the others wait for it, then find nothing to
 * do. Its lease is renewed while the upgrade runs; a process killed in the middle leaves it to the
 * next start (or another process) at once when it is seen gone, else once it ran out. Logs what
 * was rewritten, if anything.
 */
export async function upgradeOnce(deps: {
  storage: Storage;
  books: Pick<Ledger, "upgrade">;
  owner: string;
  liveness: Liveness;
  logger: Logger;
}): Promise<void> {
  const { logger } = deps;
  const lease = createLease(deps.storage, "upgrade", {
    ttlMs: UPGRADE_LEASE_MS,
    owner: deps.owner,
    liveness: deps.liveness,
  });
  await retry(() => lease.acquire(), { again: (held) => !held, delayMs: () => UPGRADE_WAIT_MS, retryOn: () => false });
  let reported = 0;
  const upgraded = await whileHeld(
    lease,
    () =>
      deps.books.upgrade({
        onProgress: (done) => {
          if (done - reported < 10_000) return;
          reported = done;
          logger.info({ done }, `ledger upgrade: ${done} orders rewritten so far`);
        },
      }),
    {
      onLost: () => logger.warn("ledger upgrade: its lease was lost; another process may run it too"),
      onRenewError: (err) => logger.warn({ err }, "ledger upgrade: lease not renewed"),
    },
  );
  if (upgraded === undefined) return;
  logger.info(
    upgraded,
    `ledger upgraded from layout ${upgraded.from} to ${upgraded.to}: ${upgraded.orders} orders rewritten` +
      (upgraded.from < 2
        ? `, per-day figures built for ${upgraded.tallied.orders} orders and ${upgraded.tallied.deposits} deposits`
        : "") +
      (upgraded.hours > 0 ? `, orders by the hour counted for ${upgraded.hours} days` : ""),
  );
}

/**
 * Resellers' API keys of the time they were kept in clear become hashes, the clear key staying
 * their signing secret until the next rotation. Each record is rewritten in one atomic step, so
 * processes starting together need no lease; a record read before this is rewritten as it is read.
 */
export async function upgradePartnerKeys(deps: {
  partners: Pick<PartnerStore, "upgradeOldKeys">;
  logger: Logger;
}): Promise<void> {
  const upgraded = await deps.partners.upgradeOldKeys();
  if (upgraded > 0)
    deps.logger.info({ upgraded }, `API keys upgraded: ${upgraded} kept as a hash only, each key now signs callbacks`);
}

/** Logs which catalogue is in use (the file, or one edited in the chat) and whether orders are paused. */
export async function announceCatalog(config: Config, shop: Shop, logger: Logger): Promise<string> {
  const inUse = await shop.state().catch((err: unknown) => {
    logger.error({ err }, "catalogue in use not read");
    return undefined;
  });
  const catalogInUse =
    inUse === undefined || inUse.source.kind === "file"
      ? `file ${config.catalogFile}`
      : `edited in the chat (version ${inUse.source.version}, ${inUse.source.at} by ${inUse.source.by})`;
  logger.info(
    { catalog: catalogInUse, paused: inUse?.pause !== undefined },
    `catalogue in use: ${catalogInUse}${inUse?.pause === undefined ? "" : "; orders are paused"}`,
  );
  return catalogInUse;
}
