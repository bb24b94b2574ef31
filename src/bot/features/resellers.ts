import { Composer, InlineKeyboard } from "grammy";
import type { Access } from "../../access/access.js";
import { tiersOf } from "../../catalog/catalog.js";
import type { Shop } from "../../shop/shop.js";
import { MAX_DEPOSIT, type Deposits } from "../../orders/deposits.js";
import type { Deposit, Movement, Wallet, Wallets } from "../../orders/wallet.js";
import { adminOnly, isAdmin } from "../admin.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { BotContext } from "../context.js";
import { formatRupiah, formatTime } from "../format.js";
import type { Translate } from "../i18n.js";
import type { Notifier } from "../notifier.js";

const USER_ID = /^[1-9][0-9]{0,15}$/;
/** 50000, 50.000, 50,000, -5000, +75.000: whole rupiah, with or without thousands separators. */
const AMOUNT = /^([+-]?)([0-9]{1,3}(?:[.,][0-9]{3})+|[0-9]+)$/;

/** `/deposit USER_ID AMOUNT [NOTE]` → its parts, or undefined when it is not that. */
export function parseDeposit(args: string): { userId: number; amount: number; note: string } | undefined {
  const m = /^(\S+)\s+(\S+)(?:\s+([\s\S]*))?$/.exec(args.trim());
  if (m === null || !USER_ID.test(m[1]!)) return undefined;
  const a = AMOUNT.exec(m[2]!);
  if (a === null) return undefined;
  const amount = Number(a[2]!.replace(/[.,]/g, "")) * (a[1] === "-" ? -1 : 1);
  if (!Number.isSafeInteger(amount)) return undefined;
  return { userId: Number(m[1]), amount, note: (m[3] ?? "").trim() };
}

/** Signed rupiah: "+ Rp 50,000", "− Rp 5,000". */
const signed = (amount: number, lang: "en" | "id") =>
  `${amount < 0 ? "−" : "+"} ${formatRupiah(Math.abs(amount), lang)}`;

/**
 * Resellers' money in the chat: /deposit (a summary with Confirm, credited once), /saldo (a
 * reseller's own, an admin's view of one or of all), /tier (a reseller's price tier).
 */
