import { defineFeature } from "../feature.js";
import { formatRupiah, formatTime } from "../format.js";
import { SALDO_LINES, saldoText } from "../saldo-view.js";

/**
 * /balance: for admins and staff the partner balance reported by the sale recorded last, and when
 * it was seen; with several providers, each one's (its own last sale's), in preference order; for a reseller their own saldo (they never see the shop's balance with the provider).
 */
export const balanceFeature = defineFeature({
  name: "balance",
  needs: ["reports", "place"],
  commands: [
    {
      name: "balance",
      menu: ["everyone"],
      money: true,
      help: [
        { key: "help-balance", for: ["staff", "admin"] },
        { key: "help-saldo-own", for: ["reseller"] },
      ],
    },
  ],
  setup(at) {
    at("buyers").command("balance", async (ctx) => {
      const { reports, place } = ctx.services;
      if (ctx.buyer?.role === "reseller") {
        const statement = await reports.resellers.recent(ctx.from!.id, SALDO_LINES);
        const view = { t: ctx.tr, lang: ctx.lang, timeZone: place.timeZone, own: true };
        return void (await ctx.reply(saldoText(statement, view)));
      }
      const all = await reports.providerBalances();
      if (all.length > 1) {
        const lines = all.map(({ provider, balance: seen }) =>
          seen === undefined
            ? ctx.tr("balance-provider-none", { provider })
            : ctx.tr("balance-provider", {
                provider,
                balance: formatRupiah(seen.balance, ctx.lang),
                time: formatTime(seen.at, ctx.lang, place.timeZone),
                refId: seen.refId,
              }),
        );
        return void (await ctx.reply([ctx.tr("balance-providers-title"), ...lines].join("\n")));
      }
      const seen = all[0]?.balance;
      if (seen === undefined) return void (await ctx.reply(ctx.tr("balance-none")));
      await ctx.reply(
        ctx.tr("balance-known", {
          balance: formatRupiah(seen.balance, ctx.lang),
          time: formatTime(seen.at, ctx.lang, place.timeZone),
          refId: seen.refId,
        }),
      );
    });
  },
});
