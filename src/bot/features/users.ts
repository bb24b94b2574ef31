import type { AccessEntry } from "../../access/access.js";
import type { Person } from "../../access/people.js";
import { adminOnly } from "../admin.js";
import { defineFeature } from "../feature.js";
import { formatRupiah, formatTime } from "../format.js";
import type { Translate } from "../i18n.js";
import { nameBefore } from "../people.js";

const USER_ID = /^[1-9][0-9]{0,15}$/;

/**
 * /allow, /deny and /users: admins manage who may order, as staff or as resellers, effective at
 * once in every process; /users shows each user's role, where it comes from, a reseller's tier
 * and saldo.
 */
export const usersFeature = defineFeature({
  name: "users",
  needs: ["access", "reports", "menus", "place", "people"],
  commands: [
    { name: "users", menu: ["admin"], help: [{ key: "help-users", for: ["admin"] }] },
    { name: "allow", menu: ["admin"] },
    { name: "deny", menu: ["admin"] },
  ],
  setup(at) {
    const composer = at("buyers");

    composer.command("allow", adminOnly, async (ctx) => {
      const m = /^(\S+)(?:\s+(\S+))?$/.exec(ctx.match.trim());
      const role = m?.[2]?.toLowerCase();
      if (m === null || !USER_ID.test(m[1]!) || (role !== undefined && role !== "reseller" && role !== "staff")) {
        return void (await ctx.reply(ctx.tr("allow-usage")));
      }
      const userId = Number(m[1]);
      const as = role === "reseller" ? "reseller" : "staff";
      const outcome = await ctx.services.access.allow(userId, ctx.from!.id, as);
      const key = {
        allowed: as === "reseller" ? "allow-done-reseller" : "allow-done",
        changed: as === "reseller" ? "allow-changed-reseller" : "allow-changed-staff",
        already: "allow-already",
        "from-env": "allow-from-env",
      }[outcome];
      const person = (await ctx.services.people.get([userId])).get(userId);
      await ctx.reply(ctx.tr(key, { userId: String(userId), name: nameBefore(person) }));
      if (as === "reseller" && (outcome === "allowed" || outcome === "changed"))
        await ctx.services.menus.reseller(userId);
    });

    composer.command("deny", adminOnly, async (ctx) => {
      const arg = ctx.match.trim();
      if (!USER_ID.test(arg)) return void (await ctx.reply(ctx.tr("deny-usage")));
      const userId = Number(arg);
      const outcome = await ctx.services.access.deny(userId);
      const key = {
        denied: "deny-done",
        "not-listed": "deny-not-listed",
        "is-admin": "deny-is-admin",
        "from-env": "deny-from-env",
      }[outcome];
      const person = (await ctx.services.people.get([userId])).get(userId);
      await ctx.reply(ctx.tr(key, { userId: String(userId), name: nameBefore(person) }));
    });

    composer.command("users", adminOnly, async (ctx) => {
      const t = ctx.tr;
      const { access, reports, place } = ctx.services;
      const [entries, { resellers }] = await Promise.all([access.list(), reports.resellers.list()]);
      const saldos = new Map(resellers.map((r) => [r.userId, r]));
      const people = await ctx.services.people.get(entries.map((e) => e.userId));
      const lines = entries.map((e) =>
        userLine(t, e, ctx.lang, place.timeZone, saldos.get(e.userId)?.saldo ?? 0, people.get(e.userId)),
      );
      await ctx.reply([t("users-title"), ...lines].join("\n"));
    });
  },
});

function userLine(
  t: Translate,
  e: AccessEntry,
  lang: "en" | "id",
  timeZone: string,
  saldo: number,
  person: Person | undefined,
): string {
  const role = t(`role-${e.role}`);
  const source =
    e.source === "admin"
      ? t("users-from-admin-ids")
      : e.source === "env"
        ? t(e.role === "reseller" ? "users-from-reseller-ids" : "users-from-allowed-ids")
        : t("users-from-chat", {
            addedBy: String(e.addedBy ?? "?"),
            time: e.addedAt === undefined || e.addedAt === "" ? "?" : formatTime(e.addedAt, lang, timeZone),
          });
  const reseller =
    e.role === "reseller" ? ` · ${t("users-reseller", { tier: e.tier ?? "", saldo: formatRupiah(saldo, lang) })}` : "";
  // Fragments, each a whole translation (the source has markup of its own, so it is not a variable).
  return `${t("users-line", { userId: String(e.userId), name: nameBefore(person), role })} · ${source}${reseller}`;
}
