import { InputFile } from "grammy";
import { issueText, parseCatalogText, toCatalogJson } from "../../catalog/catalog.js";
import { diffCatalogs, type CatalogChange } from "../../catalog/diff.js";
import type { Lang } from "../../orders/order.js";
import { newRefId } from "../../orders/ref-id.js";
import { MAIN_PROVIDER } from "../../topup/types.js";
import type { CatalogUpload } from "../../shop/uploads.js";
import { adminOnly, isAdmin } from "../admin.js";
import { Callback } from "../callback-data.js";
import { originOf, showOnce } from "../origin.js";
import { nameBefore } from "../people.js";
import type { FeatureContext } from "../context.js";
import { defineFeature } from "../feature.js";
import { TooLargeError } from "../files.js";
import { escapeHtml, formatRupiah, formatTime } from "../format.js";
import type { Translate } from "../i18n.js";
import { fitLines } from "../message-layout.js";
import { summaryButtons, summaryKeyboard, type TapAnswer } from "../summary-buttons.js";

/** A catalogue document larger than this is refused before it is downloaded. */
export const MAX_CATALOG_BYTES = 256 * 1024;

function changeLine(t: Translate, lang: Lang, c: CatalogChange): string {
  const rp = (amount: number | undefined) => (amount === undefined ? t("price-not-set") : formatRupiah(amount, lang));
  switch (c.kind) {
    case "added":
      return t("catalog-diff-added", { code: c.code, product: c.name, game: c.game, price: rp(c.price) });
    case "removed":
      return t("catalog-diff-removed", { code: c.code, product: c.name, game: c.game });
    case "price":
      return t(c.tier === undefined ? "catalog-diff-price" : "catalog-diff-price-tier", {
        code: c.code,
        tier: c.tier ?? "",
        from: rp(c.from),
        to: rp(c.to),
      });
    case "renamed":
      return t("catalog-diff-renamed", { code: c.code, from: c.from, to: c.to });
    case "moved":
      return t("catalog-diff-moved", { code: c.code, from: c.from, to: c.to });
    case "disabled":
    case "enabled":
      return t(`catalog-diff-${c.kind}`, { code: c.code });
    case "routes": {
      const routes = (list: typeof c.from) =>
        list === undefined ? t("catalog-routes-all") : list.map((r) => `${r.provider} ${r.code}`).join(" › ");
      return t("catalog-diff-routes", { code: c.code, from: routes(c.from), to: routes(c.to) });
    }
    case "player-id-rule":
      return t("catalog-diff-rule", { game: c.game });
  }
}

type Ctx = FeatureContext<"shop" | "uploads" | "download" | "place" | "clock" | "origins" | "providerNames">;

/** The providers a catalogue's routes may name. */
const providersOf = (ctx: Ctx) => ctx.services.providerNames ?? [MAIN_PROVIDER];

/** An upload's diff with Confirm while it waits; what became of it once it does not. */
function showUpload(ctx: Ctx, upload: CatalogUpload) {
  const t = ctx.tr;
  if (upload.state !== "draft") return ctx.reply(t(`catalog-upload-was-${upload.state}`));
  const changes = upload.changes ?? [];
  const text = fitLines(
    t("catalog-diff-title", { name: upload.name ?? "catalog.json", count: changes.length }),
    changes.map((c) => changeLine(t, ctx.lang, c)),
    `\n${t("catalog-diff-confirm")}`,
    (count) => t("catalog-diff-more", { count }),
  );
  const buttons = { confirm: Callback.catalogConfirm, cancel: Callback.catalogCancel };
  return ctx.reply(text, { reply_markup: summaryKeyboard(t, buttons, upload.id) });
}

/** The upload a Confirm or Cancel is for, while it waits; otherwise what became of it, for the tap. */
async function waitingUpload(ctx: Ctx, id: string): Promise<CatalogUpload | TapAnswer> {
  const upload = await ctx.services.uploads.get(id);
  if (upload?.state === "draft") return upload;
  return upload === undefined
    ? { alert: ctx.tr("callback-expired"), dropButtons: true }
    : { alert: ctx.tr(`catalog-upload-was-${upload.state}`) };
}

/**
 * The catalogue as a file: /catalog sends the one in use; an edited `.json` document an admin
 * sends back is checked by the catalogue's rules (every error at once, each by its game and
 * product), shown as a diff with Confirm, and applied once, unless somebody changed the catalogue
 * meanwhile.
 */
