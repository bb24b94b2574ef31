import { luaScript } from "../storage/redis.js";
import type { Storage } from "../storage/storage.js";
import type { OrderRecord } from "../orders/order.js";

/** One partner's H2H orders since the last notice: sold (count, rupiah) and failed. */
export interface ApiSalesLine {
  userId: number;
  name: string;
  sold: number;
  revenue: number;
  failed: number;
}

/**
 * The H2H API's sales, told to the admins in one notice per period instead of one per sale (a
 * partner may send a thousand orders a day). Counted in Redis (`h2h:sales` hash, `h2h:sales-since`)
 * so every process adds to the same batch, and taken by one atomic step (one notice, whichever
 * process takes it), or in memory. A notice a stop loses is lost: the books keep every order.
 */
export interface ApiSales {
  add(order: OrderRecord, nowMs: number): Promise<void>;
  /** The batch, emptied, when its first order is at least `periodMs` old; else undefined. */
  take(nowMs: number, periodMs: number): Promise<ApiSalesLine[] | undefined>;
}

const TAKE = luaScript(`
local since = redis.call('GET', KEYS[2])
if not since or tonumber(ARGV[1]) - tonumber(since) < tonumber(ARGV[2]) then return false end
local all = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2])
return all
`);

// One command instead of a MULTI of four to six: the batch starts now unless it has, the name, the counts.
// KEYS: batch, since; ARGV: now, name field, name, then field and increment pairs
const ADD = luaScript(`
redis.call('SET', KEYS[2], ARGV[1], 'NX')
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
for i = 4, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 0
`);

function linesOf(fields: Map<string, string>): ApiSalesLine[] {
  const lines = new Map<number, ApiSalesLine>();
  for (const [field, value] of fields) {
    const [id, what] = field.split(":");
    const userId = Number(id);
    const line = lines.get(userId) ?? { userId, name: "", sold: 0, revenue: 0, failed: 0 };
    if (what === "m") line.name = value;
    else if (what === "n") line.sold = Number(value);
    else if (what === "s") line.revenue = Number(value);
    else if (what === "f") line.failed = Number(value);
    lines.set(userId, line);
  }
  return [...lines.values()].sort((a, b) => b.revenue - a.revenue || a.userId - b.userId);
}

/** What one order adds to the batch (only its outcome counts: sold or failed). */
function increments(order: OrderRecord): Array<[string, number]> {
  const id = order.userId;
  if (order.state === "success")
    return [
      [`${id}:n`, 1],
      [`${id}:s`, order.price ?? 0],
    ];
  return order.state === "failed" ? [[`${id}:f`, 1]] : [];
}

export function createApiSales(storage: Storage): ApiSales {
  if (storage.kind === "redis") {
    const { redis, prefix } = storage;
    const key = `${prefix}h2h:sales`;
    const since = `${prefix}h2h:sales-since`;
    return {
      async add(order, nowMs) {
        const inc = increments(order);
        if (inc.length === 0) return;
        await ADD(redis, [key, since], [nowMs, `${order.userId}:m`, order.userName, ...inc.flat()]);
      },
      async take(nowMs, periodMs) {
        const raw = (await TAKE(redis, [key, since], [nowMs, periodMs])) as string[] | null;
        if (raw === null || raw.length === 0) return raw === null ? undefined : [];
        const fields = new Map<string, string>();
        for (let i = 0; i < raw.length; i += 2) fields.set(raw[i]!, raw[i + 1]!);
        return linesOf(fields);
      },
    };
  }
  let fields = new Map<string, string>();
  let first: number | undefined;
  return {
    async add(order, nowMs) {
      const inc = increments(order);
      if (inc.length === 0) return;
      first ??= nowMs;
      fields.set(`${order.userId}:m`, order.userName);
      for (const [field, by] of inc) fields.set(field, String(Number(fields.get(field) ?? 0) + by));
    },
    async take(nowMs, periodMs) {
      if (first === undefined || nowMs - first < periodMs) return undefined;
      const lines = linesOf(fields);
      fields = new Map();
      first = undefined;
      return lines;
    },
  };
}
