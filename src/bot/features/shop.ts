import { Composer, InlineKeyboard, InputFile } from "grammy";
import {
  findProduct,
  offeredTo,
  parseCatalogText,
  priceFor,
  toCatalogJson,
  type Buyer,
  type Catalog,
  type Product,
} from "../../catalog/catalog.js";
import { diffCatalogs, type CatalogChange } from "../../catalog/diff.js";
import type { Logger } from "../../logger.js";
import type { Lang } from "../../orders/order.js";
import { newRefId } from "../../orders/ref-id.js";
import type { Shop } from "../../shop/shop.js";
import type { CatalogUpload, CatalogUploads } from "../../shop/uploads.js";
import { TooLargeError } from "../files.js";
import { adminOnly, isAdmin } from "../admin.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { BotContext } from "../context.js";
import { escapeHtml, formatRupiah, formatTime } from "../format.js";
import type { Translate } from "../i18n.js";

/** A catalogue document larger than this is refused before it is downloaded. */
export const MAX_CATALOG_BYTES = 256 * 1024;
/** Telegram's limit is 4096 characters; the rest is room for a heading. */
const MESSAGE_BUDGET = 3500;
const TIER = /^[a-z][a-z0-9_-]{0,31}$/;
const CODE = /^[A-Za-z0-9._-]{1,32}$/;
/** 21000, 21.000, 21,000: whole rupiah, with or without thousands separators. */
const AMOUNT = /^([0-9]{1,3}(?:[.,][0-9]{3})+|[0-9]+)$/;
const MAX_PRICE = 1_000_000_000;

/** Lines joined into messages under Telegram's limit, split only between blocks. */
export function splitMessages(blocks: readonly string[], budget = MESSAGE_BUDGET): string[] {
  const messages: string[] = [];
  let current = "";
  for (const block of blocks) {
    const pieces = block.length > budget ? block.split("\n") : [block];
    for (const piece of pieces) {
      const joined = current === "" ? piece : `${current}\n${piece}`;
      if (joined.length > budget && current !== "") {
        messages.push(current);
        current = piece.slice(0, budget);
      } else current = joined.slice(0, budget);
    }
  }
  if (current !== "") messages.push(current);
  return messages;
}

/**
 * As many lines as fit in one message with its head and foot, then "and N more" (`more(n)`):
 * a diff or a list of errors is one message, its buttons below it.
 */
export function fitLines(
  head: string,
  lines: readonly string[],
  foot: string,
  more: (count: number) => string,
  budget = MESSAGE_BUDGET,
): string {
  const shown: string[] = [];
  let size = head.length + foot.length + 80;
  for (const [i, line] of lines.entries()) {
    if (size + line.length + 1 > budget) {
      shown.push(more(lines.length - i));
      break;
    }
    shown.push(line);
    size += line.length + 1;
  }
  return [head, ...shown, ...(foot === "" ? [] : [foot])].join("\n");
}

/** `/price CODE AMOUNT [TIER]` → its parts, or a reason it is not that. */
export function parsePriceCommand(
  args: string,
):
  | { ok: true; code: string; amount: number; tier: string | undefined }
  | { ok: false; why: "usage" | "amount" | "tier" } {
  const parts = args.trim().split(/\s+/).filter(Boolean);
  if (parts.length < 2 || parts.length > 3 || !CODE.test(parts[0]!)) return { ok: false, why: "usage" };
  const amount = AMOUNT.test(parts[1]!) ? Number(parts[1]!.replace(/[.,]/g, "")) : NaN;
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_PRICE) return { ok: false, why: "amount" };
  const tier = parts[2]?.toLowerCase();
  if (tier !== undefined && !TIER.test(tier)) return { ok: false, why: "tier" };
  return { ok: true, code: parts[0]!, amount, tier };
}

/** The catalogue with one product replaced (found by code, case-insensitively). */
function withProduct(catalog: Catalog, code: string, change: (p: Product) => Product): Catalog {
  const wanted = code.toUpperCase();
  return {
    games: catalog.games.map((g) => ({
      ...g,
      products: g.products.map((p) => (p.code.toUpperCase() === wanted ? change(p) : p)),
    })),
  };
}

