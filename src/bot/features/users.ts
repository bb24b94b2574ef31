import { Composer } from "grammy";
import type { Access } from "../../access/access.js";
import { adminOnly } from "../admin.js";
import type { BotContext } from "../context.js";
import { formatTime } from "../format.js";

const userIdArg = (match: string) => (/^[1-9][0-9]{0,15}$/.test(match.trim()) ? Number(match.trim()) : undefined);

/** /allow, /deny and /users: admins manage who may order, effective at once in every process. */
export function usersFeature(deps: { access: Access; timeZone: string }): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.command("allow", adminOnly, async (ctx) => {
    const userId = userIdArg(ctx.match);
    if (userId === undefined) return void (await ctx.reply(ctx.tr("allow-usage")));
    const outcome = await deps.access.allow(userId, ctx.from!.id);
    await ctx.reply(ctx.tr(outcome === "allowed" ? "allow-done" : "allow-already", { userId: String(userId) }));
  });

  composer.command("deny", adminOnly, async (ctx) => {
    const userId = userIdArg(ctx.match);
    if (userId === undefined) return void (await ctx.reply(ctx.tr("deny-usage")));
    const outcome = await deps.access.deny(userId);
    const key = {
      denied: "deny-done",
      "not-listed": "deny-not-listed",
      "is-admin": "deny-is-admin",
      "from-env": "deny-from-env",
    }[outcome];
    await ctx.reply(ctx.tr(key, { userId: String(userId) }));
  });

  composer.command("users", adminOnly, async (ctx) => {
    const t = ctx.tr;
    const lines = (await deps.access.list()).map((e) =>
      e.source === "admin"
        ? t("users-admin", { userId: String(e.userId) })
        : e.source === "env"
          ? t("users-env", { userId: String(e.userId) })
          : t("users-chat", {
              userId: String(e.userId),
              addedBy: String(e.addedBy ?? "?"),
              time: e.addedAt === undefined ? "?" : formatTime(e.addedAt, ctx.lang, deps.timeZone),
            }),
    );
    await ctx.reply([t("users-title"), ...lines].join("\n"));
  });
  return composer;
}
