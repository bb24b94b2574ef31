import type { Logger } from "../logger.js";
import { newRefId } from "./ref-id.js";
import type { Deposit, DepositConfirmResult, Wallets } from "./wallet.js";

const DAY = 24 * 60 * 60 * 1000;
/** The largest deposit or correction at once: a typo of three zeros should not pass unnoticed. */
export const MAX_DEPOSIT = 100_000_000;

/** Who hears of a credited deposit (the reseller is told). Must not throw. */
export interface DepositEvents {
  credited(deposit: Deposit, saldo: number): void | Promise<void>;
}

/**
 * Deposits and corrections of a reseller's saldo: prepared with an id (shown with Confirm), and
 * credited once by the ledger, whoever confirms and however often.
 */
export function createDeposits(deps: {
  wallets: Wallets;
  logger: Logger;
  events: DepositEvents;
  now?: () => Date;
  ttlMs?: number;
}) {
  const { wallets, logger } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    async prepare(input: Pick<Deposit, "resellerId" | "amount" | "note" | "adminId" | "chatId">): Promise<Deposit> {
      const createdAt = now();
      const deposit: Deposit = {
        ...input,
        id: newRefId("DP", createdAt),
        createdAt: createdAt.toISOString(),
        state: "draft",
      };
      await wallets.saveDeposit(deposit, deps.ttlMs ?? DAY);
      logger.info(
        { deposit: deposit.id, resellerId: deposit.resellerId, amount: deposit.amount, state: "draft" },
        "deposit state changed",
      );
      return deposit;
    },
    get: (id: string) => wallets.getDeposit(id),
    async confirm(id: string, adminId: number): Promise<DepositConfirmResult> {
      const r = await wallets.confirmDeposit(id, { adminId, at: now().toISOString() });
      if (r.kind === "done") {
        logger.info(
          {
            deposit: id,
            resellerId: r.deposit.resellerId,
            amount: r.deposit.amount,
            saldo: r.wallet.saldo,
            by: adminId,
            state: "done",
          },
          "deposit state changed",
        );
        await Promise.resolve(deps.events.credited(r.deposit, r.wallet.saldo)).catch((err: unknown) =>
          logger.error({ err, deposit: id }, "deposit notice failed"),
        );
      }
      return r;
    },
    cancel: (id: string) => wallets.cancelDeposit(id, now().toISOString()),
  };
}

export type Deposits = ReturnType<typeof createDeposits>;
