import type { Api } from "grammy";
import type { ApiSalesLine } from "../../partners/api-sales.js";
import { formatRupiah } from "../format.js";
import { translator, type Texts } from "../i18n.js";
import type { AdminFanOut } from "./fan-out.js";
import { sandboxLine } from "./order-outcome.js";

/**
 * The admins' one notice of the H2H API's sales of a period, one line per partner. Which sales go
 * into it (not an unknown one, nor one an admin settled: those are told at once) is the
 * notifier's rule; partners/api-sales.ts keeps the period's lines.
 */
export function createApiSalesNotice(deps: {
  api: Api;
  texts: Texts;
  fanOut: AdminFanOut;
  sandbox?: boolean | undefined;
}) {
  return async (lines: readonly ApiSalesLine[], minutes: number): Promise<void> => {
    if (lines.length === 0) return;
    await deps.fanOut.toAdmins("API sales", (to) => {
      const t = translator(deps.texts, to.lang);
      const rows = lines.map((l) =>
        t("api-sales-line", {
          user: l.name,
          userId: String(l.userId),
          sold: l.sold,
          revenue: formatRupiah(l.revenue, to.lang),
          failed: l.failed,
        }),
      );
      const text = `${t("api-sales-heading", { minutes })}\n${rows.join("\n")}${sandboxLine(t, deps.sandbox)}`;
      return deps.api.sendMessage(to.chatId, text, to.topic);
    });
  };
}
