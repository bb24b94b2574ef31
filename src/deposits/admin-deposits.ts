import type { Buyer } from "../catalog/catalog.js";
import type { Logger } from "../logger.js";
import type { Claims } from "../storage/claims.js";
import type { Origins } from "../storage/origins.js";
import type { DepositEvents } from "../orders/events.js";
import { newRefId } from "../orders/ref-id.js";
import type { Deposit, DepositConfirmResult, Wallets } from "../orders/wallet.js";

const DAY = 24 * 60 * 60 * 1000;
/** How long one process may take to tell a reseller about a deposit before another may try. */
const TELLING_MS = 60_000;
/** How long an admin told that a reseller cannot be reached is not told again (the deposit stays untold till then). */
const UNDELIVERED_MS = 30 * DAY;
/** The largest deposit or correction at once: a typo of three zeros should not pass unnoticed. */
export const MAX_DEPOSIT = 100_000_000;
/** The longest note an admin may give a deposit. */
export const MAX_DEPOSIT_NOTE = 200;

/** What preparing a deposit came to: a draft to confirm, or why there is none. */
export type PrepareResult =
  /**
   * `shownAs`: the message that showed it, when an earlier handling of the same update (or request)
   * prepared it. `saldoBefore`: the saldo it is credited to (for a credited one, the saldo it found).
   */
  | { kind: "prepared"; deposit: Deposit; saldoBefore: number; shownAs?: number }
  /** 0, or more than MAX_DEPOSIT either way. */
  | { kind: "bad-amount" }
  | { kind: "bad-note" }
  /** Not a reseller, and no money with the shop to put right. */
  | { kind: "not-reseller" }
  /** A correction below what the reseller has. */
  | { kind: "below-zero"; saldo: number };

/**
 * Deposits and corrections of a reseller's saldo: prepared with an id (shown with Confirm), and
 * credited once by the ledger, whoever confirms and however often, from the chat or the Mini App.
 * The reseller is told once it is credited; a stop in between tells them at the next start, or at
 * the next tap on the old summary.
 */
