import type { Broadcast } from "../broadcast/broadcast-store.js";
import { processedOf, type BroadcastTexts } from "../broadcast/sender.js";
import { translator, type Texts, type Translate } from "./i18n.js";
import type { UserPrefs } from "./user-prefs.js";

/** The line under the preview that says where the broadcast stands. */
export function broadcastStatus(t: Translate, b: Broadcast): string {
  const counts = {
    total: b.total,
    delivered: b.counts.delivered,
    blocked: b.counts.blocked,
    failed: b.counts.failed + b.counts.interrupted,
  };
  switch (b.state) {
    case "draft":
      return t("broadcast-preview-confirm");
    case "cancelled":
      return t("broadcast-status-cancelled");
    case "done":
      return t("broadcast-status-done", counts);
    case "sending": {
      const processed = processedOf(b);
      return processed === 0
        ? t("broadcast-status-sending", { total: b.total })
        : t("broadcast-status-progress", { ...counts, processed });
    }
  }
}

/**
 * The admin's view of a broadcast: a heading with the number of recipients (for a draft, those it
 * would reach now), the message exactly as users get it, and where it stands.
 */
export function broadcastView(t: Translate, b: Broadcast, recipients = b.total): string {
  const title =
    b.state === "draft"
      ? t("broadcast-preview-title", { count: recipients })
      : b.state === "cancelled"
        ? t("broadcast-title-cancelled")
        : t("broadcast-title", { count: b.total });
  return `${title}\n\n${t("broadcast-message", { text: b.text })}\n\n${broadcastStatus(t, b)}`;
}

/** The texts the broadcaster sends, each in its reader's language. */
export function broadcastTexts(texts: Texts, prefs: Pick<UserPrefs, "languageFor">): BroadcastTexts {
  const translators = { en: translator(texts, "en"), id: translator(texts, "id") };
  const tFor = async (userId: number) => translators[await prefs.languageFor(userId)];
  return {
    message: async (userId, b) => (await tFor(userId))("broadcast-message", { text: b.text }),
    preview: async (b) => broadcastView(await tFor(b.adminId), b),
    async report(b) {
      const t = await tFor(b.adminId);
      const text = t("broadcast-report", {
        total: b.total,
        delivered: b.counts.delivered,
        blocked: b.counts.blocked,
        failed: b.counts.failed + b.counts.interrupted,
      });
      return b.counts.interrupted === 0
        ? text
        : `${text}\n${t("broadcast-report-interrupted", { interrupted: b.counts.interrupted })}`;
    },
  };
}
