import { offeredTo } from "../../catalog/catalog.js";
import { commandListText } from "../command-list.js";
import { defineFeature } from "../feature.js";

/** /help answers anyone: how ordering works, this user's commands and the product codes. */
export const helpFeature = defineFeature({
  name: "help",
  needs: ["shop", "menus"],
  commands: [{ name: "help", menu: ["everyone"], help: [{ key: "help-help", for: ["anyone"] }] }],
  setup(at) {
    at("anyone").command("help", async (ctx) => {
      const state = await ctx.services.shop.state();
      const buyer = ctx.buyer ?? { role: "staff" as const };
      const codes = state.catalog.games
        .flatMap((g) => g.products.filter((p) => offeredTo(p, buyer)).map((p) => p.code))
        .join(", ");
      const commands = commandListText(ctx, ctx.services.menus, state);
      await ctx.reply(`${ctx.tr("help")}\n\n${commands}\n\n${ctx.tr("help-products", { codes })}`);
    });
  },
});
