import { createConversation } from "@grammyjs/conversations";
import type { BaseContext, InnerContext } from "../context.js";
import { defineFeature } from "../feature.js";
import { orderCommands } from "../order/command.js";
import { confirmButtons } from "../order/confirm.js";
import { ORDER_DIALOGUE, orderDialogue } from "../order/dialogue.js";
import { menuButtons } from "../order/menu.js";

/**
 * The order, top to bottom in bot/order/: /order (a dialogue, or one line
 * straight to the summary), the product menu, the summary's Confirm and Cancel, /cancel.
 */
export const orderFeature = defineFeature({
  name: "order",
  needs: ["orders", "shop", "telegram", "handledAgain", "origins", "payInfo", "depositRequests", "place"],
  commands: [
    {
      name: "order",
      menu: ["everyone"],
      help: [
        { key: "help-order", for: ["staff", "reseller", "admin"] },
        { key: "help-order-line", for: ["staff", "reseller", "admin"] },
      ],
    },
    { name: "cancel", menu: ["everyone"], help: [{ key: "help-cancel", for: ["staff", "reseller", "admin"] }] },
  ],
  setup(at) {
    // Confirm and Cancel first of all: they need no dialogue state, so no waiting step holds them.
    confirmButtons(at("buyers"));
    menuButtons(at("buyers"));
    at("dialogues").use(createConversation<BaseContext, InnerContext>(orderDialogue, { id: ORDER_DIALOGUE }));
    orderCommands(at("dialogue-entry"));
  },
});
