import { InlineKeyboard } from "grammy";
import { readAmount, type AmountRefusal } from "../../amounts.js";
import type { Person } from "../../access/people.js";
import { DEFAULT_TIER, priceFor, tiersOf, type Catalog } from "../../catalog/catalog.js";
import { MAX_DEPOSIT } from "../../deposits/admin-deposits.js";
import type { Lang } from "../../orders/order.js";
import type { DepositRequest } from "../../deposits/request-store.js";
import { requestNamedIn } from "../../deposits/request-service.js";
import type { Deposit } from "../../orders/wallet.js";
import { adminOnly, isAdmin } from "../admin.js";
import { Callback } from "../callback-data.js";
import { originOf, showOnce } from "../origin.js";
import type { FeatureContext } from "../context.js";
import { defineFeature } from "../feature.js";
import { formatRupiah, formatTime } from "../format.js";
import type { Translate } from "../i18n.js";
import { nameBefore } from "../people.js";
import type { ResellerRow } from "../../reports/resellers.js";
import { personOf, SALDO_LINES, saldoText, signed } from "../saldo-view.js";
import { summaryButtons, summaryKeyboard } from "../summary-buttons.js";

const USER_ID = /^[1-9][0-9]{0,15}$/;

/**
 * `/deposit USER_ID AMOUNT [NOTE]` → its parts, or why it is not that. The amount is read as
 * people type it (`50rb`, `Rp50.000`, `1,5jt`, `-5rb` for a correction; src/amounts.ts), and a
 * multiplier word after a space is the amount's: in `50 ribu transfer BCA` the note is `transfer BCA`.
 */
export function parseDeposit(
  args: string,
):
  | { ok: true; userId: number; amount: number; note: string }
  | { ok: false; why: "usage" }
  | { ok: false; why: AmountRefusal; typed: string } {
  const m = /^(\S+)\s+(\S[\s\S]*)$/.exec(args.trim());
  if (m === null || !USER_ID.test(m[1]!)) return { ok: false, why: "usage" };
  const read = readAmount(m[2]!, { signed: true, max: MAX_DEPOSIT });
  if (!read.ok) return read;
  return { ok: true, userId: Number(m[1]), amount: read.amount, note: m[2]!.slice(read.consumed).trim() };
}

function depositSummary(t: Translate, lang: Lang, d: Deposit, saldoBefore: number, person?: Person): string {
  const body = t(d.amount >= 0 ? "deposit-summary" : "correction-summary", {
    userId: String(d.resellerId),
    name: nameBefore(person),
    amount: signed(d.amount, lang),
    before: formatRupiah(saldoBefore, lang),
    after: formatRupiah(saldoBefore + d.amount, lang),
    id: d.id,
  });
  return d.note === "" ? body : `${body}\n${t("deposit-note", { note: d.note })}`;
}

const doneLine = (t: Translate, lang: Lang, d: Deposit, saldo: number, person?: Person) =>
  t("deposit-done", {
    userId: String(d.resellerId),
    name: nameBefore(person),
    amount: signed(d.amount, lang),
    saldo: formatRupiah(saldo, lang),
    id: d.id,
  });

/**
 * Why request `id` cannot be credited by hand to `userId`: unknown, another reseller's, or
 * credited before (when, by whom, and how); undefined when it can.
 */
async function handRefusal(
  ctx: FeatureContext<"depositRequests" | "people" | "place">,
  id: string,
  userId: number,
): Promise<string | undefined> {
  const request = await ctx.services.depositRequests.get(id);
  if (request === undefined) return handRefusalText(ctx, id, { kind: "not-found" });
  if (request.resellerId !== userId) return handRefusalText(ctx, id, { kind: "not-yours", request });
  if (request.state === "approved") return handRefusalText(ctx, id, { kind: "taken", request });
  return undefined;
}

