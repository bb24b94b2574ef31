import { defineFeature } from "../feature.js";
import { formatRupiah, formatTime } from "../format.js";
import { saldoView } from "../saldo-view.js";

/**
 * /balance: for admins and staff the partner balance reported by the sale recorded last, and when
 * it was seen; for a reseller their own saldo (they never see the shop's balance with the provider).
 */
export const balanceFeature = defineFeature({
  name: "balance",
  needs: ["orders", "wallets", "place"],
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
      const { orders, wallets, place } = ctx.services;
      if (ctx.buyer?.role === "reseller") {
        const view = { t: ctx.tr, lang: ctx.lang, timeZone: place.timeZone, userId: ctx.from!.id, own: true };
        return void (await ctx.reply(
          await saldoView({ wallets, statesOf: (refs: readonly string[]) => orders.statesOf(refs) }, view),
        ));
      }
      const seen = await orders.lastBalance();
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