/**
 * The shop from a phone (contract section 8): /pricelist for everyone who may order; for admins
 * /price, /disable, /enable, /catalog (and an edited catalogue sent back as a document, applied
 * once after Confirm), /pause and /resume. Every change is in storage: every process and every
 * new summary sees it at once.
 */
export function shopFeature(deps: {
  shop: Shop;
  uploads: CatalogUploads;
  /** Downloads a file the user sent (by file id), at most `maxBytes`. */
  download: (fileId: string, maxBytes: number) => Promise<string>;
  logger: Logger;
  timeZone: string;
  now?: () => Date;
}): Composer<BotContext> {
  const { shop, uploads } = deps;
  const now = deps.now ?? (() => new Date());
  const composer = new Composer<BotContext>();
  const rp = (amount: number | undefined, t: Translate, lang: Lang) =>
    amount === undefined ? t("price-not-set") : formatRupiah(amount, lang);

  // /pricelist: this user's own prices, by game, disabled products left out.
  composer.command("pricelist", async (ctx) => {
    const t = ctx.tr;
    const buyer = ctx.buyer!;
    const catalog = await shop.catalog();
    const blocks: string[] = [];
    for (const game of catalog.games) {
      const lines = game.products.filter((p) => offeredTo(p, buyer)).map((p) => priceLine(t, ctx.lang, p, buyer));
      if (lines.length > 0) blocks.push([`<b>${escapeHtml(game.name)}</b>`, ...lines].join("\n"));
    }
    const head = buyer.role === "reseller" ? t("pricelist-title-tier", { tier: buyer.tier }) : t("pricelist-title");
    if (blocks.length === 0) return void (await ctx.reply(`${head}\n\n${t("pricelist-empty")}`));
    const disabled = catalog.games.flatMap((g) => g.products.filter((p) => p.disabled).map((p) => p.code));
    const foot = isAdmin(ctx) && disabled.length > 0 ? [t("pricelist-disabled", { codes: disabled.join(", ") })] : [];
    for (const text of splitMessages([head, ...blocks, ...foot].map((b, i) => (i === 0 ? b : `\n${b}`))))
      await ctx.reply(text);
  });

  function priceLine(t: Translate, lang: Lang, p: Product, buyer: Buyer): string {
    const price = priceFor(p, buyer);
    const shown = price === null || price === undefined ? t("price-not-set") : formatRupiah(price, lang);
    const tiers =
      buyer.role === "admin" && Object.keys(p.prices).length > 0
        ? ` <i>(${Object.entries(p.prices)
            .map(([tier, amount]) => `${escapeHtml(tier)} ${formatRupiah(amount, lang)}`)
            .join(" · ")})</i>`
        : "";
    return `<code>${escapeHtml(p.code)}</code> ${escapeHtml(p.name)}: <b>${shown}</b>${tiers}`;
  }

  composer.command("price", adminOnly, async (ctx) => {
    const t = ctx.tr;
    const parsed = parsePriceCommand(ctx.match);
    if (!parsed.ok) {
      const key = { usage: "price-usage", amount: "price-bad-amount", tier: "price-bad-tier" }[parsed.why];
      return void (await ctx.reply(t(key, { max: formatRupiah(MAX_PRICE, ctx.lang) })));
    }
    const { code, amount, tier } = parsed;
    const answer = await shop.edit(ctx.from!.id, (catalog) => {
      const match = findProduct(catalog, code);
      if (match === undefined) return { result: t("shop-unknown-code", { code }) };
      const p = match.product;
      const old = tier === undefined ? p.price : p.prices[tier];
      const vars = {
        code: p.code,
        product: p.name,
        tier: tier ?? "",
        from: rp(old, t, ctx.lang),
        to: formatRupiah(amount, ctx.lang),
      };
      const key = tier === undefined ? "price" : "price-tier";
      if (old === amount) return { result: t(`${key}-same`, vars) };
      const next = withProduct(catalog, p.code, (q) =>
        tier === undefined ? { ...q, price: amount } : { ...q, prices: { ...q.prices, [tier]: amount } },
      );
      return { catalog: next, result: t(`${key}-changed`, vars) };
    });
    await ctx.reply(answer);
  });

  for (const command of ["disable", "enable"] as const) {
    composer.command(command, adminOnly, async (ctx) => {
      const t = ctx.tr;
      const code = ctx.match.trim();
      if (!CODE.test(code)) return void (await ctx.reply(t(`${command}-usage`)));
      const disable = command === "disable";
      const answer = await shop.edit(ctx.from!.id, (catalog) => {
        const match = findProduct(catalog, code);
        if (match === undefined) return { result: t("shop-unknown-code", { code }) };
        const vars = { code: match.product.code, product: match.product.name };
        if (match.product.disabled === disable) return { result: t(`${command}-already`, vars) };
        return {
          catalog: withProduct(catalog, match.product.code, (p) => ({ ...p, disabled: disable })),
          result: t(`${command}-done`, vars),
        };
      });
      await ctx.reply(answer);
    });
  }

  composer.command("catalog", adminOnly, async (ctx) => {
    const t = ctx.tr;
    const state = await shop.state();
    const json = `${JSON.stringify(toCatalogJson(state.catalog), null, 2)}\n`;
    const source =
      state.source.kind === "file"
        ? t("catalog-source-file")
        : t("catalog-source-chat", {
            version: state.source.version,
            by: String(state.source.by),
            time: formatTime(state.source.at, ctx.lang, deps.timeZone),
          });
    await ctx.replyWithDocument(new InputFile(Buffer.from(json, "utf8"), "catalog.json"), {
      caption: `${source}\n\n${t("catalog-how")}`,
    });
  });

  // An edited catalogue sent back as a document: checked, shown as a diff, applied on Confirm.
  composer.on("message:document", async (ctx, next) => {
    const t = ctx.tr;
    const doc = ctx.message.document;
    const name = doc.file_name ?? "catalog.json";
    const looksJson = /\.json$/i.test(name) || doc.mime_type === "application/json";
    // In a group, files people share with each other are none of the bot's business.
    if (ctx.chat.type !== "private" && !looksJson) return next();
    if (!isAdmin(ctx)) return void (await ctx.reply(t("catalog-upload-admin-only")));
    if (!looksJson) return void (await ctx.reply(t("catalog-upload-not-json", { name })));
    if (doc.file_size !== undefined && doc.file_size > MAX_CATALOG_BYTES) {
      return void (await ctx.reply(
        t("catalog-upload-too-large", { name, size: Math.ceil(doc.file_size / 1024), max: MAX_CATALOG_BYTES / 1024 }),
      ));
    }
    let raw: string;
    try {
      raw = await deps.download(doc.file_id, MAX_CATALOG_BYTES);
    } catch (err) {
      if (err instanceof TooLargeError) {
        return void (await ctx.reply(
          t("catalog-upload-too-large", { name, size: Math.ceil(err.size / 1024), max: MAX_CATALOG_BYTES / 1024 }),
        ));
      }
      ctx.log.warn({ err }, "catalogue document not downloaded");
      return void (await ctx.reply(t("catalog-upload-download-failed")));
    }
    const parsed = parseCatalogText(raw, name);
    if (!parsed.ok) {
      const text = fitLines(
        t("catalog-upload-invalid", { name, count: parsed.errors.length }),
        parsed.errors.map((e) => `• ${escapeHtml(e)}`),
        "",
        (count) => t("catalog-upload-more-errors", { count }),
      );
      return void (await ctx.reply(text));
    }
    const state = await shop.state();
    const changes = diffCatalogs(state.catalog, parsed.catalog);
    if (changes.length === 0) return void (await ctx.reply(t("catalog-upload-no-changes", { name })));
    const upload = await uploads.save({
      id: newRefId("CU", now()),
      adminId: ctx.from.id,
      base: state.source,
      catalog: toCatalogJson(parsed.catalog),
      state: "draft",
      createdAt: now().toISOString(),
    });
    const text = fitLines(
      t("catalog-diff-title", { name, count: changes.length }),
      changes.map((c) => changeLine(t, ctx.lang, c)),
      `\n${t("catalog-diff-confirm")}`,
      (count) => t("catalog-diff-more", { count }),
    );
    await ctx.reply(text, {
      reply_markup: new InlineKeyboard()
        .text(t("button-confirm"), Callback.catalogConfirm.encode(upload.id))
        .text(t("button-cancel"), Callback.catalogCancel.encode(upload.id)),
    });
  });

  function changeLine(t: Translate, lang: Lang, c: CatalogChange): string {
    switch (c.kind) {
      case "added":
        return t("catalog-diff-added", { code: c.code, product: c.name, game: c.game, price: rp(c.price, t, lang) });
      case "removed":
        return t("catalog-diff-removed", { code: c.code, product: c.name, game: c.game });
      case "price":
        return t(c.tier === undefined ? "catalog-diff-price" : "catalog-diff-price-tier", {
          code: c.code,
          tier: c.tier ?? "",
          from: rp(c.from, t, lang),
          to: rp(c.to, t, lang),
        });
      case "renamed":
        return t("catalog-diff-renamed", { code: c.code, from: c.from, to: c.to });
      case "moved":
        return t("catalog-diff-moved", { code: c.code, from: c.from, to: c.to });
      case "disabled":
      case "enabled":
        return t(`catalog-diff-${c.kind}`, { code: c.code });
      case "player-id-rule":
        return t("catalog-diff-rule", { game: c.game });
    }
  }

  /** The diff message without its buttons, saying how it ended. Failures are cosmetic. */
  const retire = async (ctx: BotContext, text: string) => {
    const message = ctx.callbackQuery?.message;
    if (message === undefined) return;
    await ctx.api
      .editMessageText(message.chat.id, message.message_id, text)
      .catch((err: unknown) => ctx.log.debug({ err }, "catalogue diff not edited"));
  };

  /** The upload a Confirm or Cancel is for, while it waits; otherwise the tap is told what became of it. */
  const waitingUpload = async (ctx: BotContext, id: string): Promise<CatalogUpload | undefined> => {
    const upload = await uploads.get(id);
    if (upload?.state === "draft") return upload;
    const text = upload === undefined ? ctx.tr("callback-expired") : ctx.tr(`catalog-upload-was-${upload.state}`);
    await answerQuery(ctx, { text, show_alert: true });
    return undefined;
  };

  onCallback(
    composer,
    Callback.catalogConfirm,
    async (ctx, id) => {
      const t = ctx.tr;
      const upload = await waitingUpload(ctx, id);
      if (upload === undefined) return;
      const parsed = parseCatalogText(JSON.stringify(upload.catalog), "catalog.json");
      if (!parsed.ok) return answerQuery(ctx, { text: t("callback-expired"), show_alert: true });
      const outcome = await shop.replace(ctx.from.id, upload.base, parsed.catalog, upload.id);
      if (outcome === "stale") {
        await answerQuery(ctx, { text: t("catalog-upload-stale-alert"), show_alert: true });
        await uploads.finish(id, "stale");
        await retire(ctx, t("catalog-upload-stale"));
        return;
      }
      await uploads.finish(id, "applied");
      if (outcome === "already") {
        return answerQuery(ctx, { text: t("catalog-upload-was-applied"), show_alert: true });
      }
      deps.logger.info({ upload: id, by: ctx.from.id }, "catalogue replaced from a document");
      await answerQuery(ctx, { text: t("catalog-upload-applied-alert") });
      await retire(ctx, t("catalog-upload-applied"));
    },
    adminOnly,
  );

  onCallback(
    composer,
    Callback.catalogCancel,
    async (ctx, id) => {
      const t = ctx.tr;
      if ((await waitingUpload(ctx, id)) === undefined) return;
      await uploads.finish(id, "cancelled");
      await answerQuery(ctx, { text: t("catalog-upload-cancelled") });
      await retire(ctx, t("catalog-upload-cancelled"));
    },
    adminOnly,
  );

  composer.command("pause", adminOnly, async (ctx) => {
    const t = ctx.tr;
    const reason = ctx.match.trim();
    if (reason.length > 200) return void (await ctx.reply(t("pause-reason-too-long")));
    const before = await shop.pause({ reason, by: ctx.from!.id, at: now().toISOString() });
    await ctx.reply(
      t(before === undefined ? "pause-done" : "pause-changed", {
        reason: reason === "" ? t("pause-no-reason") : reason,
      }),
    );
  });

  composer.command("resume", adminOnly, async (ctx) => {
    const t = ctx.tr;
    const ended = await shop.resume();
    if (ended === undefined) return void (await ctx.reply(t("resume-not-paused")));
    await ctx.reply(t("resume-done", { time: formatTime(ended.at, ctx.lang, deps.timeZone), by: String(ended.by) }));
  });

  return composer;
}