export function resellersFeature(deps: {
  access: Access;
  wallets: Wallets;
  deposits: Deposits;
  notifier: Pick<Notifier, "credited">;
  shop: Shop;
  timeZone: string;
}): Composer<BotContext> {
  const { access, wallets, deposits, notifier } = deps;
  const composer = new Composer<BotContext>();

  function movementLine(t: Translate, m: Movement, lang: "en" | "id"): string {
    return t("saldo-movement", {
      time: formatTime(m.at, lang, deps.timeZone),
      kind: t(`movement-${m.kind}`),
      amount: m.kind === "spend" ? formatRupiah(m.amount, lang) : signed(m.amount, lang),
      ref: m.ref,
      saldo: formatRupiah(m.saldo, lang),
    });
  }

  async function saldoView(t: Translate, lang: "en" | "id", userId: number, own: boolean): Promise<string> {
    const [wallet, lines] = await Promise.all([wallets.get(userId), wallets.statement(userId, 10)]);
    const head = t(own ? "saldo-own" : "saldo-of", {
      userId: String(userId),
      saldo: formatRupiah(wallet.saldo, lang),
      held: formatRupiah(wallet.held, lang),
    });
    if (lines.length === 0) return `${head}\n\n${t("saldo-no-movements")}`;
    return `${head}\n\n${t("saldo-movements-title")}\n${lines.map((m) => movementLine(t, m, lang)).join("\n")}`;
  }

  async function allView(t: Translate, lang: "en" | "id"): Promise<string> {
    const all = await wallets.all();
    if (all.length === 0) return t("saldo-all-none");
    const entries = new Map((await access.list()).map((e) => [e.userId, e]));
    const line = (w: Wallet) =>
      t("saldo-all-line", {
        userId: String(w.userId),
        tier: entries.get(w.userId)?.tier ?? t("saldo-all-no-longer"),
        saldo: formatRupiah(w.saldo, lang),
        held: formatRupiah(w.held, lang),
      });
    const saldo = all.reduce((sum, w) => sum + w.saldo, 0);
    const held = all.reduce((sum, w) => sum + w.held, 0);
    return [
      t("saldo-all-title"),
      ...all.map(line),
      "",
      t("saldo-all-total", {
        total: formatRupiah(saldo + held, lang),
        saldo: formatRupiah(saldo, lang),
        held: formatRupiah(held, lang),
      }),
    ].join("\n");
  }

  // /balance and /saldo: a reseller's own saldo (never the shop's balance with the provider).
  composer.command(["saldo", "balance"], async (ctx, next) => {
    const arg = ctx.match.trim().toLowerCase();
    if (ctx.buyer?.role === "reseller" && (arg === "" || ctx.message?.text?.startsWith("/balance") === true)) {
      return void (await ctx.reply(await saldoView(ctx.tr, ctx.lang, ctx.from!.id, true)));
    }
    if (ctx.message?.text?.startsWith("/balance") === true) return next(); // staff and admins: the shop's balance
    if (!isAdmin(ctx)) return void (await ctx.reply(ctx.tr("saldo-not-reseller")));
    if (arg === "all") return void (await ctx.reply(await allView(ctx.tr, ctx.lang)));
    if (!USER_ID.test(arg)) return void (await ctx.reply(ctx.tr("saldo-usage")));
    await ctx.reply(await saldoView(ctx.tr, ctx.lang, Number(arg), false));
  });

  composer.command("deposit", adminOnly, async (ctx) => {
    const t = ctx.tr;
    const parsed = parseDeposit(ctx.match);
    if (parsed === undefined) return void (await ctx.reply(t("deposit-usage")));
    const { userId, amount, note } = parsed;
    if (amount === 0 || Math.abs(amount) > MAX_DEPOSIT) {
      return void (await ctx.reply(t("deposit-bad-amount", { max: formatRupiah(MAX_DEPOSIT, ctx.lang) })));
    }
    if (note.length > 200) return void (await ctx.reply(t("deposit-bad-note")));
    const [buyer, wallet] = await Promise.all([access.buyerOf(userId), wallets.get(userId)]);
    // A reseller, or someone who still has money with the shop (the books can be put right).
    if (buyer?.role !== "reseller" && wallet.saldo === 0 && wallet.held === 0) {
      return void (await ctx.reply(t("deposit-not-reseller", { userId: String(userId) })));
    }
    if (wallet.saldo + amount < 0) {
      return void (await ctx.reply(t("deposit-below-zero", { saldo: formatRupiah(wallet.saldo, ctx.lang) })));
    }
    const deposit = await deposits.prepare({
      resellerId: userId,
      amount,
      note,
      adminId: ctx.from!.id,
      chatId: ctx.chat.id,
    });
    await ctx.reply(depositSummary(t, ctx.lang, deposit, wallet.saldo), {
      reply_markup: new InlineKeyboard()
        .text(t("button-confirm"), Callback.depositConfirm.encode(deposit.id))
        .text(t("button-cancel"), Callback.depositCancel.encode(deposit.id)),
    });
  });

  function depositSummary(t: Translate, lang: "en" | "id", d: Deposit, saldoBefore: number): string {
    const body = t(d.amount >= 0 ? "deposit-summary" : "correction-summary", {
      userId: String(d.resellerId),
      amount: signed(d.amount, lang),
      before: formatRupiah(saldoBefore, lang),
      after: formatRupiah(saldoBefore + d.amount, lang),
      id: d.id,
    });
    return d.note === "" ? body : `${body}\n${t("deposit-note", { note: d.note })}`;
  }

  const doneLine = (t: Translate, lang: "en" | "id", d: Deposit, saldo: number) =>
    t("deposit-done", {
      userId: String(d.resellerId),
      amount: signed(d.amount, lang),
      saldo: formatRupiah(saldo, lang),
      id: d.id,
    });

  /** The summary without its buttons, with how it ended. Failures are cosmetic. */
  const retire = async (ctx: BotContext, line: string) => {
    const message = ctx.callbackQuery?.message;
    if (message === undefined || !("text" in message) || message.text === undefined) return;
    await ctx.editMessageText(line).catch((err: unknown) => ctx.log.debug({ err }, "deposit summary not edited"));
  };

  onCallback(
    composer,
    Callback.depositConfirm,
    async (ctx, id) => {
      const t = ctx.tr;
      const r = await deposits.confirm(id, ctx.from.id);
      if (r.kind === "not-found") return answerQuery(ctx, { text: t("deposit-expired"), show_alert: true });
      if (r.kind === "short") {
        const text = t("deposit-below-zero", { saldo: formatRupiah(r.saldo, ctx.lang) }).replace(/<[^>]+>/g, "");
        return answerQuery(ctx, { text, show_alert: true });
      }
      if (r.kind === "taken") {
        const key = r.deposit.state === "done" ? "deposit-already" : "deposit-cancelled";
        await answerQuery(ctx, { text: t(key), show_alert: true });
        if (r.deposit.state === "done") {
          // The summary may still have its buttons (its bot stopped before it was brought up to date).
          const saldo = r.deposit.saldoAfter ?? 0;
          await retire(ctx, doneLine(t, ctx.lang, r.deposit, saldo));
          // Credited by a tap whose bot stopped before the reseller was told: tell them now.
          if (r.deposit.toldAt === undefined) await notifier.credited(r.deposit, saldo);
        }
        return;
      }
      await answerQuery(ctx, { text: t("deposit-done-toast") });
      await retire(ctx, doneLine(t, ctx.lang, r.deposit, r.wallet.saldo));
    },
    adminOnly,
  );

  onCallback(
    composer,
    Callback.depositCancel,
    async (ctx, id) => {
      const t = ctx.tr;
      const r = await deposits.cancel(id);
      if (r.kind === "not-found") return answerQuery(ctx, { text: t("deposit-expired"), show_alert: true });
      if (r.kind === "taken") return answerQuery(ctx, { text: t("deposit-already"), show_alert: true });
      await answerQuery(ctx, { text: t("deposit-cancelled") });
      await retire(ctx, t("deposit-cancelled"));
    },
    adminOnly,
  );

  composer.command("tier", adminOnly, async (ctx) => {
    const t = ctx.tr;
    const tiers = tiersOf(await deps.shop.catalog());
    const m = /^([1-9][0-9]{0,15})\s+(\S+)$/.exec(ctx.match.trim());
    if (m === null) return void (await ctx.reply(t("tier-usage", { tiers: [...tiers].join(", ") })));
    const userId = Number(m[1]);
    const tier = m[2]!.toLowerCase();
    if (!tiers.has(tier)) return void (await ctx.reply(t("tier-unknown", { tier, tiers: [...tiers].join(", ") })));
    const r = await access.setTier(userId, tier);
    if (r.kind === "not-reseller") return void (await ctx.reply(t("deposit-not-reseller", { userId: String(userId) })));
    await ctx.reply(t("tier-set", { userId: String(userId), old: r.old, tier }));
  });

  return composer;
}
