import { Composer } from "grammy";
import type { Access } from "../../orders/access.js";
import type { BotContext } from "../context.js";
import { languageOf } from "../i18n.js";
import { formatTime, safeTranslate } from "../text.js";

const HTML = { parse_mode: "HTML" } as const;

/** /allow, /deny and /users: admins manage who may order, effective at once. */
export function accessAdminFeature(deps: { access: Access; timeZone: string }): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command(["allow", "deny", "users"], async (ctx, next) => {
    if (deps.access.isAdmin(ctx.from!.id)) return next();
    await ctx.reply(safeTranslate(ctx.t.bind(ctx))("admin-only"), HTML);
  });

  const userIdArg = (match: string) => (/^[1-9][0-9]{0,15}$/.test(match.trim()) ? Number(match.trim()) : undefined);

  composer.command("allow", async (ctx) => {
    const t = safeTranslate(ctx.t.bind(ctx));
    const userId = userIdArg(ctx.match);
    if (userId === undefined) return void (await ctx.reply(t("allow-usage"), HTML));
    const outcome = await deps.access.allow(userId, ctx.from!.id);
    await ctx.reply(t(outcome === "allowed" ? "allow-done" : "allow-already", { userId: String(userId) }), HTML);
  });

  composer.command("deny", async (ctx) => {
    const t = safeTranslate(ctx.t.bind(ctx));
    const userId = userIdArg(ctx.match);
    if (userId === undefined) return void (await ctx.reply(t("deny-usage"), HTML));
    const outcome = await deps.access.deny(userId);
    const key = { denied: "deny-done", "not-listed": "deny-not-listed", "is-admin": "deny-is-admin", "from-env": "deny-from-env" }[outcome];
    await ctx.reply(t(key, { userId: String(userId) }), HTML);
  });

  composer.command("users", async (ctx) => {
    const t = safeTranslate(ctx.t.bind(ctx));
    const lang = languageOf(await ctx.i18n.getLocale());
    const lines = (await deps.access.list()).map((e) =>
      e.source === "admin"
        ? t("users-admin", { userId: String(e.userId) })
        : e.source === "env"
          ? t("users-env", { userId: String(e.userId) })
          : t("users-chat", {
              userId: String(e.userId),
              addedBy: String(e.addedBy ?? "?"),
              time: e.addedAt === undefined ? "?" : formatTime(e.addedAt, lang, deps.timeZone),
            }),
    );
    await ctx.reply([t("users-title"), ...lines].join("\n"), HTML);
  });
  return composer;
}