export function createDeposits(deps: {
  wallets: Wallets;
  /** Who is a reseller now. */
  buyerOf: (userId: number) => Promise<Buyer | undefined>;
  logger: Logger;
  events: DepositEvents;
  /** Which deposit each update (or Mini App request) prepared. */
  origins: Origins;
  /**
   * Who is telling which deposit right now, among all processes (storage/claims.ts): a start, a
   * periodic look for untold deposits and an admin's tap in another process never tell it twice
   * at once. Without it, only this process is kept from doing so.
   */
  claims?: Claims;
  /** Which deposits' admins were told that their reseller could not be, among all processes. */
  undeliveredOnce?: Claims;
  now?: () => Date;
  ttlMs?: number;
}) {
  const { wallets, logger } = deps;
  const now = deps.now ?? (() => new Date());
  /** One message at a time per deposit in this process (the start and an admin's tap may meet). */
  const telling = new Set<string>();

  async function tell(deposit: Deposit, saldo: number): Promise<void> {
    if (telling.has(deposit.id)) return;
    telling.add(deposit.id);
    let claimed = false;
    try {
      claimed = deps.claims === undefined || (await deps.claims.take(deposit.id, TELLING_MS));
      if (!claimed) return; // another process is telling it right now
      // Read again: told meanwhile (by another process) means nothing to do.
      if ((await wallets.getDeposit(deposit.id))?.toldAt !== undefined) return;
      // Recorded once it went out: a crash before that is told by the next look for untold
      // deposits (at start, and now and then), or at the next tap, or at the reseller's /start.
      const delivery = await deps.events.credited(deposit, saldo);
      if (delivery === "told") await wallets.markDepositTold(deposit.id, now().toISOString());
      else {
        await deps.claims?.giveBack(deposit.id);
        // A reseller who never opened the bot (or blocked it) cannot be told: the admin hears so,
        // once per deposit, and the reseller gets it at their /start.
        if (
          delivery !== "failed" &&
          (deps.undeliveredOnce === undefined || (await deps.undeliveredOnce.take(deposit.id, UNDELIVERED_MS)))
        )
          await deps.events.undelivered(deposit, delivery);
      }
    } catch (err) {
      logger.error({ err, deposit: deposit.id }, "deposit notice failed");
      if (claimed)
        await deps.claims
          ?.giveBack(deposit.id)
          .catch((err: unknown) =>
            logger.warn(
              { err, deposit: deposit.id },
              "deposit notice claim not given back; it is retried once the claim expires",
            ),
          );
    } finally {
      telling.delete(deposit.id);
    }
  }

  /** The saldo a deposit is (or was) credited to: the one it found when credited, else today's. */
  const saldoFor = async (d: Deposit) =>
    d.state === "done" && d.saldoAfter !== undefined
      ? d.saldoAfter - d.amount
      : (await wallets.get(d.resellerId)).saldo;

  return {
    /**
     * A deposit (or, negative, a correction) for an admin to confirm: only for a reseller or someone
     * who still has money with the shop (the books can be put right), 1 to MAX_DEPOSIT rupiah either
     * way, never taking the saldo below 0 (checked again when it is credited).
     */
    async prepare(
      input: Pick<Deposit, "resellerId" | "amount" | "note" | "adminId" | "chatId">,
      /** The update or request that asks (bot/origin.ts): every handling of it gets this one deposit. */
      origin?: string,
    ): Promise<PrepareResult> {
      if (!Number.isSafeInteger(input.amount) || input.amount === 0 || Math.abs(input.amount) > MAX_DEPOSIT)
        return { kind: "bad-amount" };
      if (input.note.length > MAX_DEPOSIT_NOTE) return { kind: "bad-note" };
      const createdAt = now();
      const fixed =
        origin === undefined
          ? { value: newRefId("DP", createdAt), first: true }
          : await deps.origins.fix(origin, newRefId("DP", createdAt));
      const shown = fixed.shownAs === undefined ? {} : { shownAs: fixed.shownAs };
      if (!fixed.first) {
        const made = await wallets.getDeposit(fixed.value);
        if (made !== undefined) return { kind: "prepared", deposit: made, saldoBefore: await saldoFor(made), ...shown };
      }
      const [buyer, wallet] = await Promise.all([deps.buyerOf(input.resellerId), wallets.get(input.resellerId)]);
      if (buyer?.role !== "reseller" && wallet.saldo === 0 && wallet.held === 0) return { kind: "not-reseller" };
      if (wallet.saldo + input.amount < 0) return { kind: "below-zero", saldo: wallet.saldo };
      const deposit: Deposit = { ...input, id: fixed.value, createdAt: createdAt.toISOString(), state: "draft" };
      // Written only if no handling of the same update wrote it meanwhile (then that one is kept).
      const saved = await wallets.saveDeposit(deposit, deps.ttlMs ?? DAY);
      if (saved.createdAt !== deposit.createdAt)
        return { kind: "prepared", deposit: saved, saldoBefore: await saldoFor(saved), ...shown };
      logger.info(
        { deposit: deposit.id, resellerId: deposit.resellerId, amount: deposit.amount, state: "draft" },
        "deposit state changed",
      );
      return { kind: "prepared", deposit, saldoBefore: wallet.saldo, ...shown };
    },
    get: (id: string) => wallets.getDeposit(id),
    /** Credits it once; the reseller is told (also when an earlier Confirm's bot stopped before telling them). */
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
        await tell(r.deposit, r.wallet.saldo);
      } else if (r.kind === "taken" && r.deposit.state === "done" && r.deposit.toldAt === undefined) {
        await tell(r.deposit, r.deposit.saldoAfter ?? 0);
      }
      return r;
    },
    cancel: (id: string) => wallets.cancelDeposit(id, now().toISOString()),
    /**
     * Deposits credited by a process that stopped before their reseller was told: told now (run
     * at start and now and then by the one process that does the shared background work).
     */
    async tellUntold(): Promise<void> {
      for (const untold of await wallets.untoldDeposits()) await tell(untold, untold.saldoAfter ?? 0);
    },
    /** A reseller opened the bot: the deposits credited before they could be told, told now. */
    async tellUntoldOf(resellerId: number): Promise<void> {
      const untold = (await wallets.untoldDeposits()).filter((d) => d.resellerId === resellerId);
      for (const d of untold.sort((a, b) => (a.doneAt ?? "").localeCompare(b.doneAt ?? "")))
        await tell(d, d.saldoAfter ?? 0);
    },
  };
}

export type Deposits = ReturnType<typeof createDeposits>;
