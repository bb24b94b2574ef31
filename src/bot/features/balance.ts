import { defineFeature } from "../feature.js";
import { formatRupiah, formatTime } from "../format.js";
import { SALDO_LINES, saldoText } from "../saldo-view.js";

/**
 * /balance: for admins and staff the partner balance reported by the sale recorded last, and when
 * it was seen; for a reseller their own saldo (they never see the shop's balance with the provider).
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
      const seen = await reports.providerBalance();
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