/** The refusal of a hand credit, as the admin reads it. */
async function handRefusalText(
  ctx: FeatureContext<"people" | "place">,
  id: string,
  r: { kind: "not-found" } | { kind: "not-yours" | "taken"; request: DepositRequest },
): Promise<string> {
  const t = ctx.tr;
  if (r.kind === "not-found") return t("deposit-hand-unknown", { id });
  const { request } = r;
  if (r.kind === "not-yours") {
    const owner = (await ctx.services.people.get([request.resellerId])).get(request.resellerId);
    return t("deposit-hand-not-theirs", {
      id,
      owner: String(request.resellerId),
      name: nameBefore(owner),
    });
  }
  const by = request.decidedBy ?? 0;
  const admin = (await ctx.services.people.get([by])).get(by);
  return t(request.byHand === undefined ? "deposit-hand-already-approved" : "deposit-hand-already-by-hand", {
    id,
    amount: formatRupiah(request.credited ?? request.exact, ctx.lang),
    when: formatTime(new Date(request.decidedAt ?? 0).toISOString(), ctx.lang, ctx.services.place.timeZone),
    name: nameBefore(admin),
    by: String(by),
    deposit: request.byHand ?? "",
  });
}

/** The most products a tier's trap list names; the rest are counted. */
const MAX_TRAP_LINES = 30;

/**
 * The products `tier` has no price of its own for, so that it pays the selling price: more than
 * tier `reseller` pays for them (hidden products left out). Empty for tier `reseller` itself.
 */
function tierTrapLines(t: Translate, lang: Lang, catalog: Catalog, tier: string): string[] {
  const traps = catalog.games.flatMap((g) =>
    g.products.flatMap((p) => {
      if (p.disabled || p.prices[tier] !== undefined) return [];
      const pays = priceFor(p, { role: "reseller", tier });
      const base = priceFor(p, { role: "reseller", tier: DEFAULT_TIER });
      return pays != null && base != null && pays > base ? [{ p, pays, base }] : [];
    }),
  );
  if (traps.length === 0) return [];
  const lines = traps.slice(0, MAX_TRAP_LINES).map(({ p, pays, base }) =>
    t("tier-trap-line", {
      code: p.code,
      product: p.name,
      pays: formatRupiah(pays, lang),
      base: formatRupiah(base, lang),
    }),
  );
  const more = traps.length - lines.length;
  return [
    "",
    t("tier-traps-title", { tier, count: traps.length, base: DEFAULT_TIER }),
    ...lines,
    ...(more > 0 ? [t("tier-traps-more", { count: more })] : []),
    t("tier-traps-hint", { tier }),
  ];
}

/** Every reseller's saldo (and anyone's with money left) and what the shop owes in all. */
async function allView(ctx: FeatureContext<"reports">): Promise<string> {
  const { t, lang } = { t: ctx.tr, lang: ctx.lang };
  const { resellers, totals } = await ctx.services.reports.resellers.list();
  if (resellers.length === 0) return t("saldo-all-none");
  const line = (r: ResellerRow) =>
    t("saldo-all-line", {
      userId: String(r.userId),
      name: nameBefore(personOf(r)),
      tier: r.source === "none" ? t("saldo-all-no-longer") : r.tier,
      saldo: formatRupiah(r.saldo, lang),
      held: formatRupiah(r.held, lang),
    });
  return [
    t("saldo-all-title"),
    ...resellers.map(line),
    "",
    t("saldo-all-total", {
      total: formatRupiah(totals.total, lang),
      saldo: formatRupiah(totals.saldo, lang),
      held: formatRupiah(totals.held, lang),
    }),
  ].join("\n");
}

/**
 * Why someone is not a reseller, and what would make them one, as an admin reads it: an admin has
 * no saldo; staff from ALLOWED_USER_IDS change there (`/allow` would be refused); staff allowed in
 * the chat, or someone who may not order, with `/allow ID reseller`.
 */
export async function notReseller(ctx: FeatureContext<"access" | "people">, userId: number): Promise<string> {
  const [entry, people] = await Promise.all([
    ctx.services.access.list().then((list) => list.find((e) => e.userId === userId)),
    ctx.services.people.get([userId]),
  ]);
  const key =
    entry?.role === "admin"
      ? "not-reseller-admin"
      : entry?.role === "staff"
        ? entry.source === "env"
          ? "not-reseller-staff-env"
          : "not-reseller-staff"
        : "not-reseller-stranger";
  return ctx.tr(key, { userId: String(userId), name: nameBefore(people.get(userId)) });
}

