import { parseCatalog, toCatalogJson, type Catalog } from "../catalog/catalog.js";
import { createInvalidation } from "../storage/invalidation.js";
import { luaScript } from "../storage/redis.js";
import type { Storage } from "../storage/storage.js";

/** Orders are paused by an admin: nobody starts or confirms one. */
export interface Pause {
  reason: string;
  by: number;
  at: string;
}

/** Where the catalogue in use comes from: the file, or the one admins edited in the chat. */
export type CatalogSource = { kind: "file" } | { kind: "chat"; version: number; by: number; at: string };

export interface ShopState {
  catalog: Catalog;
  source: CatalogSource;
  pause: Pause | undefined;
}

/** An edit of the catalogue: the new one (or none, when nothing changes) and what to answer. */
export type CatalogEdit<T> = { catalog?: Catalog; result: T };

/**
 * The shop's state that admins change from the chat: the catalogue in use and the pause. Kept in
 * storage so every process and every restart sees a change at once (one small read per update
 * that needs it: the catalogue itself is read again only when its version moved).
 */
export interface Shop {
  state(): Promise<ShopState>;
  catalog(): Promise<Catalog>;
  /** The catalogue last read in this process, without a round trip (for the sandbox). */
  cachedCatalog(): Catalog;
  /**
   * Read, change, write, atomically against every other edit: when another edit lands in
   * between, `change` runs again on the newer catalogue (so no edit is ever lost). `tag` names
   * the edit (the update that asked for it): once a write with it landed, no later one does.
   */
  edit<T>(by: number, change: (catalog: Catalog) => CatalogEdit<T>, tag?: string): Promise<T>;
  /**
   * Replaces the catalogue if it is still the version `base` was read at. `tag` names the change
   * (an upload's id): once it is applied, a second try answers "already" instead of "stale".
   */
  replace(by: number, base: CatalogSource, catalog: Catalog, tag: string): Promise<"applied" | "already" | "stale">;
  /** Pauses (or changes the reason); the pause before, if any. */
  pause(pause: Pause): Promise<Pause | undefined>;
  /** Ends the pause; the pause that ended, if any. */
  resume(): Promise<Pause | undefined>;
  /** Closes what it opened (the Redis subscription); before the storage closes. */
  close(): Promise<void>;
}

const versionOf = (source: CatalogSource) => (source.kind === "file" ? 0 : source.version);

/** How long a tagged change is remembered as applied: longer than an upload or an update can come back. */
const TAG_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Writes the catalogue if the stored version is still ARGV[1]; returns the new version, -1 when
 * it moved on, -2 when the change tagged ARGV[5] was applied already (then nothing is written).
 * A tag is remembered by its own key (KEYS[4]) for a week; tags of older bots are in a set (KEYS[2]).
 */
const WRITE_CATALOG = luaScript(`
if ARGV[5] ~= '' then
  if redis.call('EXISTS', KEYS[4]) == 1 or redis.call('SISMEMBER', KEYS[2], ARGV[5]) == 1 then return -2 end
end
local current = redis.call('HGET', KEYS[1], 'version') or '0'
if current ~= ARGV[1] then return -1 end
local version = tonumber(current) + 1
redis.call('HSET', KEYS[1], 'version', version, 'catalog', ARGV[2], 'by', ARGV[3], 'at', ARGV[4])
if ARGV[5] ~= '' then redis.call('SET', KEYS[4], version, 'PX', ARGV[6]) end
redis.call('PUBLISH', KEYS[3], version)
return version
`);

/** Sets (ARGV[1] non-empty) or clears the pause; returns the one before. */
const SET_PAUSE = luaScript(`
local before = redis.call('HGET', KEYS[1], 'pause')
if ARGV[1] == '' then redis.call('HDEL', KEYS[1], 'pause') else redis.call('HSET', KEYS[1], 'pause', ARGV[1]) end
redis.call('PUBLISH', KEYS[2], 'pause')
return before
`);

export function createShop(opts: {
  storage: Storage;
  /** The catalogue of CATALOG_FILE: in use until an admin edits one in the chat. */
  fileCatalog: Catalog;
  now?: () => Date;
}): Shop {
  const now = opts.now ?? (() => new Date());
  const raw = opts.storage.kind === "redis" ? redisShopState(opts.storage) : memoryShopState(opts.storage);
  let cached: { version: number; catalog: Catalog; source: CatalogSource } = {
    version: 0,
    catalog: opts.fileCatalog,
    source: { kind: "file" },
  };

  async function state(): Promise<ShopState> {
    const head = await raw.head();
    const pause = head.pause === undefined ? undefined : (JSON.parse(head.pause) as Pause);
    if (head.version !== cached.version) {
      if (head.version === 0) {
        cached = { version: 0, catalog: opts.fileCatalog, source: { kind: "file" } };
      } else {
        const stored = await raw.catalog();
        // Another edit may land between the two reads: what is read is self-consistent anyway.
        if (stored !== undefined) {
          // Checked when it was stored; a route to a provider since removed from the configuration
          // is left out where orders are routed (routesOf), and named at the next edit.
          const parsed = parseCatalog(JSON.parse(stored.json), "stored catalogue", "any");
          if (!parsed.ok) throw new Error(`the stored catalogue is not valid: ${parsed.errors.join("; ")}`);
          cached = {
            version: stored.version,
            catalog: parsed.catalog,
            source: { kind: "chat", version: stored.version, by: stored.by, at: stored.at },
          };
        }
      }
    }
    return { catalog: cached.catalog, source: cached.source, pause };
  }

  async function write(by: number, base: number, catalog: Catalog, tag = ""): Promise<number> {
    const json = JSON.stringify(toCatalogJson(catalog));
    return raw.write(base, json, by, now().toISOString(), tag);
  }

  return {
    state,
    catalog: async () => (await state()).catalog,
    cachedCatalog: () => cached.catalog,
    async edit(by, change, tag) {
      for (;;) {
        const current = await state();
        const edit = change(current.catalog);
        if (edit.catalog === undefined) return edit.result;
        const version = await write(by, versionOf(current.source), edit.catalog, tag);
        if (version > 0 || version === -2) return edit.result;
      }
    },
    async replace(by, base, catalog, tag) {
      const version = await write(by, versionOf(base), catalog, tag);
      return version > 0 ? "applied" : version === -2 ? "already" : "stale";
    },
    async pause(pause) {
      const before = await raw.setPause(JSON.stringify(pause));
      return before === undefined ? undefined : (JSON.parse(before) as Pause);
    },
    async resume() {
      const before = await raw.setPause("");
      return before === undefined ? undefined : (JSON.parse(before) as Pause);
    },
    close: () => raw.close(),
  };
}

