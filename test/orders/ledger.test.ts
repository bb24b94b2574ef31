import { createMemoryLedger } from "../../src/orders/ledger-memory.js";
import { createLedger } from "../../src/orders/create-ledger.js";
import { redisStorage } from "../helpers/redis.js";
import { describeLedgerContract } from "./ledger.contract.js";
import { describeWalletContract } from "./wallets.contract.js";

const onRedis = async () => {
  const { storage, cleanup } = await redisStorage("ledger");
  return { ledger: createLedger(storage), cleanup };
};
const inMemory = async () => ({ ledger: createMemoryLedger(), cleanup: async () => {} });

describeLedgerContract("Redis (Lua scripts on the real Redis)", async () => {
  const { ledger, cleanup } = await onRedis();
  return { ledger: ledger.orders, cleanup };
});
describeLedgerContract("memory", async () => ({ ledger: createMemoryLedger().orders, cleanup: async () => {} }));

describeWalletContract("Redis (Lua scripts on the real Redis)", onRedis);
describeWalletContract("memory", inMemory);
