import { createMemoryLedger } from "../../src/orders/ledger-memory.js";
import { createLedger } from "../../src/orders/ledger.js";
import { redisStorage } from "../helpers/redis.js";
import { describeLedgerContract } from "./ledger.contract.js";

describeLedgerContract("Redis (Lua scripts on the real Redis)", async () => {
  const { storage, cleanup } = await redisStorage("ledger");
  return { ledger: createLedger(storage).orders, cleanup };
});

describeLedgerContract("memory", async () => ({ ledger: createMemoryLedger().orders, cleanup: async () => {} }));