/** The stored shape: one Redis hash (version, catalog JSON, by, at, pause JSON), or its memory twin. */
interface RawShopState {
  /** Version 0: no catalogue was edited in the chat. */
  head(): Promise<{ version: number; pause: string | undefined }>;
  catalog(): Promise<{ version: number; json: string; by: number; at: string } | undefined>;
  /** The new version; -1 when the stored one is not `base` any more, -2 when `tag` already moved it. */
  write(base: number, json: string, by: number, at: string, tag: string): Promise<number>;
  /** "" clears it. Returns the one before. */
  setPause(json: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/**
 * The head (version and pause) is read for every order step, so each process keeps it until Redis
 * says it changed: every write publishes on `<key>:changed` in the same script, and a second
 * connection listens (storage/invalidation.ts). The cache is used only while that subscription is
 * known to be up (after a disconnect every read goes to Redis until it is back), and a read that
 * started before an invalidation is never cached, so a process never keeps a head older than the
 * last change it was told of. This process's own writes clear it at once, without waiting for the
 * message.
 */
function redisShopState(storage: Extract<Storage, { kind: "redis" }>): RawShopState {
  const { redis } = storage;
  const key = `${storage.prefix}shop`;
  const tagsKey = `${key}:applied`;
  /** Where the scripts publish: the channel createInvalidation(storage, "shop") listens on. */
  const channel = `${key}:changed`;
  let head: { version: number; pause: string | undefined } | undefined;
  let generation = 0;
  const invalidate = () => {
    generation += 1;
    head = undefined;
  };
  const changes = createInvalidation(storage, "shop", { onMessage: invalidate, onLost: invalidate });
  return {
    async head() {
      if (changes.listening() && head !== undefined) return head;
      const seen = generation;
      const [version, pause] = await redis.hmGet(key, ["version", "pause"]);
      const read = { version: Number(version ?? 0), pause: pause ?? undefined };
      if (changes.listening() && seen === generation) head = read;
      return read;
    },
    async catalog() {
      const [version, json, by, at] = await redis.hmGet(key, ["version", "catalog", "by", "at"]);
      if (version === null || version === undefined || json === null || json === undefined) return undefined;
      return { version: Number(version), json, by: Number(by ?? 0), at: at ?? "" };
    },
    async write(base, json, by, at, tag) {
      try {
        const tagKey = `${key}:tag:${tag}`;
        return Number(
          await WRITE_CATALOG(redis, [key, tagsKey, channel, tagKey], [base, json, by, at, tag, TAG_TTL_MS]),
        );
      } finally {
        invalidate();
      }
    },
    async setPause(json) {
      try {
        const before = await SET_PAUSE(redis, [key, channel], [json]);
        return typeof before === "string" ? before : undefined;
      } finally {
        invalidate();
      }
    },
    close: () => changes.close(),
  };
}

/** The memory store's shop state belongs to the store (as a Redis hash belongs to the database). */
const memoryStates = new WeakMap<Storage, RawShopState>();

function memoryShopState(storage: Storage): RawShopState {
  const existing = memoryStates.get(storage);
  if (existing !== undefined) return existing;
  const created = newMemoryShopState();
  memoryStates.set(storage, created);
  return created;
}

function newMemoryShopState(): RawShopState {
  let stored: { version: number; json: string; by: number; at: string } | undefined;
  let pause: string | undefined;
  const tags = new Set<string>();
  return {
    head: async () => ({ version: stored?.version ?? 0, pause }),
    catalog: async () => (stored === undefined ? undefined : { ...stored }),
    async write(base, json, by, at, tag) {
      if (tag !== "" && tags.has(tag)) return -2;
      if ((stored?.version ?? 0) !== base) return -1;
      stored = { version: base + 1, json, by, at };
      if (tag !== "") tags.add(tag);
      return stored.version;
    },
    async setPause(json) {
      const before = pause;
      pause = json === "" ? undefined : json;
      return before;
    },
    close: async () => {},
  };
}