/**
 * Resellers' money in the chat: /saldo (a reseller's own; an admin's view of
 * one or of all), /deposit (a summary with Confirm, credited once by the deposits service, which
 * tells the reseller), /tier (a reseller's price tier).
 */
export const resellersFeature = defineFeature({
  name: "resellers",
  needs: ["access", "wallets", "deposits", "depositRequests", "shop", "place", "origins", "people", "reports"],
  commands: [
    {
      name: "deposit",
      menu: ["reseller", "admin"],
      help: [
        { key: "help-resellers", for: ["admin"] },
        { key: "help-deposit-request", for: ["reseller"] },
      ],
    },
    { name: "saldo", menu: ["reseller", "admin"], money: true },
    { name: "tier", menu: ["admin"] },
  ],
  setup(at) {
    const composer = at("buyers");
    composer.command("saldo", async (ctx) => {
      const arg = ctx.match.trim().toLowerCase();
      const { wallets, reports, access } = ctx.services;
      const view = { t: ctx.tr, lang: ctx.lang, timeZone: ctx.services.place.timeZone };
      if (ctx.buyer?.role === "reseller" && arg === "") {
        const own = await reports.resellers.recent(ctx.from!.id, SALDO_LINES);
        // The reseller tops up from here too (a deposit request: deposit-requests.ts).
        const topUp = new InlineKeyboard().text(ctx.tr("request-top-up"), Callback.requestNew.encode(null));
        return void (await ctx.reply(saldoText(own, { ...view, own: true }), { reply_markup: topUp }));
      }
      if (!isAdmin(ctx)) return void (await ctx.reply(ctx.tr("saldo-not-reseller")));
      if (arg === "all") return void (await ctx.reply(await allView(ctx)));
      if (!USER_ID.test(arg)) return void (await ctx.reply(ctx.tr("saldo-usage")));
      const userId = Number(arg);
      // Someone who is not a reseller and has no money with the shop has no saldo to show: say so.
      const [buyer, wallet] = await Promise.all([access.buyerOf(userId), wallets.get(userId)]);
      if (buyer?.role !== "reseller" && wallet.saldo === 0 && wallet.held === 0)
        return void (await ctx.reply(await notReseller(ctx, userId)));
      await ctx.reply(saldoText(await reports.resellers.recent(userId, SALDO_LINES), { ...view, own: false }));
    });

    composer.command("deposit", async (ctx, next) => {
      // A reseller's /deposit AMOUNT asks for a deposit (deposit-requests.ts); staff are told who it is for.
      if (ctx.buyer?.role === "reseller") return next();
      if (!isAdmin(ctx)) return void (await ctx.reply(ctx.tr("deposit-not-for-you")));
      const t = ctx.tr;
      const parsed = parseDeposit(ctx.match);
      if (!parsed.ok) {
        const max = formatRupiah(MAX_DEPOSIT, ctx.lang);
        if (parsed.why === "usage") return void (await ctx.reply(t("deposit-usage")));
        if (parsed.why === "zero" || parsed.why === "too-large")
          return void (await ctx.reply(t("deposit-bad-amount", { max })));
        return void (await ctx.reply(t("amount-unclear", { typed: parsed.typed })));
      }
      const { userId, amount, note } = parsed;
      // A request named in the note is credited by this deposit, by hand: refused at once when it
      // cannot be (credited before, another reseller's), and decided with the credit at Confirm.
      const requestId = requestNamedIn({ amount, note });
      if (requestId !== undefined) {
        const refusal = await handRefusal(ctx, requestId, userId);
        if (refusal !== undefined) return void (await ctx.reply(refusal));
      }
      // One deposit per update, however often it is handled: a second handling shows the same one.
      const origin = originOf(ctx);
      const r = await ctx.services.deposits.prepare(
        { resellerId: userId, amount, note, adminId: ctx.from!.id, chatId: ctx.chat.id },
        origin,
      );
      switch (r.kind) {
        case "bad-amount":
          return void (await ctx.reply(t("deposit-bad-amount", { max: formatRupiah(MAX_DEPOSIT, ctx.lang) })));
        case "bad-note":
          return void (await ctx.reply(t("deposit-bad-note")));
        case "not-reseller":
          return void (await ctx.reply(await notReseller(ctx, userId)));
        case "below-zero":
          return void (await ctx.reply(t("deposit-below-zero", { saldo: formatRupiah(r.saldo, ctx.lang) })));
        case "prepared": {
          const { deposit, saldoBefore } = r;
          const person = (await ctx.services.people.get([userId])).get(userId);
          const hand = requestId === undefined ? "" : `\n${t("deposit-hand-summary", { id: requestId })}`;
          const text =
            deposit.state === "draft"
              ? depositSummary(t, ctx.lang, deposit, saldoBefore, person) + hand
              : deposit.state === "done"
                ? doneLine(t, ctx.lang, deposit, deposit.saldoAfter ?? saldoBefore + deposit.amount, person)
                : t("deposit-cancelled");
          const buttons = { confirm: Callback.depositConfirm, cancel: Callback.depositCancel };
          const other = deposit.state === "draft" ? { reply_markup: summaryKeyboard(t, buttons, deposit.id) } : {};
          await showOnce(ctx, { origin, shownAs: r.shownAs }, async () => (await ctx.reply(text, other)).message_id);
        }
      }
    });

    summaryButtons(composer, {
      confirm: Callback.depositConfirm,
      cancel: Callback.depositCancel,
      guard: adminOnly,
      async onConfirm(ctx, id) {
        const t = ctx.tr;
        // Credited once; the reseller is told by the service (again if an earlier tap's bot stopped
        // first). One naming a request credits it by hand, or is refused (credited before).
        const answer = await ctx.services.depositRequests.confirmDeposit(id, ctx.from.id);
        if (answer.kind === "refused") {
          const refusal = await handRefusalText(ctx, answer.requestId, answer.refusal);
          return { alert: refusal, summary: refusal };
        }
        const r = answer.confirmed;
        const resellerId = r.kind === "done" || r.kind === "taken" ? r.deposit.resellerId : undefined;
        const person =
          resellerId === undefined ? undefined : (await ctx.services.people.get([resellerId])).get(resellerId);
        switch (r.kind) {
          case "not-found":
            return { alert: t("deposit-expired"), dropButtons: true };
          case "short":
            return { alert: t("deposit-below-zero", { saldo: formatRupiah(r.saldo, ctx.lang) }) };
          case "taken":
            return r.deposit.state === "done"
              ? // The summary may still have its buttons (its bot stopped before it was brought up to date).
                {
                  alert: t("deposit-already"),
                  summary: doneLine(t, ctx.lang, r.deposit, r.deposit.saldoAfter ?? 0, person),
                }
              : { alert: t("deposit-cancelled") };
          case "done":
            return {
              toast: t("deposit-done-toast"),
              summary: doneLine(t, ctx.lang, r.deposit, r.wallet.saldo, person),
            };
        }
      },
      async onCancel(ctx, id) {
        const t = ctx.tr;
        const r = await ctx.services.deposits.cancel(id);
        if (r.kind === "not-found") return { alert: t("deposit-expired"), dropButtons: true };
        if (r.kind === "taken") return { alert: t("deposit-already") };
        return { toast: t("deposit-cancelled"), summary: t("deposit-cancelled") };
      },
    });

    composer.command("tier", adminOnly, async (ctx) => {
      const t = ctx.tr;
      const catalog = await ctx.services.shop.catalog();
      const tiers = tiersOf(catalog);
      const m = /^([1-9][0-9]{0,15})\s+(\S+)$/.exec(ctx.match.trim());
      if (m === null) return void (await ctx.reply(t("tier-usage", { tiers: [...tiers].join(", ") })));
      const userId = Number(m[1]);
      const tier = m[2]!.toLowerCase();
      const r = await ctx.services.access.setTier(userId, tier, tiers);
      if (r.kind === "unknown-tier")
        return void (await ctx.reply(t("tier-unknown", { tier, tiers: [...tiers].join(", ") })));
      if (r.kind === "not-reseller") return void (await ctx.reply(await notReseller(ctx, userId)));
      const person = (await ctx.services.people.get([userId])).get(userId);
      const set = t("tier-set", { userId: String(userId), name: nameBefore(person), old: r.old, tier });
      await ctx.reply([set, ...tierTrapLines(t, ctx.lang, catalog, tier)].join("\n"));
    });
  },
});