export const catalogFeature = defineFeature({
  name: "catalog",
  needs: ["shop", "uploads", "download", "place", "clock", "origins", "people", "providerNames"],
  commands: [{ name: "catalog", menu: ["admin"], help: [{ key: "help-catalog", for: ["admin"] }] }],
  setup(at) {
    const composer = at("buyers");
    composer.command("catalog", adminOnly, async (ctx) => {
      const t = ctx.tr;
      const state = await ctx.services.shop.state();
      const json = `${JSON.stringify(toCatalogJson(state.catalog), null, 2)}\n`;
      const source =
        state.source.kind === "file"
          ? t("catalog-source-file")
          : t("catalog-source-chat", {
              version: state.source.version,
              by: String(state.source.by),
              byName: nameBefore((await ctx.services.people.get([state.source.by])).get(state.source.by)),
              time: formatTime(state.source.at, ctx.lang, ctx.services.place.timeZone),
            });
      await ctx.replyWithDocument(new InputFile(Buffer.from(json, "utf8"), "catalog.json"), {
        caption: `${source}\n\n${t("catalog-how")}`,
      });
    });

    // An edited catalogue sent back as a document: checked, shown as a diff, applied on Confirm.
    composer.on("message:document", async (ctx, next) => {
      const t = ctx.tr;
      const { shop, uploads, download, clock } = ctx.services;
      const doc = ctx.message.document;
      const name = doc.file_name ?? "catalog.json";
      const looksJson = /\.json$/i.test(name) || doc.mime_type === "application/json";
      // In a group, files people share with each other are none of the bot's business.
      if (ctx.chat.type !== "private" && !looksJson) return next();
      if (!isAdmin(ctx)) return void (await ctx.reply(t("catalog-upload-admin-only")));
      if (!looksJson) return void (await ctx.reply(t("catalog-upload-not-json", { name })));
      // One upload per update, however often it is handled: a second handling shows the same diff.
      const origin = originOf(ctx);
      const fixed =
        origin === undefined
          ? { value: newRefId("CU", clock()), first: true }
          : await ctx.services.origins.fix(origin, newRefId("CU", clock()));
      const show = (upload: CatalogUpload) =>
        showOnce(ctx, { origin, shownAs: fixed.shownAs }, async () => (await showUpload(ctx, upload)).message_id);
      if (!fixed.first) {
        const made = await uploads.get(fixed.value);
        if (made?.changes !== undefined) return show(made);
      }
      const tooLarge = (size: number) =>
        t("catalog-upload-too-large", { name, size: Math.ceil(size / 1024), max: MAX_CATALOG_BYTES / 1024 });
      if (doc.file_size !== undefined && doc.file_size > MAX_CATALOG_BYTES)
        return void (await ctx.reply(tooLarge(doc.file_size)));
      let raw: string;
      try {
        raw = await download(doc.file_id, MAX_CATALOG_BYTES);
      } catch (err) {
        if (err instanceof TooLargeError) return void (await ctx.reply(tooLarge(err.size)));
        ctx.log.warn({ err }, "catalogue document not downloaded");
        return void (await ctx.reply(t("catalog-upload-download-failed")));
      }
      const parsed = parseCatalogText(raw, name, providersOf(ctx));
      if (!parsed.ok) {
        // The title names the file; each line names the game and product (`Mobile Legends › ML86: …`).
        const text = fitLines(
          t("catalog-upload-invalid", { name, count: parsed.issues.length }),
          parsed.issues.map((i) => `• ${escapeHtml(issueText(i))}`),
          "",
          (count) => t("catalog-upload-more-errors", { count }),
        );
        return void (await ctx.reply(text));
      }
      const state = await shop.state();
      const changes = diffCatalogs(state.catalog, parsed.catalog);
      if (changes.length === 0) return void (await ctx.reply(t("catalog-upload-no-changes", { name })));
      const upload = await uploads.save({
        id: fixed.value,
        adminId: ctx.from.id,
        base: state.source,
        catalog: toCatalogJson(parsed.catalog),
        name,
        changes,
        state: "draft",
        createdAt: clock().toISOString(),
      });
      await show(upload);
    });

    summaryButtons(composer, {
      confirm: Callback.catalogConfirm,
      cancel: Callback.catalogCancel,
      guard: adminOnly,
      async onConfirm(ctx, id) {
        const t = ctx.tr;
        const { shop, uploads } = ctx.services;
        const upload = await waitingUpload(ctx, id);
        if (!("catalog" in upload)) return upload;
        // Checked again as it is applied: a route to a provider no longer configured is refused.
        const parsed = parseCatalogText(JSON.stringify(upload.catalog), "catalog.json", providersOf(ctx));
        if (!parsed.ok) return { alert: t("callback-expired") };
        const outcome = await shop.replace(ctx.from.id, upload.base, parsed.catalog, upload.id);
        if (outcome === "stale") {
          await uploads.finish(id, "stale");
          return { alert: t("catalog-upload-stale-alert"), summary: t("catalog-upload-stale") };
        }
        await uploads.finish(id, "applied");
        if (outcome === "already") return { alert: t("catalog-upload-was-applied") };
        ctx.log.info({ upload: id, by: ctx.from.id }, "catalogue replaced from a document");
        return { toast: t("catalog-upload-applied-alert"), summary: t("catalog-upload-applied") };
      },
      async onCancel(ctx, id) {
        const upload = await waitingUpload(ctx, id);
        if (!("catalog" in upload)) return upload;
        await ctx.services.uploads.finish(id, "cancelled");
        return { toast: ctx.tr("catalog-upload-cancelled"), summary: ctx.tr("catalog-upload-cancelled") };
      },
    });
  },
});
