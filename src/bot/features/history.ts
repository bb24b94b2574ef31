import { InlineKeyboard } from "grammy";
import { isAdmin, refuseNonAdmin } from "../admin.js";
import { answerQuery } from "../answer.js";
import { Callback, onCallback } from "../callback-data.js";
import type { FeatureContext } from "../context.js";
import { defineFeature } from "../feature.js";
import { formatTime } from "../format.js";
import { renderState } from "../order/messages.js";
import { currentAttempt, showsProviders, viaApi } from "../../orders/order.js";
import { severalProviders } from "../order/attempts.js";

const PAGE_SIZE = 10;

async function render(ctx: FeatureContext<"reports" | "place" | "providerNames">, scope: "me" | "all", page: number) {
  const t = ctx.tr;
  const timeZone = ctx.services.place.timeZone;
  const { orders, total } = await ctx.services.reports.orders.history(
    scope === "all" ? "all" : ctx.from!.id,
    page,
    PAGE_SIZE,
  );
  if (total === 0) return { text: t("history-empty"), keyboard: undefined };
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const several = severalProviders(ctx.services.providerNames);
  // H2H orders: the partner's own ref_id beside the shop's.
  const partnerRefs = await Promise.all(
    orders.map(async (o) => (viaApi(o) ? ctx.services.reports.orders.partnerRefOf(o.refId) : undefined)),
  );
  const lines = orders.map((o, i) => {
    let line = t("history-line", {
      time: formatTime(o.submittedAt ?? o.createdAt, ctx.lang, timeZone),
      refId: o.refId,
      code: o.productCode,
      product: o.productName,
      playerId: o.playerId,
      outcome: renderState(t, o),
    });
    if (o.state === "success") line += ` · ${t("history-line-sn", { sn: o.result?.sn ?? t("value-none") })}`;
    const partnerRef = partnerRefs[i];
    if (partnerRef !== undefined) line += ` · ${t("history-line-partner-ref", { partnerRef })}`;
    if (scope === "all") line += ` · ${t("history-line-user", { user: `${o.userName} (${o.userId})` })}`;
    // Everyone's orders are an admin's list: which provider has each, and which refused it first.
    if (scope === "all" && showsProviders(o, several)) {
      line += ` · ${t("history-line-provider", { provider: currentAttempt(o).provider })}`;
      const refused = (o.refused ?? []).map((a) => a.provider);
      if (refused.length > 0) line += ` · ${t("history-line-refused", { providers: refused.join(", ") })}`;
    }
    return line;
  });
  const scopeName = t(scope === "all" ? "history-scope-all" : "history-scope-mine");
  const title = t("history-title", { scope: scopeName, page: page + 1, pages, total });
  const text = `${title}\n\n${lines.join("\n\n")}`;
  const keyboard = new InlineKeyboard();
  if (page > 0) keyboard.text(t("history-newer"), Callback.history.encode({ scope, page: page - 1 }));
  if (page + 1 < pages) keyboard.text(t("history-older"), Callback.history.encode({ scope, page: page + 1 }));
  return { text, keyboard };
}

/** /history and /history all: orders newest first, 10 a page, paged in place with buttons. */
export const historyFeature = defineFeature({
  name: "history",
  needs: ["reports", "place", "providerNames"],
  commands: [
    { name: "history", menu: ["everyone"], help: [{ key: "help-history", for: ["staff", "reseller", "admin"] }] },
  ],
  setup(at) {
    const composer = at("buyers");
    composer.command("history", async (ctx) => {
      const scope = ctx.match.trim().toLowerCase() === "all" ? "all" : "me";
      // Everyone's orders are for admins.
      if (scope === "all" && !isAdmin(ctx)) return refuseNonAdmin(ctx);
      const { text, keyboard } = await render(ctx, scope, 0);
      await ctx.reply(text, keyboard === undefined ? {} : { reply_markup: keyboard });
    });

    onCallback(composer, Callback.history, async (ctx, data) => {
      if (data.scope === "all" && !isAdmin(ctx)) return refuseNonAdmin(ctx);
      await answerQuery(ctx);
      const { text, keyboard } = await render(ctx, data.scope, data.page);
      await ctx
        .editMessageText(text, keyboard === undefined ? {} : { reply_markup: keyboard })
        .catch((err: unknown) => ctx.log.debug({ err }, "history page not edited"));
    });
  },
});
