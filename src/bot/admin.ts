import type { NextFunction } from "grammy";
import { answerQuery } from "./answer.js";
import type { BaseContext } from "./context.js";

/** The one test for "is this an admin": the role the access middleware found for this update. */
export const isAdmin = (ctx: Pick<BaseContext, "buyer">): boolean => ctx.buyer?.role === "admin";

/** Tells someone who is not an admin that this is for admins (an alert for a button). */
export async function refuseNonAdmin(ctx: BaseContext): Promise<void> {
  if (ctx.callbackQuery !== undefined) await answerQuery(ctx, { text: ctx.tr("admin-only"), show_alert: true });
  else await ctx.reply(ctx.tr("admin-only"));
}

/**
 * Middleware in front of every admin command and button: admins pass, anyone else is told so and
 * nothing else runs. `composer.command("report", adminOnly, handler)`.
 */
export async function adminOnly(ctx: BaseContext, next: NextFunction): Promise<void> {
  if (isAdmin(ctx)) return next();
  await refuseNonAdmin(ctx);
}
