import type { Storage } from "../storage/storage.js";

/** A user as last seen writing to the bot: their name and @username in Telegram. */
export interface Person {
  name: string;
  username?: string;
}

/**
 * Who each user is, by name, as they were last seen (a user's name is kept from their updates,
 * so that lists, summaries and notices say "Budi (@budi) 3001", not a bare id). One Redis hash,
 * user id → compact JSON; written only when the name changed since this process last wrote it.
 */
export interface People {
  /** Remembers the name and username of someone who just wrote (cheap when nothing changed). */
  seen(user: { id: number; first_name: string; last_name?: string; username?: string }): Promise<void>;
  /** The ones known among `userIds`. */
  get(userIds: readonly number[]): Promise<Map<number, Person>>;
}

/** How many users' last written names a process keeps, to skip writing what is already there. */
const REMEMBERED = 10_000;

/** The memory store's people belong to the store (as a Redis hash belongs to the database). */
const memoryPeople = new WeakMap<Storage, Map<number, string>>();

export function createPeople(storage: Storage): People {
  const written = new Map<number, string>();
  const encode = (p: Person) => JSON.stringify(p.username === undefined ? { n: p.name } : { n: p.name, u: p.username });
  const decode = (json: string): Person | undefined => {
    try {
      const v = JSON.parse(json) as { n?: unknown; u?: unknown };
      if (typeof v.n !== "string") return undefined;
      return typeof v.u === "string" ? { name: v.n, username: v.u } : { name: v.n };
    } catch {
      return undefined; // a name kept in another form is no name: the person shows by id
    }
  };
  const personOf = (user: Parameters<People["seen"]>[0]): Person => {
    const name = [user.first_name, user.last_name]
      .filter((s) => s !== undefined && s !== "")
      .join(" ")
      .slice(0, 64);
    return user.username === undefined ? { name } : { name, username: user.username };
  };
  const remember = (id: number, json: string) => {
    written.delete(id);
    written.set(id, json);
    if (written.size > REMEMBERED) written.delete(written.keys().next().value!);
  };

  if (storage.kind === "redis") {
    const key = `${storage.prefix}people`;
    return {
      async seen(user) {
        const json = encode(personOf(user));
        if (written.get(user.id) === json) return;
        await storage.redis.hSet(key, String(user.id), json);
        remember(user.id, json);
      },
      async get(userIds) {
        const found = new Map<number, Person>();
        if (userIds.length === 0) return found;
        const values = await storage.redis.hmGet(key, userIds.map(String));
        values.forEach((json, i) => {
          const person = json === null || json === undefined ? undefined : decode(json);
          if (person !== undefined) found.set(userIds[i]!, person);
        });
        return found;
      },
    };
  }
  let kept = memoryPeople.get(storage);
  if (kept === undefined) memoryPeople.set(storage, (kept = new Map<number, string>()));
  const store = kept;
  return {
    async seen(user) {
      store.set(user.id, encode(personOf(user)));
    },
    async get(userIds) {
      const found = new Map<number, Person>();
      for (const id of userIds) {
        const json = store.get(id);
        const person = json === undefined ? undefined : decode(json);
        if (person !== undefined) found.set(id, person);
      }
      return found;
    },
  };
}
