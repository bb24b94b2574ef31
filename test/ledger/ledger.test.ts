import { createMemoryLedger } from "../../src/ledger/memory.js";
import { createLedger } from "../../src/ledger/create-ledger.js";
import { redisStorage } from "../helpers/redis.js";
import { describeCompactionContract } from "./compaction.contract.js";
import { describeFiguresContract } from "./figures.contract.js";
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

describeFiguresContract("Redis (Lua scripts on the real Redis)", async (timeZone) => {
  const { storage, cleanup } = await redisStorage("figures");
  return { ledger: createLedger(storage, { timeZone }), cleanup };
});
describeFiguresContract("memory", async (timeZone) => ({
  ledger: createMemoryLedger({ timeZone }),
  cleanup: async () => {},
}));

describeCompactionContract("Redis (Lua scripts on the real Redis)", async () => {
  const { storage, cleanup } = await redisStorage("compact");
  return { ledger: createLedger(storage, { timeZone: "Asia/Jakarta" }), cleanup };
});
describeCompactionContract("memory", async () => ({
  ledger: createMemoryLedger({ timeZone: "Asia/Jakarta" }),
  cleanup: async () => {},
}));
