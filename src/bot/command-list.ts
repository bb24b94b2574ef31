import { offeredTo } from "../catalog/catalog.js";
import type { ShopState } from "../shop/shop.js";
import type { BaseContext } from "./context.js";
import type { CommandMenus } from "./services.js";

/**
 * The list of commands this user may use, for /start and /help, from the features' own
 * descriptions (CommandSpec.help): a heading, the lines for their role, an admin's block apart.
 * A one-line order example uses a product this buyer may order.
 */
export function commandListText(ctx: BaseContext, menus: Pick<CommandMenus, "helpLines">, state: ShopState): string {
  const lines = menus.helpLines(ctx.buyer?.role);
  const buyer = ctx.buyer ?? { role: "staff" as const };
  const game = state.catalog.games.find((g) => g.products.some((p) => offeredTo(p, buyer))) ?? state.catalog.games[0]!;
  const vars = {
    exampleCode: (game.products.find((p) => offeredTo(p, buyer)) ?? game.products[0]!).code,
    examplePlayer: game.destination?.example ?? "123456789",
  };
  const say = (key: string) => ctx.tr(key, vars);
  return [
    ...(ctx.buyer === undefined ? [] : [say("help-heading")]),
    ...lines.everyone.map(say),
    ...(lines.admin.length === 0 ? [] : ["", say("help-admin-heading"), ...lines.admin.map(say)]),
  ].join("\n");
}
